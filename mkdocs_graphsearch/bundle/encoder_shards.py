"""The query encoder as the bundle stores it: token rows in shards the browser fetches by token
(mirrored by js/src/engine/bundle/encoder-shards.js).

The build fits one table (bundle/encoder_file.py: encoder.json + encoder.bin, the form the
encoder cache keeps); `split_encoder` lays it out as

    encoder.json        {"dim", "pca_dim", "rows": the table's row count, "row_scales": pca_dim
                        float32 values as JSON numbers}                 -- semantic part
    encoder.<i>.bin     shard i: its m rows in token order: uint32 LE tokens (m) | float32 LE
                        weights (m) | int8 rows (m x pca_dim)          -- the query's pieces' shards
    encoder-model.bin   int8 components (pca_dim x dim) | float32 LE component scales (pca_dim):
                        only `--query-encoder model` projection reads it -- never by the browser

and the manifest's `encoder.shards` lists each shard's first token number (shard 0: 0): token t
is in the last shard whose first is <= t, and a shard holds only tokens below the next one's
first. A shard closes at ENCODER_SHARD_ROWS rows (a few KiB raw; int8 rows barely compress): a
query of a few pieces fetches a few shards, not every row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.encoder_file import EncoderArrays
from mkdocs_graphsearch.bundle.format import ENCODER, ENCODER_MODEL, BundleError, encoder_shard

#: Rows per encoder shard (benchmarks/results/history/format3-work-log.md): on a large site, fewer
#: bytes for a query than twice as many rows, for a small manifest cost; half as many cost the
#: manifest more than they save.
ENCODER_SHARD_ROWS = 16


def split_encoder(
    arrays_meta: bytes, data: bytes, rows_per_shard: int = ENCODER_SHARD_ROWS
) -> tuple[dict[str, bytes], list[int]]:
    """The fitted table (encoder.json + encoder.bin of encoder_file.py) -> the bundle's encoder
    parts by logical name, and the manifest's `encoder.shards`."""
    meta = orjson.loads(arrays_meta)
    k, dim = meta["pca_dim"], meta["dim"]
    tokens, weights, rows = encoder_table(arrays_meta, data)
    n = len(tokens)
    row_scales = np.frombuffer(data, dtype="<f4", count=k, offset=n * k)
    model = data[n * k + 4 * k + 4 * n :]
    order = np.argsort(np.asarray(tokens, dtype=np.int64), kind="stable")
    parts = {
        ENCODER: orjson.dumps(
            {"dim": dim, "pca_dim": k, "rows": n, "row_scales": [float(s) for s in row_scales]},
            option=orjson.OPT_SORT_KEYS,
        ),
        ENCODER_MODEL: bytes(model),
    }
    firsts: list[int] = []
    for index, start in enumerate(range(0, max(n, 1), rows_per_shard)):
        picked = order[start : start + rows_per_shard]
        firsts.append(0 if index == 0 else int(tokens[picked[0]]))
        parts[encoder_shard(index)] = rows_block([tokens[i] for i in picked], weights[picked], rows[picked])
    return parts, firsts


def encoder_table(arrays_meta: bytes, data: bytes) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The fitted table's tokens, float32 weights and int8 rows (encoder.bin: bundle/encoder_file.py)."""
    meta = orjson.loads(arrays_meta)
    tokens, k = meta["tokens"], meta["pca_dim"]
    n = len(tokens)
    rows = np.frombuffer(data, dtype=np.int8, count=n * k).reshape(n, k)
    return tokens, np.frombuffer(data, dtype="<f4", count=n, offset=n * k + 4 * k), rows


def rows_block(tokens: list[int], weights: np.ndarray, rows: np.ndarray) -> bytes:
    """Rows in shard layout: uint32 LE tokens | float32 LE weights | int8 rows (also the word
    files' rows: bundle/word_rows.py)."""
    return np.asarray(tokens, dtype="<u4").tobytes() + weights.astype("<f4").tobytes() + rows.astype(np.int8).tobytes()


def read_rows(data: bytes, k: int, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows in shard layout -> (tokens, float64 weights, int8 rows), checked: whole rows."""
    if len(data) % (8 + k):
        raise BundleError(f"{name} has {len(data)} bytes, not whole rows of {8 + k} (corrupted)")
    m = len(data) // (8 + k)
    tokens = np.frombuffer(data, dtype="<u4", count=m).astype(np.int64)
    weights = np.frombuffer(data, dtype="<f4", count=m, offset=4 * m).astype(np.float64)
    return tokens, weights, np.frombuffer(data, dtype=np.int8, count=m * k, offset=8 * m).reshape(m, k)


def shard_of(firsts: list[int], token: int) -> int:
    """The shard that would hold `token`: the last whose first token is <= it."""
    return int(np.searchsorted(np.asarray(firsts), token, side="right")) - 1


def read_encoder_shard(
    data: bytes, meta: dict[str, Any], firsts: list[int], index: int
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Shard `index` -> (its tokens, their float32 weights, their int8 rows), checked: whole
    rows, tokens rising and inside the shard's range (same messages as js/src/engine/bundle/encoder-shards.js)."""
    name = encoder_shard(index)
    tokens, weights, rows = read_rows(data, meta["pca_dim"], name)
    m = len(tokens)
    high = firsts[index + 1] if index + 1 < len(firsts) else None
    if m and (
        tokens[0] < firsts[index] or (high is not None and tokens[-1] >= high) or bool(np.any(np.diff(tokens) <= 0))
    ):
        raise BundleError(f"{name} holds tokens out of order or outside its range (corrupted)")
    return tokens.tolist(), weights, rows


def check_encoder_model(data: bytes, meta: dict[str, Any]) -> None:
    k, dim = meta["pca_dim"], meta["dim"]
    if len(data) != k * dim + 4 * k:
        raise BundleError(f"{ENCODER_MODEL} has {len(data)} bytes, expected {k * dim + 4 * k} (corrupted)")


def join_encoder(
    meta: dict[str, Any], shards: list[tuple[list[int], np.ndarray, np.ndarray]], model: bytes
) -> EncoderArrays:
    """Every shard as read_encoder_shard gave it and the model part -> the whole table (checked),
    as decode_encoder gives it."""
    tokens: list[int] = [token for shard_tokens, _, _ in shards for token in shard_tokens]
    weights = [shard_weights for _, shard_weights, _ in shards]
    rows = [shard_rows for _, _, shard_rows in shards]
    if len(tokens) != meta["rows"]:
        raise BundleError(f"the encoder shards hold {len(tokens)} rows, {ENCODER} says {meta['rows']} (corrupted)")
    check_encoder_model(model, meta)
    k, dim = meta["pca_dim"], meta["dim"]
    row_scales = np.asarray(meta["row_scales"], dtype=np.float64)
    components = np.frombuffer(model, dtype=np.int8, count=k * dim).reshape(k, dim).astype(np.float64)
    component_scales = np.frombuffer(model, dtype="<f4", offset=k * dim).astype(np.float64)
    return EncoderArrays(
        tokens=tokens,
        rows=np.concatenate(rows).astype(np.float64) * row_scales[None, :] if rows else np.zeros((0, k)),
        weights=np.concatenate(weights) if weights else np.zeros(0),
        components=components * component_scales[:, None],
    )
