"""The model file's sha256 without reading the model on every build: a stamp in the cache folder.

Why: the fingerprint of every cached vector holds the model file's sha256, and the default model
is refused unless its sha256 is the pinned one; hashing the file cost every build (even one with
nothing to embed) a read and a hash of the whole model. A stamp file remembers the hash with what `stat`
said of the file when it was hashed: its resolved path, size, mtime_ns, ctime_ns and inode. While
all of them are unchanged the stamp's hash is used; anything else (the file replaced, written,
touched, or its times set back: that moves ctime) hashes the file again, and the caller checks
that hash as before. A stamp that is missing, unreadable, damaged or of another shape is the
same as none (files/cache_store.py frames it; its payload is JSON).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

import orjson

from mkdocs_graphsearch.files import cache_store

#: A stamp of another version is ignored (the file is hashed). 2: framed by cache_store.py.
STAMP_VERSION = 2
_KIND = "model-stamp"


def stamp_file(stamp_dir: Path, path: Path) -> Path:
    """One stamp per model file (several models may share a cache folder)."""
    key = hashlib.sha256(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return stamp_dir / f"model-stamp-{key}.cache"


def _identity(path: Path) -> dict[str, object] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return {"path": str(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "ctime_ns": st.st_ctime_ns, "inode": st.st_ino}


def stamped_sha256(path: Path, stamp_dir: Path | None, digest: Callable[[], str]) -> str:
    """The sha256 (hex) of the file at `path`: the stamp's in `stamp_dir` when the file is as it
    was when stamped, else `digest()` (which reads and hashes it), stamped when the file did not
    change while it was hashed. No `stamp_dir`: always `digest()`."""
    if stamp_dir is None:
        return digest()
    path = path.resolve()
    return stamped(stamp_file(stamp_dir, path), _KIND, partial(_identity, path), digest)


def stamped(
    stamp: Path, kind: str, identity: Callable[[], dict[str, object] | None], digest: Callable[[], str]
) -> str:
    """`digest()`, remembered in the `stamp` file (framed as `kind`) with what `identity()` (what
    `stat` says of the hashed files; None: they cannot be seen) was when it was computed: the
    stamp's value while `identity()` is the same, else computed again and stamped when
    `identity()` did not change meanwhile."""
    before = identity()
    try:
        payload = cache_store.read(stamp, kind, STAMP_VERSION)
        saved = None if payload is None else orjson.loads(payload)
    except (OSError, ValueError):  # orjson.JSONDecodeError is a ValueError
        saved = None
    if (
        before is not None
        and isinstance(saved, dict)
        and {key: saved.get(key) for key in before} == before
        and isinstance(saved.get("sha256"), str)
    ):
        return str(saved["sha256"])
    value = digest()
    if before is not None and identity() == before:
        with contextlib.suppress(OSError):  # the stamp only saves time: the next build hashes again
            cache_store.write(stamp, kind, STAMP_VERSION, orjson.dumps({**before, "sha256": value}))
    return value
