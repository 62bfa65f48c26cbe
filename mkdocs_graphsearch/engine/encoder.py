"""The static query encoder at query time (mirrored by js/src/engine/encoder.js; fitted by index/encoder.py).

The bundle's encoder parts: bundle/encoder_shards.py (read and checked by bundle/read.py).

Query vector (pca_dim numbers, in the space vectors.bin is stored in), with float64
operations in exactly this order, so both engines agree bit for bit:
    pieces = WordPiece(query) without [CLS]/[SEP], at most the manifest's encoder.max_query_pieces
    acc[d] = 0; wsum = 0
    for each piece with a row r (others are skipped), in query order:
        acc[d] += w_r * (rows[r][d] * row_scales[d])   for d ascending;  wsum += w_r
    none known, or every known piece in the manifest's encoder.stop_pieces -> no vector
    acc[d] = acc[d] / wsum
    norm = sqrt(sum of acc[d] * acc[d], d ascending); q[d] = acc[d] / norm
The components are used only to project a full model query vector (`project_query`, for
`--query-encoder model` comparisons): passages are stored already projected.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from mkdocs_graphsearch.bundle.encoder_file import EncoderArrays
from mkdocs_graphsearch.bundle.format import VOCAB
from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.files.atomic import write_atomic
from mkdocs_graphsearch.text.wordpiece import WordPiece

#: An older manifest's encoder entry has no `max_query_pieces` (index/semantic.py writes it
#: now): the value those engines had built in. Frozen: never change it.
MAX_QUERY_PIECES_IF_ABSENT = 64
#: An older manifest's encoder entry has no `stop_pieces` (index/semantic.py writes it now): none,
#: so a query of known stop words alone is encoded as those engines did. Frozen: never change it.
STOP_PIECES_IF_ABSENT: tuple[int, ...] = ()


@dataclass
class StaticEncoder:
    row_of: dict[int, int]
    rows: np.ndarray  # float64 (n_tokens, pca_dim): rows * row_scales, exact products
    weights: np.ndarray  # float64
    components: np.ndarray  # float64 (pca_dim, dim): components * component_scales
    vocab_path: Path
    max_pieces: int  # the query pieces read, at most
    stop_pieces: frozenset[int]  # pieces that make no vector on their own


def load_encoder(bundle: Bundle) -> StaticEncoder:
    arrays: EncoderArrays = bundle.encoder_arrays
    return StaticEncoder(
        row_of={token: i for i, token in enumerate(arrays.tokens)},
        rows=arrays.rows,
        weights=arrays.weights,
        components=arrays.components,
        vocab_path=_vocab_file(bundle.files[VOCAB]),
        max_pieces=bundle.manifest["encoder"].get("max_query_pieces", MAX_QUERY_PIECES_IF_ABSENT),
        stop_pieces=frozenset(bundle.manifest["encoder"].get("stop_pieces", STOP_PIECES_IF_ABSENT)),
    )


def _vocab_file(text: bytes) -> Path:
    """The bundle's vocabulary (joined from its shards by bundle/read.py) as a vocab.txt file for
    `tokenizers`: one temporary file per content, shared by every bundle with that vocabulary."""
    path = Path(tempfile.gettempdir()) / f"graphsearch-vocab-{hashlib.sha256(text).hexdigest()[:16]}.txt"
    if not (path.is_file() and path.read_bytes() == text):
        write_atomic(path, text)
    return path


@lru_cache(maxsize=4)
def _wordpiece(vocab_path: Path) -> WordPiece:
    return WordPiece(vocab_path)


def encode_query(encoder: StaticEncoder, pieces: list[int]) -> list[float] | None:
    acc = np.zeros(encoder.rows.shape[1], dtype=np.float64)
    wsum = 0.0
    content = False
    for piece in pieces[: encoder.max_pieces]:
        r = encoder.row_of.get(piece)
        if r is None:
            continue
        w = encoder.weights[r]
        acc += w * encoder.rows[r]
        wsum += w
        content = content or piece not in encoder.stop_pieces
    # Stop words alone (`knitting a wool scarf` with only `a` known) would point wherever the
    # site says `a`: no meaning to search by.
    if wsum == 0.0 or not content:
        return None
    return _unit(acc / wsum)


def _unit(vector: np.ndarray) -> list[float] | None:
    total = 0.0
    for value in vector.tolist():
        total += value * value
    norm = math.sqrt(total)
    if norm == 0.0:
        return None
    unit: list[float] = (vector / norm).tolist()
    return unit


def project_query(bundle: Bundle, vector: list[float]) -> list[float] | None:
    """A full-model query vector (dim) -> the stored space (pca_dim), unit length."""
    if bundle.encoder is None:
        bundle.encoder = load_encoder(bundle)
    return _unit(bundle.encoder.components @ np.asarray(vector, dtype=np.float64))


def query_vector(bundle: Bundle, query: str) -> list[float] | None:
    """The unit query vector, or None when no query piece is known to the encoder."""
    if bundle.encoder is None:
        bundle.encoder = load_encoder(bundle)
    encoder: StaticEncoder = bundle.encoder
    return encode_query(encoder, _wordpiece(encoder.vocab_path).pieces(query))
