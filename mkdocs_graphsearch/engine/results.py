"""Rank chunks and group them by page (mirrored by js/src/engine/results.js).

Chunks rank by score (descending), ties by chunk index. A chunk is *direct* when the keyword or
vector side found it, *related* when only graph expansion added it. A page ranks by its direct
sections: page_max_weight x the best + page_top_weight x the mean of the best page_top_n (ties by
page index), so related sections can never lower it (a page with several good sections deserves
to lead).
Pages with only related sections come after every page with a direct one, scored the same way
from those. Each page lists its best `sections_per_page` sections, direct ones first and
related ones only in the slots left, skipping a chunk whose place is already listed: its anchor
(a code block and its section lead to the same place: the better one stands), or for a parameter
entry its object's anchor. A code block with a language says which (`language`: the language it
counts as for `lang:`, text/facets.py language_of).

Parameter entries (mkdocstrings' `parameter_headings`): an `api` chunk whose anchor is its
parent `api` chunk's anchor + `(name)` (`griffe.load_git(repo)` under `griffe.load_git`) is one
of that object's parameters. It folds into its object's row: the two share a place, so a page
lists the object or one of its parameters, whichever ranks first, never both and never two
parameters of one object (a code block inside a parameter entry counts as the entry); a
parameter's row is titled `object › name` (the last dotted name of the object: `load_git ›
repo`), never the bare parameter name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.engine.filters import language_aliases
from mkdocs_graphsearch.engine.snippet import BREADCRUMB_SEPARATOR, Highlight, snippet, source_text
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


def parameter_of(kinds: list[str], anchors: list[str], parents: list[int], chunk: int) -> str | None:
    """For a parameter entry or a code block in one, its object's anchor; None for any other chunk."""
    entry = parents[chunk] if kinds[chunk] == "code" else chunk
    if entry < 0:
        return None
    anchor, parent = anchors[entry], parents[entry]
    if kinds[entry] != "api" or parent < 0 or kinds[parent] != "api" or not anchor.endswith(")"):
        return None
    owner = anchors[parent]
    return owner if owner and anchor.startswith(owner + "(") and ")" not in anchor[len(owner) + 1 : -1] else None


def parameter_title(owner: str, anchor: str) -> str:
    """A parameter row's title: `object › name` (`load_git › repo` for `griffe.load_git(repo)`)."""
    return owner.rsplit(".", 1)[-1] + BREADCRUMB_SEPARATOR + anchor[len(owner) + 1 : -1]


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
            owner = parameter_of(chunks["kind"], chunks["anchor"], chunks["parent"], chunk)
            place = anchor if owner is None else owner
            if place in listed:
                continue
            if len(sections) == settings["sections_per_page"]:
                break
            listed.add(place)
            section: dict[str, Any] = {
                "id": chunks["id"][chunk],
                "kind": chunks["kind"][chunk],
                "anchor": anchor,
                "title": chunks["title"][chunk] if owner is None else parameter_title(owner, anchor),
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
