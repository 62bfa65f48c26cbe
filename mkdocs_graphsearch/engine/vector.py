"""Vector similarity against the bundle's int8 passage vectors (mirrored by js/src/vector.js).

Exact in both engines by construction: the query vector is quantized to integers
q_int = floor(q / max|q| * 32767 + 0.5), the dot product with each int8 passage row is an
integer (exact in float64 too), and the cosine is (dot * passage_scale) * query_scale with
query_scale = max|q| / 32767.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

QUERY_LEVELS = 32767


def quantize_query(vector: Sequence[float]) -> tuple[np.ndarray, float]:
    peak = 0.0
    for value in vector:
        peak = max(peak, abs(value))
    if peak == 0.0:
        return np.zeros(len(vector), dtype=np.int64), 0.0
    q = np.array([math.floor(value / peak * QUERY_LEVELS + 0.5) for value in vector], dtype=np.int64)
    return q, peak / QUERY_LEVELS


def cosines(vectors: np.ndarray, scales: np.ndarray, query: Sequence[float]) -> np.ndarray:
    """Cosine of every passage with the (unit) query vector, as both engines compute it."""
    q, query_scale = quantize_query(query)
    dots = vectors.astype(np.int64) @ q
    cos: np.ndarray = dots.astype(np.float64) * scales * query_scale
    return cos
