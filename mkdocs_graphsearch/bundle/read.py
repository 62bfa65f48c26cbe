"""Load and validate a bundle: exactly the files the browser reads, checked the same way."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.display import DISPLAY_CHUNKS, DISPLAY_PAGES, Run, merge_display
from mkdocs_graphsearch.bundle.display_groups import (
    display_count,
    expand_grouped,
    fragment_runs,
    page_firsts,
    run_chunks,
)
from mkdocs_graphsearch.bundle.encoder_shards import join_encoder, read_encoder_shard
from mkdocs_graphsearch.bundle.format import (
    BUNDLE_DIR,
    ENCODER,
    ENCODER_MODEL,
    FORMAT_VERSION,
    GRAPH,
    KEYWORD,
    MANIFEST,
    MIN_FORMAT_VERSION,
    TERMS,
    VECTORS,
    VOCAB,
    WORDS,
    BundleError,
    checksum,
    decode_varints,
    display_fragment,
    encoder_shard,
    file_name,
    graph_shard,
    inline_part,
    part_crc,
    postings_shard,
    text_fragment,
    verify_manifest,
    vocab_shard,
    word_shard,
)
from mkdocs_graphsearch.bundle.graph_shards import graph_count, merge_graph_shard, merge_grouped_shards
from mkdocs_graphsearch.bundle.schema import (
    check_dictionary,
    check_display,
    check_encoder,
    check_graph,
    check_graph_shard,
    check_keyword,
    check_manifest,
    check_shard_keys,
    check_texts,
    shard_range,
)
from mkdocs_graphsearch.bundle.vector_shards import (
    CENTROIDS,
    Clusters,
    by_columns,
    cell_centroids,
    code_rows,
    group_starts,
    hood_of,
    read_cell,
    read_centroids,
    read_group,
    stored_bits,
    vector_shard,
)
from mkdocs_graphsearch.bundle.vocab_shards import join_vocab, read_vocab_shard
from mkdocs_graphsearch.bundle.word_rows import check_word_rows, read_words
from mkdocs_graphsearch.files.bounded import MAX_BUNDLE_PART, MAX_MANIFEST, RefusedInput, read_bounded


@dataclass
class Bundle:
    """A loaded bundle. Postings of term i are post_chunk/post_impact[term_start[i]:term_start[i+1]]."""

    path: Path
    manifest: dict[str, Any]
    terms: list[str]
    term_index: dict[str, int]
    stems: dict[str, list[int]]  # stem -> terms that are prose words with it (from the term shards)
    defines: dict[str, list[int]]  # name -> chunks that define it (from the term shards: write.py defines_index)
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
    clusters: Clusters | None = None  # a clustered bundle's (vector_shards.py); vectors hold every row
    encoder: Any = None  # the query encoder, loaded on first use by engine/encoder.py
    encoder_arrays: Any = None  # its table, read and checked at load (bundle/encoder_shards.py)
    known_words: frozenset[str] = frozenset()  # words never typo-matched (terms.json `words`)

    @property
    def settings(self) -> dict[str, Any]:
        search: dict[str, Any] = self.manifest["search"]
        return search

    @property
    def n_chunks(self) -> int:
        return len(self.chunks["id"])


def locate(path: Path) -> Path:
    """A built site (with search/) or a bundle folder -> the bundle folder (whatever its
    manifest.json is: reading it says what is wrong with one that is no file)."""
    if (path / MANIFEST).exists():
        return path
    if (path / BUNDLE_DIR / MANIFEST).exists():
        return path / BUNDLE_DIR
    raise BundleError(f"no search bundle at {path} (expected {MANIFEST} or {BUNDLE_DIR}/{MANIFEST})")


def read_file(folder: Path, manifest: dict[str, Any], name: str) -> bytes:
    """A bundle part by its logical name, checked against the manifest's CRC-32 (which a cut or
    damaged file fails); one the manifest holds (format.py INLINE_PARTS) from there."""
    data = inline_part(manifest, name)
    if data is None:
        data = _read_part(folder / file_name(manifest, name), MAX_BUNDLE_PART, name)
    if checksum(data) != part_crc(manifest, name):
        raise BundleError(f"{name} is corrupted (CRC-32 differs from the manifest)")
    return data


def _read_part(path: Path, limit: int, name: str) -> bytes:
    """A bundle file's bytes: a special file, or one past its bound, is refused unread."""
    try:
        return read_bounded(path, limit, f"bundle part {name}:")
    except RefusedInput as error:
        raise BundleError(str(error)) from None
    except OSError as error:
        raise BundleError(f"cannot read {path}: {error}") from error


