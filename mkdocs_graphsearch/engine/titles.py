"""A query that is a page's title, or the site's name: that page first (mirrored by
js/src/engine/titles.js).

A page root defines its title's key, and the home page's root the key of the site's name
(index/documents.py; text/tokenize.py `title_key`: the tokens joined by single spaces). The
page roots among the keyword side's matches that define the query's key are *titled*: after
fusion (or, in keyword mode, after the definitions' lift) each scores the best score of the
query plus its own, so titled pages come first, in their own order (`tidewater` on a site
named Tidewater, `Deploy to production` for the page of that title). The key of a multi-word
title sorts right after its first token's term, so it is in that token's term shard
(bundle/write.py keyword_part), which the query loads anyway.
"""

from __future__ import annotations

from collections.abc import Set

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.text.tokenize import title_key


def titled_roots(bundle: Bundle, text: str, found: Set[int]) -> set[int]:
    """The page roots among `found` whose title (or, for the home page, the site's name) is the query."""
    kinds = bundle.chunks["kind"]
    return {chunk for chunk in bundle.defines.get(title_key(text), ()) if kinds[chunk] == "page" and chunk in found}


def lift_titled(scores: dict[int, float], titled: Set[int]) -> None:
    """Each titled chunk scores the best score plus its own (in place)."""
    if titled and scores:
        top = max(scores.values())
        for chunk in sorted(titled):
            scores[chunk] += top
