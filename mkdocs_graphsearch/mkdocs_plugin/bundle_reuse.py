"""The last build's bundle, written again when every input of it is unchanged.

Why: bundles are deterministic, so a build whose pages, settings, model and code are all the last
build's makes a bundle of the same bytes; building it (keyword index, semantic files, vector
layout) was most of what the plugin added to a CI build that keeps the cache folder. The bundle's
parts wait in the cache folder through MkDocs' clean of site_dir (bundle/kept.py); this module
keeps the manifest, and a key over every input of the bundle, beside the page state. When the key
matches, the parts are read back (each checked against the manifest's CRC-32) and written as the
build would write them (bundle/write.py): no index is built.

Key (`inputs_key`): sha256 over the plugin's code and version (`package_digest`), the pages as
the page state saves them (site_pages.py `SitePages.digest`), every page's URL, the search
settings, the semantic options (the model's fingerprint and the vector layout, or keyword-only),
related_count and site_name. The cache's other contents never change a bundle's bytes
(files/cache_store.py). A build that cannot restore (no record, another key, a part missing or
changed) builds the bundle as before and records it.

Only a bundle built without a warning is recorded: the warnings building one can give are
about the cache folder or a model that cannot run (a keyword-only bundle), which the next build
must meet again rather than inherit.

File: `bundle-<site key>.cache` beside the page state, framed by files/cache_store.py; payload
JSON: key, manifest (text).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import orjson

import mkdocs_graphsearch
from mkdocs_graphsearch.bundle.format import MANIFEST, checksum, file_name, listed_parts, part_crc
from mkdocs_graphsearch.files import cache_store

__all__ = ["BundleRecord", "inputs_key", "load_record", "package_digest", "record_file", "restore", "save_record"]

_KIND, _VERSION = "bundle-record", 1


@dataclass(frozen=True)
class BundleRecord:
    """The last bundle built for a site: the key of its inputs and its manifest."""

    key: str
    manifest: bytes


def record_file(state_path: Path) -> Path:
    """Beside the page state (page_state.state_file), with its site key."""
    return state_path.with_name(state_path.name.replace("pages-", "bundle-"))


@cache
def package_digest() -> str:
    """sha256 of the installed plugin's version and of every module and data file of its package
    (the runtime's JS is not part of a bundle)."""
    root = Path(mkdocs_graphsearch.__path__[0])
    digest = hashlib.sha256(mkdocs_graphsearch.__version__.encode() + b"\0")
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.txt")]):
        if "js" not in path.relative_to(root).parts[:1]:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def inputs_key(pages_digest: str, urls: Mapping[str, str], options: Mapping[str, object]) -> str:
    """sha256 over the code, the pages (`pages_digest`), every page's URL and the build's options
    (JSON-able: settings, semantic options, related_count, site_name)."""
    data = {"code": package_digest(), "pages": pages_digest, "urls": sorted(urls.items()), "options": options}
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()


def load_record(path: Path) -> BundleRecord | None:
    """The record, or None (none, another version, damaged or unreadable: the bundle is built)."""
    try:
        payload = cache_store.read(path, _KIND, _VERSION)
        if payload is None:
            return None
        data = orjson.loads(payload)
        record = BundleRecord(data["key"], data["manifest"].encode("utf-8"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return record if isinstance(record.key, str) else None


def save_record(path: Path, key: str, files: Mapping[str, bytes]) -> None:
    """Record the bundle just built; OSError to the caller (a cache: it warns and goes on)."""
    payload = {"key": key, "manifest": files[MANIFEST].decode("utf-8")}
    cache_store.write(path, _KIND, _VERSION, orjson.dumps(payload))


def restore(record: BundleRecord, key: str, folder: Path | None) -> dict[str, bytes] | None:
    """The recorded bundle's files by name (manifest included) when `key` is its key and
    `folder` (where the last build's parts are: bundle/kept.py) holds every part it lists with
    the manifest's CRC-32; else None."""
    if record.key != key or folder is None:
        return None
    try:
        manifest = orjson.loads(record.manifest)
        files: dict[str, bytes] = {}
        for part in listed_parts(manifest):
            name = file_name(manifest, part)
            data = (folder / name).read_bytes()
            if checksum(data) != part_crc(manifest, part):
                return None
            files[name] = data
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    files[MANIFEST] = record.manifest
    return files

