"""Helpers for the Python <-> JS engine parity tests: query generation and comparison."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.commands.js_engine import run_js_queries
from mkdocs_graphsearch.engine.search import search

SCORE_TOLERANCE = 1e-6
SPECIAL = ["::", "--", '"', "'", "(", ")", "[", "]", "+", "-", "*", "~", "^", ":", "!", "?"]


def generated_queries(bundle: Bundle, count: int, seed: int = 7) -> list[str]:
    """Random words, prefixes, typos, identifiers and punctuation-laden queries from the bundle."""
    rng = random.Random(seed)
    terms = bundle.terms
    identifiers = [t for t in terms if any(c in t for c in "_.-")] or terms
    letters = "abcdefghijklmnopqrstuvwxyz"
    queries: list[str] = []
    while len(queries) < count:
        kind = len(queries) % 6
        term = rng.choice(terms)
        if kind == 0:
            query = " ".join(rng.choice(terms) for _ in range(rng.randint(1, 4)))
        elif kind == 1:
            query = term[: rng.randint(1, max(1, len(term)))]
        elif kind == 2 and len(term) > 3:
            i = rng.randrange(len(term))
            query = term[:i] + rng.choice(letters) + term[i + 1 :]
        elif kind == 3:
            query = rng.choice(identifiers)
        elif kind == 4:
            query = f"{rng.choice(SPECIAL)}{term}{rng.choice(SPECIAL)} {rng.choice(terms)}"
        else:
            query = f"how do I {rng.choice(terms)} the {rng.choice(terms)}"
        queries.append(query)
    return queries


def filtered_queries(bundle: Bundle, count: int, seed: int = 11) -> list[str]:
    """Queries with filters: the manifest's facet values (and one no page has), typed in any case
    and quoted, alone or around words and identifiers of the bundle."""
    rng = random.Random(seed)
    facets = bundle.manifest.get("facets", {})
    tokens = [f"{name}:{entry['value']}" for name, entries in sorted(facets.items()) for entry in entries]
    tokens += ["tags:nothing-has-this", "kind:api", 'in:"getting started"', "lang:py", "KIND:Code"]
    terms = bundle.terms
    queries: list[str] = []
    while len(queries) < count:
        chosen = [rng.choice(tokens) for _ in range(rng.randint(1, 3))]
        words = [rng.choice(terms) for _ in range(rng.randint(0, 3))]
        parts = chosen + words
        rng.shuffle(parts)
        queries.append(" ".join(parts))
    return queries


def _close(a: Any, b: Any) -> bool:
    """Equal, with floats compared within SCORE_TOLERANCE (for explain parts)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= SCORE_TOLERANCE
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    return a == b


def first_difference(python: dict[str, Any], js: dict[str, Any]) -> str | None:
    """A description of the first way two outputs differ, or None when they agree."""
    if python["mode"] != js["mode"]:
        return f"mode {python['mode']} != {js['mode']}"
    if python.get("filters") != js.get("filters"):
        return f"filters {python.get('filters')} != {js.get('filters')}"
    if not _close(python.get("fusion"), js.get("fusion")):
        return f"fusion {python.get('fusion')!r} != {js.get('fusion')!r}"
    if len(python["results"]) != len(js["results"]):
        return f"{len(python['results'])} pages != {len(js['results'])}"
    for rank, (p, j) in enumerate(zip(python["results"], js["results"], strict=True), 1):
        if p["page"] != j["page"]:
            return f"page #{rank}: {p['page']} != {j['page']}"
        if abs(p["score"] - j["score"]) > SCORE_TOLERANCE:
            return f"page #{rank} score {p['score']} != {j['score']}"
        if [s["id"] for s in p["sections"]] != [s["id"] for s in j["sections"]]:
            return f"page #{rank} sections {[s['id'] for s in p['sections']]} != {[s['id'] for s in j['sections']]}"
        for ps, js_ in zip(p["sections"], j["sections"], strict=True):
            if abs(ps["score"] - js_["score"]) > SCORE_TOLERANCE:
                return f"section {ps['id']} score {ps['score']} != {js_['score']}"
            for key in ("snippet", "url", "anchor", "title", "via", "kind", "language"):
                if ps.get(key) != js_.get(key):
                    return f"section {ps['id']} {key}: {ps.get(key)!r} != {js_.get(key)!r}"
            if not _close(ps.get("explain"), js_.get("explain")):
                return f"section {ps['id']} explain: {ps.get('explain')!r} != {js_.get('explain')!r}"
    return None


def assert_parity(bundle_dir: Path, queries: list[str], modes: list[str | None]) -> int:
    """Run every query in each mode through both engines; fail on the first difference."""
    bundle = load_bundle(bundle_dir)
    checked = 0
    for mode in modes:
        items = [{"id": i, "query": q} for i, q in enumerate(queries)]
        js_outputs = run_js_queries(bundle_dir, items, mode=mode, explain=True)
        assert len(js_outputs) == len(queries)
        for query, js in zip(queries, js_outputs, strict=True):
            python = search(bundle, query, mode=mode, explain=True)
            assert mode is None or python["mode"] == mode, f"{mode} fell back to {python['mode']}"
            difference = first_difference(python, js)
            assert difference is None, f"first differing query ({mode}): {query!r}: {difference}"
            checked += 1
    return checked
