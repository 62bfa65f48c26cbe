"""On-disk cache of passage embeddings, so a rebuild embeds only the passages that changed.

Key: sha256(model fingerprint + "\\n" + passage text), hex (`cache_key`). Value: a float32 vector.

Format: in the cache directory, one append-only file per vector dimension,
`vectors-f32-<dim>.bin`: a header (files/cache_store.py's identity of kind `vectors-f32`, then
uint32 dim, uint32 0), then fixed-size records of 32 key bytes, dim little-endian float32 and a
CRC-32 (uint32) of those two. Fixed sizes keep records aligned whatever happens to one of them: a
record whose checksum fails, a torn last record or a file with a bad header is ignored (and so
recomputed by the caller), never fatal; `damaged` names the files it was found in, for a
warning. A file of another version is skipped silently. A later record for the same key wins.
`compact()` rewrites the files with only the live records, sorted by key, atomically. Appends
hold cache_store's exclusive lock.
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.files.atomic import write_atomic
from mkdocs_graphsearch.files.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np
else:  # loaded on first use (files/lazy.py)
    np = lazy_module("numpy")

__all__ = ["DEFAULT_CACHE_DIR", "HEADER_SIZE", "EmbeddingCache", "cache_key"]

#: The cache folder when none is given: the plugin's `cache_dir` (relative to mkdocs.yml) and
#: `graphsearch index --cache-dir` (relative to the working folder). The query encoder's fit and
#: the plugin's page state (page_state.py) are kept there too.
DEFAULT_CACHE_DIR = ".cache/graphsearch"

_KIND, _VERSION = "vectors-f32", 2  # 2: cache_store's identity (1: its own magic)
_DIM = struct.Struct("<II")  # dim, 0
#: Bytes before a file's first record.
HEADER_SIZE = cache_store.IDENTITY_SIZE + _DIM.size
_KEY = 32


def cache_key(fingerprint: str, text: str) -> str:
    """sha256(fingerprint + "\\n" + text) as hex."""
    return hashlib.sha256(f"{fingerprint}\n{text}".encode()).hexdigest()


def _header(dim: int) -> bytes:
    return cache_store.identity(_KIND, _VERSION) + _DIM.pack(dim, 0)


class EmbeddingCache:
    """Vectors by key, read lazily from `directory`, written by `flush()`.

    Reading a file only indexes its records by key; a record's checksum and vector are checked
    when its key is first asked for (a build asks for its own passages, not for every passage of
    every site sharing the folder: a shared cache may hold many times the records a small site
    asks for). Every record of an asked-for key is checked, so a damaged one is counted even when a
    later record for the key is good."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._index: dict[bytes, list[memoryview]] | None = None  # key -> its unchecked records, in file order
        self._store: dict[bytes, np.ndarray] = {}  # checked vectors
        self._pending: dict[bytes, np.ndarray] = {}
        #: Records ignored while reading (bad checksum, torn tail, bad header): recomputed.
        self.corrupt_records = 0
        #: The files those records were in.
        self.damaged: set[Path] = set()
        self._file_of: dict[int, Path] = {}  # id of a file's bytes -> the file (for `damaged`)

    # --- reading --------------------------------------------------------------------------

    def _path(self, dim: int) -> Path:
        return self.directory / f"vectors-f32-{dim}.bin"

    def _records(self) -> dict[bytes, list[memoryview]]:
        if self._index is None:
            self._index = {}
            if self.directory.is_dir():
                for path in sorted(self.directory.glob("vectors-f32-*.bin")):
                    self._index_file(path)
        return self._index

    def _corrupt(self, path: Path) -> None:
        self.corrupt_records += 1
        self.damaged.add(path)

    def _index_file(self, path: Path) -> None:
        assert self._index is not None
        try:
            data = path.read_bytes()
        except OSError:
            self._corrupt(path)
            return
        if len(data) < HEADER_SIZE:
            if data:
                self._corrupt(path)
            return
        try:
            cache_store.check_identity(data, _KIND, _VERSION)
        except cache_store.OldFormat:
            return  # its vectors are recomputed, and the next append starts the file over
        except ValueError:
            self._corrupt(path)
            return
        dim, _ = _DIM.unpack_from(data, cache_store.IDENTITY_SIZE)
        if dim <= 0 or path.name != f"vectors-f32-{dim}.bin":
            self._corrupt(path)
            return
        size = _KEY + 4 * dim + 4
        body = memoryview(data)[HEADER_SIZE:]
        count, torn = divmod(len(body), size)
        if torn:
            self._corrupt(path)
        self._file_of[id(body.obj)] = path
        index = self._index
        for start in range(0, count * size, size):
            rec = body[start : start + size]
            index.setdefault(bytes(rec[:_KEY]), []).append(rec)

    def _check(self, rec: memoryview) -> np.ndarray | None:
        """A record's vector, or None (counted as corrupt) when its checksum or values are bad."""
        size = len(rec)
        (crc,) = struct.unpack_from("<I", rec, size - 4)
        vec = np.frombuffer(rec, dtype="<f4", count=(size - _KEY - 4) // 4, offset=_KEY)
        if zlib.crc32(rec[: size - 4]) != crc or not np.all(np.isfinite(vec)):
            self._corrupt(self._file_of[id(rec.obj)])
            return None
        return vec.astype(np.float32)

    def _lookup(self, raw: bytes) -> np.ndarray | None:
        """The stored vector of a key (its last good record), checking its records on first use."""
        records = self._records().pop(raw, None)
        if records is not None:
            for rec in records:
                vec = self._check(rec)
                if vec is not None:
                    self._store[raw] = vec
        return self._store.get(raw)

    def _load(self) -> dict[bytes, np.ndarray]:
        """Every stored vector (every record checked)."""
        for raw in list(self._records()):
            self._lookup(raw)
        return self._store

    def get_many(self, keys: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors of those keys that are present (hex key -> float32 vector)."""
        out: dict[str, np.ndarray] = {}
        for key in keys:
            raw = bytes.fromhex(key)
            vec = self._pending.get(raw)
            if vec is None:
                vec = self._lookup(raw)
            if vec is not None:
                out[key] = vec
        return out

    def __contains__(self, key: str) -> bool:
        return bool(self.get_many([key]))

    def __len__(self) -> int:
        return len(self._load().keys() | self._pending.keys())

    # --- writing --------------------------------------------------------------------------

    def put_many(self, items: Mapping[str, np.ndarray]) -> None:
        """Remember vectors (written by the next `flush()`; one already stored as is is skipped)."""
        for key, vec in items.items():
            raw = bytes.fromhex(key)
            if len(raw) != _KEY:
                raise ValueError(f"cache keys are sha256 hex digests, not {key!r}")
            arr = np.ascontiguousarray(vec, dtype="<f4")
            if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
                raise ValueError(f"not a finite 1-d vector for {key}: shape {arr.shape}")
            known = self._lookup(raw)
            if known is not None and known.shape == arr.shape and np.array_equal(known, arr):
                self._pending.pop(raw, None)
                continue
            self._pending[raw] = arr

    def flush(self) -> None:
        """Append the pending vectors to disk (sorted by key, so the same puts write the same bytes)."""
        if not self._pending:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        by_dim: dict[int, list[bytes]] = {}
        for raw in sorted(self._pending):
            by_dim.setdefault(self._pending[raw].size, []).append(raw)
        for dim, keys in by_dim.items():
            self._append(dim, keys)
        for raw in self._pending:
            self._lookup(raw)  # its older records are checked now, and then superseded
        self._store.update(self._pending)
        self._pending.clear()

    def _append(self, dim: int, keys: Sequence[bytes]) -> None:
        size = _KEY + 4 * dim + 4
        buf = bytearray()
        for raw in keys:
            rec = raw + self._pending[raw].tobytes()
            buf += rec + struct.pack("<I", zlib.crc32(rec))
        path = self._path(dim)
        with open(path, "a+b") as fh:
            cache_store.lock(fh)
            fh.seek(0, os.SEEK_END)
            end = fh.tell()
            fh.seek(0)
            head = fh.read(HEADER_SIZE)
            if end < HEADER_SIZE or head != _header(dim):
                fh.truncate(0)  # empty, unreadable or another version: start over (its records were ignored)
                end = 0
            elif (end - HEADER_SIZE) % size:
                end -= (end - HEADER_SIZE) % size  # drop a torn last record
                fh.truncate(end)
            fh.seek(end)
            fh.write((b"" if end else _header(dim)) + bytes(buf))
            fh.flush()

    def compact(self, keep: Iterable[str] | None = None) -> None:
        """Rewrite the cache with only the given keys (default: every valid record), atomically."""
        self.flush()
        store = self._load()
        if keep is not None:
            wanted = {bytes.fromhex(k) for k in keep}
            for raw in [r for r in store if r not in wanted]:
                del store[raw]
        self.directory.mkdir(parents=True, exist_ok=True)
        by_dim: dict[int, list[bytes]] = {}
        for raw in sorted(store):
            by_dim.setdefault(store[raw].size, []).append(raw)
        for path in self.directory.glob("vectors-f32-*.bin"):
            if path.name not in {self._path(d).name for d in by_dim}:
                path.unlink(missing_ok=True)
        for dim, keys in by_dim.items():
            parts = [_header(dim)]
            for raw in keys:
                rec = raw + store[raw].astype("<f4").tobytes()
                parts.append(rec + struct.pack("<I", zlib.crc32(rec)))
            write_atomic(self._path(dim), b"".join(parts))
        self.corrupt_records = 0
        self.damaged.clear()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush()
