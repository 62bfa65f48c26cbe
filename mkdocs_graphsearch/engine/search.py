"""The reference engine's entry point: query -> grouped results (mirrored by js/src/engine/engine.js).

Filters (`kind:code`, engine/filters.py) are cut out of the query first; with any, only the
chunks they match take part (other chunks' keyword scores and cosines are 0), and a query of
filters alone lists the matching chunks.
keyword: BM25F scores rank the chunks; a lookup's defining chunks first (fuse.py).
vector:  cosines at or above `vector_threshold` rank the chunks; graph expansion (floor: the
         threshold).
hybrid:  both sides' normalized scores mixed by how much of the query the best keyword match
         holds, exact covers first (fuse.py), a page whose title is the query before them
         (titles.py; in keyword mode too), less the chunks that only the
         vector side found with a cosine under `vector_only_threshold` (calibrated per site at
         build time: index/calibrate.py), then graph expansion (floor: `min_score`); when the
         best keyword match holds the whole query, or the query has a misspelt word the keyword
         side corrected (fuse.py keyword_sure), the keyword side's chunks in fused order, none
         cut and none added by the graph.
The static encoder reads the query completed by the keyword side (keyword.completed_query).
Every section says `via`: which of keyword, vector and graph put it in the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.bundle.settings import MODES
from mkdocs_graphsearch.engine.encoder import project_query, query_vector
from mkdocs_graphsearch.engine.expand import Origin, expand, languages_of
from mkdocs_graphsearch.engine.filters import allowed_chunks, merged, parse_filter, parse_query
from mkdocs_graphsearch.engine.fuse import (
    coverage,
    defining_chunks,
    exact_cover,
    fuse,
    fusion_explain,
    keyword_sure,
    path_roots,
    typo_slip,
    word_matches,
)
from mkdocs_graphsearch.engine.keyword import completed_query, keyword_scores
from mkdocs_graphsearch.engine.results import group_by_page, rank_chunks
from mkdocs_graphsearch.engine.snippet import Highlight, keyword_highlight
from mkdocs_graphsearch.engine.titles import lift_titled, titled_roots
from mkdocs_graphsearch.engine.vector import cosines, probed_mask, query_levels


def available_mode(bundle: Bundle, mode: str | None) -> str:
    """The mode a query really runs in: without vectors in the bundle, only keyword."""
    requested = mode or bundle.settings["default_mode"]
    if requested not in MODES:
        raise ValueError(f"unknown mode {requested!r} (choose from {', '.join(MODES)})")
    if requested != "keyword" and bundle.vectors is None:
        return "keyword"
    return requested


#: An older manifest's search settings have no `max_query_chars` (bundle/settings.py).
MAX_QUERY_CHARS_IF_ABSENT = 1000


def bounded_query(bundle: Bundle, query: str) -> str:
    """The query cut to the bundle's `max_query_chars` code points: bounded work for any input."""
    return query[: bundle.settings.get("max_query_chars", MAX_QUERY_CHARS_IF_ABSENT)]


def _dense(scores: dict[int, float], size: int) -> np.ndarray:
    dense = np.zeros(size, dtype=np.float64)
    for chunk, score in scores.items():
        dense[chunk] = score
    return dense


