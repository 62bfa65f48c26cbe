"""Fusion of the keyword and vector rankings (mirrored by js/src/engine/fuse.js).

Score-aware fusion: each side's scores, normalized to [0, 1] per query, are mixed in a share
that follows how sure the keyword side is:
    coverage = of the query's `words` (its tokens that are not stop words, keyword.py), the
               share the keyword side's best chunk holds as exact terms (`held`; 0 without a
               keyword match or without words)
    gap      = 1 - second keyword score / best keyword score (1 with a single keyword match, 0
               with none): how far the keyword side's best chunk leads
    a        = 1 when that best chunk matches every word (`matched` = `words` > 0: each word
               through itself, another form of its stem, a typo correction or, for a word being
               typed that is no term of the site, a completion: `word_matches`); else
               fusion_coverage_base + fusion_coverage_span * coverage + fusion_gap_span * gap,
               at most 1 (search settings, bundle/settings.py; a manifest without them fuses
               with that file's defaults)
    share    = keyword_weight * a / (keyword_weight * a + vector_weight * (1 - a))   (0 if both 0)
    ceiling  = (keyword_weight + vector_weight) / (rrf_k + 1)   (the best score plain RRF could
               give: fused scores keep RRF's scale, so `min_score` and graph decay keep theirs)
    fused(c) = ceiling * share * (keyword score of c / best keyword score)
             + ceiling * (1 - share) * ((cosine of c - vector_threshold) / (best cosine - vector_threshold))
each term present only when c is in that ranking, added in that order, each computed as
written: (ceiling * share) * (score / best), (ceiling * (1 - share)) * ((cosine - t) / (best - t));
a vector ranking whose best cosine is the threshold itself counts each of its chunks as 1.
A query whose best keyword match holds every word (`TimeoutStopSec`, a pasted code line, a
sentence copied from the page, `serch plugin langauge` through its typo corrections) is one
the keyword side is sure of (`keyword_sure`): share 1, and search.py then keeps every chunk
the keyword side scored (no `min_score` cut, which would change page scores) and adds no
graph neighbours, so the hybrid answer is the keyword answer (covers and definitions first):
a typo-corrected match is no weaker evidence than the vector side's guess (CHANGELOG.md has
the measurements). So is a completed one: a word being typed that is no term of the site
(`heartb`, `BackgroundTa`) can only be the start of a word, and the vector side reads it
through the same completion (keyword.py completed_query), so it has no evidence of its own
there; the keyword side leads. A typed word that is a term (`fails` at the end of a
question) may be finished: its completions (`failsafe`) are guesses and do not count.
The keyword side is sure, too, of a query with a slip (`typo_slip`): a word that matched
nothing but typo corrections, one of them a single edit away (`pyhton verison pinning`), even
when no one chunk holds every word. A word one edit from a site term, and no common English
word (keyword.py), is a misspelling: the vector side reads it as written, the keyword side as
meant. Only one edit: a word two edits from a term is as often a word the site does not use
(`unfinished` for `finished` in a question), where the vector side knows best.
A question whose words are spread over many sections (`where does the generated html end
up`) leans on meaning, the less the more of its words the best keyword match holds exactly
and the further it leads the next. The scores say how far ahead a chunk is, where ranks
only say that it is (on the dev set's hybrid queries this beat RRF, and a fixed share, and
the share by coverage without the gap: CHANGELOG.md).

Exact cover: when the query is a lookup, nothing but identifiers (tokens the tokenizer keeps
whole beside their parts: `TimeoutStopSec`, `visibility_timeout`, `mkdocs.yml`, `--no-cache`) or
one single token (`jitter`, `SIGTERM`), the chunks that hold every such token as an exact term are where the
keyword side cannot be wrong: for `TimeoutStopSec` the one section that contains it (sections
that only say "timeout" or "stop" lack the whole term), for `jitter` every section that says
jitter. Such a chunk scores
    ceiling + its fused score
(the ceiling is the best any fused score can be), so exact covers come ahead of every chunk
found by meaning or by part of an identifier, in fused order among themselves. The
cover is the query's outcome, not its shape: an identifier no section holds covers nothing and
the query falls back to plain fusion, unless it is being typed (keyword.py `typed_tokens`): then
the terms it is a prefix of (keyword.py `prefix_terms`, the same the keyword side matched) stand
for it, and a chunk holding any of them holds it, so a half-typed `extra_java`, `gh-dep` or
`idempot` is a lookup of what it completes to (on the dev set this lifted its prefix queries
most of all). Questions in words are never covered, even when they name an identifier (on the
judged sets, covering "how can CI fail when the lockfile is out of date with pyproject.toml" by
`pyproject.toml` buried the answer under every section that mentions the file; covering lookups
only ranked better on both the dev and the held-out set than covering every identifier).

Definitions: within a lookup, a covering chunk that *defines* an identifier token of the query
or one of its completions (the chunk's definition names, index/documents.py, hold it, or a
dotted name ending in `.` + it; the bundle's term shards list them by name: bundle/write.py
defines_index: a
code block's `def enqueue`, `class RetryPolicy`, an API entry `harbor.Berth.assign` for
`assign` or `Berth.assign`) scores 2 x ceiling + its fused score, ahead of every chunk that merely
holds the name (a block that calls `enqueue()`). A page root defines the compound names of its
path (`user-guide`, `deploy-to-production`, `retries.md`). A path query, a text of one word
holding `/` (`user-guide/jobs`, `how-to/dep`), is defined by the root of each page whose path
key (text/facets.py) has the typed path's key at the start of one of its segments
(`/user-guide/jobs.md` for `user-guide/jobs` and `jobs/`, not for `guide/jobs`); such a root
counts only when the keyword side found it. Keyword mode has no fusion: there a defining chunk
scores its keyword score plus the best keyword score of the query (engine/search.py). A bundle
without `defines` has no definitions, path queries aside.

The keyword ranking holds chunks with a positive keyword score; the vector ranking those whose
cosine reaches `vector_threshold`. Both thresholds are absolute, so an off-topic query fuses
nothing and returns nothing.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Any, NamedTuple

import numpy as np

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.bundle.settings import FUSION_DEFAULTS
from mkdocs_graphsearch.engine.filters import WHITESPACE
from mkdocs_graphsearch.engine.keyword import prefix_terms
from mkdocs_graphsearch.text.facets import path_key


def identifier_tokens(tokens: list[str]) -> list[str]:
    """The tokens a chunk must hold to be an exact cover, when the query is nothing but
    identifiers: each whole compound (it has a connector `_-.`, or the tokens right after it
    spell it: `timeoutstopsec`, `timeout`, `stop`, `sec`) when every query token is such a
    compound or one of its parts, or the only token of a one-token query; none otherwise (a
    question that mentions `pyproject.toml` is a question, not a lookup)."""
    wholes: list[str] = []
    for i, token in enumerate(tokens):
        if any(c in token for c in "_-."):
            wholes.append(token)
            continue
        spelt, j = "", i + 1
        while j < len(tokens) and len(spelt) < len(token):
            spelt += tokens[j]
            j += 1
        if j - i > 2 and spelt == token:
            wholes.append(token)
    if len(tokens) == 1:
        return tokens
    # A lookup: every token is a whole or a piece of one (the parts that spell it included).
    lookup = all(any(token in whole for whole in wholes) for token in tokens)
    return wholes if wholes and lookup else []


def completions(bundle: Bundle, token: str, typed: Set[str]) -> list[int]:
    """For a token being typed that is no term (`gh-dep`, `idempot`), the terms it is a prefix
    of (keyword.prefix_terms, as the keyword side matched it); [] for any other token."""
    return prefix_terms(bundle, token) if token in typed and token not in bundle.term_index else []


def lookup_terms(bundle: Bundle, tokens: list[str], typed: Set[str] = frozenset()) -> list[list[int]]:
    """Per identifier token of the query, the terms that stand for it: its exact term, else its
    completions; [] when it has neither."""
    found: list[list[int]] = []
    for token in identifier_tokens(tokens):
        term = bundle.term_index.get(token)
        found.append([term] if term is not None else completions(bundle, token, typed))
    return found


def exact_cover(bundle: Bundle, tokens: list[str], typed: Set[str] = frozenset()) -> set[int]:
    """Chunks that hold, for every identifier token of the query, one of its lookup terms."""
    cover: set[int] | None = None
    for terms in lookup_terms(bundle, tokens, typed):
        holders: set[int] = set()
        for term in terms:
            start, end = bundle.term_start[term], bundle.term_start[term + 1]
            holders.update(int(c) for c in bundle.post_chunk[start:end])
        cover = holders if cover is None else cover & holders
        if not cover:
            return set()
    return cover or set()


def defining_chunks(bundle: Bundle, tokens: list[str], cover: Set[int], typed: Set[str] = frozenset()) -> set[int]:
    """The chunks of the exact cover that define an identifier token of the query, or one of
    its completions."""
    identifiers = identifier_tokens(tokens)
    wanted = identifiers + [bundle.terms[term] for token in identifiers for term in completions(bundle, token, typed)]
    # bundle.defines: each name a chunk defines and each part of it after a dot (write.py
    # defines_index), so this is: the chunks with a name that is a wanted token or ends in "." + it.
    return {chunk for token in wanted for chunk in bundle.defines.get(token, ()) if chunk in cover}


def path_roots(bundle: Bundle, text: str, found: Set[int]) -> set[int]:
    """For a path query, the roots (among `found`) of the pages its path names."""
    word = text.strip(WHITESPACE)
    typed = path_key(word)
    if "/" not in word or not typed or any(c in WHITESPACE for c in word):
        return set()
    chunks, paths = bundle.chunks, bundle.pages["path"]
    return {
        chunk
        for chunk in found
        if chunks["kind"][chunk] == "page" and f"/{path_key(paths[chunks['page'][chunk]])}".find(f"/{typed}") >= 0
    }


class Coverage(NamedTuple):
    """How much of the query the keyword side's best chunk holds: `held` of the query's `words`
    (its tokens that are not stop words) are exact terms of that chunk, `matched` of them are
    there through a term that shows the word is there (`word_matches`); `slip`: the query has a
    misspelt word the keyword side corrected (`typo_slip`) and the keyword side found chunks."""

    held: int
    words: int
    matched: int
    slip: bool = False


def typo_slip(tokens: list[str], stop: Set[str], distances: Sequence[Sequence[int]]) -> bool:
    """Whether a query token that is not a stop word matched through typo corrections alone
    (`distances`: per token, the edits of each term it matched, 0 for an exact, prefix or stem
    match), one of them a single edit away."""
    return any(
        token not in stop and found and 0 not in found and 1 in found
        for token, found in zip(tokens, distances, strict=True)
    )


def word_matches(bundle: Bundle, tokens: list[str], matched_terms: Sequence[Sequence[int]],
                 typed: Set[str]) -> list[list[int]]:
    """Per query token, the terms that show its word is in a chunk: the terms it matched
    (keyword.py: itself, another form of its stem, a typo correction, a completion) less, for a
    token being typed that is a term itself, its completions (the word may be finished: they are
    a guess, not evidence that it is there). A typed token that is no term keeps them: they are
    what it stands for."""
    found: list[list[int]] = []
    for token, terms in zip(tokens, matched_terms, strict=True):
        guessed = set(prefix_terms(bundle, token)) if token in typed and token in bundle.term_index else set()
        found.append([term for term in terms if term not in guessed])
    return found


def coverage(bundle: Bundle, tokens: list[str], stop: Set[str], keyword_ranked: list[int],
             matched_terms: Sequence[Sequence[int]]) -> Coverage:
    """Of the query's tokens that are not stop words, how many the keyword side's best chunk
    holds as an exact term, and as any of its `matched_terms` (word_matches, per token of
    `tokens`); none held without a keyword match."""
    content = [(token, terms) for token, terms in zip(tokens, matched_terms, strict=True) if token not in stop]
    if not keyword_ranked or not content:
        return Coverage(0, len(content), 0)
    best = keyword_ranked[0]
    exact = [bundle.term_index.get(token) for token, _ in content]
    held = sum(holds(bundle, term, best) for term in exact if term is not None)
    matched = sum(any(holds(bundle, term, best) for term in terms) for _, terms in content)
    return Coverage(held, len(content), matched)


def holds(bundle: Bundle, term: int, chunk: int) -> bool:
    """Whether the term's postings name the chunk: a binary search, as they rise by chunk."""
    start, end = int(bundle.term_start[term]), int(bundle.term_start[term + 1])
    at = start + int(np.searchsorted(bundle.post_chunk[start:end], chunk))
    return at < end and int(bundle.post_chunk[at]) == chunk


