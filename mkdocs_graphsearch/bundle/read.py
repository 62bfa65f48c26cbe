"""Load and validate a bundle: exactly the files the browser reads, checked the same way."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.format import (
    BUNDLE_DIR,
    FORMAT_VERSION,
    GRAPH,
    KEYWORD,
    MANIFEST,
    MIN_FORMAT_VERSION,
    POSTINGS,
    TEXT,
    VECTORS,
    BundleError,
    checksum,
    decode_varints,
    file_name,
)


@dataclass
class Bundle:
    """A loaded bundle. Postings of term i are post_chunk/post_impact[term_start[i]:term_start[i+1]]."""

    path: Path
    manifest: dict[str, Any]
    terms: list[str]
    term_index: dict[str, int]
    stems: dict[str, list[int]]  # stem -> terms that are prose words with it (format 1: none)
    pages: dict[str, list[Any]]
    chunks: dict[str, list[Any]]
    term_start: np.ndarray
    post_chunk: np.ndarray
    post_impact: np.ndarray
    texts: list[str]
    graph: dict[str, Any]
    files: dict[str, bytes]  # by logical part name (format.py), whatever the file is called
    vectors: np.ndarray | None = None
    vector_scales: np.ndarray | None = None
    encoder: Any = None  # the query encoder, loaded on first use by engine/encoder.py

    @property
    def settings(self) -> dict[str, Any]:
        search: dict[str, Any] = self.manifest["search"]
        return search

    @property
    def n_chunks(self) -> int:
        return len(self.chunks["id"])

    def file_path(self, part: str) -> Path:
        """Where a part of this bundle is on disk (its content-hashed name in format 2)."""
        return self.path / file_name(self.manifest, part)


def locate(path: Path) -> Path:
    """A built site (with search/) or a bundle folder -> the bundle folder."""
    if (path / MANIFEST).is_file():
        return path
    if (path / BUNDLE_DIR / MANIFEST).is_file():
        return path / BUNDLE_DIR
    raise BundleError(f"no search bundle at {path} (expected {MANIFEST} or {BUNDLE_DIR}/{MANIFEST})")


def read_file(folder: Path, manifest: dict[str, Any], name: str) -> bytes:
    """A bundle part by its logical name, checked against the manifest's size and CRC-32."""
    entry = manifest.get("files", {}).get(name)
    path = folder / file_name(manifest, name)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise BundleError(f"cannot read {path}: {error}") from error
    if len(data) != entry["bytes"]:
        raise BundleError(f"{name} is {len(data)} bytes, the manifest says {entry['bytes']} (truncated or stale)")
    if checksum(data) != entry["crc32"]:
        raise BundleError(f"{name} is corrupted (CRC-32 differs from the manifest)")
    return data


def parse_json(name: str, data: bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise BundleError(f"{name} is not valid JSON: {error}") from error


def read_manifest(folder: Path) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = parse_json(MANIFEST, (folder / MANIFEST).read_bytes())
    except OSError as error:
        raise BundleError(f"cannot read {folder / MANIFEST}: {error}") from error
    version = manifest.get("format") if isinstance(manifest, dict) else None
    if version is None:
        raise BundleError(f"{MANIFEST} has no format version: not a graphsearch bundle")
    if type(version) is not int:  # not 1.0 nor true (bool is an int): js/src/bundle.js agrees
        raise BundleError(f"{MANIFEST} format version is not an integer: not a graphsearch bundle")
    if version > FORMAT_VERSION:
        raise BundleError(
            f"bundle format {version} is newer than this reader (format {FORMAT_VERSION}): "
            "upgrade mkdocs-graphsearch"
        )
    if version < MIN_FORMAT_VERSION:
        raise BundleError(f"bundle format {version} is no longer supported: rebuild the site")
    return manifest


def load_bundle(path: Path) -> Bundle:
    folder = locate(Path(path))
    manifest = read_manifest(folder)
    files = {name: read_file(folder, manifest, name) for name in sorted(manifest["files"])}
    keyword = parse_json(KEYWORD, files[KEYWORD])
    texts = parse_json(TEXT, files[TEXT])
    counts = manifest["counts"]
    n_terms, n_postings = counts["terms"], counts["postings"]
    values = decode_varints(files[POSTINGS])
    if values.size != n_terms + 2 * n_postings or len(keyword["terms"]) != n_terms:
        raise BundleError(f"{POSTINGS} does not match the manifest's counts (corrupted)")
    per_term = values[:n_terms]
    deltas = values[n_terms : n_terms + n_postings]
    term_start = np.concatenate(([0], np.cumsum(per_term))).astype(np.int64)
    if term_start[-1] != n_postings:
        raise BundleError(f"{POSTINGS} posting counts do not add up (corrupted)")
    # Chunk ids restart at each term: cumulative sum of deltas, minus the sum before the term.
    running = np.cumsum(deltas)
    before = np.concatenate(([0], running))[term_start[:-1]]
    post_chunk = running - np.repeat(before, per_term)
    if post_chunk.size and (post_chunk.min() < 0 or post_chunk.max() >= counts["chunks"]):
        raise BundleError(f"{POSTINGS} points at chunks that do not exist (corrupted)")
    if not isinstance(texts, list) or len(texts) != counts["chunks"]:
        raise BundleError(f"{TEXT} does not match the manifest's chunk count (corrupted)")
    graph = parse_json(GRAPH, files[GRAPH])
    if len(graph.get("offsets", [])) != counts["chunks"] + 1:
        raise BundleError(f"{GRAPH} does not match the manifest's chunk count (corrupted)")
    bundle = Bundle(
        path=folder,
        manifest=manifest,
        terms=keyword["terms"],
        term_index={term: i for i, term in enumerate(keyword["terms"])},
        stems=keyword.get("stems", {}),
        pages=keyword["pages"],
        chunks=keyword["chunks"],
        term_start=term_start,
        post_chunk=post_chunk,
        post_impact=values[n_terms + n_postings :],
        texts=texts,
        graph=graph,
        files=files,
    )
    if "vectors" in manifest:
        dim = manifest["vectors"]["dim"]
        bundle.vectors, bundle.vector_scales = read_vectors(files[VECTORS], counts["chunks"], dim)
    return bundle


def read_vectors(data: bytes, n_chunks: int, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows (n_chunks x dim), then float32 little-endian scales (one per chunk)."""
    if len(data) != n_chunks * dim + 4 * n_chunks:
        raise BundleError(f"{VECTORS} has {len(data)} bytes, expected {n_chunks * (dim + 4)} (corrupted)")
    vectors = np.frombuffer(data, dtype=np.int8, count=n_chunks * dim).reshape(n_chunks, dim)
    scales = np.frombuffer(data, dtype="<f4", offset=n_chunks * dim).astype(np.float64)
    return vectors, scales
