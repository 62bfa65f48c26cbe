"""The clustered vector layout (mirrored by js/src/engine/bundle/vector-shards.js): a query reads the vectors
of a few clusters, not every vector of the site, stored as compact codes.

    centroids.bin     the clusters' unit centroids: k rows of `centroid_bits`-bit codes, then k
                      float32 little-endian scales (two levels: the G cells' centroids)
                                                                            -- semantic part
    centroids.<g>.bin two levels only: cell g's clusters' centroids, as centroids.bin -- when probed
    vectors.<g>.bin   group g: the clusters groups[g] .. groups[g + 1] - 1 (the last: to the
                      end), each in turn as its n_i chunk numbers (uint32 little-endian, rising),
                      their n_i rows of `bits`-bit codes, then their n_i float32 scales
                                                    -- when a query probes one of its clusters

Codes (pack_codes / unpack_codes): a row of dim codes of b bits takes ceil(dim * b / 8) bytes;
code j is bits j*b .. j*b+b-1 of the row read as a little-endian bit stream (bit t of the row is
bit t % 8 of byte t // 8), a two's complement number (b = 8: the int8 bytes of vectors.bin);
the padding bits of the last byte are 0. A vector is code * scale, exactly as an int8 row is
(the engines decode the codes into int8 rows: every cosine stays an integer dot product times
two scales). The build quantizes a row v with L = 2^(b-1) - 1 levels: scale = float32(max|v| / L),
code = clip(rint(v / scale), -L, L) (quantize_codes).

The manifest's `vectors.clusters` = {"bits": b, "centroid_bits": c, "probe": p,
"probe_chunks": m, "sizes": [n_0, .. n_k-1], "groups": [0, ..]} (every chunk in exactly one
cluster; `groups`: each group file's first cluster, 0 first, rising; format 3 had none: one
cluster a file, groups [0, 1, .. k-1]), and for
two levels (a big site: the k centroids are not all loaded) "cells": [k_0, .. k_G-1] (cell g
holds the k_g clusters after those of cells 0..g-1: clusters are numbered cell by cell) and
"cell_chunks": m2. A bundle without `clusters` has one vectors.bin (rows of `vectors.bits`-bit codes,
then their scales, as above; format 4 and older: int8 rows): exact search over all vectors.

Query (engine/vector.py probed_clusters): cosine of the query with each centroid, exactly as with
passages (integer dot products); clusters best first (ties to the lower cluster number), taken
while fewer than `p` are taken or their sizes add up to fewer than `m` chunks; then the passages
of those clusters only (every other chunk's cosine is 0). Two levels: first the cells, by the
cosine with their centroids, best first (ties to the lower cell), taken until their clusters'
chunks add up to at least m2 (at least one cell); then the clusters as above, among the taken
cells' clusters only. Clusters, cells, codes and probe are made at build time by
index/kmeans.py (cluster_rule, cell_rule). A query fetches every group holding a cluster it
probes: the build numbers the clusters along their centroids' similarity (index/kmeans.py
chained) and closes a group once it holds `group_bytes` (never across a cell), so the clusters
a query probes, near each other, fall into few files.

Hoods (format 6; the manifest's `clusters` has "hood_chunks": h and no `groups` or `cells`):
vectors.<c>.bin holds cluster c's hood (hood_of), each of its clusters' blocks in hood order as
above, so a cluster is in many files. A query reads `probe` files: down its clusters best first,
each cluster no file taken holds takes its own file, until `probe` files are taken; it scores
every chunk of every cluster those files hold. The clusters a query's best ones lie among are
close to each other, so a few hoods hold most of them.

By columns (format 10, COLUMN_FORMAT; table_bytes): each file above holds its n rows as one
table instead: a group or hood file's n = the sizes of the clusters it holds, in the order
above, added up. The table is (a group or hood file only) the n chunk numbers as 4 byte planes,
then the codes dimension by dimension (dimension j: the n codes of that dimension packed as one
row of n codes, ceil(n * b / 8) bytes), then the n float32 scales as 4 byte planes; byte
planes of n 4-byte little-endian numbers: byte 0 of each, then byte 1 of each, .. 3. The same
numbers as by rows: gzip finds a dimension's codes, whose spread differs from dimension to
dimension, and the numbers' like bytes next to each other (benchmarks/vector_recall.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.format import COLUMN_FORMAT, VECTORS, BundleError

CENTROIDS = "centroids.bin"
#: A manifest without `vectors.bits` (format 4 and older) stores vectors.bin as int8 rows.
VECTOR_BITS_IF_ABSENT = 8


def stored_bits(vectors: Mapping[str, Any]) -> int:
    """The code width of vectors.bin's rows, from the manifest's `vectors` entry."""
    return int(vectors.get("bits", VECTOR_BITS_IF_ABSENT))


def vector_shard(index: int) -> str:
    """Logical name of cluster group `index`'s file."""
    return f"vectors.{index}.bin"


