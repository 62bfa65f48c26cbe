"""Display fragment sizes against the files and bytes an answer's titles cost (issue 23): a
built bundle's display columns re-cut at each size, and for each judged query the display
fragments its keyword and hybrid answers show (what a pasted query fetches before its first
hybrid result; Python's answers, the same as the runtime's: tests/test_parity.py).

    .venv/bin/python benchmarks/display_layout.py BUNDLE --queries tests/eval/k8s-docs.queries.jsonl \\
        --sizes 32,48,64,96 [--out benchmarks/results/display-layout-NAME.json]

Counts files and gzip bytes (level 9) of the display fragments only, per size in KiB of stored
JSON (format 6: bundle/display.py compact_display; DISPLAY_FRAGMENT_BYTES is the size a build
uses). No browser, no other part: bundle/display.py's own figures, to choose its constant.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
from bisect import bisect_right
from pathlib import Path

import common
from common import repo_path
from mkdocs_graphsearch.bundle import display
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--queries", type=Path, required=True, help="judged queries (JSONL, a `query` a line)")
    parser.add_argument("--sizes", default="32,48,64,96", help="fragment sizes to try, KiB, comma-separated")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = dt.datetime.now()
    bundle = load_bundle(args.bundle)
    keyword = {"chunks": bundle.chunks, "pages": bundle.pages}
    first_chunk: dict[int, int] = {}
    for chunk, page in enumerate(bundle.chunks["page"]):
        first_chunk.setdefault(page, chunk)
    page_of = {path: page for page, path in enumerate(bundle.pages["path"])}
    lines = args.queries.read_text(encoding="utf-8").splitlines()
    queries = [json.loads(line)["query"] for line in lines if line.strip()]
    answers = [[search(bundle, q, mode=mode) for mode in ("keyword", "hybrid")] for q in queries]
    shown = [{page_of[result["page"]] for answer in pair for result in answer["results"]} for pair in answers]
    rows = []
    for kib in (int(size) for size in args.sizes.split(",")):
        starts = display.fragment_starts(keyword, kib * 1024)
        _, fragments = display.display_part(keyword, starts)
        sizes = [common.gz(fragments[f"display.{i}.json"]) for i in range(len(starts))]
        files, gzip = [], []
        for pages in shown:
            needed = {bisect_right(starts, first_chunk[page]) - 1 for page in pages}
            files.append(len(needed))
            gzip.append(sum(sizes[i] for i in needed))
        rows.append({
            "kib": kib,
            "fragments": len(starts),
            "all_gzip_kib": round(sum(sizes) / 1024, 1),
            "files_p50": statistics.median(files),
            "files_max": max(files),
            "gzip_kib_p50": round(statistics.median(gzip) / 1024, 1),
            "gzip_kib_max": round(max(gzip) / 1024, 1),
        })
        print(json.dumps(rows[-1]))
    report = {
        "what": "display fragments a query's keyword and hybrid answers show, per fragment size (Python answers)",
        "command": f"benchmarks/display_layout.py BUNDLE --queries {repo_path(args.queries)} --sizes {args.sizes}",
        "bundle": repo_path(args.bundle),
        "queries": len(queries),
        "date": f"{started:%Y-%m-%d}",
        "sizes": rows,
    }
    common.save_report("display-layout", json.dumps(report, indent=1), args.out, started)


if __name__ == "__main__":
    main()
