"""The common English words a bundle lists so that neither engine takes them for typos
(engine/keyword.py: no typo matching of a known word).

Why: `bread` is no typo of the site's `read`, nor `pasta` of `paste`: an off-topic query must
not find pages through near spellings of ordinary words. The word list is the whole words of
the shipped bert-base-uncased vocabulary (text/vocab.txt, Apache-2.0, text/VOCAB_SOURCE.md):
lowercase a-z, at least `fuzzy_min_length` letters (shorter tokens are never typo-matched), about
18,000 words, the commonest of the English the model was trained on. A bundle carries only those
that could be taken for a typo: not a term of the site, and one edit from one
(engine/fuzzy.py `typo_distance`), found by symmetric deletion (two strings one edit apart
share a string both give with at most one code point deleted), then checked with
`typo_distance`. A word two edits from its nearest term is not listed (finding those costs
seconds on a large site): it may still be typo-matched from 8 letters, and such a match answers
a query alone only when strong (engine/fuzzy.py: two edits need 10 letters).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from mkdocs_graphsearch.engine import fuzzy
from mkdocs_graphsearch.engine.fuzzy import typo_distance
from mkdocs_graphsearch.index.derived_cache import DerivedCache
from mkdocs_graphsearch.text.wordpiece import DEFAULT_VOCAB

_WORD = re.compile(r"[a-z]+")
_NOT_A_TO_Z = re.compile(r"[^a-z]")


@lru_cache(maxsize=1)
def english_words(min_length: int) -> tuple[str, ...]:
    """The whole lowercase words of the shipped vocabulary with at least `min_length` letters."""
    lines = DEFAULT_VOCAB.read_text(encoding="utf-8").splitlines()
    return tuple(line for line in lines if len(line) >= min_length and _WORD.fullmatch(line))


def _deletions(text: str) -> set[str]:
    """`text`, and `text` less any one of its code points."""
    return {text, *(text[:i] + text[i + 1 :] for i in range(len(text)))}


@lru_cache(maxsize=1)
def _word_deletions(min_length: int) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each list word with its deletions (itself, and itself less any one code point)."""
    return tuple((word, frozenset(_deletions(word))) for word in english_words(min_length))


def known_words(terms: list[str], settings: Mapping[str, Any]) -> list[str]:
    """The list's words that are no term of the site but one edit from a term, sorted."""
    min_length = settings["fuzzy_min_length"]
    words = _word_deletions(min_length)
    longest = max((len(word) for word, _ in words), default=0)
    index: dict[str, list[str]] = {}  # each deletion of each term that may be a word's neighbour
    for term in terms:
        # One edit from a word of a-z: as long give or take one, one code point not a-z at most.
        if min_length - 1 <= len(term) <= longest + 1 and len(_NOT_A_TO_Z.findall(term)) <= 1:
            for key in _deletions(term):
                index.setdefault(key, []).append(term)
    present = set(terms)
    found = [
        word
        for word, keys in words
        if not index.keys().isdisjoint(keys)
        and word not in present
        and any(typo_distance(word, term, settings) == 1 for key in keys for term in index.get(key, ()))
    ]
    return sorted(found)


def cached_known_words(terms: list[str], settings: Mapping[str, Any], derived: DerivedCache) -> list[str]:
    """known_words, kept in the cache folder keyed by the terms and settings: a warm build, or an
    edit that brings no new term, asks again for the same list, a noticeable cost on a large site."""
    fuzzy_settings = {key: value for key, value in settings.items() if key.startswith("fuzzy_")}  # all it reads
    inputs = ["\n".join(terms).encode(), json.dumps(fuzzy_settings, sort_keys=True).encode()]
    inputs.append(DEFAULT_VOCAB.read_bytes())
    return derived.get_or_make(
        "known-words", inputs, (sys.modules[__name__], fuzzy), lambda: known_words(terms, settings),
        lambda words: "\n".join(words).encode(), _unpack_words,
    )


def _unpack_words(payload: bytes) -> list[str]:
    words = payload.decode("ascii").split("\n") if payload else []
    if not all(_WORD.fullmatch(word) for word in words) or words != sorted(words):
        raise ValueError("not a sorted list of a-z words")
    return words
