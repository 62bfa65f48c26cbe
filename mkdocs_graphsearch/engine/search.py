"""The reference engine's entry point: query -> grouped results (mirrored by js/src/engine.js)."""

from __future__ import annotations

from typing import Any

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.engine.keyword import keyword_scores
from mkdocs_graphsearch.engine.results import group_by_page, rank_chunks

MODES = ("keyword", "vector", "hybrid")


def available_mode(bundle: Bundle, mode: str | None) -> str:
    """The mode a query really runs in: without vectors in the bundle, only keyword."""
    requested = mode or bundle.settings["default_mode"]
    if requested not in MODES:
        raise ValueError(f"unknown mode {requested!r} (choose from {', '.join(MODES)})")
    if requested != "keyword" and "vectors" not in bundle.manifest:
        return "keyword"
    return requested


def search(
    bundle: Bundle,
    query: str,
    *,
    mode: str | None = None,
    limit: int | None = None,
    explain: bool = False,
) -> dict[str, Any]:
    mode = available_mode(bundle, mode)
    limit = bundle.settings["default_limit"] if limit is None else limit
    keyword = keyword_scores(bundle, query)
    scores = keyword.scores
    ranked = rank_chunks(scores)
    details = None
    if explain:
        details = {
            chunk: {"bm25": {"rank": rank + 1, "score": float(scores[chunk])}}
            for rank, chunk in enumerate(ranked)
        }
    results = group_by_page(bundle, ranked, scores, keyword.matched_terms, limit, details)
    return {"query": query, "mode": mode, "results": results}
