"""Bounded optimal-string-alignment distance over code points (mirrored by js/src/engine/fuzzy.js)."""

from __future__ import annotations


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
