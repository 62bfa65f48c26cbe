"""Typo matching's rules (mirrored by js/src/engine/fuzzy.js).

- `osa_within`: the bounded optimal-string-alignment distance over code points.
- `typo_distance`: a query token's distance to a dictionary term when the term is within the
  token's edit budget (1 edit, 2 from `fuzzy_long_length` code points); a token shorter than
  `fuzzy_long_length` keeps its first code point (`bread` is no typo of `read`: short words
  have many neighbours, and a slip on the first letter is the rarest).
- `strong_typo`: a match at `distance` edits is strong when the token has at least
  `fuzzy_strong_length` code points per edit (`visiblity_timout`, two edits in 16; not
  `football` two edits from some term); a query none of whose tokens matches without a typo
  keeps only its strong typo matches (engine/keyword.py). Common English words are no typos at
  all (index/known_words.py), so this is what stands between a word the list lacks and a
  confident wrong answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: An older manifest's search settings have no `fuzzy_strong_length`: every typo is strong.
FUZZY_STRONG_LENGTH_IF_ABSENT = 0


def osa_within(a: str, b: str, budget: int) -> int | None:
    """The OSA distance (insert, delete, substitute, swap two neighbours) if <= budget, else None."""
    if abs(len(a) - len(b)) > budget:
        return None
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        row_min = i
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            row_min = min(row_min, value)
        if row_min > budget:
            return None
        previous2, previous = previous, current
    return previous[len(b)] if previous[len(b)] <= budget else None


def typo_budget(token: str, settings: Mapping[str, Any]) -> int:
    """How many edits a token may be from a term it is a typo of."""
    return 2 if len(token) >= settings["fuzzy_long_length"] else 1


def typo_distance(token: str, term: str, settings: Mapping[str, Any]) -> int | None:
    """The token's distance to `term` when within its budget (a short token keeps its first
    code point), else None."""
    if len(token) < settings["fuzzy_long_length"] and term[:1] != token[:1]:
        return None
    return osa_within(token, term, typo_budget(token, settings))


def strong_typo(token: str, distance: int, settings: Mapping[str, Any]) -> bool:
    """At least `fuzzy_strong_length` code points of the token per edit."""
    strong_length: int = settings.get("fuzzy_strong_length", FUZZY_STRONG_LENGTH_IF_ABSENT)
    return len(token) >= distance * strong_length
