"""Vector similarity against the bundle's int8 passage vectors (mirrored by js/src/engine/vector.js).

Exact in both engines by construction: the query vector is quantized to integers
q_int = floor(q / max|q| * L + 0.5), the dot product with each int8 passage row is an
integer (exact in float64 too), and the cosine is (dot * passage_scale) * query_scale with
query_scale = max|q| / L, where L is the manifest's vectors.query_levels (index/semantic.py).
A clustered bundle (bundle/vector_shards.py) scores only the chunks of the clusters the query
probes (probed_clusters); every other chunk's cosine is 0, as if it had no vector.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.vector_shards import Clusters

#: An older manifest's vectors entry has no `query_levels` (index/semantic.py writes it
#: now): the value those engines had built in. Frozen: never change it.
QUERY_LEVELS_IF_ABSENT = 32767


def query_levels(manifest: dict[str, Any]) -> int:
    """The integer range the query vector is quantized to: +-query_levels."""
    levels: int = manifest["vectors"].get("query_levels", QUERY_LEVELS_IF_ABSENT)
    return levels


def quantize_query(vector: Sequence[float], levels: int) -> tuple[np.ndarray, float]:
    peak = 0.0
    for value in vector:
        peak = max(peak, abs(value))
    if peak == 0.0:
        return np.zeros(len(vector), dtype=np.int64), 0.0
    q = np.array([math.floor(value / peak * levels + 0.5) for value in vector], dtype=np.int64)
    return q, peak / levels


def cosines(vectors: np.ndarray, scales: np.ndarray, query: Sequence[float], levels: int) -> np.ndarray:
    """Cosine of every passage with the (unit) query vector, as both engines compute it."""
    q, query_scale = quantize_query(query, levels)
    dots = vectors.astype(np.int64) @ q
    cos: np.ndarray = dots.astype(np.float64) * scales * query_scale
    return cos


def _best_first(
    rows: np.ndarray, scales: np.ndarray, numbers: Sequence[int], query: Sequence[float], levels: int
) -> list[int]:
    """`numbers` (the rows' cluster or cell numbers) by the cosine of their rows with the query
    (computed as for passages), best first, ties to the lower number."""
    cos = dict(zip(numbers, cosines(rows, scales, query, levels).tolist(), strict=True))
    return sorted(numbers, key=lambda c: (-cos[c], c))


def _taken(order: list[int], sizes: Sequence[int], probe: int, probe_chunks: int) -> list[int]:
    """The first of `order` taken while fewer than `probe` are taken or their sizes add up to
    fewer than `probe_chunks`."""
    taken: list[int] = []
    read = 0
    for number in order:
        if len(taken) >= probe and read >= probe_chunks:
            break
        taken.append(number)
        read += sizes[number]
    return taken


def probed_cells(clusters: Clusters, query: Sequence[float], levels: int) -> list[int]:
    """Two levels: the cells a query takes, best first, until their clusters' chunks add up to
    at least `cell_chunks` (at least one cell)."""
    cells = clusters.cells or []
    sizes = [sum(clusters.members[c].size for c in clusters.cell_clusters(cell)) for cell in range(len(cells))]
    assert clusters.cell_centroids is not None and clusters.cell_scales is not None
    order = _best_first(clusters.cell_centroids, clusters.cell_scales, range(len(cells)), query, levels)
    return _taken(order, sizes, 1, clusters.cell_chunks)


def probed_files(clusters: Clusters, query: Sequence[float], levels: int) -> list[int]:
    """Hoods (bundle/vector_shards.py): the files a query reads, in the order taken: down the
    clusters best first (as probed_clusters ranks them), each cluster no file taken holds takes
    its own file, until `probe` files are taken."""
    numbers = list(range(len(clusters.members)))
    taken: list[int] = []
    held: set[int] = set()
    for cluster in _best_first(clusters.centroids, clusters.centroid_scales, numbers, query, levels):
        if len(taken) >= clusters.probe:
            break
        if cluster not in held:
            taken.append(cluster)
            held.update(clusters.hood(cluster))
    return taken


def probed_clusters(clusters: Clusters, query: Sequence[float], levels: int) -> list[int]:
    """The clusters a query reads (bundle/vector_shards.py): by the cosine of their centroids
    with the query (computed as for passages), best first, ties to the lower cluster number,
    taken while fewer than `probe` are taken or fewer than `probe_chunks` chunks are read; two
    levels: among the clusters of the cells taken (probed_cells) only; hoods: every cluster the
    files taken hold (probed_files), in rising order."""
    if clusters.hood_chunks:
        return sorted({c for center in probed_files(clusters, query, levels) for c in clusters.hood(center)})
    numbers: list[int] = list(range(len(clusters.members)))
    if clusters.cells is not None:
        numbers = sorted(c for cell in probed_cells(clusters, query, levels) for c in clusters.cell_clusters(cell))
    rows, scales = clusters.centroids[numbers], clusters.centroid_scales[numbers]
    order = _best_first(rows, scales, numbers, query, levels)
    return _taken(order, [m.size for m in clusters.members], clusters.probe, clusters.probe_chunks)


def probed_mask(clusters: Clusters, query: Sequence[float], levels: int, n_chunks: int) -> np.ndarray:
    """True for the chunks of the probed clusters: every other chunk's cosine counts as 0."""
    mask = np.zeros(n_chunks, dtype=bool)
    for cluster in probed_clusters(clusters, query, levels):
        mask[clusters.members[cluster]] = True
    return mask
