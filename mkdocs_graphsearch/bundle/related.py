"""The bundle's related pages (related.json) and most connected pages (the manifest's `top`).

Both are optional and additive to format 2: a bundle without them (format 1, or built before them)
has no related pages and no top list, and every reader carries on. index/related.py computes them.

    related.json   {"related": [[page, ...], ...], "scores": [[score, ...], ...]}: per page (in
                   keyword.json's page order), its related pages as page indexes, best first,
                   and their scores (rounded). The browser never fetches it: the plugin renders
                   related pages into the built HTML, and `graphsearch mcp` serves them.
    manifest top   [{"path": ..., "title": ..., "url": ...}, ...]: the most connected pages, best
                   first, whole, so an empty search box can list them from the manifest alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mkdocs_graphsearch.bundle.format import RELATED, BundleError
from mkdocs_graphsearch.bundle.read import Bundle, parse_json, read_file
from mkdocs_graphsearch.bundle.write import dumps

#: A page's related pages: (page index, score), best first.
Related = list[tuple[int, float]]


def related_part(related: Sequence[Related]) -> dict[str, bytes]:
    """related.json's bytes, by its logical name (the writer hashes the file name)."""
    document = {
        "related": [[page for page, _ in row] for row in related],
        "scores": [[score for _, score in row] for row in related],
    }
    return {RELATED: dumps(document)}


def top_entries(pages: Sequence[int], paths: Sequence[str], titles: Sequence[str], urls: Sequence[str]) -> list[Any]:
    """The manifest's `top`: each page whole (path, title, url)."""
    return [{"path": paths[i], "title": titles[i], "url": urls[i]} for i in pages]


def read_related(bundle: Bundle) -> list[Related] | None:
    """Per page, its related pages; None when the bundle has none (older bundles). Read here, on
    demand, not by load_bundle: that loads what the browser loads, and the browser never reads it."""
    if RELATED not in bundle.manifest["files"]:
        return None
    if RELATED not in bundle.files:
        bundle.files[RELATED] = read_file(bundle.path, bundle.manifest, RELATED)
    return parse_related(bundle.files[RELATED], len(bundle.pages["path"]))


def parse_related(data: bytes, n: int) -> list[Related]:
    """related.json's rows for a bundle of n pages, checked (BundleError when they do not fit)."""
    document = parse_json(RELATED, data)
    related = document.get("related") if isinstance(document, dict) else None
    scores = document.get("scores") if isinstance(document, dict) else None
    if not isinstance(related, list) or not isinstance(scores, list) or len(related) != n or len(scores) != n:
        raise BundleError(f"{RELATED} does not match the bundle's pages (corrupted)")
    rows: list[Related] = []
    for pages, values in zip(related, scores, strict=True):
        if not (isinstance(pages, list) and isinstance(values, list) and len(pages) == len(values)):
            raise BundleError(f"{RELATED} does not give each related page a score (corrupted)")
        row = list(zip(pages, values, strict=True))
        if not all(_is_page(page, n) and _is_score(value) for page, value in row):
            raise BundleError(f"{RELATED} names pages that do not exist (corrupted)")
        rows.append([(int(page), float(value)) for page, value in row])
    return rows


def read_top(manifest: dict[str, Any]) -> list[dict[str, str]]:
    """The manifest's most connected pages (its shape checked by schema.py; empty for older bundles)."""
    return [{key: entry[key] for key in ("path", "title", "url")} for entry in manifest.get("top", [])]


def _is_page(value: object, count: int) -> bool:
    return type(value) is int and 0 <= value < count


def _is_score(value: object) -> bool:
    return type(value) in (int, float)
