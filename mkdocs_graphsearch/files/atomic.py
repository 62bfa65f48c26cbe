"""Write a file whole or not at all: the one way the package replaces a file it owns (bundle
parts, the embedding and encoder caches, the saved pages of the last build)."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Sequence
from pathlib import Path

#: write_atomic's temporary files: `.<target name>.<pid>.<8 hex>.tmp`.
_TEMPORARY = re.compile(r"\.(?P<target>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp")


#: What write_atomic writes: bytes, or a file's bytes in pieces (written one after another).
Chunk = bytes | memoryview


def write_atomic(path: Path, data: bytes | Sequence[Chunk]) -> None:
    """Write through a temporary file in the same folder, then rename over the target: a reader
    (or a crash, a full disk, a second build) sees the old file or the new one, never half of one.
    `data`: the bytes, or a sequence of pieces written one after another."""
    # Not tempfile.mkstemp: its files are private (0600), and the site must stay readable by the
    # web server; open(..., "xb") gives the usual permissions (umask), like any other written file.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as out:
            if isinstance(data, bytes):
                out.write(data)
            else:
                out.writelines(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


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
