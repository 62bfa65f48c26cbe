"""How far fusion can lift hybrid above keyword: nDCG@10 per query type of keyword, vector and
hybrid on judged sets, beside the bound of any rule that answers each query with one of them.

    .venv/bin/python benchmarks/fusion_bound.py --set NAME BUNDLE QUERIES [--set ...] [--label L] [--out FILE]

Per set and query type (and overall), as `graphsearch eval BUNDLE QUERIES --mode M` scores:
- keyword, vector, hybrid: each mode's nDCG@10 with the code this runs (the current folder's
  `mkdocs_graphsearch`, so PYTHONPATH picks the checkout being measured);
- best of keyword and vector: each query answered by whichever of the two modes ranks it better
  (an oracle: the most any rule that picks one side per query could give);
- best of the three: the same with hybrid as a third choice;
- `below_keyword`: the types where hybrid is under keyword, and `queries_below`: the queries
  where it is (id, type, both figures), to name the kinds of loss.
A rule that mixes the two rankings can beat the oracle on a query (both sides' sections in one
top 10), but on sets where the oracle is under keyword + 0.05 no choice between the sides gets
there. Prints a table per set and writes benchmarks/results/fusion-bound-[LABEL-]DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import common
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.commands.evaluate import ndcg_at_10
from mkdocs_graphsearch.common.inputs import read_queries
from mkdocs_graphsearch.engine.search import search

MODES = ("keyword", "vector", "hybrid")
COLUMNS = (*MODES, "best of keyword, vector", "best of the three")


def per_query(bundle_dir: Path, queries: Path) -> list[dict[str, Any]]:
    """Each judged query's id, type and nDCG@10 in each mode, and the oracles'."""
    bundle = load_bundle(bundle_dir)
    rows = []
    for item in read_queries(str(queries), judged=True):
        scores = {mode: ndcg_at_10(search(bundle, item["query"], mode=mode), item["relevant"]) for mode in MODES}
        scores["best of keyword, vector"] = max(scores["keyword"], scores["vector"])
        scores["best of the three"] = max(scores.values())
        rows.append({"id": item.get("id", item["query"]), "type": item.get("type", "all"), **scores})
    return rows


def by_type(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Mean of each column, overall and per type (rounded as `graphsearch eval` rounds)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups["overall"].append(row)
        groups[row["type"]].append(row)
    return {
        kind: {column: round(sum(r[column] for r in members) / len(members), 4) for column in COLUMNS}
        | {"queries": len(members)}
        for kind, members in sorted(groups.items(), key=lambda item: (item[0] != "overall", item[0]))
    }


def print_table(name: str, table: dict[str, dict[str, float]]) -> None:
    print(f"\n{name}")
    print(f"{'type':<12}{'n':>4}" + "".join(f"{column[:12]:>14}" for column in COLUMNS))
    for kind, figures in table.items():
        print(f"{kind:<12}{figures['queries']:>4}" + "".join(f"{figures[column]:>14.4f}" for column in COLUMNS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", nargs=3, action="append", required=True, metavar=("NAME", "BUNDLE", "QUERIES"))
    parser.add_argument("--label", default="", help="a word for the results file's name (the code measured)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = dt.datetime.now()
    arguments = " ".join(common.repo_path(a) if "/" in a else a for a in sys.argv[1:])
    report: dict[str, Any] = {
        "command": f"benchmarks/fusion_bound.py {arguments}",
        "date": f"{started:%Y-%m-%d %H:%M}",
        "sets": {},
    }
    for name, bundle_dir, queries in args.set:
        rows = per_query(Path(bundle_dir), Path(queries))
        table = by_type(rows)
        report["sets"][name] = {
            "bundle": common.repo_path(bundle_dir),
            "queries": common.repo_path(queries),
            "ndcg@10": table,
            "below_keyword": [kind for kind, f in table.items() if f["hybrid"] < f["keyword"]],
            "queries_below": [
                {"id": r["id"], "type": r["type"], "keyword": round(r["keyword"], 4), "hybrid": round(r["hybrid"], 4)}
                for r in rows
                if r["hybrid"] < r["keyword"] - 1e-9
            ],
        }
        print_table(name, table)
    kind = f"fusion-bound-{args.label}" if args.label else "fusion-bound"
    common.save_report(kind, json.dumps(report, indent=2, sort_keys=True), args.out, started)


if __name__ == "__main__":
    main()
