"""From parsed pages to bundle files: the one pipeline the plugin and `graphsearch index` share."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs_graphsearch.bundle.settings import RELATED_COUNT, SearchSettings
from mkdocs_graphsearch.bundle.write import build_bundle
from mkdocs_graphsearch.index.blas import one_blas_thread
from mkdocs_graphsearch.index.bm25 import build_keyword_index
from mkdocs_graphsearch.index.corpus import Corpus, directory_url
from mkdocs_graphsearch.index.derived_cache import DerivedCache
from mkdocs_graphsearch.index.documents import keyword_document
from mkdocs_graphsearch.index.facets import facet_summary
from mkdocs_graphsearch.index.graph import build_graph
from mkdocs_graphsearch.index.known_words import cached_known_words
from mkdocs_graphsearch.index.related import page_languages, related_files
from mkdocs_graphsearch.index.token_cache import TokenCache
from mkdocs_graphsearch.parse.model import Page

if TYPE_CHECKING:  # semantic.py imports onnxruntime: only when embeddings are asked for
    from mkdocs_graphsearch.index.semantic import SemanticOptions


def build_files(
    pages: Iterable[Page],
    *,
    settings: SearchSettings | None = None,
    url_for: Callable[[str], str] = directory_url,
    semantic: SemanticOptions | None = None,
    warn: Callable[[str], None] = print,
    related_count: int = RELATED_COUNT,
    token_cache: Path | None = None,
    site_name: str = "",
    cache_dir: Path | None = None,
) -> dict[str, bytes]:
    """All bundle files by name for these pages (excluded pages are left out).

    With `semantic`, the bundle also carries passage vectors and the query encoder; when the
    model cannot run, `warn` says so once and the bundle is keyword-only. Every bundle carries
    each page's `related_count` related pages and the most connected pages (index/related.py).
    `token_cache`: where each chunk's keyword tokens are kept between builds (index/token_cache.py).
    `site_name` (mkdocs.yml's) goes into the manifest, and its home page defines it
    (index/documents.py), so that a query of the site's name finds that page first.
    `cache_dir` (default: the semantic options' cache folder): where results of pure steps are
    kept between builds (index/derived_cache.py).
    """
    if cache_dir is None and semantic is not None:
        cache_dir = semantic.cache_dir
    derived = DerivedCache(cache_dir, warn)
    with one_blas_thread():  # same bytes on any core count (index/blas.py)
        return _build_files(pages, settings, url_for, semantic, warn, related_count, token_cache, site_name, derived)


def _build_files(
    pages: Iterable[Page],
    settings: SearchSettings | None,
    url_for: Callable[[str], str],
    semantic: SemanticOptions | None,
    warn: Callable[[str], None],
    related_count: int,
    token_cache: Path | None,
    site_name: str,
    derived: DerivedCache,
) -> dict[str, bytes]:
    settings = settings or SearchSettings()
    corpus = Corpus.from_pages(pages, url_for)
    tokens = TokenCache(token_cache, warn) if token_cache is not None else None
    index = build_keyword_index(corpus, cache=tokens)
    if tokens is not None:
        tokens.save()
    extra_files: dict[str, bytes] = {}
    chunk_clusters: list[int] | None = None
    extra_manifest: dict[str, object] = {"facets": facet_summary(corpus, settings.language_aliases)}
    if site_name:
        extra_manifest["site_name"] = site_name
    if semantic is not None and corpus.chunks:
        from mkdocs_graphsearch.index.embed import ModelUnavailable
        from mkdocs_graphsearch.index.semantic import semantic_files

        try:
            extra_files, semantic_manifest, chunk_clusters = semantic_files(
                corpus, semantic, warn, settings.query_stop_words, derived
            )
            extra_manifest.update(semantic_manifest)
            vectors = semantic_manifest.get("vectors")
            if isinstance(vectors, dict):  # the site's calibrated cosine for vector-only results (calibrate.py)
                settings = replace(settings, vector_only_threshold=vectors["vector_only_threshold"])
        except ModelUnavailable as error:
            warn(f"semantic search is off, the embedding model cannot run ({error}); shipping keyword search only")
    languages = page_languages(corpus)  # related pages and graph expansion (keyword.json)
    related, top = related_files(corpus, index, extra_files, extra_manifest, languages, related_count)
    extra_files, extra_manifest = {**extra_files, **related}, {**extra_manifest, **top}
    words = cached_known_words(index.terms, settings.to_json(), derived)
    return build_bundle(
        keyword=keyword_document(corpus, index, languages, words, site_name),
        postings=index.postings,
        graph=build_graph(corpus).to_json(),
        texts=[chunk.text for chunk in corpus.chunks],
        settings=settings,
        extra_files=extra_files,
        extra_manifest=extra_manifest,
        chunk_clusters=chunk_clusters,
    )
