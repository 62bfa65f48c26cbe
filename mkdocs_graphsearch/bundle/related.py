"""The bundle's related pages (related.json) and most connected pages (the manifest's `top`).

Both are optional and additive to format 2: a bundle without them (format 1, or built before them)
has no related pages and no top list, and every reader carries on. index/related.py computes them.

    related.json   {"related": [[page, ...], ...], "scores": [[score, ...], ...],
                   "reasons": [[[content, direct, cocited, coupled, aside], ...], ...]}: per page
                   (in keyword.json's page order), its related pages as page indexes, best first,
                   their scores (rounded) and why each is there (index/related.py: the content
                   cosine, the direct, cocited and coupled link parts, and why it was set aside
                   (0: it was not; 1: the home page, 2: another language; then listed because
                   nothing else relates); optional:
                   older bundles have no reasons). The browser never fetches it: the plugin
                   renders related pages into the built HTML, `graphsearch related` and
                   `graphsearch mcp` serve them.
    manifest top   [{"path": ..., "title": ..., "url": ...}, ...]: the most connected pages, best
                   first, whole, so an empty search box can list them from the manifest alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from mkdocs_graphsearch.bundle.format import RELATED, BundleError
from mkdocs_graphsearch.bundle.read import Bundle, parse_json, read_file
from mkdocs_graphsearch.bundle.write import dumps

#: A page's related pages: (page index, score), best first.
Related = list[tuple[int, float]]


class Reason(NamedTuple):
    """Why a page is related (index/related.py): the pages' content cosine, the link parts
    (direct: 1 when each links the other, 0.5 when one does; cocited; coupled), and why it was
    set aside (NOT_ASIDE, ASIDE_HOME, ASIDE_LANGUAGE) and listed because nothing else relates."""

    content: float
    direct: float
    cocited: float
    coupled: float
    aside: int


NOT_ASIDE, ASIDE_HOME, ASIDE_LANGUAGE = 0, 1, 2


def related_part(related: Sequence[Related], reasons: Sequence[Sequence[Reason]]) -> dict[str, bytes]:
    """related.json's bytes, by its logical name (the writer hashes the file name)."""
    document = {
        "related": [[page for page, _ in row] for row in related],
        "scores": [[score for _, score in row] for row in related],
        "reasons": [[list(reason) for reason in row] for row in reasons],
    }
    return {RELATED: dumps(document)}


def read_reasons(bundle: Bundle) -> list[list[Reason]] | None:
    """Per page, why each of its related pages is there; None for bundles without reasons."""
    if read_related(bundle) is None:
        return None
    document = parse_json(RELATED, bundle.files[RELATED])
    rows = document.get("reasons") if isinstance(document, dict) else None
    if rows is None:
        return None
    related = document["related"]
    if not isinstance(rows, list) or len(rows) != len(related):
        raise BundleError(f"{RELATED} does not give each page its reasons (corrupted)")
    reasons: list[list[Reason]] = []
    for row, pages in zip(rows, related, strict=True):
        if not (isinstance(row, list) and len(row) == len(pages)) or not all(_is_reason(item) for item in row):
            raise BundleError(f"{RELATED} does not give each related page a reason (corrupted)")
        reasons.append([Reason(float(item[0]), float(item[1]), float(item[2]), float(item[3]), int(item[4]))
                        for item in row])
    return reasons


def describe(reason: Reason) -> str:
    """A reason in words: `similar content (0.42); links to each other; ...`."""
    parts = []
    if reason.content > 0:
        parts.append(f"similar content ({reason.content:.2f})")
    if reason.direct >= 1:
        parts.append("they link each other")
    elif reason.direct > 0:
        parts.append("one links the other")
    if reason.cocited > 0:
        parts.append(f"linked from the same pages ({reason.cocited:.2f})")
    if reason.coupled > 0:
        parts.append(f"link to the same pages ({reason.coupled:.2f})")
    if reason.aside == ASIDE_HOME:
        parts.append("the home page, listed as nothing else relates")
    elif reason.aside == ASIDE_LANGUAGE:
        parts.append("in another language, listed as nothing else relates")
    return "; ".join(parts) or "no evidence"


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


def _is_reason(value: object) -> bool:
    return (isinstance(value, list) and len(value) == 5 and all(_is_score(x) for x in value[:4])
            and value[4] in (NOT_ASIDE, ASIDE_HOME, ASIDE_LANGUAGE))
