"""The query encoder's fit statistics as the cache keeps them, so an edit refits without the model.

A `FitState` is the `TokenStats` (encoder.py) of a multiset of passages: their cache keys
(embed_cache.py `cache_key`), how many chunks have each text, and the texts themselves. A build
starts from the cached state closest to its passages (`choose_base`), runs the model over the
passages it adds and over the ones it takes out (their text is in the state: the model gives them
the same bits again, embed.py), and adds or subtracts their integer statistics. The result is the
state a clean build of the same passages reaches, bit for bit, so the encoder is the same.

A base may be taken scaled by a whole factor s (`choose_base` picks the entry and the factor): every
integer of a state is a sum over its passages of (statistics x multiplicity), so s times a state's
counts, sums and multiplicities is the state of the same multiset with each multiplicity times s,
exactly. A site that repeats another one s times (benchmarks/make_big_site.py) starts
from the other's entry and runs the model only over the passages that do not repeat s times. The
products are int64 and wrap as TokenStats' additions do (modulo 2^64: a clean build reaches the same
integers whenever its final sums fit, the one condition there already was); a factor that would take
a multiplicity past uint32, the entry's field, is never chosen.

Why not the statistics of every passage: they would be one row of `dim` numbers per distinct word
piece per passage, where a state is one row per distinct piece of the whole site plus the texts:
orders of magnitude smaller on a large site. They are stored as they are: zlib halved them but
compressing and decompressing cost an edit's rebuild far more time than reading or writing the
bytes does. Taking a passage out costs one model pass over its old text.

Entry layout (little-endian), framed by files/cache_store.py (kind `fitstats`): the header
(fingerprint as 32 raw bytes, complete flag, 3 zero bytes, dim, passage count), the passages'
keys (32 bytes each, ascending), their multiplicities (uint32) and text lengths in UTF-8 bytes
(uint32), then the texts one after another, the token count (uint32), token ids,
counts, and sums (int64, token rows of dim). A partial state (written while a build runs, so a
killed build keeps what it computed) has the complete flag 0. An entry of another version
(cache_store.OldFormat) is skipped without a warning: the build recomputes what it needs.
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.files.atomic import Chunk
from mkdocs_graphsearch.index.encoder import TokenStats

#: 3: framed by cache_store.py (2: its own frame, 1: zlib-compressed).
_KIND, _VERSION = "fitstats", 3
_HEADER = struct.Struct("<32sB3xII")
_KEY = 32


@dataclass
class FitEntry:
    """A cache entry as read: the passages it covers (hex key -> chunks with that text) and their
    text sizes; its statistics and texts stay bytes until `FitState.load` needs them."""

    fingerprint: str
    complete: bool
    dim: int
    passages: dict[str, int]
    sizes: dict[str, int]
    body: bytes | memoryview  # a view of the file read: its statistics are not copied out


class FitState:
    """The statistics of a multiset of passages, with their texts, as a build updates them."""

    def __init__(self, stats: TokenStats, passages: Counter[str], texts: dict[str, str]) -> None:
        self.stats, self.passages, self.texts = stats, passages, texts

    @classmethod
    def empty(cls, dim: int, special_ids: Collection[int]) -> FitState:
        return cls(TokenStats(dim, special_ids), Counter(), {})

    @classmethod
    def load(cls, entry: FitEntry, special_ids: Collection[int], scale: int = 1) -> FitState:
        """The entry's statistics and texts, every passage counted `scale` times as often (module
        docstring); ValueError if they do not decode (checksum passed: an entry from a writer with
        a bug)."""
        try:
            return cls._load(entry, special_ids, scale)
        except (ValueError, struct.error) as error:
            raise ValueError(f"statistics do not decode ({error})") from error

    @classmethod
    def _load(cls, entry: FitEntry, special_ids: Collection[int], scale: int) -> FitState:
        body = entry.body
        keys = sorted(entry.passages)
        texts, offset = {}, 0
        for key in keys:
            texts[key] = str(body[offset : offset + entry.sizes[key]], "utf-8")
            offset += entry.sizes[key]
        (n,) = struct.unpack_from("<I", body, offset)
        arrays = np.frombuffer(body, dtype="<i8", offset=offset + 4)
        tokens, counts, sums = arrays[:n], arrays[n : 2 * n], arrays[2 * n :].reshape(n, entry.dim)
        if scale != 1:
            counts, sums = counts * scale, sums * scale
        stats = TokenStats.from_arrays(special_ids, tokens, counts, sums)
        return cls(stats, Counter({key: times * scale for key, times in entry.passages.items()}), texts)

    def change(self, key: str, text: str, pieces: Sequence[int], states: np.ndarray, times: int) -> None:
        """Add a passage `times` times (negative: take it out)."""
        self.stats.add(np.asarray(pieces, dtype=np.int64), states, times)
        self.passages[key] += times
        if self.passages[key]:
            self.texts[key] = text
        else:
            del self.passages[key], self.texts[key]

    def pack(self, fingerprint: str, complete: bool) -> bytes:
        """This state as a cache entry (same passages and statistics: same bytes)."""
        return b"".join(self.pack_parts(fingerprint, complete))

    def pack_parts(self, fingerprint: str, complete: bool) -> list[Chunk]:
        """`pack` in pieces, to be written one after another: the statistics (most of an entry)
        are written from the arrays themselves, not copied into one bytes object first."""
        keys = sorted(self.passages)
        encoded = [self.texts[key].encode("utf-8") for key in keys]
        tokens, counts, sums = self.stats.arrays()
        return cache_store.frame_parts(_KIND, _VERSION, [
            _HEADER.pack(bytes.fromhex(fingerprint), int(complete), self.stats.dim, len(keys)),
            b"".join(bytes.fromhex(key) for key in keys),
            np.array([self.passages[key] for key in keys], dtype="<u4").tobytes(),
            np.array([len(text) for text in encoded], dtype="<u4").tobytes(),
            *encoded,
            struct.pack("<I", len(tokens)),
            *(_little_endian(array) for array in (tokens, counts, sums)),
        ])

    def name(self, fingerprint: str) -> str:
        """The entry's file name: a digest of the fingerprint and the passage multiset."""
        digest = hashlib.sha256(fingerprint.encode())
        for key in sorted(self.passages):
            digest.update(bytes.fromhex(key) + struct.pack("<I", self.passages[key]))
        return f"fitstats-{digest.hexdigest()}.cache"


