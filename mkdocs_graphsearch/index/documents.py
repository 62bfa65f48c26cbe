"""The corpus and its indexes as the bundle's documents: plain data for bundle/write.py, which
knows the format (bundle/format.py) and none of the index's classes."""

from __future__ import annotations

from mkdocs_graphsearch.index.bm25 import KeywordIndex
from mkdocs_graphsearch.index.corpus import Corpus


def keyword_document(corpus: Corpus, index: KeywordIndex) -> dict[str, object]:
    """keyword.json: terms, stems, and the pages and chunks in columns."""
    chunk_index = corpus.index_of()
    chunks = corpus.chunks
    return {
        "terms": index.terms,
        "stems": index.stems,
        "pages": {
            "path": [page.path for page in corpus.pages],
            "url": corpus.urls,
            "title": [page.title for page in corpus.pages],
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
        },
    }
