"""Graph expansion from the best chunks (mirrored by js/src/engine/expand.js).

From each of the top `seeds` chunks (best first), breadth-first up to `graph_depth` hops over
the bundle's typed edges: a neighbour reached over an edge of type t scores
(score of the chunk it was reached from) * graph_decay[t]. Expansion only adds related chunks:
a chunk the query found directly keeps its own score (a neighbour's evidence would blur which
section matched). An added chunk keeps its best score; an expansion below `min_score` is pruned
(and not followed further). Updates happen in seed order, then edge order, so both engines find
the same scores and origins. With filters (`allowed`), an edge to a chunk they do not match is
not there: it is neither scored nor followed. Nor is an edge to a chunk whose page is in another
language than its seed's page (keyword.json `pages.language`, index/related.py page_language: a
link from a translation names the original, whose words its reader may not read); a bundle
without that column (older bundles) counts every page as the same language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np


@dataclass
class Origin:
    seed: int
    edge: str
    depth: int


class Languages(NamedTuple):
    """What expansion reads of page languages: each chunk's page, each page's language."""

    page: Sequence[int]
    language: Sequence[str]


def languages_of(pages: dict[str, Any], chunks: dict[str, Any]) -> Languages | None:
    """The bundle's page languages; None without them (older bundles: one language)."""
    return Languages(chunks["page"], pages["language"]) if "language" in pages else None


def expand(
    scores: dict[int, float],
    ranked: list[int],
    graph: dict[str, Any],
    settings: dict[str, Any],
    min_score: float,
    allowed: np.ndarray | None = None,
    languages: Languages | None = None,
) -> dict[int, Origin]:
    """Raise `scores` in place with expansions; returns where each raised score came from."""
    offsets, targets, types = graph["offsets"], graph["targets"], graph["types"]
    decay = [settings["graph_decay"][name] for name in graph["edge_types"]]
    names = graph["edge_types"]
    origins: dict[int, Origin] = {}
    direct = set(scores)
    for seed in ranked[: settings["seeds"]]:
        frontier = [(seed, scores[seed])]
        language = languages.language[languages.page[seed]] if languages is not None else ""
        for depth in range(1, settings["graph_depth"] + 1):
            following: list[tuple[int, float]] = []
            for node, score in frontier:
                for e in range(offsets[node], offsets[node + 1]):
                    target = targets[e]
                    if allowed is not None and not allowed[target]:
                        continue
                    if languages is not None and languages.language[languages.page[target]] != language:
                        continue
                    value = score * decay[types[e]]
                    if value < min_score or target in direct or value <= scores.get(target, 0.0):
                        continue
                    scores[target] = value
                    origins[target] = Origin(seed, names[types[e]], depth)
                    following.append((target, value))
            frontier = following
    return origins
