"""From parsed pages to bundle files: the one pipeline the plugin and `graphsearch index` share."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.bundle.write import build_bundle
from mkdocs_graphsearch.index.bm25 import build_keyword_index
from mkdocs_graphsearch.index.corpus import Corpus, directory_url
from mkdocs_graphsearch.index.graph import build_graph
from mkdocs_graphsearch.parse.model import Page


def build_files(
    pages: Iterable[Page],
    *,
    settings: SearchSettings = SearchSettings(),
    url_for: Callable[[str], str] = directory_url,
) -> dict[str, bytes]:
    """All bundle files by name for these pages (excluded pages are left out)."""
    corpus = Corpus.from_pages(pages, url_for)
    index = build_keyword_index(corpus)
    return build_bundle(corpus, index, build_graph(corpus), settings)
