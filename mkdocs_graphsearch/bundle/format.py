"""Bundle format v2: the files the plugin writes under `search/` and both engines read.

    manifest.json   format, generator, counts, search settings, facets (optional: the values
                    each filter facet has, for UI chips: index/facets.py), and per part: its
                    file name (v2), bytes and CRC-32                             -- fetched first
    keyword.json    terms (sorted by code point), stems (stem -> its prose terms' indexes,
                    optional: index/bm25.py), pages and chunks (columnar; optional columns
                    pages.tags and chunks.defines: index/documents.py)          -- first keystroke
    postings.bin    varints: T per-term posting counts, then P chunk-index deltas
                    (restarting at each term), then P quantized impacts           -- first keystroke
    graph.json      typed chunk -> chunk edges in CSR form (index/graph.py)      -- first keystroke
    text.json       per chunk, the plain text snippets are cut from             -- after
    vectors.bin     int8 passage vectors (chunks x dim, row-major), then one float32
                    little-endian scale per chunk                                -- semantic part
    encoder.json    the static query encoder's token list and shapes            -- semantic part
    encoder.bin     its int8 token rows, float32 scales and weights, components -- semantic part
    vocab.txt       the WordPiece vocabulary the query encoder tokenizes with    -- semantic part
    related.json    optional (bundle/related.py): per page, its related pages     -- never by the browser
The semantic parts are present only when the bundle was built with embeddings
(manifest.vectors / manifest.encoder describe them). The manifest's optional `top` lists the
site's most connected pages (path, title, url) for an empty search box (bundle/related.py).

Layout on disk (v2): the names above are the parts' logical names. Every part is stored under a
content-hashed name, its logical name with the first HASH_CHARS hex digits of the SHA-256 of its
bytes before the extension (`keyword.json` -> `keyword.3f9a1c2b40de.json`); only manifest.json
keeps its name. The manifest's `files` maps each logical name to
`{"name": <file name>, "bytes": <size>, "crc32": <CRC-32>}`. So a host may cache the parts forever
while readers fetch manifest.json fresh: a deploy can never mix the parts of two builds.
Format 1 (still read) is the same without `name`: each part is stored under its logical name.

Every file is written deterministically (sorted keys, no floats beyond fixed rounding), so the
same docs give byte-identical bundles, file names included. A reader checks `format`, each file's
size and CRC-32 before use, and reports which file is wrong. The writer (write.py) writes parts
first and the manifest last, each through a temporary file and an atomic rename, and removes
only the parts its previous manifest listed.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Iterable
from typing import Any

import numpy as np

#: The format this package writes; readers accept MIN_FORMAT_VERSION up to it.
FORMAT_VERSION = 2
MIN_FORMAT_VERSION = 1
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
RELATED = "related.json"
#: postings.bin stores each BM25F impact as round(impact * IMPACT_SCALE), at least 1 (index/bm25.py);
#: the engines divide a summed score by the manifest's `impact_scale`.
IMPACT_SCALE = 256
#: Hex digits of a part's SHA-256 in its file name (48 bits: no two builds' parts collide in practice).
HASH_CHARS = 12
#: What a part's file name may look like: one plain file in the bundle folder, never a path.
SAFE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")


class BundleError(Exception):
    """A bundle that is missing, newer than this reader, truncated or corrupted."""


def hashed_name(part: str, data: bytes) -> str:
    """The file name a part is stored under: `keyword.json` -> `keyword.<hash>.json`."""
    stem, dot, ext = part.rpartition(".")
    digest = hashlib.sha256(data).hexdigest()[:HASH_CHARS]
    return f"{stem}.{digest}.{ext}" if dot else f"{part}.{digest}"


def file_name(manifest: dict[str, Any], part: str) -> str:
    """The file a manifest stores a part in (format 1: the part's own name)."""
    entry = manifest.get("files", {}).get(part)
    if not isinstance(entry, dict):
        raise BundleError(f"{MANIFEST} does not list {part}")
    name = entry.get("name", part)
    if not isinstance(name, str) or not SAFE_NAME.fullmatch(name) or name == MANIFEST:
        raise BundleError(f"{MANIFEST} gives {part} an invalid file name {name!r}")
    return name


#: The largest varint value: 2^53 - 1, the largest integer a JavaScript number holds exactly
#: (js/src/bundle.js decodes into float64), so both engines read every value exactly.
MAX_VARINT = 2**53 - 1
#: Bytes a varint may take (9 x 7 bits; only zero-padded values reach 9 bytes below MAX_VARINT).
MAX_VARINT_BYTES = 9


def encode_varints(values: Iterable[int]) -> bytes:
    """Unsigned LEB128: 7 bits a byte, high bit set on every byte but a value's last."""
    out = bytearray()
    for value in values:
        if not 0 <= value <= MAX_VARINT:
            raise ValueError(f"varint must be in 0..2^53 - 1, got {value}")
        while value >= 0x80:
            out.append((value & 0x7F) | 0x80)
            value >>= 7
        out.append(value)
    return bytes(out)


def decode_varints(data: bytes) -> np.ndarray:
    """All varints in `data` as int64 (vectorised); raises BundleError on a cut-off value, one
    longer than MAX_VARINT_BYTES or above MAX_VARINT (tests/vectors/varints.json: same errors in JS)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if raw.size == 0:
        return np.zeros(0, dtype=np.int64)
    if raw[-1] & 0x80:
        raise BundleError("varint stream ends inside a value")
    last = (raw & 0x80) == 0
    value_of_byte = np.concatenate(([0], np.cumsum(last)[:-1]))
    starts = np.flatnonzero(np.concatenate(([True], last[:-1])))
    position = np.arange(raw.size) - starts[value_of_byte]
    if position.max() >= MAX_VARINT_BYTES:
        raise BundleError(f"varint longer than {MAX_VARINT_BYTES} bytes")
    parts = (raw & 0x7F).astype(np.int64) << (7 * position)
    values = np.add.reduceat(parts, starts)
    if values.max() > MAX_VARINT:
        raise BundleError("varint above 2^53 - 1")
    return values


def checksum(data: bytes) -> int:
    """CRC-32 (zlib's polynomial), the integrity check js/src/bundle.js computes too."""
    return zlib.crc32(data) & 0xFFFFFFFF
