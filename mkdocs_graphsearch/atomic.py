"""Write a file whole or not at all: the one way the package replaces a file it owns (bundle
parts, the embedding and encoder caches, the saved pages of the last build)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then rename over the target: a reader
    (or a crash, a full disk, a second build) sees the old file or the new one, never half of one."""
    # Not tempfile.mkstemp: its files are private (0600), and the site must stay readable by the
    # web server; open(..., "xb") gives the usual permissions (umask), like any other written file.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
