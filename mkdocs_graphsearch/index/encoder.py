"""Fit the static query encoder to a site (DESIGN section 5): no model in the reader's browser.

For every WordPiece token seen in the site's passages, the mean of the model's in-context
output vectors for it (a "site table"); rows centred by their mean; PCA to `pca_dim`
dimensions; coefficients int8 per dimension; each row weighted by Zipf's rank
(log(1 + frequency rank): rare tokens say more). The engines turn a query into the weighted
mean of its tokens' rows, normalised (engine/encoder.py, js/src/encoder.js).

Passage vectors are stored projected onto the same PCA basis (`project`): the dot product of
a query's coefficients with a projected passage equals the dot product of its reconstruction
with the full passage vector, so nothing is lost for the static encoder while vectors.bin
shrinks from the model's dimension to `pca_dim` (384 -> 128) and the browser skips the
reconstruction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.encoder_file import decode_encoder


@dataclass
class EncoderTable:
    tokens: np.ndarray  # int64 token ids, ascending
    rows: np.ndarray  # int8 (n_tokens, pca_dim)
    row_scales: np.ndarray  # float32 (pca_dim,): value = rows[:, d] * row_scales[d]
    weights: np.ndarray  # float32 (n_tokens,)
    components: np.ndarray  # int8 (pca_dim, dim)
    component_scales: np.ndarray  # float32 (pca_dim,)

    def files(self) -> tuple[bytes, bytes]:
        """encoder.json and encoder.bin (layout: bundle/encoder_file.py)."""
        meta = {
            "tokens": [int(t) for t in self.tokens],
            "pca_dim": int(self.rows.shape[1]),
            "dim": int(self.components.shape[1]),
        }
        binary = b"".join(
            [
                self.rows.astype(np.int8).tobytes(),
                self.row_scales.astype("<f4").tobytes(),
                self.weights.astype("<f4").tobytes(),
                self.components.astype(np.int8).tobytes(),
                self.component_scales.astype("<f4").tobytes(),
            ]
        )
        return orjson.dumps(meta, option=orjson.OPT_SORT_KEYS), binary


def project(vectors: np.ndarray, encoder_files: tuple[bytes, bytes]) -> np.ndarray:
    """Passage vectors (n, dim) -> their coefficients on the encoder's stored basis (n, pca_dim)."""
    components = decode_encoder(*encoder_files).components
    return np.asarray(vectors, dtype=np.float64) @ components.T


def _int8(matrix: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 quantization with one scale per slice along `axis`."""
    peak = np.abs(matrix).max(axis=axis, keepdims=True)
    peak[peak == 0] = 1.0
    scales = (peak / 127.0).astype(np.float32)
    quantized = np.clip(np.rint(matrix / scales.astype(np.float64)), -127, 127).astype(np.int8)
    return quantized, scales.reshape(-1)


def fit_encoder(
    token_runs: Iterable[tuple[np.ndarray, np.ndarray]],
    special_ids: set[int],
    pca_dim: int = 128,
) -> EncoderTable | None:
    """`token_runs`: per passage window, (token ids, in-context output vectors). None if empty."""
    sums: dict[int, np.ndarray] = {}
    counts: dict[int, int] = {}
    for ids, states in token_runs:
        for position, token in enumerate(ids.tolist()):
            if token in special_ids:
                continue
            if token in sums:
                sums[token] += states[position]
                counts[token] += 1
            else:
                sums[token] = states[position].astype(np.float64)
                counts[token] = 1
    if not sums:
        return None
    tokens = np.array(sorted(sums), dtype=np.int64)
    table = np.stack([sums[t] / counts[t] for t in tokens.tolist()])
    centred = table - table.mean(axis=0, keepdims=True)
    pca_dim = min(pca_dim, *centred.shape)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    components = vt[:pca_dim]
    # A fixed sign per component (largest entry positive), so the same docs give the same bytes.
    signs = np.sign(components[np.arange(pca_dim), np.abs(components).argmax(axis=1)])
    components = components * signs[:, None]
    coefficients = centred @ components.T
    rows, row_scales = _int8(coefficients, axis=0)
    comp_q, comp_scales = _int8(components, axis=1)
    # Zipf: rank 1 = the most frequent token; weight log(1 + rank).
    order = sorted(tokens.tolist(), key=lambda t: (-counts[t], t))
    rank = {token: i + 1 for i, token in enumerate(order)}
    weights = np.array([math.log(1 + rank[t]) for t in tokens.tolist()], dtype=np.float32)
    return EncoderTable(tokens, rows, row_scales, weights, comp_q, comp_scales)
