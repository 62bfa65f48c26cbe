"""The last bundle's parts kept through MkDocs' clean of the site folder, so a build moves back
the parts it would write with the same bytes instead of creating every file again.

Why: MkDocs empties site_dir before each build (not with --dirty), so every build wrote all of
the bundle's hundreds of files although a warm build changes none of them and an edit a few
dozen (the vocabulary shards, most text and display fragments stay). Creating a file is the
costly part of writing a small one (a new inode), where moving one costs next to nothing.

`set_aside` runs before MkDocs cleans (the plugin's on_pre_build): it moves the parts the
previous manifest lists (never the manifest, never a file it does not list) into a folder of
the cache. `take` moves a kept part back only when its bytes are the bytes to write (read and
compared: a kept file changed meanwhile is written afresh), so the bundle is the same bytes
either way. Anything that fails (another file system: a move is not possible there) leaves the
rest to MkDocs' clean and the writer, as without this.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from mkdocs_graphsearch.bundle.format import MANIFEST


def set_aside(out_dir: Path, kept: Path, parts: set[str]) -> None:
    """Move `parts` (the names the bundle in out_dir lists, bundle/write.py previous_files: files
    of out_dir itself) from out_dir into `kept`, emptied first (a killed build's leftovers)."""
    discard(kept)
    parts = parts - {MANIFEST}
    if not parts:
        return
    try:
        kept.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    for name in sorted(parts):
        try:
            os.replace(out_dir / name, kept / name)
        except FileNotFoundError:
            continue
        except OSError:  # e.g. EXDEV: the cache is on another file system
            return


def take(kept: Path, name: str, data: bytes, target: Path) -> bool:
    """Move the kept part `name` to `target` if it holds `data`; whether it did."""
    source = kept / name
    try:
        if source.read_bytes() != data:
            return False
        os.replace(source, target)
    except OSError:
        return False
    return True


def discard(kept: Path) -> None:
    """Remove the kept parts no build took."""
    shutil.rmtree(kept, ignore_errors=True)
