"""Fusion of the keyword and vector rankings (mirrored by js/src/fuse.js).

Reciprocal rank fusion, except where the keyword side is sure:
    rrf(c) = keyword_weight / (rrf_k + keyword rank of c) + vector_weight / (rrf_k + vector rank of c)
each term present only when c is in that ranking (ranks from 1), added in that order.

Exact cover: when the query is a lookup, nothing but identifiers (tokens the tokenizer keeps
whole beside their parts: `TimeoutStopSec`, `visibility_timeout`, `mkdocs.yml`, `--no-cache`) or
one single token (`jitter`, `SIGTERM`), the chunks that hold every such token as an exact term are where the
keyword side cannot be wrong: for `TimeoutStopSec` the one section that contains it (sections
that only say "timeout" or "stop" lack the whole term), for `jitter` every section that says
jitter. Such a chunk scores
    ceiling + keyword_weight / (rrf_k + keyword rank of c),  ceiling = (keyword_weight + vector_weight) / (rrf_k + 1)
plus its vector term (the ceiling is the best any RRF score can be), so exact covers come ahead
of every chunk found by meaning or by part of an identifier, in RRF order among themselves. The
cover is the query's outcome, not its shape: an identifier no section holds covers nothing and
the query falls back to plain RRF, unless it is being typed (keyword.py `typed_tokens`): then
the terms it is a prefix of (keyword.py `prefix_terms`, the same the keyword side matched) stand
for it, and a chunk holding any of them holds it, so a half-typed `extra_java`, `gh-dep` or
`idempot` is a lookup of what it completes to (measured on the dev set: hybrid nDCG@10 of its
prefix queries 0.541 -> 0.796, overall 0.756 -> 0.781). Questions in words are never
covered, even when they name an identifier (measured on the judged sets: covering "how can CI
fail when the lockfile is out of date with pyproject.toml" by `pyproject.toml` buried the answer
under every section that mentions the file; covering lookups only gave dev 0.731 / held-out
0.678 hybrid nDCG@10 against 0.720 / 0.630 for covering every identifier).

Definitions: within a lookup, a covering chunk that *defines* an identifier token of the query
or one of its completions (the chunk's definition names, index/documents.py, hold it, or a
dotted name ending in `.` + it; the bundle's term shards list them by name: bundle/write.py
defines_index: a
code block's `def enqueue`, `class RetryPolicy`, an API entry `harbor.Berth.assign` for
`assign` or `Berth.assign`) scores 2 x ceiling + its RRF terms, ahead of every chunk that merely
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

from collections.abc import Set
from typing import Any

from mkdocs_graphsearch.bundle.read import Bundle
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


def fuse(
    keyword_ranked: list[int],
    vector_ranked: list[int],
    cover: Set[int],
    settings: dict[str, Any],
    defined: Set[int] = frozenset(),
) -> dict[int, float]:
    """RRF with covers one ceiling up and definitions two (both count in the keyword ranking only)."""
    k = settings["rrf_k"]
    keyword_weight, vector_weight = settings["keyword_weight"], settings["vector_weight"]
    ceiling = (keyword_weight + vector_weight) / (k + 1)
    fused: dict[int, float] = {}
    for rank, chunk in enumerate(keyword_ranked, 1):
        lift = 2 * ceiling if chunk in defined else ceiling if chunk in cover else 0.0
        fused[chunk] = lift + keyword_weight / (k + rank)
    for rank, chunk in enumerate(vector_ranked, 1):
        fused[chunk] = fused.get(chunk, 0.0) + vector_weight / (k + rank)
    return fused
