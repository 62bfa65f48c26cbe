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
from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.vector_shards import clustered_files

#: Lloyd iterations (fixed: the same vectors always give the same clusters).
ITERATIONS = 20
#: Below this many bytes of int8 rows + scales, every vector is one file (no clusters: exact
#: search, as before the clustered layout); mkdocs-docs (616 chunks x 128-d, 81 KB) stays whole.
SINGLE_FILE_BYTES = 128 * 1024


def cluster_rule(n_chunks: int, dim: int, force: bool = False) -> tuple[int, int]:
    """(clusters, probe) for a site: one cluster (exact search) while all vectors fit in
    SINGLE_FILE_BYTES (unless `force`), else round(4 sqrt(n)) clusters and probe = ceil(k / 5).
    Measured with benchmarks/vector_recall.py (docs/format3-status.md): small clusters probed
    in numbers beat big ones probed in few (k8s-docs, 12,486 chunks: 111 clusters need 40 probed,
    40 % of the vectors, for recall@10 0.96; 447 clusters probed by 90 read 21 % for 0.95), and
    the static encoder's query vectors sit far from every centroid, so a query reads about a
    fifth of the clusters: k8s-docs 447 / 90 (recall@10 0.9525), mkdocs-docs forced 99 / 20
    (0.9825). The centroids cost k x (dim + 4) bytes, always loaded: ~4 % of the vectors at
    12k chunks, 13 % at 100k (1265 clusters)."""
    if n_chunks * (dim + 4) <= SINGLE_FILE_BYTES and not force or n_chunks < 2:
        return 1, 1
    clusters = min(n_chunks, max(2, round(4 * math.sqrt(n_chunks))))
    return clusters, probe_for(clusters)


def probe_for(clusters: int) -> int:
    """How many clusters a query reads, for a number of clusters (cluster_rule)."""
    return max(1, math.ceil(clusters / 5))


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


def clustered_layout(
    rows: np.ndarray, scales: np.ndarray, clusters: int | str | None = None, probe: int | None = None
) -> tuple[dict[str, bytes], dict[str, Any]] | None:
    """The clustered vector files and the manifest's `vectors.clusters`, or None for one
    vectors.bin. `clusters`: None = cluster_rule, "auto" = cluster_rule even for a small site
    (tests), a number = that many (1: never); `probe`: None = probe_for(clusters made)."""
    n, dim = rows.shape
    if clusters is None or clusters == "auto":
        count, _ = cluster_rule(n, dim, force=clusters == "auto")
    else:
        count = min(int(clusters), n)
    if count <= 1:
        return None
    centroids, assignment = spherical_kmeans(unit_rows(rows, scales), count)
    made = centroids.shape[0]
    return clustered_files(rows, scales, centroids, assignment, min(probe or probe_for(made), made))
