"""Sweep search settings on judged query sets (Python engine, in-memory): prints nDCG@10 per type.

Usage: .venv/bin/python benchmarks/tune.py BUNDLE QUERIES.jsonl [--exact] [key=value ...]
`--exact` also runs the full model's query vectors (what the static encoder approximates).
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.commands.evaluate import evaluate
from mkdocs_graphsearch.engine.search import search


def run(bundle, judged, mode, vectors=None):  # type: ignore[no-untyped-def]
    outputs = [
        search(bundle, item["query"], mode=mode, vector=vectors[i] if vectors else None)
        for i, item in enumerate(judged)
    ]
    return evaluate(judged, outputs)


def line(label: str, report: dict) -> str:
    types = " ".join(f"{k[:5]}={v['ndcg@10']:.3f}" for k, v in report["by_type"].items())
    o = report["overall"]
    scores = f"nDCG {o['ndcg@10']:.4f} hit5 {o['hit@5']:.3f} mrr {o['mrr@10']:.3f} zero {report['zero_results']:2}"
    return f"{label:28} {scores} | {types}"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    bundle = load_bundle(Path(args[0]))
    judged = [orjson.loads(line) for line in Path(args[1]).read_bytes().splitlines() if line.strip()]
    for assignment in args[2:]:
        key, value = assignment.split("=", 1)
        bundle.manifest["search"][key] = orjson.loads(value)
    exact = None
    if "--exact" in sys.argv:
        from mkdocs_graphsearch.index.embed import Embedder

        embedder = Embedder()
        exact = [embedder.embed_query(item["query"]).astype(float).tolist() for item in judged]
    for mode in ("keyword", "vector", "hybrid"):
        print(line(mode, run(bundle, judged, mode)))
        if exact and mode != "keyword":
            print(line(mode + " (exact model)", run(bundle, judged, mode, exact)))


if __name__ == "__main__":
    main()
