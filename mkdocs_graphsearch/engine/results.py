"""Rank chunks and group them by page (mirrored by js/src/results.js).

Chunks rank by score (descending), ties by chunk index. A page's score is
page_max_weight * its best chunk + page_top_weight * the mean of its top page_top_n chunks,
so a page with hundreds of sections cannot win by their number. Pages rank by score, ties by
page index; each lists its best `sections_per_page` chunks, skipping a chunk whose anchor is
already listed (a code block and its section lead to the same place: the better one stands).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.engine.snippet import Highlight, snippet, source_text


def rank_chunks(scores: np.ndarray) -> list[int]:
    """Chunks with a positive score, best first, ties by chunk index."""
    candidates = np.flatnonzero(scores > 0)
    order = np.lexsort((candidates, -scores[candidates]))
    return [int(i) for i in candidates[order]]


def page_score(section_scores: list[float], settings: dict[str, Any]) -> float:
    top = section_scores[: settings["page_top_n"]]
    total = 0.0
    for score in top:
        total += score
    return settings["page_max_weight"] * top[0] + settings["page_top_weight"] * (total / len(top))


def group_by_page(
    bundle: Bundle,
    ranked: list[int],
    scores: np.ndarray,
    marks: Highlight,
    limit: int,
    details: dict[int, dict[str, Any]],
    explain: bool = False,
) -> list[dict[str, Any]]:
    """Pages with their best sections; `details[chunk]` holds `via` and the explain parts."""
    settings = bundle.settings
    chunks, pages = bundle.chunks, bundle.pages
    by_page: dict[int, list[int]] = {}
    for chunk in ranked:
        by_page.setdefault(chunks["page"][chunk], []).append(chunk)
    scored = [
        (page_score([float(scores[c]) for c in members], settings), page, members)
        for page, members in by_page.items()
    ]
    scored.sort(key=lambda item: (-item[0], item[1]))
    results = []
    for score, page, members in scored[:limit]:
        url = pages["url"][page]
        sections = []
        listed: set[str] = set()
        for chunk in members:
            anchor = chunks["anchor"][chunk]
            if anchor in listed:
                continue
            if len(sections) == settings["sections_per_page"]:
                break
            listed.add(anchor)
            section: dict[str, Any] = {
                "id": chunks["id"][chunk],
                "kind": chunks["kind"][chunk],
                "anchor": anchor,
                "title": chunks["title"][chunk],
                "url": f"{url}#{anchor}" if anchor else url,
                "score": float(scores[chunk]),
                "snippet": snippet(
                    source_text(bundle.texts, chunks["parent"], chunks["title"], chunk),
                    marks,
                    settings["snippet_words"],
                ),
            }
            section["via"] = details[chunk]["via"]
            if explain:
                section["explain"] = {k: v for k, v in details[chunk].items() if k != "via"}
            sections.append(section)
        results.append(
            {
                "page": pages["path"][page],
                "url": url,
                "title": pages["title"][page],
                "score": score,
                "sections": sections,
            }
        )
    return results
