"""Fit the static query encoder to a site (DESIGN section 5): no model in the reader's browser.

For every WordPiece token seen in the site's passages (in each passage's model input: its first
`max_tokens - 2` pieces, index/embed.py), the mean of the model's in-context output vectors for
it (a "site table"); rows centred by their mean; PCA to `pca_dim`
dimensions; coefficients int8 per dimension; each row weighted by Zipf's rank
(log(1 + frequency rank): rare tokens say more). The engines turn a query into the weighted
mean of its tokens' rows, normalised (engine/encoder.py, js/src/engine/encoder.js).

Passage vectors are stored projected onto the same PCA basis (`project`): the dot product of
a query's coefficients with a projected passage equals the dot product of its reconstruction
with the full passage vector, so nothing is lost for the static encoder while vectors.bin
shrinks from the model's dimension to `pca_dim` (384 -> 128) and the browser skips the
reconstruction.

The means come from `TokenStats`: per token, the number of occurrences and the sum of its output
vectors, each vector component rounded to a multiple of 2^-24 (`STATE_SCALE`: float32 states carry
no more below 1, and the rounding moves a component by at most 3e-8) and summed as an int64. Integer
sums are exact, so they do not depend on the order passages are added in, and a passage can be
taken out again exactly (index/fit_cache.py): a fit from statistics updated passage by passage
after an edit equals, bit for bit, the fit of a clean build over the same passages.
"""

from __future__ import annotations

import math
from collections.abc import Collection
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


#: Token states are summed as integers in units of 2^-24 (see the module docstring).
STATE_SCALE = 2.0**24


class TokenStats:
    """Per token id: occurrences and the sum of its output vectors (int64, units of 1/STATE_SCALE).

    Adding the same passages in any order, or adding then removing one, gives the same integers
    (int64 sums wrap around on overflow, and wrap back: only the final sums must fit)."""

    def __init__(self, dim: int, special_ids: Collection[int]) -> None:
        self.dim = dim
        self.special = np.array(sorted(special_ids), dtype=np.int64)
        self._row: dict[int, int] = {}  # token id -> row of counts and sums
        self._counts = np.zeros(0, dtype=np.int64)
        self._sums = np.zeros((0, dim), dtype=np.int64)

    def add(self, ids: np.ndarray | list[int], states: np.ndarray, times: int = 1) -> None:
        """Count a passage's word pieces and their output vectors `times` times (-1 takes it out)."""
        ids = np.asarray(ids, dtype=np.int64)
        states = np.asarray(states)
        if states.dtype != np.float32:  # float32 (the model's) is scaled as it is: exactly the same
            states = states.astype(np.float64)  # values, a power of two being exact in either
        keep = ~np.isin(ids, self.special)
        if not keep.all():  # a passage's states are seldom masked: no copy of them otherwise
            ids, states = ids[keep], states[keep]
        if not ids.size:
            return
        scaled = states * states.dtype.type(STATE_SCALE)
        fixed = np.rint(scaled, out=scaled).astype(np.int64)
        if times != 1:
            fixed *= times
        tokens, inverse, counts = np.unique(ids, return_inverse=True, return_counts=True)
        rows = self._rows(tokens.tolist())
        self._counts[rows] += counts * times
        # Each piece's row straight into the sums, a token's repeats in later rounds (an index
        # array with repeats adds once): no per-passage sort and reduction of the states.
        order = np.argsort(inverse, kind="stable")
        first = np.zeros(len(tokens) + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        repeat = np.arange(len(ids)) - np.repeat(first[:-1], counts)  # 0 for a token's first piece
        for k in range(int(counts.max())):
            at = order[repeat == k]
            self._sums[rows[inverse[at]]] += fixed[at]

    def _rows(self, tokens: list[int]) -> np.ndarray:
        for token in tokens:
            if token not in self._row:
                self._row[token] = len(self._row)
        if len(self._row) > len(self._counts):  # grow by doubling
            size = max(len(self._row), 2 * len(self._counts))
            self._counts = np.concatenate([self._counts, np.zeros(size - len(self._counts), np.int64)])
            self._sums = np.concatenate([self._sums, np.zeros((size - len(self._sums), self.dim), np.int64)])
        return np.array([self._row[token] for token in tokens], dtype=np.int64)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(token ids ascending, counts, sums) of the tokens seen (count > 0). Read-only: where
        the rows are already in that order (statistics loaded, then no token added or dropped:
        an edit's refit), the counts and sums are views of this object's arrays, not copies."""
        ids = np.fromiter(self._row.keys(), dtype=np.int64, count=len(self._row))
        rows = np.fromiter(self._row.values(), dtype=np.int64, count=len(self._row))
        seen = self._counts[rows] > 0
        ids, rows = ids[seen], rows[seen]
        order = np.argsort(ids, kind="stable")
        tokens, rows = ids[order], rows[order]
        if np.array_equal(rows, np.arange(len(rows))):
            return tokens, self._counts[: len(rows)], self._sums[: len(rows)]
        return tokens, self._counts[rows], self._sums[rows].reshape(len(rows), self.dim)

    @classmethod
    def from_arrays(
        cls, special_ids: Collection[int], tokens: np.ndarray, counts: np.ndarray, sums: np.ndarray
    ) -> TokenStats:
        """The statistics `arrays` gave (distinct tokens); the arrays are copied (`add` changes them in place)."""
        stats = cls(sums.shape[1], special_ids)
        ids = np.asarray(tokens, dtype=np.int64).tolist()
        stats._row = {token: row for row, token in enumerate(ids)}
        stats._counts = np.array(counts, dtype=np.int64)
        stats._sums = np.array(sums, dtype=np.int64).reshape(len(ids), stats.dim)
        return stats


def fit_encoder(stats: TokenStats, pca_dim: int = 128) -> EncoderTable | None:
    """The site's static encoder from its token statistics; None if no token was seen."""
    tokens, counts, sums = stats.arrays()
    if not tokens.size:
        return None
    table = sums.astype(np.float64) / (STATE_SCALE * counts.astype(np.float64))[:, None]
    centred = table - table.mean(axis=0, keepdims=True)
    pca_dim = min(pca_dim, *centred.shape)
    # The principal axes: eigenvectors of the (dim x dim) Gram matrix, largest eigenvalue first.
    # The same axes as an SVD of the table (the same int8 bytes) in a fraction of its time, and
    # an edit's refit is mostly this.
    _, eigenvectors = np.linalg.eigh(centred.T @ centred)
    components = eigenvectors[:, ::-1][:, :pca_dim].T
    # A fixed sign per component (largest entry positive), so the same docs give the same bytes.
    signs = np.sign(components[np.arange(pca_dim), np.abs(components).argmax(axis=1)])
    components = components * signs[:, None]
    coefficients = centred @ components.T
    rows, row_scales = _int8(coefficients, axis=0)
    comp_q, comp_scales = _int8(components, axis=1)
    # Zipf: rank 1 = the most frequent token; weight log(1 + rank).
    count_of = dict(zip(tokens.tolist(), counts.tolist(), strict=True))
    order = sorted(count_of, key=lambda t: (-count_of[t], t))
    rank = {token: i + 1 for i, token in enumerate(order)}
    weights = np.array([math.log(1 + rank[t]) for t in tokens.tolist()], dtype=np.float32)
    return EncoderTable(tokens, rows, row_scales, weights, comp_q, comp_scales)
