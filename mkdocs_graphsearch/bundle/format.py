"""Bundle format v1: the files the plugin writes under `search/` and both engines read.

    manifest.json   format, generator, counts, search settings, and per file: bytes + CRC-32
    keyword.json    terms (sorted by code point), pages and chunks (columnar)   -- first keystroke
    postings.bin    varints: T per-term posting counts, then P chunk-index deltas
                    (restarting at each term), then P quantized impacts           -- first keystroke
    graph.json      typed chunk -> chunk edges in CSR form (index/graph.py)      -- first keystroke
    text.json       per chunk, the plain text snippets are cut from             -- after
    vectors.bin     int8 passage vectors (chunks x dim, row-major), then one float32
                    little-endian scale per chunk                                -- semantic part
    encoder.json    the static query encoder's token list and shapes            -- semantic part
    encoder.bin     its int8 token rows, float32 scales and weights, components -- semantic part
    vocab.txt       the WordPiece vocabulary the query encoder tokenizes with    -- semantic part
The semantic files are present only when the bundle was built with embeddings
(manifest.vectors / manifest.encoder describe them).

Every file is written deterministically (sorted keys, no floats beyond fixed rounding), so the
same docs give byte-identical bundles. A reader checks `format`, each file's size and CRC-32
 before use, and reports which file is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable

import zlib

import numpy as np

FORMAT_VERSION = 1
BUNDLE_DIR = "search"
MANIFEST = "manifest.json"
KEYWORD = "keyword.json"
POSTINGS = "postings.bin"
TEXT = "text.json"
GRAPH = "graph.json"
VECTORS = "vectors.bin"
ENCODER = "encoder.json"
ENCODER_BIN = "encoder.bin"
VOCAB = "vocab.txt"


class BundleError(Exception):
    """A bundle that is missing, newer than this reader, truncated or corrupted."""


def encode_varints(values: Iterable[int]) -> bytes:
    """Unsigned LEB128: 7 bits a byte, high bit set on every byte but a value's last."""
    out = bytearray()
    for value in values:
        if value < 0:
            raise ValueError(f"varint must be >= 0, got {value}")
        while value >= 0x80:
            out.append((value & 0x7F) | 0x80)
            value >>= 7
        out.append(value)
    return bytes(out)


def decode_varints(data: bytes) -> np.ndarray:
    """All varints in `data` as int64 (vectorised); raises BundleError on a cut-off value."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if raw.size == 0:
        return np.zeros(0, dtype=np.int64)
    if raw[-1] & 0x80:
        raise BundleError("varint stream ends inside a value")
    last = (raw & 0x80) == 0
    value_of_byte = np.concatenate(([0], np.cumsum(last)[:-1]))
    starts = np.flatnonzero(np.concatenate(([True], last[:-1])))
    position = np.arange(raw.size) - starts[value_of_byte]
    if position.max() > 8:
        raise BundleError("varint longer than 9 bytes")
    parts = (raw & 0x7F).astype(np.int64) << (7 * position)
    return np.add.reduceat(parts, starts)


def checksum(data: bytes) -> int:
    """CRC-32 (zlib's polynomial), the integrity check js/src/bundle.js computes too."""
    return zlib.crc32(data) & 0xFFFFFFFF