def group_starts(clusters: dict[str, Any]) -> list[int]:
    """Each group file's first cluster: the manifest's `groups`, or one cluster a file (format 3)."""
    groups: list[int] = clusters.get("groups") or list(range(len(clusters["sizes"])))
    return groups


def cell_centroids(index: int) -> str:
    """Logical name of cell `index`'s file of cluster centroids (two levels)."""
    return f"centroids.{index}.bin"


@dataclass
class Clusters:
    """A clustered bundle's centroids (int8 rows of the decoded codes, float64 scales), chunk
    numbers per cluster and probe rule (vector_shards.py); two levels: the cells' centroids,
    clusters per cell and cell_chunks too."""

    centroids: np.ndarray
    centroid_scales: np.ndarray
    members: list[np.ndarray]
    probe: int
    probe_chunks: int = 0
    cells: list[int] | None = None
    cell_chunks: int = 0
    cell_centroids: np.ndarray | None = None
    cell_scales: np.ndarray | None = None
    hood_chunks: int = 0

    def hood(self, center: int) -> list[int]:
        """The clusters file `center` holds (hoods: hood_of)."""
        return hood_of(self.centroids, self.centroid_scales, [m.size for m in self.members], center, self.hood_chunks)

    def cell_clusters(self, cell: int) -> range:
        """The numbers of cell `cell`'s clusters (two levels)."""
        cells = self.cells or []
        start = sum(cells[:cell])
        return range(start, start + cells[cell])


