"""Reading encoder.json + encoder.bin (written by index/encoder.py): one decoder for the engine's
query encoder and for the build's projection of passage vectors.

encoder.bin layout (little-endian): int8 rows (n_tokens x pca_dim) | float32 row_scales (pca_dim)
| float32 weights (n_tokens) | int8 components (pca_dim x dim) | float32 component_scales (pca_dim).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.format import ENCODER_BIN, BundleError


@dataclass
class EncoderArrays:
    """The table dequantized: float64 values, each an exact product of the stored int8 and scale."""

    tokens: list[int]
    rows: np.ndarray  # (n_tokens, pca_dim)
    weights: np.ndarray  # (n_tokens,)
    components: np.ndarray  # (pca_dim, dim)


def check_encoder_size(meta: dict[str, Any], data: bytes) -> None:
    """encoder.bin must be exactly as long as encoder.json's shapes say."""
    n, k, dim = len(meta["tokens"]), meta["pca_dim"], meta["dim"]
    expected = n * k + 4 * k + 4 * n + k * dim + 4 * k
    if len(data) != expected:
        raise BundleError(f"{ENCODER_BIN} has {len(data)} bytes, expected {expected} (corrupted)")


def decode_encoder(meta_bytes: bytes, data: bytes) -> EncoderArrays:
    meta = orjson.loads(meta_bytes)
    check_encoder_size(meta, data)
    tokens, k, dim = meta["tokens"], meta["pca_dim"], meta["dim"]
    n = len(tokens)
    offset = 0

    def take(dtype: str, count: int) -> np.ndarray:
        nonlocal offset
        array = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
        offset += array.nbytes
        return array.astype(np.float64)

    rows = take("i1", n * k).reshape(n, k)
    row_scales = take("<f4", k)
    weights = take("<f4", n)
    components = take("i1", k * dim).reshape(k, dim)
    component_scales = take("<f4", k)
    return EncoderArrays(
        tokens=tokens,
        rows=rows * row_scales[None, :],
        weights=weights,
        components=components * component_scales[:, None],
    )
