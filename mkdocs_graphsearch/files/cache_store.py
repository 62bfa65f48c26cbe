"""The one framing of every file in the build's cache folder, and the folder's upkeep.

Why one: each cache (passage vectors, encoder fits and their statistics, vocabulary shards,
keyword tokens, page facts, page state, model stamps, the shipped runtime) once had a frame, checks and pruning of
its own. Now each names a kind and a version, and this module does the rest:

- a file starts with its `identity`: magic `GSCACHE\\n`, the kind (ASCII, NUL-padded to 16
  bytes) and the version (uint32, little-endian);
- a whole file (`frame`) follows it with the sha256 of its payload, then the payload: a cut or
  changed file fails the checksum, its reader warns naming it and recomputes. An append-only file
  (the passage vectors, embed_cache.py) follows it with records that carry their own checksums;
- files are written whole or not at all (atomic.py), appends under an exclusive `lock`;
- a folder keeps the newest few files of a kind (`prune`).

A file of another version, or one written before this framing (`_LEGACY`), is not damage: its
reader skips it silently; `usable_folder` removes the files written before this framing, with
one info line. Nothing a cache holds changes a bundle's bytes: a missing entry is only recomputed.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from mkdocs_graphsearch.files.atomic import Chunk, remove_stale_temporaries, write_atomic

__all__ = [
    "FRAME_SIZE",
    "IDENTITY_SIZE",
    "OldFormat",
    "check_identity",
    "frame",
    "frame_parts",
    "holds",
    "identity",
    "lock",
    "newest",
    "prune",
    "read",
    "unframe",
    "unframe_view",
    "usable_folder",
    "write",
    "write_framed",
]

_MAGIC = b"GSCACHE\n"
_IDENTITY = struct.Struct("<8s16sI")
IDENTITY_SIZE = _IDENTITY.size
#: A framed file's header: identity, then the sha256 of the payload.
FRAME_SIZE = IDENTITY_SIZE + 32
#: Heads of the cache files written before this framing (each cache had its own).
_LEGACY = (b"GSEMBC1\n", b"GSFITS", b"GSKWTK1\n", b"GSVOCAB1\n", b"GSENCC1\n", b"GSSRCF1\n", b"GSRUNTIME1\n")
#: Names of the files the caches keep in a folder (all framed here) and of those they kept
#: before (page state and model stamps were JSON, an encoder was a .json and a .bin).
_CACHE_NAMES = (
    "vectors-f32-*.bin", "fitstats-*.cache", "encoder-*.cache", "vocab-shards-*.cache",
    "keyword-tokens-*.cache", "source-facts-*.cache", "pages-*.cache", "model-stamp-*.cache",
    "runtime-*.cache", "bundle-*.cache", "code-stamp.cache", "int8-model-*.cache", "site-words-*.cache",
    "derived-*.cache",
)
#: What else the cache folder holds, not framed: onnxruntime's optimized model, its graph and its
#: weights (index/ort_model.py), and the folders of the last bundles' parts (bundle/kept.py).
_UNFRAMED_NAMES = ("ort-model-*.onnx", "ort-weights-*.bin", "kept-parts-*.cache")
_OLD_NAMES = ("pages-*.json", "model-stamp-*.json", "encoder-*.json", "encoder-*.bin")


class OldFormat(ValueError):
    """A cache file of another version or framing: not damaged, just not usable (recomputed)."""


def identity(kind: str, version: int) -> bytes:
    """The first IDENTITY_SIZE bytes of every file of this kind and version."""
    return _IDENTITY.pack(_MAGIC, kind.encode("ascii"), version)


def check_identity(data: bytes, kind: str, version: int) -> None:
    """OldFormat if `data` starts a file of another version or framing; ValueError if it does not
    start a file of this kind at all (damaged)."""
    if data[:IDENTITY_SIZE] == identity(kind, version):
        return
    same_kind = len(data) >= IDENTITY_SIZE and data[: IDENTITY_SIZE - 4] == identity(kind, 0)[: IDENTITY_SIZE - 4]
    if same_kind or data.startswith(_LEGACY):  # another version of this kind, or an older framing
        raise OldFormat(f"a {kind} cache file of another version")
    raise ValueError(f"not a {kind} cache file")


def frame(kind: str, version: int, payload: bytes) -> bytes:
    """The bytes of a cache file holding `payload`."""
    return b"".join(frame_parts(kind, version, [payload]))


def frame_parts(kind: str, version: int, payload: Sequence[Chunk]) -> list[Chunk]:
    """`frame` of the payload `b"".join(payload)`, in pieces: a large payload (fit statistics)
    is hashed and written from its pieces, never copied into one bytes object."""
    digest = hashlib.sha256()
    for chunk in payload:
        digest.update(chunk)
    return [identity(kind, version), digest.digest(), *payload]


def unframe(data: bytes, kind: str, version: int, checked: bool = True) -> bytes:
    """The payload of a `frame`d file; OldFormat or ValueError (damaged) as check_identity, or
    ValueError on a checksum mismatch. `checked=False` skips the checksum: for a file's head
    read alone (fit_cache.py read_head)."""
    return bytes(unframe_view(data, kind, version, checked))


def unframe_view(data: bytes, kind: str, version: int, checked: bool = True) -> memoryview:
    """`unframe` without copying the payload out of `data` (a large file read whole)."""
    check_identity(data, kind, version)
    if len(data) < FRAME_SIZE:
        raise ValueError(f"{len(data)} bytes, shorter than its header")
    payload = memoryview(data)[FRAME_SIZE:]
    if checked and hashlib.sha256(payload).digest() != data[IDENTITY_SIZE:FRAME_SIZE]:
        raise ValueError("checksum mismatch (truncated or changed)")
    return payload


def read(path: Path, kind: str, version: int) -> bytes | None:
    """The payload of the cache file at `path`; None when there is none or it is of another
    version. ValueError when it is damaged (the caller warns naming it); OSError as reading raises."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return unframe(data, kind, version)
    except OldFormat:
        return None


