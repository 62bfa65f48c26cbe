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
    # One scan of the file's text rather than a match per line (the vocabulary has no line
    # breaks but "\n"): an edit's build reads it for every changed term.
    lines = re.compile(f"^[a-z]{{{max(min_length, 1)},}}$", re.MULTILINE)
    return tuple(lines.findall(DEFAULT_VOCAB.read_text(encoding="utf-8")))


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
    """known_words, kept in the cache folder with the terms it was found for: the same terms (a
    warm build) read it back; a few terms more or fewer (an edit) update the newest one kept
    (known_words_since); else, or when there is none, it is computed."""
    fuzzy_settings = {key: value for key, value in settings.items() if key.startswith("fuzzy_")}  # all it reads
    settings_bytes = json.dumps(fuzzy_settings, sort_keys=True).encode()
    family = derived.key("known-words", [settings_bytes, DEFAULT_VOCAB.read_bytes()], (sys.modules[__name__], fuzzy))

    if any("\n" in term for term in terms):  # an entry lists them a line each
        return known_words(terms, settings)

    def make() -> tuple[list[str], list[str]]:
        base = derived.newest("known-words", lambda payload: _unpack(payload, family))
        words = known_words_since(*base, terms, settings) if base is not None else None
        return terms, words if words is not None else known_words(terms, settings)

    return derived.get_or_make(
        "known-words", [family.encode(), "\n".join(terms).encode()], (), make,
        lambda result: _pack(family, *result), lambda payload: _unpack(payload, family),
    )[1]


#: known_words_since recomputes (known_words) when more terms than this share changed, or when
#: the site's terms use more code points than this (editing a word over them would cost more).
MAX_CHANGED_SHARE = 0.05
MAX_ALPHABET = 256


def known_words_since(
    previous_terms: list[str], previous_words: list[str], terms: list[str], settings: Mapping[str, Any]
) -> list[str] | None:
    """known_words(terms, settings) from its answer for `previous_terms` (same settings): a word's
    answer changes only if it is a term that came or went, or one edit from one; those words are
    found by editing the changed terms (every string one edit away), and checked again by editing
    them. None when too many terms changed: known_words is then quicker."""
    old, new = set(previous_terms), set(terms)
    changed = old ^ new
    if len(changed) > max(1, MAX_CHANGED_SHARE * len(new)):
        return None
    listed = set(english_words(settings["fuzzy_min_length"]))
    recheck = listed & changed
    for term in changed:
        recheck |= {word for word in _one_edit(term, _A_TO_Z) & listed if typo_distance(word, term, settings) == 1}
    # A term one edit from a word is as long or one longer where it has a code point the word lacks.
    lengths = {len(word) + grow for word in recheck for grow in (0, 1)}
    alphabet = "".join(sorted(set().union(*(term for term in new if len(term) in lengths))))
    if len(alphabet) > MAX_ALPHABET:
        return None
    found = set(previous_words) - recheck
    for word in recheck:
        if word not in new and any(typo_distance(word, t, settings) == 1 for t in _one_edit(word, alphabet) & new):
            found.add(word)
    return sorted(found)


_A_TO_Z = "abcdefghijklmnopqrstuvwxyz"


def _one_edit(text: str, alphabet: str) -> set[str]:
    """Every string one deletion, adjacent transposition, substitution or insertion (of a code
    point of `alphabet`) from `text`: what OSA distance 1 reaches."""
    splits = [(text[:i], text[i:]) for i in range(len(text) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    edits |= {a + c + b[1:] for a, b in splits if b for c in alphabet}
    edits |= {a + c + b for a, b in splits for c in alphabet}
    edits.discard(text)
    return edits


def _pack(family: str, terms: list[str], words: list[str]) -> bytes:
    return "\n".join([family, str(len(terms)), *terms, *words]).encode("utf-8", "surrogatepass")


def _unpack(payload: bytes, family: str) -> tuple[list[str], list[str]]:
    """(terms, their known words) of an entry of this family; ValueError if it is not one."""
    lines = payload.decode("utf-8", "surrogatepass").split("\n")
    if len(lines) < 2 or lines[0] != family or not lines[1].isdigit() or int(lines[1]) > len(lines) - 2:
        raise ValueError("not a known-word entry of these settings")
    count = int(lines[1])
    terms, words = lines[2 : 2 + count], lines[2 + count :]
    if not all(_WORD.fullmatch(word) for word in words) or words != sorted(words):
        raise ValueError("not a sorted list of a-z words")
    return terms, words
