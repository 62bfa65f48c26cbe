"""Deterministic spherical k-means over the passage vectors (the clustered vector layout:
bundle/vector_shards.py).

Same vectors in, same clusters out, byte for byte: float64 throughout, a fixed initialisation
(no random numbers: the rows at evenly spaced chunk numbers i * n // k, the bundle's order being
the site's reading order, so the seeds spread over the whole site), a fixed number of iterations,
ties (a row as close to two centroids) to the lower cluster number (numpy's argmax keeps the
first), and a cluster left empty keeps its centroid (clusters still empty at the end are dropped
and the rest renumbered in order).
"""

from __future__ import annotations

import math
import struct
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.vector_shards import clustered_files, numbered_row_bytes, row_bytes
from mkdocs_graphsearch.index.derived_cache import DerivedCache

#: (unit points, clusters) -> (unit centroids, each point's cluster): spherical_kmeans, or a cached one.
KMeans = Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]]

#: Lloyd iterations (fixed: the same vectors always give the same clusters).
ITERATIONS = 20
#: Up to this many bytes of coded rows + scales, every vector is one file (no clusters: exact
#: search over every vector, one request); a site of a thousand or two chunks stays whole.
SINGLE_FILE_BYTES = 128 * 1024
#: The clustered layout (cluster_rule, probe_rule): a query reads PROBE files, each a cluster's
#: hood (bundle/vector_shards.py hood_of) of HOOD_READS times the chunks it reads (`reads`:
#: PROBE_SHARE of the site, at least min_reads), so its vector side costs PROBE requests (plus
#: centroids.bin) on a site of any size. The clusters are as many as make CLUSTERS_PER_READ of
#: them hold `reads` chunks: finer clusters route a query better, and each is a file. Before:
#: ten clusters' own files (format 5 groups), and before that round(8 sqrt(n)) small clusters
#: probed until that share was read (benchmarks/vector_recall.py; benchmarks/results/vectors-*.json).
#: Codes of BITS bits, centroids of CENTROID_BITS (benchmarks/results/history/format3-work-log.md).
PROBE = 3
PROBE_SHARE = 0.08
CLUSTERS_PER_READ = 20
HOOD_READS = 0.5
BITS = 4
CENTROID_BITS = 4
#: Beyond this many clusters (only when asked for: `--vector-clusters K`) they get two levels
#: (cell_rule): their centroids, all loaded, would grow too large for the always-loaded part.
TWO_LEVEL_CLUSTERS = 1024
#: Two levels: cells per square root of the clusters, and the chunks the cells a query takes
#: cover (CELL_READS times the chunks it reads), chosen on a large site's own clusters
#: (benchmarks/results/history/format3-work-log.md: cells are coarse; fewer cover too few of the
#: right clusters).
CELLS_PER_ROOT = 2
CELL_READS = 8
#: Two levels only (no hoods): a query reads its best CELL_PROBE clusters; a group file of
#: clusters (bundle/vector_shards.py) closes once it holds this share of the bytes a query
#: reads: about half a cluster's, so a cluster is mostly a file of its own, and the smallest,
#: numbered next to a similar one (chained), share one.
CELL_PROBE = 10
GROUPS_PER_READ = 2 * CELL_PROBE


def reads(n_chunks: int, least: int) -> int:
    """The chunks a query reads: PROBE_SHARE of the site, at least `least` (min_reads)."""
    return min(n_chunks, max(math.ceil(n_chunks * PROBE_SHARE), least))


def cluster_rule(n_chunks: int, dim: int, force: bool = False, bits: int = BITS) -> int:
    """How many clusters for a site: one (exact search) while all vectors, as `bits`-bit codes,
    fit in SINGLE_FILE_BYTES (unless `force`), else as many as make CLUSTERS_PER_READ of them
    hold `reads` chunks (with `force`, a small site's tests: no min_reads floor)."""
    if n_chunks * (row_bytes(dim, bits) + 4) <= SINGLE_FILE_BYTES and not force or n_chunks < 2:
        return 1
    read = reads(n_chunks, 0 if force else min_reads(dim))
    return min(n_chunks, max(2, round(CLUSTERS_PER_READ * n_chunks / read)))


def cell_rule(n_chunks: int, clusters: int) -> int:
    """How many cells group the clusters: none (one level: every centroid in centroids.bin)
    up to TWO_LEVEL_CLUSTERS clusters, else round(CELLS_PER_ROOT sqrt(clusters))."""
    return 1 if clusters <= TWO_LEVEL_CLUSTERS else max(2, round(CELLS_PER_ROOT * math.sqrt(clusters)))