def write(path: Path, kind: str, version: int, payload: bytes) -> None:
    """Write a cache file whole or not at all; OSError to the caller (who warns and goes on)."""
    write_framed(path, frame(kind, version, payload))


def holds(path: Path, kind: str, version: int, payload: bytes) -> bool:
    """Whether the file at `path` is a `frame` of this payload by its head alone (identity and
    checksum): writing it again would change no byte. A file whose payload was damaged after its
    head is not caught here; its reader still warns and recomputes."""
    try:
        with path.open("rb") as stream:
            head = stream.read(FRAME_SIZE)
    except OSError:
        return False
    return head == identity(kind, version) + hashlib.sha256(payload).digest()


def write_framed(path: Path, data: bytes | Sequence[Chunk]) -> None:
    """`write` for bytes `frame` (or `frame_parts`) made already."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def lock(stream: IO[bytes]) -> None:
    """Hold an exclusive lock on an open file until it is closed (appends of two builds)."""
    try:
        import fcntl

        fcntl.flock(stream.fileno(), fcntl.LOCK_EX)
    except (ImportError, OSError):  # pragma: no cover - no fcntl, or a filesystem without locks
        pass


def newest(folder: Path, pattern: str) -> list[Path]:
    """The files of `folder` matching `pattern`, newest first (name breaks ties: the same order
    on every run)."""
    entries = []
    for path in folder.glob(pattern):
        try:
            entries.append((-path.stat().st_mtime_ns, path.name, path))
        except OSError:
            continue  # removed meanwhile by another build
    return [path for _, _, path in sorted(entries)]


def prune(folder: Path, pattern: str, keep: int, spare: Path | None = None) -> None:
    """Remove all but the newest `keep` files matching `pattern` (never `spare`, the one just
    written); OSError to the caller."""
    for stale in newest(folder, pattern)[keep:]:
        if stale != spare:
            stale.unlink(missing_ok=True)


def usable_folder(path: Path | None, warn: Callable[[str], None], info: Callable[[str], None]) -> Path | None:
    """`path`, created if need be, without the files of older cache formats (one `info` line
    when there were some) or killed writers' temporaries; None after one warning naming it when
    it can't be a cache folder (a file in its place, no permission, a read-only disk): the build
    goes on without."""
    if path is None:
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
        usable = os.access(path, os.W_OK | os.X_OK)
    except OSError as error:
        warn(f"cannot use the cache folder {path} ({error}); building without a cache")
        return None
    if not usable:
        warn(f"cannot use the cache folder {path} (not writable); building without a cache")
        return None
    remove_stale_temporaries(path)
    old = [file for pattern in _OLD_NAMES for file in path.glob(pattern)]
    old += [file for pattern in _CACHE_NAMES for file in path.glob(pattern) if _is_old(file)]
    removed = 0
    for file in sorted(old):
        try:
            file.unlink()
            removed += 1
        except OSError:
            continue  # another build's, or not ours to remove: its readers skip it anyway
    if removed:
        info(f"removed {removed} cache file(s) of an older format from {path}; what they held is recomputed")
    return path


def _is_old(path: Path) -> bool:
    """Written before this framing. (A file of another version of a kind is skipped by its reader
    and replaced or pruned like any other: it may be a newer plugin's, sharing the folder.)"""
    try:
        with path.open("rb") as stream:
            return stream.read(16).startswith(_LEGACY)
    except OSError:
        return False
