"""Judged-query evaluation: nDCG@10 (graded, section level), MRR@10 and hit@5 (page level).

Section ranking = the results' sections in display order (page by page). A section matches a
judgment when its page path and anchor equal the judged `path` and `anchor`; each judged
section counts once. Gain is the grade (linear), discount log2(rank + 1); the ideal ranking
is the judged grades sorted. Page metrics count a page relevant if any judged section is on it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from typing import Any


def ndcg_at_10(output: dict[str, Any], relevant: list[dict[str, Any]]) -> float:
    grades = {(item["path"], item["anchor"]): item["grade"] for item in relevant}
    ranked = [(page["page"], section["anchor"]) for page in output["results"] for section in page["sections"]]
    seen: set[tuple[str, str]] = set()
    dcg = 0.0
    for rank, key in enumerate(ranked[:10], 1):
        if key in grades and key not in seen:
            seen.add(key)
            dcg += grades[key] / math.log2(rank + 1)
    ideal = sum(g / math.log2(rank + 1) for rank, g in enumerate(sorted(grades.values(), reverse=True)[:10], 1))
    return dcg / ideal if ideal else 0.0


def page_ranks(output: dict[str, Any], relevant: list[dict[str, Any]]) -> list[int]:
    pages = {item["path"] for item in relevant}
    return [rank for rank, page in enumerate(output["results"], 1) if page["page"] in pages]


def evaluate(judged: Iterable[dict[str, Any]], outputs: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Metrics overall and per query type, plus the number of queries with no result."""
    per_type: dict[str, list[dict[str, float]]] = defaultdict(list)
    zero = 0
    for item, output in zip(judged, outputs, strict=True):
        ranks = page_ranks(output, item["relevant"])
        first = ranks[0] if ranks else None
        scores = {
            "ndcg@10": ndcg_at_10(output, item["relevant"]),
            "mrr@10": 1.0 / first if first and first <= 10 else 0.0,
            "hit@5": 1.0 if first and first <= 5 else 0.0,
        }
        zero += not output["results"]
        per_type[item.get("type", "all")].append(scores)
        per_type["overall"].append(scores)

    def mean(rows: list[dict[str, float]]) -> dict[str, float]:
        return {key: round(sum(r[key] for r in rows) / len(rows), 4) for key in rows[0]} | {"queries": len(rows)}

    return {
        "overall": mean(per_type.pop("overall")),
        "by_type": {kind: mean(rows) for kind, rows in sorted(per_type.items())},
        "zero_results": zero,
    }