def min_reads(dim: int) -> int:
    """The fewest chunks a query reads by default: as many as SINGLE_FILE_BYTES holds as int8
    rows. A site just above one file would otherwise read only PROBE_SHARE of its few chunks and
    lose what exact search finds; on a large site the share is more."""
    return SINGLE_FILE_BYTES // (dim + 4)


def probe_rule(n_chunks: int, probe: int | None, bits: int | None, least: int = 0) -> dict[str, int]:
    """The manifest's code widths and probe rule: `probe` files (hoods) if given, else PROBE,
    each a hood of HOOD_READS times `reads` chunks; two levels (no hoods): the best CELL_PROBE
    (or `probe`) clusters among the best cells until CELL_READS times `reads` chunks (with
    `probe`: every cell). `reads` also sizes the group files."""
    rule = {"bits": bits or BITS, "centroid_bits": CENTROID_BITS, "reads": reads(n_chunks, least), "probe_chunks": 0}
    rule["hood_chunks"] = max(1, math.ceil(HOOD_READS * rule["reads"]))
    if probe is not None:
        return {**rule, "probe": probe, "cell_probe": probe, "cell_chunks": n_chunks}
    cell_chunks = min(n_chunks, CELL_READS * rule["reads"])
    return {**rule, "probe": PROBE, "cell_probe": CELL_PROBE, "cell_chunks": cell_chunks}


