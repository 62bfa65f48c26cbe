"""Vector similarity against the bundle's int8 passage vectors (mirrored by js/src/vector.js).

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

#: A format-1 manifest's vectors entry has no `query_levels` (index/semantic.py writes it since
#: format 2): the value those engines had built in. Frozen: never change it.
FORMAT_1_QUERY_LEVELS = 32767


def query_levels(manifest: dict[str, Any]) -> int:
    """The integer range the query vector is quantized to: +-query_levels."""
    levels: int = manifest["vectors"].get("query_levels", FORMAT_1_QUERY_LEVELS)
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


def probed_clusters(clusters: Clusters, query: Sequence[float], levels: int) -> list[int]:
    """The clusters a query reads (bundle/vector_shards.py): by the cosine of their centroids
    with the query (computed as for passages), best first, ties to the lower cluster number,
    taken while fewer than `probe` are taken or fewer than `probe_chunks` chunks are read."""
    cos = cosines(clusters.centroids, clusters.centroid_scales, query, levels).tolist()
    probed: list[int] = []
    read = 0
    for cluster in sorted(range(len(cos)), key=lambda c: (-cos[c], c)):
        if len(probed) >= clusters.probe and read >= clusters.probe_chunks:
            break
        probed.append(cluster)
        read += clusters.members[cluster].size
    return probed


def probed_mask(clusters: Clusters, query: Sequence[float], levels: int, n_chunks: int) -> np.ndarray:
    """True for the chunks of the probed clusters: every other chunk's cosine counts as 0."""
    mask = np.zeros(n_chunks, dtype=bool)
    for cluster in probed_clusters(clusters, query, levels):
        mask[clusters.members[cluster]] = True
    return mask
