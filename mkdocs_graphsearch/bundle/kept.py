"""The last bundle's parts kept in the cache folder as hard links, so a build links back the parts
it would write with the same bytes instead of creating every file again.

Why: MkDocs empties site_dir before each build (not with --dirty), and a CI job starts with no
site at all, so every build wrote all of the bundle's hundreds of files although a build with
nothing changed changes none of them and an edit a few dozen (the vocabulary shards, most text
and display fragments stay). Creating a file is the costly part of writing a small one (a new
inode), where a link to an existing one costs next to nothing.

Each part the writer puts in site_dir gets a second name in the kept folder of the cache (`keep`),
so MkDocs' clean of site_dir, or a CI job that keeps only the cache folder, leaves it there.
`KeptParts.take` links a kept part into site_dir only when its bytes are the bytes to write (read
and compared: a part changed meanwhile through either name is written afresh), so the bundle is
the same bytes either way. `prune` removes the kept parts the bundle no longer lists. A site built
before the folder existed has its parts moved there first (`set_aside`). Anything that fails (a
cache on another file system, where links are not possible) leaves the rest to the writer, as
without this.
"""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs_graphsearch.bundle.format import MANIFEST


def set_aside(out_dir: Path, kept: Path, parts: set[str]) -> None:
    """Move `parts` (the names the bundle in out_dir lists, bundle/write.py previous_files: files
    of out_dir itself) that `kept` lacks from out_dir into `kept` (the parts of a site built
    without it: those already kept are the same files, or the bytes `take` compares settle it)."""
    parts = parts - {MANIFEST}
    if not parts:
        return
    try:
        kept.mkdir(parents=True, exist_ok=True)
        present = set(os.listdir(kept))
    except OSError:
        return
    for name in sorted(parts - present):
        try:
            os.replace(out_dir / name, kept / name)
        except FileNotFoundError:
            continue
        except OSError:  # e.g. EXDEV: the cache is on another file system
            return


class KeptParts:
    """The kept folder as one bundle write uses it, listed once: a part it does not hold costs
    no failed open or unlink (an edit writes a few hundred parts that are new to it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = os.fspath(folder)
        try:
            self.names = set(os.listdir(self.folder))
        except OSError:  # none yet: `keep` makes it
            self.names = set()

    def take(self, name: str, data: bytes, target: str) -> bool:
        """Link the kept part `name` to `target` (which must not exist) if it holds `data`; whether it did."""
        if name not in self.names:
            return False
        source = os.path.join(self.folder, name)
        if not holds_bytes(source, data):
            return False
        try:
            os.link(source, target)
        except OSError:
            return False
        return True

    def keep(self, name: str, written: str) -> None:
        """Give the part just `written` its kept name (replacing a kept file of that name: changed
        since, or it would have been taken); a failure only costs the next build a write."""
        source = os.path.join(self.folder, name)
        try:
            if name in self.names:
                os.unlink(source)
            os.link(written, source)
        except FileNotFoundError:  # the first part kept: no folder yet (or the kept file went meanwhile)
            try:
                os.makedirs(self.folder, exist_ok=True)
                os.link(written, source)
            except OSError:
                return
        except OSError:
            return
        self.names.add(name)

    def prune(self, names: set[str]) -> None:
        """Remove the kept files that are not among the bundle's `names`."""
        for name in sorted(self.names - names):
            try:
                os.unlink(os.path.join(self.folder, name))
            except OSError:
                continue
            self.names.discard(name)


def holds_bytes(path: str, data: bytes) -> bool:
    """Whether the file at `path` holds exactly `data` (False if it cannot be read: missing, a
    folder). Reads one byte more than `data`: a longer file differs."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return False
    try:
        return os.read(fd, len(data) + 1) == data
    except OSError:
        return False
    finally:
        os.close(fd)
