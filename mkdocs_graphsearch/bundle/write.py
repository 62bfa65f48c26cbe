"""Serialise a corpus and its indexes into bundle files (see format.py for the layout)."""

from __future__ import annotations

from pathlib import Path

import orjson

from mkdocs_graphsearch import __version__
from mkdocs_graphsearch.bundle.format import (
    FORMAT_VERSION,
    GRAPH,
    KEYWORD,
    MANIFEST,
    POSTINGS,
    TEXT,
    checksum,
    encode_varints,
)
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.index.bm25 import IMPACT_SCALE, KeywordIndex
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.graph import Graph

_JSON_OPTIONS = orjson.OPT_SORT_KEYS


def dumps(data: object) -> bytes:
    """Deterministic JSON: sorted keys, compact, UTF-8."""
    return orjson.dumps(data, option=_JSON_OPTIONS)


def keyword_part(corpus: Corpus, index: KeywordIndex) -> dict[str, bytes]:
    """keyword.json and postings.bin: what the first keystroke needs."""
    chunk_index = corpus.index_of()
    chunks = corpus.chunks
    keyword = {
        "terms": index.terms,
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
    counts = [len(postings) for postings in index.postings]
    deltas: list[int] = []
    impacts: list[int] = []
    for postings in index.postings:
        previous = 0
        for chunk, impact in postings:
            deltas.append(chunk - previous)
            previous = chunk
            impacts.append(impact)
    return {KEYWORD: dumps(keyword), POSTINGS: encode_varints(counts + deltas + impacts)}


def text_part(corpus: Corpus, settings: SearchSettings) -> dict[str, bytes]:
    """text.json: each chunk's text, cut to what snippets use."""
    limit = settings.snippet_source_chars
    return {TEXT: dumps([chunk.text[:limit] for chunk in corpus.chunks])}


def manifest(
    corpus: Corpus,
    index: KeywordIndex,
    settings: SearchSettings,
    files: dict[str, bytes],
    extra: dict[str, object] | None = None,
) -> bytes:
    data: dict[str, object] = {
        "format": FORMAT_VERSION,
        "generator": f"mkdocs-graphsearch {__version__}",
        "counts": {
            "pages": len(corpus.pages),
            "chunks": len(corpus.chunks),
            "terms": len(index.terms),
            "postings": sum(len(p) for p in index.postings),
        },
        "impact_scale": IMPACT_SCALE,
        "search": settings.to_json(),
        "files": {
            name: {"bytes": len(data), "crc32": checksum(data)} for name, data in sorted(files.items())
        },
    }
    data.update(extra or {})
    return dumps(data)


def build_bundle(
    corpus: Corpus,
    index: KeywordIndex,
    graph: Graph,
    settings: SearchSettings,
    extra_files: dict[str, bytes] | None = None,
    extra_manifest: dict[str, object] | None = None,
) -> dict[str, bytes]:
    """All bundle files by name, manifest included."""
    files = {
        **keyword_part(corpus, index),
        GRAPH: dumps(graph.to_json()),
        **text_part(corpus, settings),
        **(extra_files or {}),
    }
    files[MANIFEST] = manifest(corpus, index, settings, files, extra_manifest)
    return files


def write_bundle(out_dir: Path, files: dict[str, bytes]) -> None:
    """Write the files, manifest last, so a reader never sees a manifest ahead of its files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in sorted(files, key=lambda n: n == MANIFEST):
        (out_dir / name).write_bytes(files[name])
