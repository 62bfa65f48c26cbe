"""The browser runtime: where it lives (package data in a wheel, js/ in a checkout), its version,
and copying it into a site without its comments (strip_js.py; inject.py says why the site folder
is versioned)."""

from __future__ import annotations

import hashlib
import posixpath
import re
import shutil
from functools import lru_cache
from pathlib import Path

from mkdocs_graphsearch.files.package_data import js_dir
from mkdocs_graphsearch.site_output import strip_js

#: Where the browser runtime is written inside the site (a bundle folder must not overlap it).
ASSETS_DIR = "assets/graphsearch"
#: The runtime files shipped with a site (copy_runtime copies exactly these).
RUNTIME_SUFFIXES = frozenset({".js", ".css"})
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


def runtime_path(source: Path) -> str:
    """A runtime file's path in the site's runtime folder: its path under src/ (`engine/keyword.js`),
    so the modules' relative imports resolve there as in js/src."""
    return source.relative_to(js_dir() / "src").as_posix()


def runtime_version() -> str:
    """A short hash of the runtime's file names and bytes and of strip_js.py, which makes the
    shipped copy (re-read only when a file changed)."""
    sources = [(path, runtime_path(path)) for path in runtime_sources()]
    sources.append((Path(strip_js.__file__), Path(strip_js.__file__).name))
    stats = tuple((str(path), name, path.stat().st_size, path.stat().st_mtime_ns) for path, name in sources)
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


def copy_runtime(site_dir: Path, assets_dir: str) -> None:
    """Copy the runtime (ES modules and CSS, comments stripped) into its versioned folder of the
    site: no CDN, ever.

    Other versions' folders left by earlier (`--dirty`, `serve`) builds are removed: assets_dir
    is the plugin's own (config.py keeps bundle_dir out of it), and the pages just built link
    only to this version.
    """
    target = site_dir / runtime_dir(assets_dir)
    target.mkdir(parents=True, exist_ok=True)
    for source in runtime_sources():
        shipped_to = target / runtime_path(source)
        shipped_to.parent.mkdir(parents=True, exist_ok=True)
        shipped_to.write_bytes(shipped(source).encode("utf-8"))
    for old in target.parent.iterdir():
        if old != target and old.is_dir() and _VERSION_RE.fullmatch(old.name):
            shutil.rmtree(old)


def shipped(source: Path) -> str:
    """A runtime file as a site gets it: without comments and indentation (strip_js.py)."""
    text = source.read_text(encoding="utf-8")
    return strip_js.strip_js(text) if source.suffix == ".js" else strip_js.strip_css(text)
