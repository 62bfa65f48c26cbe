"""Write a file whole or not at all: the one way the package replaces a file it owns (bundle
parts, the embedding and encoder caches, the saved pages of the last build)."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Sequence
from pathlib import Path

#: write_atomic's temporary files: `.<target name>.<pid>.<8 hex>.tmp`.
_TEMPORARY = re.compile(r"\.(?P<target>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp")


#: What write_atomic writes: bytes, or a file's bytes in pieces (written one after another).
Chunk = bytes | memoryview


def write_atomic(path: str | os.PathLike[str], data: bytes | Sequence[Chunk]) -> None:
    """Write through a temporary file in the same folder, then rename over the target: a reader
    (or a crash, a full disk, a second build) sees the old file or the new one, never half of one.
    `data`: the bytes, or a sequence of pieces written one after another."""
    # Not tempfile.mkstemp: its files are private (0600), and the site must stay readable by the
    # web server; mode 0666 gives the usual permissions (umask), like any other written file.
    # os.open and str paths, not open() and pathlib: a bundle writes hundreds of small parts.
    folder, name = os.path.split(os.fspath(path))
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, _CREATE, 0o666)
        try:
            for chunk in (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data:
                _write_all(fd, chunk)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


#: A new file only (never an existing one: a temporary of that name is another writer's).
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def _write_all(fd: int, data: Chunk) -> None:
    view = memoryview(data).cast("B")
    while view:
        view = view[os.write(fd, view) :]


def remove_stale_temporaries(folder: Path) -> None:
    """Remove the temporary files that writers killed mid-write (SIGKILL, power loss) left in
    `folder`: those whose process no longer runs. Another build's file, still being written, stays.
    POSIX only (elsewhere a process cannot be probed without signalling it): they stay there."""
    if os.name != "posix":
        return
    try:
        names = [path.name for path in folder.iterdir()]
    except OSError:
        return
    for name in names:
        match = _TEMPORARY.fullmatch(name)
        if match is None or _running(int(match["pid"])):
            continue
        try:
            (folder / name).unlink()
        except OSError:
            continue  # not ours to remove after all (permissions): harmless, it is never read


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: a probe, nothing is sent
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, as another user
    return True
