"""The browser runtime: where it lives (package data in a wheel, js/ in a checkout), its version,
and copying it into a site: without its comments (strip_js.py), one file per entry (js_bundle.py:
the page's `ui/ui.js` and the worker's `engine/worker.js`, each with every module it loads) and
the CSS; inject.py says why the site folder is versioned."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
import shutil
from functools import lru_cache
from pathlib import Path

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.files.package_data import js_dir
from mkdocs_graphsearch.site_output import js_bundle, strip_js

#: Where the browser runtime is written inside the site (a bundle folder must not overlap it).
ASSETS_DIR = "assets/graphsearch"
#: The runtime's source files (ES modules and CSS).
RUNTIME_SUFFIXES = frozenset({".js", ".css"})
#: The modules a page or its worker loads first: each is shipped as one file with every module
#: it imports (js_bundle.py), the other modules are not shipped.
ENTRIES = ("engine/worker.js", "ui/ui.js")
#: Hex digits of the runtime's hash in its folder name.
VERSION_CHARS = 12
_VERSION_RE = re.compile(f"[0-9a-f]{{{VERSION_CHARS}}}")


def bundle_folder(value: str) -> str:
    """A bundle folder inside the site as a normalised relative posix path (`search`,
    `assets/search`); ValueError for an absolute path, `..`, the site root itself (`.`) or the
    runtime's own folder: the bundle writer replaces files there."""
    text = value.replace("\\", "/").strip()
    folder = posixpath.normpath(text) if text else ""
    if not text or text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        raise ValueError(f"must be a relative folder inside site_dir, got {value!r}")
    if folder in (".", "") or folder == ".." or folder.startswith("../"):
        raise ValueError(f"must be a subfolder of site_dir (not its root or outside it), got {value!r}")
    if folder == ASSETS_DIR or folder.startswith(ASSETS_DIR + "/") or ASSETS_DIR.startswith(folder + "/"):
        raise ValueError(f"must not overlap the runtime's folder {ASSETS_DIR}/, got {value!r}")
    return folder


def runtime_sources() -> list[Path]:
    """The runtime's files (ES modules and CSS) under src/, its subfolders' too, sorted by path."""
    return sorted(path for path in (js_dir() / "src").rglob("*") if path.is_file() and path.suffix in RUNTIME_SUFFIXES)


def runtime_path(source: Path, src: Path | None = None) -> str:
    """A runtime file's path in the site's runtime folder: its path under src/ (`engine/keyword.js`),
    so the modules' relative imports resolve there as in js/src (`src`: that folder, if known)."""
    return source.relative_to(src or js_dir() / "src").as_posix()


def runtime_version() -> str:
    """A short hash of the runtime's file names and bytes and of strip_js.py and js_bundle.py,
    which make the shipped copy (re-read only when a file changed)."""
    src = js_dir() / "src"
    sources = [(path, runtime_path(path, src)) for path in runtime_sources()]
    sources += [(Path(module.__file__ or ""), Path(module.__file__ or "").name) for module in (strip_js, js_bundle)]
    stats = tuple((str(path), name, stat.st_size, stat.st_mtime_ns) for path, name in sources for stat in [path.stat()])
    return _hash_files(stats)


@lru_cache(maxsize=16)
def _hash_files(stats: tuple[tuple[str, str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for path, name, _size, _mtime in stats:
        data = Path(path).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:VERSION_CHARS]


def runtime_dir(assets_dir: str) -> str:
    """The site folder this runtime version is served from: `<assets_dir>/<hash>`."""
    return f"{assets_dir}/{runtime_version()}"


def copy_runtime(site_dir: Path, assets_dir: str, cache_dir: Path | None = None, folder: str | None = None) -> None:
    """Write the runtime (shipped_files) into its versioned folder of the site: no CDN, ever.
    With a cache folder, the shipped files are kept there by version (`runtime-<version>.cache`):
    stripping and joining the modules is pure Python over the whole runtime's source, a cost every
    build whose index is cached would otherwise pay again.

    Other versions' folders left by earlier (`--dirty`, `serve`) builds are removed: assets_dir
    is the plugin's own (config.py keeps bundle_dir out of it), and the pages just built link
    only to this version. `folder`: runtime_dir(assets_dir) if the caller has it already (it
    hashes the runtime's files: one build asks once).
    """
    folder = folder or runtime_dir(assets_dir)
    target = site_dir / folder
    target.mkdir(parents=True, exist_ok=True)
    for name, text in _cached_shipped_files(cache_dir, folder.rsplit("/", 1)[-1]).items():
        shipped_to = target / name
        shipped_to.parent.mkdir(parents=True, exist_ok=True)
        shipped_to.write_bytes(text.encode("utf-8"))
    for old in target.parent.iterdir():
        if old != target and old.is_dir() and _VERSION_RE.fullmatch(old.name):
            shutil.rmtree(old)


def shipped(source: Path) -> str:
    """A runtime file as a site gets it: without comments and indentation (strip_js.py)."""
    text = source.read_text(encoding="utf-8")
    return strip_js.strip_js(text) if source.suffix == ".js" else strip_js.strip_css(text)


def shipped_files() -> dict[str, str]:
    """The runtime as a site gets it, by path in its folder: each of ENTRIES with the modules it
    loads (js_bundle.py) and the CSS, comments stripped."""
    root = js_dir() / "src"
    files = {entry: js_bundle.bundle_entry(root, entry, shipped) for entry in ENTRIES}
    for source in runtime_sources():
        if source.suffix == ".css":
            files[runtime_path(source)] = shipped(source)
    return dict(sorted(files.items()))


#: The shipped files kept in the cache folder, framed by files/cache_store.py (2: its frame).
_KIND, _VERSION = "runtime", 2


def _cached_shipped_files(cache_dir: Path | None, version: str) -> dict[str, str]:
    """shipped_files, read from the cache folder when it holds this `version`'s (runtime_version;
    else made and kept there; a damaged or unwritable cache file is made again)."""
    if cache_dir is None:
        return shipped_files()
    path = cache_dir / f"runtime-{version}.cache"
    try:
        payload = cache_store.read(path, _KIND, _VERSION)
        if payload is not None:
            files: dict[str, str] = json.loads(payload)
            return files
    except (OSError, ValueError):
        pass
    files = shipped_files()
    try:
        cache_store.prune(cache_dir, "runtime-*.cache", 0)  # other versions' copies
        cache_store.write(path, _KIND, _VERSION, json.dumps(files, sort_keys=True).encode("utf-8"))
    except OSError:
        pass  # a cache that cannot be written costs only the time to make the files again
    return files