def unit_rows(rows: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """The int8 rows as float64 unit vectors (a zero row stays zero)."""
    points = rows.astype(np.float64) * scales[:, None]
    norms = np.linalg.norm(points, axis=1)
    norms[norms == 0] = 1.0
    unit: np.ndarray = points / norms[:, None]
    return unit


def spherical_kmeans(points: np.ndarray, clusters: int) -> tuple[np.ndarray, np.ndarray]:
    """(unit centroids k' x dim, each row's cluster number), k' <= clusters (empty ones dropped)."""
    n = points.shape[0]
    clusters = max(1, min(clusters, n))
    centroids = points[[i * n // clusters for i in range(clusters)]].copy()
    assignment = np.zeros(n, dtype=np.int64)
    for _ in range(ITERATIONS):
        assignment = np.argmax(points @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, assignment, points)
        norms = np.linalg.norm(sums, axis=1)
        filled = norms > 0
        centroids[filled] = sums[filled] / norms[filled, None]
    assignment = np.argmax(points @ centroids.T, axis=1)
    used = np.unique(assignment)  # sorted: the clusters keep their order
    renumber = np.full(clusters, -1, dtype=np.int64)
    renumber[used] = np.arange(used.size)
    return centroids[used], renumber[assignment]


_KMEANS_HEAD = struct.Struct("<III")  # centroids, dim, points


def cached_kmeans(derived: DerivedCache) -> KMeans:
    """spherical_kmeans, its result kept in the cache folder keyed by the points' bytes: a warm
    build clusters the same vectors again, a cost of seconds on a large site."""

    def kmeans(points: np.ndarray, clusters: int) -> tuple[np.ndarray, np.ndarray]:
        points = np.ascontiguousarray(points, dtype=np.float64)
        shape = struct.pack("<III", *points.shape, clusters)
        inputs = [np.__version__.encode(), shape, points.tobytes()]
        return derived.get_or_make(
            "kmeans", inputs, (sys.modules[__name__],), lambda: spherical_kmeans(points, clusters),
            _pack_kmeans, lambda payload: _unpack_kmeans(payload, points.shape),
        )

    return kmeans


def _pack_kmeans(result: tuple[np.ndarray, np.ndarray]) -> bytes:
    centroids, assignment = result
    head = _KMEANS_HEAD.pack(centroids.shape[0], centroids.shape[1], assignment.shape[0])
    return head + centroids.astype("<f8").tobytes() + assignment.astype("<i8").tobytes()


def _unpack_kmeans(payload: bytes, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The result _pack_kmeans wrote for points of this shape; ValueError if it is not one."""
    if len(payload) < _KMEANS_HEAD.size:
        raise ValueError("shorter than its header")
    k, dim, n = _KMEANS_HEAD.unpack_from(payload)
    if (n, dim) != tuple(shape) or len(payload) != _KMEANS_HEAD.size + 8 * (k * dim + n):
        raise ValueError("sizes do not match the vectors")
    centroids = np.frombuffer(payload, "<f8", k * dim, _KMEANS_HEAD.size).reshape(k, dim).astype(np.float64)
    assignment = np.frombuffer(payload, "<i8", n, _KMEANS_HEAD.size + 8 * k * dim).astype(np.int64)
    if n and (assignment.min() < 0 or assignment.max() >= k):
        raise ValueError("a point in no cluster")
    return centroids, assignment


def grouped_in_cells(
    centroids: np.ndarray, assignment: np.ndarray, cells: int
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, list[int]]]:
    """Two levels: the clusters' unit centroids clustered again (spherical_kmeans) into cells,
    the clusters renumbered cell by cell (in their order within a cell) -> (centroids,
    assignment, (the cells' unit centroids, clusters per cell))."""
    cell_centroids, cell_of = spherical_kmeans(centroids, cells)
    order = np.argsort(cell_of, kind="stable")
    renumber = np.empty_like(order)
    renumber[order] = np.arange(order.size)
    per_cell = np.bincount(cell_of, minlength=cell_centroids.shape[0])
    return centroids[order], renumber[assignment], (cell_centroids, [int(c) for c in per_cell])


def chained(centroids: np.ndarray, assignment: np.ndarray, cells: list[int] | None) -> tuple[np.ndarray, np.ndarray]:
    """The clusters renumbered along a chain of their centroids, within each cell (two levels:
    the cells keep their ranges): from a cell's first cluster, each next the most similar one
    not yet chained (ties to the lower number), so the clusters a query probes, whose centroids
    are near it and so near each other, get numbers close together -> (centroids, assignment)."""
    order: list[int] = []
    start = 0
    for count in cells or [centroids.shape[0]]:
        similar = centroids[start : start + count] @ centroids[start : start + count].T
        chained = np.zeros(count, dtype=bool)
        current = 0
        for _ in range(count):
            order.append(start + current)
            chained[current] = True
            current = int(np.argmax(np.where(chained, -np.inf, similar[current])))
        start += count
    renumber = np.empty(len(order), dtype=np.int64)
    renumber[order] = np.arange(len(order))
    return centroids[order], renumber[assignment]


def clustered_layout(
    rows: np.ndarray,
    scales: np.ndarray,
    clusters: int | str | None = None,
    probe: int | None = None,
    bits: int | None = None,
    cells: int | None = None,
    kmeans: KMeans = spherical_kmeans,
) -> tuple[dict[str, bytes], dict[str, Any], list[int]] | None:
    """The clustered vector files, the manifest's `vectors.clusters` and each chunk's cluster (as
    numbered there: bundle/display_groups.py orders display rows by it), or None for one
    vectors.bin. `clusters`: None = cluster_rule, "auto" = cluster_rule even for a small site
    (tests), a number = that many (1: never); `probe`, `bits`: probe_rule; `cells`: None =
    cell_rule, a number = that many (1: one level); `kmeans`: how the vectors are clustered
    (cached_kmeans: a result kept from an earlier build)."""
    n, dim = rows.shape
    if clusters is None or clusters == "auto":
        count = cluster_rule(n, dim, clusters == "auto", bits or BITS)
    else:
        count = min(int(clusters), n)
    if count <= 1:
        return None
    centroids, assignment = kmeans(unit_rows(rows, scales), count)
    # "auto" clusters a small site to test the clustered layout: reading min_reads would read it all.
    rule = probe_rule(n, probe, bits, 0 if clusters == "auto" else min_reads(dim))
    cell_count = cell_rule(n, centroids.shape[0]) if cells is None else min(cells, centroids.shape[0])
    grouped = None
    if cell_count > 1:  # group files under cells, no hoods: a hood may cross cells
        centroids, assignment, grouped = grouped_in_cells(centroids, assignment, cell_count)
        del rule["hood_chunks"]
        rule["probe"] = rule["cell_probe"]
    rule["probe"] = min(rule["probe"], centroids.shape[0])
    centroids, assignment = chained(centroids, assignment, grouped[1] if grouped else None)
    rule["group_bytes"] = rule["reads"] * numbered_row_bytes(dim, rule["bits"]) // GROUPS_PER_READ
    points = rows.astype(np.float64) * scales[:, None]
    return (*clustered_files(points, centroids, assignment, rule, grouped), assignment.tolist())
