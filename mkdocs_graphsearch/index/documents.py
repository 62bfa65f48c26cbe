"""The corpus and its indexes as the bundle's documents: plain data for bundle/write.py, which
knows the format (bundle/format.py) and none of the index's classes."""

from __future__ import annotations

from collections.abc import Sequence

from mkdocs_graphsearch.index.bm25 import KeywordIndex, path_names
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.related import home_page
from mkdocs_graphsearch.index.release_log import is_release_log, version_names
from mkdocs_graphsearch.parse.model import Chunk
from mkdocs_graphsearch.text.tokenize import title_key, tokenize


def definition_keys(chunk: Chunk, release_log: bool = False) -> list[str]:
    """The terms a chunk defines (engine/fuse.py), once each, in order: the whole token of each
    of its definitions (`RetryPolicy` -> `retrypolicy`, `harbor.Berth.assign` ->
    `harbor.berth.assign`); a section headed by one name (`enqueue()`, `on_page_markdown`)
    defines it too: the reference entry, not a hook example's `def on_page_markdown`, answers
    `on_page_markdown`; a page root defines the compound names of its path (`user-guide`,
    `deploy-to-production`, `retries.md`: typed, they find the page before the pages that
    mention them), not its one-word names (`jobs` stays a word). In a release log
    (index/release_log.py) a section headed by a version defines it (`2.4.0 — 2025-05-12`,
    `Version 1.6.1 (2024-08-30)`: `2.4.0`, `1.6.1`), so a version query finds its entry. A page
    root defines its title's key (text/tokenize.py `title_key`: `Deploy to production` ->
    `deploy to production`), so a query of a page's title finds that page first."""
    keys: dict[str, None] = {}
    names = list(chunk.definitions)
    if release_log and chunk.kind == "section":
        names.extend(version_names(chunk.title)[:1])
    if chunk.kind in ("section", "api") and chunk.title and not any(c.isspace() for c in chunk.title.strip()):
        names.append(chunk.title)
    for name in names:
        tokens = tokenize(name, code=True)  # a name: `where` defines `where`
        if tokens:
            keys[tokens[0]] = None
    if chunk.kind == "page":  # its id is its page's path
        if title_key(chunk.title):
            keys[title_key(chunk.title)] = None
        for tokens in path_names(chunk.id):
            if len(tokens) > 1:
                keys[tokens[0]] = None
    return list(keys)


def keyword_document(
    corpus: Corpus,
    index: KeywordIndex,
    languages: Sequence[str],
    words: list[str] | None = None,
    site_name: str = "",
) -> dict[str, object]:
    """keyword.json: terms, stems, and the pages and chunks in columns (`pages.tags`,
    `pages.language` and `chunks.defines` are optional: bundles before them lack them;
    `pages.language`, each page's language for graph expansion (engine/expand.py), only on a
    site with pages in another language, "" the site's: `page_languages`); `words`: the known words
    that are no typos (index/known_words.py), which the writer puts in the term dictionary;
    the home page's root also defines `site_name`'s key."""
    chunk_index = corpus.index_of()
    chunks = corpus.chunks
    logs = [is_release_log(page) for page in corpus.pages]
    home = home_page([page.path for page in corpus.pages])
    defines = [definition_keys(chunk, logs[page]) for chunk, page in zip(chunks, corpus.chunk_page, strict=True)]
    key = title_key(site_name)
    if key and home is not None:
        root = chunk_index[corpus.pages[home].path]
        defines[root] = list(dict.fromkeys([*defines[root], key]))
    return {
        "terms": index.terms,
        "stems": index.stems,
        **({"words": words} if words is not None else {}),
        "pages": {
            "path": [page.path for page in corpus.pages],
            "url": corpus.urls,
            "title": [page.title for page in corpus.pages],
            "tags": [page.tags for page in corpus.pages],
            **({"language": list(languages)} if any(languages) else {}),
        },
        "chunks": {
            "id": [chunk.id for chunk in chunks],
            "page": corpus.chunk_page,
            "parent": [chunk_index.get(chunk.parent, -1) if chunk.parent else -1 for chunk in chunks],
            "kind": [chunk.kind for chunk in chunks],
            "level": [chunk.level for chunk in chunks],
            "anchor": [chunk.anchor for chunk in chunks],
            "title": [chunk.title for chunk in chunks],
            "language": [chunk.language or "" for chunk in chunks],
            "defines": defines,
        },
    }