def keyword_gap(keyword_ranked: list[int], keyword_scores: Sequence[float] | np.ndarray) -> float:
    """How far the keyword side's best chunk leads: 1 - second score / best score (1 with a
    single keyword match, 0 with none)."""
    if not keyword_ranked:
        return 0.0
    if len(keyword_ranked) == 1:
        return 1.0
    return 1.0 - float(keyword_scores[keyword_ranked[1]]) / float(keyword_scores[keyword_ranked[0]])


def keyword_sure(covered: Coverage) -> bool:
    """Whether the keyword side's best chunk matches every word of the query, or the query has
    a slip the keyword side corrected (share 1: the hybrid answer is the keyword answer,
    search.py)."""
    return covered.words > 0 and (covered.matched == covered.words or covered.slip)


def fusion_setting(settings: dict[str, Any], key: str) -> float:
    """A fusion setting of the manifest, or its default for a manifest written before it was one."""
    value: float = settings.get(key, FUSION_DEFAULTS[key])
    return value


def keyword_confidence(covered: Coverage, gap: float, settings: dict[str, Any]) -> float:
    """`a`: 1 when the keyword side is sure, else base + span x exact coverage + gap span x gap,
    at most 1."""
    if keyword_sure(covered):
        return 1.0
    covered_share = covered.held / covered.words if covered.words else 0.0
    a = (fusion_setting(settings, "fusion_coverage_base")
         + fusion_setting(settings, "fusion_coverage_span") * covered_share
         + fusion_setting(settings, "fusion_gap_span") * gap)
    return min(a, 1.0)


