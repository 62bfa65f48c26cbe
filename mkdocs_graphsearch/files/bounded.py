"""Bounded reading: every input has a size a user could get wrong, so each is read through here.

A file is refused before a byte is read when it is not a regular file (`/dev/zero`, a FIFO that
would block forever, a folder) or is larger than its bound, with its size in the message; then
it is read no further than the bound (a file that grows while read, or a /proc file that reports
size 0, still stops there). The bounds are all here, one place: the CLI, the plugin, the MCP
server and the bundle reader take them from this module.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

KIB = 1 << 10
MIB = 1 << 20
GIB = 1 << 30

#: A checks file (YAML) or a query file (JSON lines): hand-written lists, far below this.
MAX_QUERY_FILE = 64 * MIB
#: manifest.json (it lists every part, facet and fragment start: a few MiB on the largest sites).
MAX_MANIFEST = 64 * MIB
#: One bundle part (postings, fragments, vectors, the encoder's tables).
MAX_BUNDLE_PART = 1 * GIB
#: A page's markdown source, and the HTML MkDocs renders from it: past these, a page is indexed
#: from its first bytes and a warning names it.
MAX_PAGE = 128 * MIB
MAX_PAGE_HTML = 256 * MIB
#: A page's YAML front matter (real ones hold a few lines).
MAX_FRONT_MATTER = 1 * MIB
#: An mkdocs.yml read to find a site's docs (`graphsearch mcp`).
MAX_CONFIG = 4 * MIB
#: One MCP request (a JSON-RPC line): tool arguments are a query and a few words.
MAX_MCP_REQUEST = 1 * MIB


class RefusedInput(ValueError):
    """A file refused before reading: not a regular file, or larger than its bound."""


def size_text(size: int) -> str:
    """A size for a message: bytes, KiB, MiB or GiB (one decimal)."""
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if size >= unit:
            return f"{size / unit:.1f} {name}"
    return f"{size} bytes"


def check_regular(path: Path, limit: int, what: str) -> int:
    """The size of `path`, a regular file no larger than `limit`; RefusedInput (naming `what`,
    the path and its size) otherwise. OSError when it cannot be looked at."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise RefusedInput(f"{what} {path} is {_kind(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise RefusedInput(f"{what} {path} is {size_text(info.st_size)}, more than the {size_text(limit)} allowed")
    return info.st_size


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (check_regular's refusals, and
    OSError when it cannot be read)."""
    check_regular(path, limit, what)
    # O_NONBLOCK: if it became a FIFO since the check, opening it must not wait for a writer.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise RefusedInput(f"{what} {path} is not a regular file")
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise RefusedInput(f"{what} {path} is more than the {size_text(limit)} allowed")
    return data


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "a special file")
