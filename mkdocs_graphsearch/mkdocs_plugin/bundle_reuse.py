"""The last build's bundle, written again when every input of it is unchanged.

Why: bundles are deterministic, so a build whose pages, settings, model and code are all the last
build's makes a bundle of the same bytes; building it (keyword index, semantic files, vector
layout) was most of what the plugin added to a build that keeps the cache folder. So each build
that builds a bundle keeps it in the cache folder with a key over every input of it, and a build
whose key is that key writes that bundle (bundle/write.py) instead of building one. The bundle is
kept whole in the cache folder, not only in site_dir: a CI job keeps the cache folder between runs
and starts with no site at all.

Key (`inputs_key`): sha256 over the plugin's code and version (`package_digest`), the pages as
the page state saves them (site_pages.py `SitePages.digest`), every page's URL, the search
settings, the semantic options (the model's fingerprint and the vector layout, or keyword-only),
related_count and site_name. The cache's other contents never change a bundle's bytes
(files/cache_store.py). A build that cannot restore (no record, another key, a damaged record)
builds the bundle as before and keeps it.

Only a bundle built without a warning is kept: the warnings building one can give are about the
cache folder or a model that cannot run (a keyword-only bundle), which the next build must meet
again rather than inherit.

File: `bundle-<site key>.cache` beside the page state, framed by files/cache_store.py; payload:
the length of its head (uint32), the head (JSON: the key, each file's name and length), then the
files' bytes in that order.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import orjson

import mkdocs_graphsearch
from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.index.model_stamp import stamped

__all__ = ["inputs_key", "package_digest", "record_file", "restore", "save_record"]

_KIND, _VERSION = "bundle", 1
_STAMP_KIND = "code-stamp"
_HEAD_LEN = struct.Struct("<I")


def record_file(state_path: Path) -> Path:
    """Beside the page state (page_state.state_file), with its site key."""
    return state_path.with_name(state_path.name.replace("pages-", "bundle-"))


@cache
def package_digest(stamp_dir: Path | None = None) -> str:
    """sha256 of the installed plugin's version and of every module and data file of its package
    (the runtime's JS is not part of a bundle). With `stamp_dir`: the digest stamped there while
    every file is as `stat` saw it when it was hashed (path, size, mtime, ctime, inode: any
    change hashes the files again), so a build does not read and hash the package each time."""
    root = mkdocs_graphsearch.__path__[0]
    files = _package_files(root)
    if stamp_dir is None:
        return _package_digest(files)
    return stamped(stamp_dir / "code-stamp.cache", _STAMP_KIND, lambda: {"files": _identity(root, files)},
                   lambda: _package_digest(files))


def _package_files(root: str) -> list[tuple[str, str]]:
    """The package's modules and text files (not the runtime's js/): (path relative to `root`,
    posix; path), in path order. os.walk and str paths, not Path.rglob: a build that reuses its
    bundle lists and stats them every time."""
    found = []
    for folder, subfolders, names in os.walk(root):
        if folder == root:
            subfolders[:] = [name for name in subfolders if name != "js"]
        parts = Path(folder).relative_to(root).parts
        found += [((*parts, name), os.path.join(folder, name)) for name in names if name.endswith((".py", ".txt"))]
    return [("/".join(parts), path) for parts, path in sorted(found)]


def _package_digest(files: list[tuple[str, str]]) -> str:
    digest = hashlib.sha256(mkdocs_graphsearch.__version__.encode() + b"\0")
    for name, path in files:
        digest.update(name.encode() + b"\0" + Path(path).read_bytes() + b"\0")
    return digest.hexdigest()


def _identity(root: str, files: list[tuple[str, str]]) -> str:
    """What `stat` says of the package's files (and its version), hashed."""
    stats = [mkdocs_graphsearch.__version__, root]
    for name, path in files:
        st = os.stat(path)
        stats.append(f"{name} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}")
    return hashlib.sha256("\n".join(stats).encode("utf-8", "surrogatepass")).hexdigest()


def inputs_key(
    pages_digest: str, urls: Mapping[str, str], options: Mapping[str, object], stamp_dir: Path | None = None
) -> str:
    """sha256 over the code (`package_digest`, stamped in `stamp_dir`), the pages (`pages_digest`),
    every page's URL and the build's options (JSON-able: settings, semantic options,
    related_count, site_name)."""
    code = package_digest(stamp_dir)
    data = {"code": code, "pages": pages_digest, "urls": sorted(urls.items()), "options": options}
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


def save_record(path: Path, key: str, files: Mapping[str, bytes]) -> None:
    """Keep the bundle just built under `key`; OSError to the caller (a cache: it warns and goes on)."""
    names = sorted(files)
    head = orjson.dumps({"key": key, "files": [[name, len(files[name])] for name in names]})
    cache_store.write(path, _KIND, _VERSION, b"".join([_HEAD_LEN.pack(len(head)), head, *(files[n] for n in names)]))


def restore(path: Path, key: str) -> dict[str, bytes] | None:
    """The bundle kept at `path` by name, if it was kept under `key`; else None (no record, another
    key or version, damaged: the bundle is built)."""
    try:
        data = path.read_bytes()
        head = _head(cache_store.unframe_view(data, _KIND, _VERSION, checked=False))
        if head.get("key") != key:
            return None
        # the checksum: only for the bundle to use; a view, so each part is copied out once
        payload = cache_store.unframe_view(data, _KIND, _VERSION)
    except (OSError, ValueError, TypeError, KeyError, struct.error):
        return None
    files: dict[str, bytes] = {}
    at = _HEAD_LEN.size + _HEAD_LEN.unpack_from(payload)[0]
    for name, size in head["files"]:
        files[str(name)] = bytes(payload[at : at + size])
        at += size
    return files if at == len(payload) else None


def _head(payload: bytes | memoryview) -> dict[str, Any]:
    (size,) = _HEAD_LEN.unpack_from(payload)
    head = orjson.loads(payload[_HEAD_LEN.size : _HEAD_LEN.size + size])
    if not isinstance(head, dict) or not all(
        isinstance(name, str) and isinstance(length, int) and length >= 0 for name, length in head["files"]
    ):
        raise ValueError("not a bundle record's head")
    return head