def _little_endian(array: np.ndarray) -> memoryview:
    """An int64 array's bytes as stored (little-endian), without a copy where it is so already."""
    return np.ascontiguousarray(array, dtype="<i8").reshape(-1).data.cast("B")


def unpack_entry(data: bytes, checked: bool = True) -> FitEntry:
    """A cache entry's passages and statistics; ValueError saying what is wrong
    (cache_store.OldFormat: an entry of another version). `checked=False` skips the checksum: for
    the head of an entry (`read_head`), to choose among entries before reading the chosen one whole."""
    payload = cache_store.unframe_view(data, _KIND, _VERSION, checked)
    if len(payload) < _HEADER.size:
        raise ValueError(f"{len(payload)} bytes, shorter than its header")
    fingerprint, complete, dim, n = _HEADER.unpack_from(payload)
    offset = _HEADER.size
    if len(payload) < offset + n * (_KEY + 8):
        raise ValueError(f"{len(payload)} bytes, shorter than its list of {n} passages")
    keys = [payload[offset + i * _KEY : offset + (i + 1) * _KEY].hex() for i in range(n)]
    offset += n * _KEY
    multiplicity = np.frombuffer(payload, dtype="<u4", count=n, offset=offset).tolist()
    sizes = np.frombuffer(payload, dtype="<u4", count=n, offset=offset + 4 * n).tolist()
    return FitEntry(
        fingerprint=fingerprint.hex(),
        complete=bool(complete),
        dim=dim,
        passages=dict(zip(keys, multiplicity, strict=True)),
        sizes=dict(zip(keys, sizes, strict=True)),
        body=payload[offset + 8 * n :],
    )


def read_head(path: Path) -> FitEntry:
    """An entry's passages without its statistics (body empty) and unchecked: choosing a base
    reads every entry of the folder (another site's large entry, say) only this far.
    OSError when it cannot be read, ValueError (OldFormat) as unpack_entry."""
    start = cache_store.FRAME_SIZE
    with path.open("rb") as stream:
        head = stream.read(start + _HEADER.size)
        if len(head) == start + _HEADER.size and head.startswith(cache_store.identity(_KIND, _VERSION)):
            head += stream.read(_HEADER.unpack_from(head, start)[3] * (_KEY + 8))
    entry = unpack_entry(head, checked=False)
    entry.body = b""
    return entry


#: The largest multiplicity an entry holds (uint32).
_MAX_TIMES = 2**32 - 1


def choose_base(
    target: Counter[str], sizes: Mapping[str, int], entries: Sequence[FitEntry]
) -> tuple[FitEntry, int] | None:
    """The entry, and the whole factor to scale it by (FitState.load), the least model work away
    from `target` (passages -> chunks, their text sizes in `sizes`): the text of every passage to
    add or take out, summed; None: start empty.

    Scaled by s, an entry's passage needs no model run where the target counts it s times as
    often; every other passage of the entry or the target does. Each factor that spares some
    passage is weighed (ties: the smallest factor, then the first entry). Any base gives the same
    statistics in the end; this only picks the cheapest."""
    best, cost = None, sum(sizes[key] for key in target)
    for entry in entries:
        every = sum(sizes[key] if key in sizes else entry.sizes[key] for key in target.keys() | entry.passages.keys())
        spared: Counter[int] = Counter()  # factor -> text size of the passages it spares
        for key, times in entry.passages.items():
            scale, rest = divmod(target.get(key, 0), times) if times else (0, 1)
            if scale and not rest:
                spared[scale] += sizes[key]
        most = max(entry.passages.values(), default=1)
        for scale, kept in sorted(spared.items()):
            if scale * most <= _MAX_TIMES and every - kept < cost:
                best, cost = (entry, scale), every - kept
    return best