def read_each(
    folder: Path, manifest: dict[str, Any], files: dict[str, bytes], name_of: Callable[[int], str], count: int
) -> Iterator[tuple[int, str, bytes]]:
    """Parts name_of(0) .. name_of(count - 1), each read (into `files`) only when the caller
    asks for it, so each is checked before the next is read: the same first error as JS."""
    for index in range(count):
        name = name_of(index)
        files[name] = read_file(folder, manifest, name)
        yield index, name, files[name]


def parse_json(name: str, data: bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise BundleError(f"{name} is not valid JSON: {error}") from error


def read_manifest(folder: Path) -> dict[str, Any]:
    """manifest.json: its checksum (before anything is read from it, so damage is never mistaken
    for a newer format), its format, then its shape. Without a checksum at its start, a manifest
    of a supported format is corrupted, whatever its keys say: a damaged `"checksum"` key must
    not switch the check off."""
    data = _read_part(folder / MANIFEST, MAX_MANIFEST, MANIFEST)
    checked = verify_manifest(data)
    manifest = parse_json(MANIFEST, data)
    version = manifest.get("format") if isinstance(manifest, dict) else None
    if version is None:
        raise BundleError(f"{MANIFEST} has no format version: not a graphsearch bundle")
    if type(version) is not int:  # not 1.0 nor true (bool is an int): js/src/engine/bundle/read.js agrees
        raise BundleError(f"{MANIFEST} format version is not an integer: not a graphsearch bundle")
    if version > FORMAT_VERSION:
        raise BundleError(
            f"{MANIFEST} is bundle format {version}, newer than this reader (format {FORMAT_VERSION}): "
            "upgrade mkdocs-graphsearch"
        )
    if version < MIN_FORMAT_VERSION:
        raise BundleError(
            f"{MANIFEST} is bundle format {version}, no longer supported (this reader reads format "
            f"{MIN_FORMAT_VERSION}): rebuild the site"
        )
    if not checked:
        raise BundleError(f"{MANIFEST} is corrupted (its checksum is not at its start)")
    return check_manifest(manifest)


def load_bundle(path: Path) -> Bundle:
    """Every part, read and checked in the order js/src/engine/bundle/read.js and worker.js read them, so a
    bundle with more than one fault gets the same first error from both engines."""
    folder = locate(Path(path))
    manifest = read_manifest(folder)
    files = {KEYWORD: read_file(folder, manifest, KEYWORD)}
    counts = manifest["counts"]
    keyword = check_keyword(parse_json(KEYWORD, files[KEYWORD]), manifest)
    # Every term shard (the JS runtime fetches only those a query needs), then the dictionary.
    terms: list[str] = []
    stems: dict[str, list[int]] = {}
    defines: dict[str, list[int]] = {}
    per_term: list[np.ndarray] = []
    chunk_parts: list[np.ndarray] = []
    impact_parts: list[np.ndarray] = []
    for index, _, data in read_each(folder, manifest, files, postings_shard, len(manifest["term_shards"]["start"])):
        shard_terms, shard_stems, shard_defines, shard_counts, shard_chunks, shard_impacts = read_shard(
            data, manifest, index
        )
        terms += shard_terms
        stems.update(shard_stems)
        defines.update(shard_defines)
        per_term.append(shard_counts)
        chunk_parts.append(shard_chunks)
        impact_parts.append(shard_impacts)
    counts_per_term = np.concatenate(per_term)
    term_start = np.concatenate(([0], np.cumsum(counts_per_term))).astype(np.int64)
    post_chunk, post_impact = np.concatenate(chunk_parts), np.concatenate(impact_parts)
    files[TERMS] = read_file(folder, manifest, TERMS)
    *dictionary, known_words = check_dictionary(parse_json(TERMS, files[TERMS]), manifest)
    if dictionary != [terms, counts_per_term.tolist()]:
        raise BundleError(f"{TERMS} does not match the term shards (corrupted)")
    texts: list[str] = []  # every fragment: the JS runtime fetches only those of the results shown
    for index, name, data in read_each(folder, manifest, files, text_fragment, len(manifest["text_starts"])):
        texts += check_texts(parse_json(name, data), manifest, index)
    runs = read_display(folder, manifest, keyword, files)
    # The graph after the texts: the JS runtime's graph part follows its keyword part.
    files[GRAPH] = read_file(folder, manifest, GRAPH)
    graph = check_graph(parse_json(GRAPH, files[GRAPH]), manifest)
    graph.update(offsets=[0], targets=[], types=[])  # every shard's edges (JS: the seeds' only)
    grouped = runs is not None and "graph_starts" not in manifest  # graph_shards.graph_count
    in_groups = []
    for index, name, data in read_each(folder, manifest, files, graph_shard, graph_count(manifest)):
        chunks = run_chunks(runs[index]) if grouped and runs else None
        shard = check_graph_shard(parse_json(name, data), manifest, len(graph["edge_types"]), index, chunks)
        if chunks is None:
            merge_graph_shard(graph, shard)
        else:
            in_groups.append((chunks, shard))
    merge_grouped_shards(graph, in_groups)
    bundle = Bundle(
        path=folder,
        manifest=manifest,
        terms=terms,
        term_index={term: i for i, term in enumerate(terms)},
        stems=stems,
        defines=defines,
        pages=keyword["pages"],
        chunks=keyword["chunks"],
        term_start=term_start,
        post_chunk=post_chunk,
        post_impact=post_impact,
        texts=texts,
        graph=graph,
        files=files,
        known_words=frozenset(known_words),
    )
    if "vectors" in manifest:
        if "clusters" in manifest["vectors"]:
            bundle.vectors, bundle.vector_scales, bundle.clusters = read_clustered(folder, manifest, files)
        else:
            files[VECTORS] = read_file(folder, manifest, VECTORS)
            dim = manifest["vectors"]["dim"]
            bits = stored_bits(manifest["vectors"])
            columns = by_columns(manifest)
            bundle.vectors, bundle.vector_scales = read_vectors(files[VECTORS], counts["chunks"], dim, bits, columns)
        # encoder.json, every vocab shard and encoder shard (the JS runtime fetches only the
        # query's), then the model part (never fetched by the browser).
        files[ENCODER] = read_file(folder, manifest, ENCODER)
        meta = check_encoder(parse_json(ENCODER, files[ENCODER]), manifest)
        pairs: list[tuple[str, int]] = []
        n_vocab_shards = manifest["encoder"]["vocab"]["shards"]
        for index, name, data in read_each(folder, manifest, files, vocab_shard, n_vocab_shards):
            pairs += read_vocab_shard(parse_json(name, data), manifest, index)
        files[VOCAB] = join_vocab(pairs, manifest)  # vocab.txt as it was built: no file of the bundle
        firsts = manifest["encoder"]["shards"]
        shards = [
            read_encoder_shard(data, meta, firsts, index)
            for index, _, data in read_each(folder, manifest, files, encoder_shard, len(firsts))
        ]
        files[ENCODER_MODEL] = read_file(folder, manifest, ENCODER_MODEL)
        bundle.encoder_arrays = join_encoder(meta, shards, files[ENCODER_MODEL])
        if "words" in manifest["encoder"]:  # format 6: the same rows by word (never read by a query here)
            files[WORDS] = read_file(folder, manifest, WORDS)
            n_words = manifest["encoder"]["words"]["shards"]
            word_files = [(WORDS, *read_words(files[WORDS], WORDS, manifest, None))]
            word_files += [
                (name, *read_words(data, name, manifest, index))
                for index, name, data in read_each(folder, manifest, files, word_shard, n_words)
            ]
            check_word_rows(word_files, bundle.encoder_arrays, np.asarray(meta["row_scales"], dtype=np.float64))
    return bundle


def read_display(
    folder: Path, manifest: dict[str, Any], keyword: dict[str, Any], files: dict[str, bytes]
) -> list[list[Run]] | None:
    """Every display fragment (the JS runtime fetches those of the results shown), checked, into
    keyword.json's (checked) columns; each file's bytes into `files`. A grouped bundle's
    `pages.display` is read here and left out of the columns: its fragments' runs are returned
    (bundle/display_groups.py; else None)."""
    chunk_pages = keyword["chunks"]["page"]
    each = read_each(folder, manifest, files, display_fragment, display_count(manifest))
    if "display_count" not in manifest:
        for index, name, data in each:
            merge_display(keyword, check_display(parse_json(name, data), manifest, chunk_pages, index), index)
        return None
    page_display = keyword["pages"].pop("display")
    firsts = page_firsts(chunk_pages, len(page_display))
    for key in DISPLAY_CHUNKS:
        keyword["chunks"][key] = [None] * len(chunk_pages)
    for key in DISPLAY_PAGES:
        keyword["pages"][key] = [None] * len(page_display)
    runs = fragment_runs(firsts, page_display, manifest["display_count"])
    for index, name, data in each:
        fragment = check_display(parse_json(name, data), manifest, chunk_pages, index, runs[index])
        expand_grouped(keyword, fragment, index, runs[index])
    return runs


def read_pages(folder: Path, manifest: dict[str, Any]) -> dict[str, list[Any]]:
    """keyword.json's pages with their display columns (title, url): for readers of pages only."""
    keyword = check_keyword(parse_json(KEYWORD, read_file(folder, manifest, KEYWORD)), manifest)
    read_display(folder, manifest, keyword, {})
    pages: dict[str, list[Any]] = keyword["pages"]
    return pages


def read_shard(
    data: bytes, manifest: dict[str, Any], index: int
) -> tuple[list[str], dict[str, list[int]], dict[str, list[int]], np.ndarray, np.ndarray, np.ndarray]:
    """Term shard `index` -> (its terms, its stems, its definition names, their posting counts,
    post_chunk, post_impact), checked against the manifest's term_shards and counts."""
    name = postings_shard(index)
    start, end = shard_range(manifest, index)
    shards, counts = manifest["term_shards"], manifest["counts"]
    ends = [*shards["postings"][1:], counts["postings"]]
    n_terms, n_postings = end - start, ends[index] - shards["postings"][index]
    cut = data.find(b"\n")
    if cut < 0:
        raise BundleError(f"{name} has no term list (corrupted)")
    terms = _check_shard_terms(parse_json(name, data[:cut]), name, n_terms)
    stems_end = data.find(b"\n", cut + 1)
    if stems_end < 0:
        raise BundleError(f"{name} has no stem list (corrupted)")
    stems = check_shard_keys(parse_json(name, data[cut + 1 : stems_end]), manifest, index, "stems")
    defines_end = data.find(b"\n", stems_end + 1)
    if defines_end < 0:
        raise BundleError(f"{name} has no definition list (corrupted)")
    defines = check_shard_keys(parse_json(name, data[stems_end + 1 : defines_end]), manifest, index, "defines")
    try:
        values = decode_varints(data[defines_end + 1 :])
    except BundleError as error:
        raise BundleError(f"{name}: {error} (corrupted)") from None
    if values.size != n_terms + 2 * n_postings:
        raise BundleError(f"{name} does not match the manifest's counts (corrupted)")
    per_term = values[:n_terms]
    deltas = values[n_terms : n_terms + n_postings]
    term_start = np.concatenate(([0], np.cumsum(per_term))).astype(np.int64)
    if term_start[-1] != n_postings:
        raise BundleError(f"{name} posting counts do not add up (corrupted)")
    # Chunk ids restart at each term: cumulative sum of deltas, minus the sum before the term.
    running = np.cumsum(deltas)
    before = np.concatenate(([0], running))[term_start[:-1]]
    post_chunk = running - np.repeat(before, per_term)
    if post_chunk.size and (post_chunk.min() < 0 or post_chunk.max() >= counts["chunks"]):
        raise BundleError(f"{name} points at chunks that do not exist (corrupted)")
    return terms, stems, defines, per_term, post_chunk, values[n_terms + n_postings :]


def _check_shard_terms(data: Any, name: str, n_terms: int) -> list[str]:
    if not isinstance(data, list) or len(data) != n_terms or not all(isinstance(t, str) for t in data):
        raise BundleError(f"{name}: its term list must be {n_terms} strings")
    return data


def read_clustered(
    folder: Path, manifest: dict[str, Any], files: dict[str, bytes]
) -> tuple[np.ndarray, np.ndarray, Clusters]:
    """centroids.bin, then every cell's file (two levels), then every group's file (the JS
    runtime fetches only those holding a cluster a query probes) -> every chunk's row and scale, and the clusters."""
    rule = manifest["vectors"]["clusters"]
    files[CENTROIDS] = read_file(folder, manifest, CENTROIDS)
    centroids, centroid_scales = read_centroids(files[CENTROIDS], manifest)
    cells = rule.get("cells")
    cell_rows, cell_scales = centroids, centroid_scales
    if cells is not None:  # the clusters' centroids, cell by cell
        each = read_each(folder, manifest, files, cell_centroids, len(cells))
        read = [read_cell(data, manifest, i) for i, _, data in each]
        centroids = np.concatenate([rows for rows, _ in read])
        centroid_scales = np.concatenate([row_scales for _, row_scales in read])
    n, dim = manifest["counts"]["chunks"], manifest["vectors"]["dim"]
    vectors, scales = np.zeros((n, dim), dtype=np.int8), np.zeros(n, dtype=np.float64)
    seen = np.zeros(n, dtype=bool)
    members: list[np.ndarray] = []
    sizes, hood_chunks = rule["sizes"], rule.get("hood_chunks", 0)
    for index, name, data in read_each(folder, manifest, files, vector_shard, len(group_starts(rule))):
        held = hood_of(centroids, centroid_scales, sizes, index, hood_chunks) if hood_chunks else None
        # hoods: a cluster is in many files; its members are those of its own (it comes first there)
        for chunks, rows, row_scales in read_group(data, manifest, index, held)[: 1 if held else None]:
            if seen[chunks].any():
                raise BundleError(f"{name}: a chunk in two clusters (corrupted)")
            seen[chunks] = True
            vectors[chunks], scales[chunks] = rows, row_scales
            members.append(chunks)
    clusters = Clusters(centroids, centroid_scales, members, rule["probe"], rule["probe_chunks"])
    clusters.hood_chunks = hood_chunks
    if cells is not None:
        clusters.cells, clusters.cell_chunks = cells, rule["cell_chunks"]
        clusters.cell_centroids, clusters.cell_scales = cell_rows, cell_scales
    return vectors, scales, clusters


def read_vectors(data: bytes, n_chunks: int, dim: int, bits: int, columns: bool) -> tuple[np.ndarray, np.ndarray]:
    """vectors.bin: n_chunks rows of `bits`-bit codes (bundle/vector_shards.py; 8: int8 bytes),
    then float32 little-endian scales (one per chunk), or (`columns`, format 10) the same as a
    table by columns -> (the codes as int8 rows, float64 scales)."""
    return code_rows(VECTORS, data, n_chunks, dim, bits, columns=columns)