def search(
    bundle: Bundle,
    query: str,
    *,
    mode: str | None = None,
    limit: int | None = None,
    explain: bool = False,
    vector: list[float] | None = None,
    filters: Sequence[str] = (),
) -> dict[str, Any]:
    """Grouped results for a query. `vector` replaces the static encoder's query vector
    (`graphsearch query --query-encoder model` passes the full model's; it is projected).
    `filters` are `facet:value` filters given apart from the query (`--filter`), as if typed;
    a bad one raises ValueError."""
    mode = available_mode(bundle, mode)
    settings = bundle.settings
    limit = settings["default_limit"] if limit is None else limit
    parsed = parse_query(bounded_query(bundle, query))
    chosen = merged(parsed.filters, [parse_filter(argument) for argument in filters])
    allowed = allowed_chunks(bundle, chosen) if chosen else None
    searched = parsed.text
    keyword = keyword_scores(bundle, searched)
    if allowed is not None:
        keyword.scores = np.where(allowed, keyword.scores, 0.0)
        if not keyword.tokens:
            marks = keyword_highlight(bundle, searched, keyword)
            return _listing(bundle, query, mode, limit, chosen, allowed, marks, explain)
    keyword_ranked = rank_chunks(keyword.scores) if mode != "vector" else []
    vector_ranked: list[int] = []
    cos: np.ndarray | None = None
    # available_mode: vectors are there in every mode but keyword.
    if mode != "keyword" and bundle.vectors is not None and bundle.vector_scales is not None:
        if vector is None:
            vector = query_vector(bundle, completed_query(bundle, searched, keyword))
        elif len(vector) != bundle.vectors.shape[1]:
            vector = project_query(bundle, vector)
        if vector is not None:
            levels = query_levels(bundle.manifest)
            cos = cosines(bundle.vectors, bundle.vector_scales, vector, levels)
            if bundle.clusters is not None:  # only the probed clusters' chunks (vector.py)
                cos[~probed_mask(bundle.clusters, vector, levels, bundle.n_chunks)] = 0.0
            cos[cos < settings["vector_threshold"]] = 0.0
            if allowed is not None:
                cos[~allowed] = 0.0
            vector_ranked = rank_chunks(cos)

    origins: dict[int, Origin] = {}
    direct: set[int] = set()  # what the keyword or vector side put in the results
    fusion: dict[str, Any] | None = None  # what set the keyword share (hybrid), for explain
    cover = exact_cover(bundle, keyword.tokens, keyword.typed) if mode != "vector" else set()
    found = set(keyword_ranked)  # definitions count where the keyword side found them (fuse.py)
    defining = defining_chunks(bundle, keyword.tokens, cover, keyword.typed)
    defined = (defining | path_roots(bundle, searched, found)) & found
    titled = titled_roots(bundle, searched, found)  # first of all (titles.py)
    if mode == "keyword":
        scores = keyword.scores
        if defined or titled:  # ahead of every other chunk, in keyword order among themselves (fuse.py)
            scores = scores.copy()
            best = float(scores.max())
            for chunk in defined:
                scores[chunk] += best
            best = float(scores.max())
            for chunk in titled:
                scores[chunk] += best
        direct = set(keyword_ranked)
    else:
        follow = True  # graph expansion
        if mode == "vector":
            fused = {chunk: float(cos[chunk]) for chunk in vector_ranked} if cos is not None else {}
            floor = settings["vector_threshold"]
        else:
            expansions = [[expansion.term for expansion in options] for options in keyword.expansions]
            matched = word_matches(bundle, keyword.tokens, expansions, keyword.typed)
            sure = coverage(bundle, keyword.tokens, keyword.stop, keyword_ranked, matched)
            distances = [[expansion.distance for expansion in options] for options in keyword.expansions]
            if keyword_ranked and typo_slip(keyword.tokens, keyword.stop, distances):
                sure = sure._replace(slip=True)
            cosines_found: np.ndarray = cos if cos is not None else np.zeros(0)  # none: no vector ranking
            fused = fuse(keyword_ranked, keyword.scores, vector_ranked, cosines_found, sure, cover, settings, defined)
            if explain:  # recomputes the share fuse() used: only for --explain
                fusion = fusion_explain(sure, keyword_ranked, keyword.scores, settings)
            # Sure of the keyword side (fuse.py): its answer, whole, without graph guesses.
            follow = not keyword_sure(sure)
            floor = settings["min_score"] if follow else 0.0
            # Without a keyword match, a chunk needs a surer cosine: the vector side alone
            # must not answer an off-topic query.
            alone = settings["vector_only_threshold"]
            keyword_hits = set(keyword_ranked)
            fused = {c: s for c, s in fused.items() if c in keyword_hits or (cos is not None and cos[c] >= alone)}
            lift_titled(fused, titled)
        direct = set(fused)
        if follow:
            seeds = sorted(fused, key=lambda c: (-fused[c], c))
            languages = languages_of(bundle.pages, bundle.chunks)
            origins = expand(fused, seeds, bundle.graph, settings, floor, allowed, languages)
        scores = _dense({c: s for c, s in fused.items() if s >= floor}, bundle.n_chunks)
    ranked = rank_chunks(scores)

    keyword_rank = {chunk: rank for rank, chunk in enumerate(keyword_ranked, 1)}
    vector_rank = {chunk: rank for rank, chunk in enumerate(vector_ranked, 1)}
    details: dict[int, dict[str, Any]] = {}
    for chunk in ranked:
        via: list[str] = []
        info: dict[str, Any] = {}
        if chunk in keyword_rank:
            via.append("keyword")
            info["bm25"] = {"rank": keyword_rank[chunk], "score": float(keyword.scores[chunk])}
        if cos is not None and chunk in vector_rank:
            if chunk in direct:  # else its cosine was too low for a vector-only result
                via.append("vector")
            info["vector"] = {"rank": vector_rank[chunk], "cosine": float(cos[chunk])}
        if chunk in origins:
            via.append("graph")
            origin = origins[chunk]
            info["graph"] = {"from": bundle.chunks["id"][origin.seed], "edge": origin.edge, "depth": origin.depth}
        info["via"] = via
        details[chunk] = info
    marks = keyword_highlight(bundle, searched, keyword)
    results = group_by_page(bundle, ranked, scores, marks, limit, details, explain)
    output = _output(query, mode, results, chosen)
    if fusion is not None:
        output["fusion"] = fusion
    return output


def _output(query: str, mode: str, results: list[dict[str, Any]], filters: dict[str, list[str]]) -> dict[str, Any]:
    output: dict[str, Any] = {"query": query, "mode": mode, "results": results}
    if filters:
        output["filters"] = filters
    return output


def _listing(
    bundle: Bundle,
    query: str,
    mode: str,
    limit: int,
    filters: dict[str, list[str]],
    allowed: np.ndarray,
    marks: Highlight,
    explain: bool,
) -> dict[str, Any]:
    """A query of filters alone: the matching chunks by page, in bundle order, score 0."""
    ranked = [int(chunk) for chunk in np.flatnonzero(allowed)]
    details: dict[int, dict[str, Any]] = {chunk: {"via": ["filter"]} for chunk in ranked}
    results = group_by_page(bundle, ranked, np.zeros(bundle.n_chunks), marks, limit, details, explain)
    return _output(query, mode, results, filters)
