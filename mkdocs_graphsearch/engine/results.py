"""Rank chunks and group them by page (mirrored by js/src/engine/results.js).

Chunks rank by score (descending), ties by chunk index. A chunk is *direct* when the keyword or
vector side found it, *related* when only graph expansion added it. A page ranks by its direct
sections: page_max_weight x the best + page_top_weight x the mean of the best page_top_n (ties by
page index), so related sections can never lower it (measured: the best section alone lost
0.012 nDCG@10 on a held-out set, where pages with several good sections deserve to lead).
Pages with only related sections come after every page with a direct one, scored the same way
from those. Each page lists its best `sections_per_page` sections, direct ones first and
related ones only in the slots left, skipping a chunk whose anchor is already listed (a code block
and its section lead to the same place: the better one stands). A code block with a language
says which (`language`: the language it counts as for `lang:`, text/facets.py language_of).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.engine.filters import language_aliases
from mkdocs_graphsearch.engine.snippet import Highlight, snippet, source_text
from mkdocs_graphsearch.text.facets import language_of


def rank_chunks(scores: np.ndarray) -> list[int]:
    """Chunks with a positive score, best first, ties by chunk index."""
    candidates = np.flatnonzero(scores > 0)
    order = np.lexsort((candidates, -scores[candidates]))
    return [int(i) for i in candidates[order]]


def page_score(members: list[int], scores: np.ndarray, settings: dict[str, Any]) -> float:
    """page_max_weight x best + page_top_weight x mean of the top page_top_n (members best first)."""
    top = [float(scores[chunk]) for chunk in members[: settings["page_top_n"]]]
    total = 0.0
    for score in top:  # left to right, as JS adds (Python 3.12's sum() compensates)
        total += score
    return float(settings["page_max_weight"] * top[0] + settings["page_top_weight"] * (total / len(top)))


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
    languages = chunks.get("language")
    direct: dict[int, list[int]] = {}
    related: dict[int, list[int]] = {}
    for chunk in ranked:
        found = direct if details[chunk]["via"] != ["graph"] else related
        found.setdefault(chunks["page"][chunk], []).append(chunk)
    scored = []
    for page in direct.keys() | related.keys():
        members = direct.get(page, []) + related.get(page, [])
        ranking = direct.get(page) or related[page]
        scored.append((page not in direct, -page_score(ranking, scores, settings), page, members))
    scored.sort()
    results = []
    for _, negated, page, members in scored[:limit]:
        score = -negated
        url = pages["url"][page]
        sections: list[dict[str, Any]] = []
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
            if languages and chunks["kind"][chunk] == "code" and languages[chunk]:
                section["language"] = language_of(languages[chunk], language_aliases(bundle))
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