def keyword_share(covered: Coverage, gap: float, settings: dict[str, Any]) -> float:
    """The keyword side's share of a fused score (1 - it is the vector side's)."""
    a = keyword_confidence(covered, gap, settings)
    keyword, vector = settings["keyword_weight"] * a, settings["vector_weight"] * (1 - a)
    total = keyword + vector
    return keyword / total if total else 0.0


def fusion_explain(covered: Coverage, keyword_ranked: list[int], keyword_scores: Sequence[float] | np.ndarray,
                   settings: dict[str, Any]) -> dict[str, Any]:
    """What set a hybrid query's keyword share (`--explain`): words held exactly and matched of
    the query's words, the keyword gap, whether a typo slip was corrected, whether the keyword
    side is sure (its answer is the hybrid answer) and the share."""
    gap = keyword_gap(keyword_ranked, keyword_scores)
    share = keyword_share(covered, gap, settings)
    return {"held": covered.held, "matched": covered.matched, "words": covered.words, "gap": gap,
            "slip": covered.slip, "sure": keyword_sure(covered), "keyword_share": share}


def fuse(
    keyword_ranked: list[int],
    keyword_scores: Sequence[float] | np.ndarray,
    vector_ranked: list[int],
    cosines: Sequence[float] | np.ndarray,
    covered: Coverage,
    cover: Set[int],
    settings: dict[str, Any],
    defined: Set[int] = frozenset(),
) -> dict[int, float]:
    """Normalized scores mixed by the keyword share, with covers one ceiling up and definitions
    two (both count in the keyword ranking only). The scores and cosines are indexed by chunk."""
    ceiling = (settings["keyword_weight"] + settings["vector_weight"]) / (settings["rrf_k"] + 1)
    share = keyword_share(covered, keyword_gap(keyword_ranked, keyword_scores), settings)
    keyword_part, vector_part = ceiling * share, ceiling * (1 - share)
    fused: dict[int, float] = {}
    if keyword_ranked:
        best = float(keyword_scores[keyword_ranked[0]])
        for chunk in keyword_ranked:
            lift = 2 * ceiling if chunk in defined else ceiling if chunk in cover else 0.0
            fused[chunk] = lift + keyword_part * (float(keyword_scores[chunk]) / best)
    if vector_ranked:
        floor = settings["vector_threshold"]
        span = float(cosines[vector_ranked[0]]) - floor
        for chunk in vector_ranked:
            closeness = (float(cosines[chunk]) - floor) / span if span > 0 else 1.0
            fused[chunk] = fused.get(chunk, 0.0) + vector_part * closeness
    return fused
