"""Keyword scoring over the bundle's precomputed BM25F impacts (mirrored by js/src/engine/keyword.js).

Specification:
- Query tokens: the shared tokenizer's query tokens (text/tokenize.py `query_spans`: a query of
  stop words alone is read as code, so `where` finds an API named `where`), duplicates removed
  (first occurrence kept). A token is a query *word* when it occurs as a word (text/tokenize.py
  rule 7) in the query.
- Stop words: when some query token is not a word in `query_stop_words`, the words in that
  list are stop tokens: their scores count `stop_word_weight` times, and only in chunks some
  other token matched, so they never make a match alone (`my cat is sick` is about a cat:
  nothing, where no page has cat or sick; `is` alone, or in `is_valid`, searches as usual).
- Tokens being typed (`typed_tokens`): the last query token, and each whole compound whose end
  is the end of the query's last token (the identifier being typed: `gh-dep` beside `dep`,
  `extra_java` beside `java`; text/tokenize.py `token_spans`, kind COMPOUND).
- Each token expands to dictionary terms with weights:
  exact match 1.0; if it is being typed, up to `max_expansions` other terms it is a prefix of
  (most postings first, then term order) at `prefix_weight`; if it is a prose word (text/stem.py),
  the other terms of its stem's group in the bundle's `stems` at `stem_weight`; if it has no
  exact, prefix or stem match, is at least `fuzzy_min_length` code points long and is not one
  of the bundle's known words (terms.json `words`: common English words, index/known_words.py),
  up to `max_expansions` terms it is a typo of (engine/fuzzy.py `typo_distance`: distance d <=
  2 from `fuzzy_long_length` code points, else 1 and the same first code point; nearest, then
  most postings, then term order) at `fuzzy_weights[d - 1]`.
- A query none of whose tokens but stop tokens has an exact, prefix or stem match keeps only
  its strong typo matches (engine/fuzzy.py `strong_typo`): `banana bread recipe` answers
  nothing, `relatinship` still finds `relationship`.
- A chunk's score for a token is the best impact * weight among the token's terms; its keyword
  score is the sum over the other tokens in query order, plus (if that sum is above 0)
  `stop_word_weight` times the sum over stop tokens in query order, divided by the bundle's
  impact_scale.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

import numpy as np

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.engine.fuzzy import strong_typo, typo_budget, typo_distance
from mkdocs_graphsearch.text.stem import is_prose_word, stem
from mkdocs_graphsearch.text.tokenize import COMPOUND, WORD, query_spans


@dataclass
class Expansion:
    term: int
    weight: float
    distance: int = 0  # a typo match's edits (0: exact, prefix or stem)


@dataclass
class KeywordScores:
    """Scores per chunk (0 where nothing matched) and the terms the query matched."""

    scores: np.ndarray
    tokens: list[str] = field(default_factory=list)
    matched_terms: set[str] = field(default_factory=set)
    expansions: list[list[Expansion]] = field(default_factory=list)
    typed: set[str] = field(default_factory=set)
    stop: set[str] = field(default_factory=set)


def query_tokens(query: str) -> list[str]:
    return list(dict.fromkeys(span[0] for span in query_spans(query)))


def query_words(query: str) -> set[str]:
    """The query tokens that occur as words (not only inside a compound)."""
    return {token for token, _start, _end, kind in query_spans(query) if kind == WORD}


def typed_tokens(query: str, tokens: list[str]) -> set[str]:
    """The tokens being typed, matched as prefixes too: the last query token, and the whole
    compound the query ends with (`gh-dep` besides `dep`, `extra_java` besides `java`)."""
    if not tokens:
        return set()
    typed = {tokens[-1]}
    spans = query_spans(query)
    end = max(span[2] for span in spans)
    typed.update(token for token, _start, stop, kind in spans if kind == COMPOUND and stop == end)
    return typed


def stop_tokens(bundle: Bundle, tokens: list[str], words: set[str]) -> set[str]:
    """The query's stop words, unless the query has nothing else."""
    listed = set(bundle.settings.get("query_stop_words", ()))  # format 1: none
    stop = {token for token in tokens if token in words and token in listed}
    return stop if len(stop) < len(tokens) else set()


def _postings_count(bundle: Bundle, term: int) -> int:
    return int(bundle.term_start[term + 1] - bundle.term_start[term])


def _top(bundle: Bundle, candidates: list[int], limit: int) -> list[int]:
    return sorted(candidates, key=lambda t: (-_postings_count(bundle, t), t))[:limit]


