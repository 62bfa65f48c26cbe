"""Reciprocal rank fusion of the keyword and vector rankings (mirrored by js/src/fuse.js).

fused(c) = keyword_weight / (rrf_k + keyword rank of c) + vector_weight / (rrf_k + vector rank of c),
each term present only when c is in that ranking (ranks from 1), added in that order.
The keyword ranking holds chunks with a positive keyword score; the vector ranking those whose
cosine reaches `vector_threshold`. Both thresholds are absolute, so an off-topic query fuses
nothing and returns nothing.
"""

from __future__ import annotations

from typing import Any


def rrf(keyword_ranked: list[int], vector_ranked: list[int], settings: dict[str, Any]) -> dict[int, float]:
    k = settings["rrf_k"]
    fused: dict[int, float] = {}
    for rank, chunk in enumerate(keyword_ranked, 1):
        fused[chunk] = 0.0 + settings["keyword_weight"] / (k + rank)
    for rank, chunk in enumerate(vector_ranked, 1):
        fused[chunk] = fused.get(chunk, 0.0) + settings["vector_weight"] / (k + rank)
    return fused