def row_bytes(dim: int, bits: int) -> int:
    """Bytes of one row of `dim` codes of `bits` bits."""
    return -(-dim * bits // 8)


def numbered_row_bytes(dim: int, bits: int) -> int:
    """Bytes of one row of a cluster file: its chunk number, codes and scale (4 + row_bytes + 4)."""
    return 4 + row_bytes(dim, bits) + 4


def quantize_codes(points: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """float64 rows -> (codes in -L..L as int8, float32 scales as float64), L = 2^(bits-1) - 1."""
    levels = 2 ** (bits - 1) - 1
    peak = np.abs(points).max(axis=1)
    peak[peak == 0] = 1.0
    scales = (peak / levels).astype("<f4").astype(np.float64)
    codes = np.clip(np.rint(points / scales[:, None]), -levels, levels).astype(np.int8)
    return codes, scales


def pack_codes(codes: np.ndarray, bits: int) -> bytes:
    """int8 codes (n x dim, each fitting `bits` bits) -> the rows' bytes (the layout above)."""
    n, dim = codes.shape
    stream = np.zeros((n, row_bytes(dim, bits) * 8), dtype=np.uint8)
    unsigned = codes.astype(np.int64) & ((1 << bits) - 1)
    for bit in range(bits):  # bit `bit` of code j is bit j*bits+bit of the row
        stream[:, bit : dim * bits : bits] = (unsigned >> bit) & 1
    return np.packbits(stream, axis=1, bitorder="little").tobytes()


def unpack_codes(data: bytes, n: int, dim: int, bits: int) -> np.ndarray:
    """The rows' bytes -> int8 codes (n x dim): pack_codes reversed."""
    if bits == 8:
        return np.frombuffer(data, dtype=np.int8, count=n * dim).reshape(n, dim)
    raw = np.frombuffer(data, dtype=np.uint8, count=n * row_bytes(dim, bits)).reshape(n, row_bytes(dim, bits))
    stream = np.unpackbits(raw, axis=1, bitorder="little")[:, : dim * bits].reshape(n, dim, bits).astype(np.int64)
    values = (stream << np.arange(bits)).sum(axis=2)
    values[values >= 1 << (bits - 1)] -= 1 << bits
    codes: np.ndarray = values.astype(np.int8)
    return codes


def by_columns(manifest: Mapping[str, Any]) -> bool:
    """Whether the bundle stores its code tables by columns (format 10 and later)."""
    return int(manifest["format"]) >= COLUMN_FORMAT


def _planes(values: np.ndarray) -> bytes:
    """4-byte little-endian numbers -> their byte planes (the layout above)."""
    return np.ascontiguousarray(values.view(np.uint8).reshape(-1, 4).T).tobytes()


def _from_planes(data: bytes, offset: int, count: int, dtype: str) -> np.ndarray:
    planes = np.frombuffer(data, dtype=np.uint8, count=4 * count, offset=offset).reshape(4, count)
    values: np.ndarray = np.ascontiguousarray(planes.T).view(dtype).ravel()
    return values


def table_bytes(codes: np.ndarray, scales: np.ndarray, bits: int, chunks: np.ndarray | None = None) -> bytes:
    """A file's rows by columns (format 10, the layout above): int8 codes (n x dim), their
    scales and (a group or hood file) chunk numbers."""
    numbers = b"" if chunks is None else _planes(chunks.astype("<u4"))
    return numbers + pack_codes(np.ascontiguousarray(codes.T), bits) + _planes(scales.astype("<f4"))


def read_table(
    name: str, data: bytes, count: int, dim: int, bits: int, numbered: bool
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """table_bytes reversed, its length checked -> (the chunk numbers if `numbered`, else None;
    the codes as int8 rows; float64 scales)."""
    width = row_bytes(count, bits)
    expected = 4 * count * numbered + dim * width + 4 * count
    if len(data) != expected:
        raise BundleError(f"{name} has {len(data)} bytes, expected {expected} (corrupted)")
    at = 4 * count * numbered
    chunks = _from_planes(data, 0, count, "<u4").astype(np.int64) if numbered else None
    rows = np.ascontiguousarray(unpack_codes(data[at : at + dim * width], dim, count, bits).T)
    scales = _from_planes(data, at + dim * width, count, "<f4").astype(np.float64)
    return chunks, rows, scales


def hood_of(centroids: np.ndarray, scales: np.ndarray, sizes: Sequence[int], center: int, chunks: int) -> list[int]:
    """Cluster `center`'s hood: itself, then the other clusters by the cosine of their centroid
    (the decoded int8 rows and scales) with its own (integer dot product times the two scales,
    as for passages), best first, ties to the lower number, taken while the hood holds fewer
    than `chunks` chunks."""
    dots = centroids.astype(np.int64) @ centroids[center].astype(np.int64)
    cos = dots.astype(np.float64) * scales * scales[center]
    hood, held = [center], int(sizes[center])
    for cluster in sorted((c for c in range(len(sizes)) if c != center), key=lambda c: (-cos[c], c)):
        if held >= chunks:
            break
        hood.append(cluster)
        held += int(sizes[cluster])
    return hood


def clustered_files(
    points: np.ndarray,
    centroids: np.ndarray,
    assignment: np.ndarray,
    rule: dict[str, int],
    cells: tuple[np.ndarray, list[int]] | None = None,
) -> tuple[dict[str, bytes], dict[str, Any]]:
    """centroids.bin and one vectors.<g>.bin per group of clusters, and the manifest's
    `clusters` entry. `points` are the passages (float64 rows: the int8 rows times their scales),
    `centroids` unit float64 rows; `rule` = {bits, centroid_bits, probe, probe_chunks,
    group_bytes[, cell_chunks][, hood_chunks]} (index/kmeans.py): a group ends once it holds
    group_bytes, or at a cell's end; with hood_chunks each cluster's hood is a file instead;
    `cells` (two levels) = (the cells' unit centroids, clusters per cell), the clusters
    numbered cell by cell."""
    bits = rule["centroid_bits"]
    codes, scales = quantize_codes(centroids, bits)
    if cells is None:
        files = {CENTROIDS: table_bytes(codes, scales, bits)}
    else:
        cell_codes, cell_scales = quantize_codes(cells[0], bits)
        files = {CENTROIDS: table_bytes(cell_codes, cell_scales, bits)}
        start = 0
        for cell, count in enumerate(cells[1]):
            end = start + count
            files[cell_centroids(cell)] = table_bytes(codes[start:end], scales[start:end], bits)
            start = end
    centroid_rows, centroid_scales = codes, scales
    codes, scales = quantize_codes(points, rule["bits"])
    members = [np.flatnonzero(assignment == cluster) for cluster in range(centroids.shape[0])]
    sizes = [int(chunks.size) for chunks in members]

    def file_of(held: Sequence[int]) -> bytes:
        chunks = np.concatenate([members[cluster] for cluster in held])
        return table_bytes(codes[chunks], scales[chunks], rule["bits"], chunks)

    keys = ("bits", "centroid_bits", "probe", "probe_chunks")
    entry: dict[str, Any] = {**{key: int(rule[key]) for key in keys}, "sizes": sizes}
    if "hood_chunks" in rule:
        for center in range(len(members)):
            hood = hood_of(centroid_rows, centroid_scales, sizes, center, rule["hood_chunks"])
            files[vector_shard(center)] = file_of(hood)
        return files, entry | {"hood_chunks": int(rule["hood_chunks"])}
    cell_ends = set(np.cumsum(cells[1]).tolist()) if cells is not None else set()
    row = numbered_row_bytes(points.shape[1], rule["bits"])  # a group closes by its rows' bytes
    groups = [0]
    held = 0
    for cluster, size in enumerate(sizes):
        if cluster and (held >= rule["group_bytes"] or cluster in cell_ends):
            groups.append(cluster)
            held = 0
        held += size * row
    for group, (start, end) in enumerate(zip(groups, [*groups[1:], len(members)], strict=True)):
        files[vector_shard(group)] = file_of(range(start, end))
    entry["groups"] = groups
    if cells is not None:
        entry |= {"cells": [int(count) for count in cells[1]], "cell_chunks": int(rule["cell_chunks"])}
    return files, entry


def code_rows(
    name: str, data: bytes, count: int, dim: int, bits: int, offset: int = 0, columns: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """`count` rows of `bits`-bit codes then their float32 scales, from `offset` to the end of
    `data` (checked; `columns`: a table without chunk numbers, read_table) -> (the codes as int8
    rows, float64 scales)."""
    if columns:
        _, rows, scales = read_table(name, data[offset:], count, dim, bits, False)
        return rows, scales
    width = row_bytes(dim, bits)
    if len(data) != offset + count * (width + 4):
        raise BundleError(f"{name} has {len(data)} bytes, expected {offset + count * (width + 4)} (corrupted)")
    rows = unpack_codes(data[offset : offset + count * width], count, dim, bits)
    scales = np.frombuffer(data, dtype="<f4", count=count, offset=offset + count * width).astype(np.float64)
    return rows, scales


def read_centroids(data: bytes, manifest: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """centroids.bin -> (decoded codes as int8 rows k x dim, float64 scales); two levels: the
    cells' (G rows)."""
    clusters = manifest["vectors"]["clusters"]
    count = len(clusters["cells"] if "cells" in clusters else clusters["sizes"])
    dim, bits = manifest["vectors"]["dim"], clusters["centroid_bits"]
    return code_rows(CENTROIDS, data, count, dim, bits, columns=by_columns(manifest))


def read_cell(data: bytes, manifest: dict[str, Any], index: int) -> tuple[np.ndarray, np.ndarray]:
    """centroids.<index>.bin -> (its clusters' centroids as int8 rows, float64 scales)."""
    clusters = manifest["vectors"]["clusters"]
    count = clusters["cells"][index]
    dim, bits = manifest["vectors"]["dim"], clusters["centroid_bits"]
    return code_rows(cell_centroids(index), data, count, dim, bits, columns=by_columns(manifest))


def group_clusters(manifest: dict[str, Any], index: int) -> range:
    """The clusters group file `index` holds (not hoods: Clusters.hood)."""
    clusters = manifest["vectors"]["clusters"]
    groups = group_starts(clusters)
    return range(groups[index], groups[index + 1] if index + 1 < len(groups) else len(clusters["sizes"]))


def read_group(
    data: bytes, manifest: dict[str, Any], index: int, held: Sequence[int] | None = None
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """vectors.<index>.bin -> per cluster it holds (`held`, hoods; else group_clusters), in
    order: (its chunk numbers, decoded codes as int8 rows, float64 scales), checked."""
    name = vector_shard(index)
    clusters = manifest["vectors"]["clusters"]
    dim, bits = manifest["vectors"]["dim"], clusters["bits"]
    sizes = [clusters["sizes"][cluster] for cluster in (group_clusters(manifest, index) if held is None else held)]
    if by_columns(manifest):
        table_chunks, table_rows, table_scales = read_table(name, data, sum(sizes), dim, bits, True)
        assert table_chunks is not None
        ends = np.cumsum(sizes).tolist()
        out = [
            (table_chunks[end - size : end], table_rows[end - size : end], table_scales[end - size : end])
            for size, end in zip(sizes, ends, strict=True)
        ]
        for chunks, _, _ in out:
            _check_chunks(name, chunks, manifest["counts"]["chunks"])
        return out
    expected = sum(size * numbered_row_bytes(dim, bits) for size in sizes)
    if len(data) != expected:
        raise BundleError(f"{name} has {len(data)} bytes, expected {expected} (corrupted)")
    out = []
    at = 0
    for size in sizes:
        end = at + size * numbered_row_bytes(dim, bits)
        rows, scales = code_rows(name, data[at:end], size, dim, bits, offset=4 * size)
        chunks = np.frombuffer(data, dtype="<u4", count=size, offset=at).astype(np.int64)
        _check_chunks(name, chunks, manifest["counts"]["chunks"])
        out.append((chunks, rows, scales))
        at = end
    return out


def _check_chunks(name: str, chunks: np.ndarray, n_chunks: int) -> None:
    """A cluster's chunk numbers rise and name chunks that exist."""
    if chunks.size and (np.any(np.diff(chunks) <= 0) or chunks[-1] >= n_chunks):
        raise BundleError(f"{name}: its chunk numbers must rise and name chunks that exist (corrupted)")


def semantic_vector_parts(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The vector files of a semantic bundle, in reading order: vectors.bin, or centroids.bin
    then each cell's file (two levels) then each group's file. (Called before the shape check:
    a bad `clusters`, `groups` or `cells` gives no parts; the check then names it.)"""
    clusters = manifest["vectors"].get("clusters") if isinstance(manifest.get("vectors"), dict) else None
    if clusters is None:
        return (VECTORS,)
    sizes = clusters.get("sizes") if isinstance(clusters, dict) else None
    groups = clusters.get("groups", sizes) if isinstance(clusters, dict) else None
    count = len(groups) if isinstance(groups, list) and isinstance(sizes, list) else 0
    cells = clusters.get("cells") if isinstance(clusters, dict) else None
    cell_count = len(cells) if isinstance(cells, list) else 0
    return (CENTROIDS, *(cell_centroids(i) for i in range(cell_count)), *(vector_shard(i) for i in range(count)))