def prefix_terms(bundle: Bundle, token: str) -> list[int]:
    """Terms that start with `token` (other than itself), best first."""
    terms = bundle.terms
    found: list[int] = []
    i = bisect_left(terms, token)
    while i < len(terms) and terms[i].startswith(token):
        if terms[i] != token:
            found.append(i)
        i += 1
    return _top(bundle, found, bundle.settings["max_expansions"])


def fuzzy_terms(bundle: Bundle, token: str) -> list[tuple[int, int]]:
    """(term, distance) the token is a typo of, nearest and most frequent first; none for a
    known word."""
    if token in bundle.known_words:
        return []
    settings = bundle.settings
    budget = typo_budget(token, settings)
    found: list[tuple[int, int]] = []
    for i, term in enumerate(bundle.terms):
        if abs(len(term) - len(token)) <= budget:
            distance = typo_distance(token, term, settings)
            if distance is not None:
                found.append((i, distance))
    found.sort(key=lambda item: (item[1], -_postings_count(bundle, item[0]), item[0]))
    return found[: settings["max_expansions"]]


def stem_terms(bundle: Bundle, token: str, is_word: bool) -> list[int]:
    """The other terms of a prose word's stem group, in term order."""
    if not is_word or not is_prose_word(token):
        return []
    exact = bundle.term_index.get(token)
    return [term for term in bundle.stems.get(stem(token), ()) if term != exact]


def expand(bundle: Bundle, token: str, is_last: bool, is_word: bool) -> list[Expansion]:
    settings = bundle.settings
    expansions: list[Expansion] = []
    exact = bundle.term_index.get(token)
    if exact is not None:
        expansions.append(Expansion(exact, 1.0))
    prefixed = prefix_terms(bundle, token) if is_last else []
    expansions.extend(Expansion(term, settings["prefix_weight"]) for term in prefixed)
    stemmed = stem_terms(bundle, token, is_word)
    expansions.extend(Expansion(term, settings["stem_weight"]) for term in stemmed)
    if exact is None and not prefixed and not stemmed and len(token) >= settings["fuzzy_min_length"]:
        weights = settings["fuzzy_weights"]
        expansions.extend(
            Expansion(term, weights[distance - 1], distance) for term, distance in fuzzy_terms(bundle, token)
        )
    return expansions


def typos_if_strong(
    bundle: Bundle, tokens: list[str], stop: set[str], expansions: list[list[Expansion]]
) -> list[list[Expansion]]:
    """Each token's expansions; when no token but stop tokens matched without a typo, less the
    typo matches that are not strong."""
    pairs = zip(tokens, expansions, strict=True)
    if any(e.distance == 0 for token, options in pairs if token not in stop for e in options):
        return expansions
    return [
        [e for e in options if strong_typo(token, e.distance, bundle.settings)]
        for token, options in zip(tokens, expansions, strict=True)
    ]


def completed_query(bundle: Bundle, query: str, keyword: KeywordScores) -> str:
    """The text the query encoder reads: the query, plus for each token with no exact match
    its best stand-in term (highest weight, then most postings, then term order), so a
    half-typed or misspelt word still means something to the encoder."""
    extra: list[str] = []
    for token, options in zip(keyword.tokens, keyword.expansions, strict=True):
        if not options or token in bundle.term_index:
            continue
        best = min(options, key=lambda e: (-e.weight, -_postings_count(bundle, e.term), e.term))
        extra.append(bundle.terms[best.term])
    return " ".join([query, *extra]) if extra else query


def keyword_scores(bundle: Bundle, query: str) -> KeywordScores:
    tokens = query_tokens(query)
    words = query_words(query)
    stop = stop_tokens(bundle, tokens, words)
    total = np.zeros(bundle.n_chunks, dtype=np.float64)
    stop_total = np.zeros(bundle.n_chunks, dtype=np.float64)
    result = KeywordScores(total, tokens, typed=typed_tokens(query, tokens), stop=stop)
    result.expansions = typos_if_strong(
        bundle, tokens, stop, [expand(bundle, token, token in result.typed, token in words) for token in tokens]
    )
    for token, expansions in zip(tokens, result.expansions, strict=True):
        if not expansions:
            continue
        best = np.zeros(bundle.n_chunks, dtype=np.float64)
        for expansion in expansions:
            start, end = bundle.term_start[expansion.term], bundle.term_start[expansion.term + 1]
            chunks = bundle.post_chunk[start:end]
            weighted = bundle.post_impact[start:end].astype(np.float64) * expansion.weight
            best[chunks] = np.maximum(best[chunks], weighted)
            result.matched_terms.add(bundle.terms[expansion.term])
        if token in stop:
            stop_total += best
        else:
            total += best
    if stop:
        total += np.where(total > 0, stop_total * bundle.settings["stop_word_weight"], 0.0)
    result.scores = total / bundle.manifest["impact_scale"]
    return result
