"""Display fragment sizes against the files and bytes an answer's titles cost (issue 23): a
built bundle's display columns re-cut at each size, and for each judged query the display
fragments its keyword and hybrid answers show (what a pasted query fetches before its first
hybrid result; Python's answers, the same as the runtime's: tests/test_parity.py).

    .venv/bin/python benchmarks/display_layout.py BUNDLE --queries tests/eval/k8s-docs.queries.jsonl \\
        --sizes 32,48,64,96 [--out benchmarks/results/display-layout-NAME.json]

Counts files and gzip bytes (level 9) of the display fragments only, per size in KiB of stored
JSON (format 8: bundle/display.py compact_display; DISPLAY_FRAGMENT_BYTES is the size a build
uses). No browser, no other part: bundle/display.py's own figures, to choose its constant.

`--layouts page,title,cluster` also counts the files under page orders a build does not use yet
(issue 23: chunks that rank together in one file): `page`, the bundle's (fragments of whole pages
in page order, as bundle/display.py cuts them); `title`, pages sorted by their title (then page
number); `cluster`, by the vector cluster of their first chunk (a clustered bundle's; then page
number). Each is cut where a fragment holds the size (a page's display columns as
compact_display stores them), and a page is in one fragment, as today. For `page` the figures are
the bundle's own; the other orders need a map of pages to fragments no format has yet (its bytes:
`map_gzip_kib`, a JSON list of each page's fragment), so their gzip figures are of the fragments
only.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
from bisect import bisect_right
from pathlib import Path
from typing import Any

import orjson

import common
from common import repo_path
from mkdocs_graphsearch.bundle import display
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.engine.search import search


def page_order(bundle: Bundle, layout: str) -> list[int]:
    """The pages in `layout`'s order (title: by title, then page; cluster: by the vector cluster of
    the page's first chunk, then page)."""
    pages = range(len(bundle.pages["path"]))
    if layout == "title":
        return sorted(pages, key=lambda page: (bundle.pages["title"][page], page))
    if layout == "cluster":
        if bundle.clusters is None:
            raise SystemExit("--layouts cluster: the bundle's vectors are not clustered")
        cluster_of = {int(chunk): c for c, members in enumerate(bundle.clusters.members) for chunk in members}
        first = {}
        for chunk, page in enumerate(bundle.chunks["page"]):
            first.setdefault(page, chunk)
        return sorted(pages, key=lambda page: (cluster_of.get(first[page], -1), page))
    raise SystemExit(f"--layouts: no layout {layout!r} (page, title, cluster)")


def page_bytes(keyword: dict[str, Any]) -> list[int]:
    """Each page's display columns, bytes of JSON as compact_display stores them (as
    bundle/display.py fragment_starts counts them)."""
    compact = display.compact_display(keyword)
    pages = compact["pages"]
    sizes = [sum(len(orjson.dumps(pages[key][page])) + 1 for key in display.DISPLAY_PAGES)
             for page in range(len(pages["url"]))]
    for chunk, page in enumerate(keyword["chunks"]["page"]):
        sizes[page] += sum(len(orjson.dumps(compact[key][chunk])) + 1 for key in display.STORED_CHUNKS)
        for key in ("ids", "parents"):
            if chunk in compact[key]:
                sizes[page] += len(orjson.dumps({str(chunk): compact[key][chunk]}))
    return sizes


def cut(order: list[int], sizes: list[int], target: int) -> list[int]:
    """Each page's fragment: pages in `order`, a fragment ending once it holds `target` bytes."""
    fragment_of, fragment, held = [0] * len(order), 0, 0
    for page in order:
        if held >= target:
            fragment, held = fragment + 1, 0
        fragment_of[page] = fragment
        held += sizes[page]
    return fragment_of


def fragment_sizes(keyword: dict[str, Any], fragment_of: list[int]) -> list[int]:
    """gzip bytes of each fragment of a page map: its pages' display columns (compact_display's,
    `ids` and `parents` by chunk number) as one JSON document, in page order."""
    compact = display.compact_display(keyword)
    pages = compact["pages"]
    members: dict[int, list[int]] = {}
    for chunk, page in enumerate(keyword["chunks"]["page"]):
        members.setdefault(fragment_of[page], []).append(chunk)
    sizes = []
    for fragment in range(max(fragment_of) + 1):
        chunks = members.get(fragment, [])
        owned = sorted({keyword["chunks"]["page"][chunk] for chunk in chunks})
        document = {
            "chunks": {key: [compact[key][chunk] for chunk in chunks] for key in display.STORED_CHUNKS}
            | {key: {str(chunk): compact[key][chunk] for chunk in chunks if chunk in compact[key]}
               for key in ("ids", "parents")},
            "pages": {key: [pages[key][page] for page in owned] for key in display.DISPLAY_PAGES},
        }
        sizes.append(common.gz(orjson.dumps(document, option=orjson.OPT_SORT_KEYS)))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--queries", type=Path, required=True, help="judged queries (JSONL, a `query` a line)")
    parser.add_argument("--sizes", default="32,48,64,96", help="fragment sizes to try, KiB, comma-separated")
    parser.add_argument("--layouts", default="page", help="page orders to cut: page, title, cluster (comma-separated)")
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
    keyword["chunks"]["kind"] = bundle.chunks["kind"]
    shown = [{page_of[result["page"]] for answer in pair for result in answer["results"]} for pair in answers]
    layouts = args.layouts.split(",")
    rows = []
    for kib in (int(size) for size in args.sizes.split(",")):
        starts = display.fragment_starts(keyword, kib * 1024)
        _, fragments = display.display_part(keyword, starts)
        sizes = [common.gz(fragments[f"display.{i}.json"]) for i in range(len(starts))]
        by_page = [bisect_right(starts, first_chunk[page]) - 1 for page in range(len(first_chunk))]
        for layout in layouts:
            if layout == "page":
                fragment_of, gz_of = by_page, sizes
            else:
                fragment_of = cut(page_order(bundle, layout), page_bytes(keyword), kib * 1024)
                gz_of = fragment_sizes(keyword, fragment_of)
            files, gzip = [], []
            for pages in shown:
                needed = {fragment_of[page] for page in pages}
                files.append(len(needed))
                gzip.append(sum(gz_of[i] for i in needed))
            rows.append({
                "kib": kib,
                "layout": layout,
                "fragments": max(fragment_of) + 1,
                "all_gzip_kib": round(sum(gz_of) / 1024, 1),
                "files_p50": statistics.median(files),
                "files_max": max(files),
                "gzip_kib_p50": round(statistics.median(gzip) / 1024, 1),
                "gzip_kib_max": round(max(gzip) / 1024, 1),
                "map_gzip_kib": 0 if layout == "page" else round(common.gz(orjson.dumps(fragment_of)) / 1024, 1),
            })
            print(json.dumps(rows[-1]))
    report = {
        "what": "display fragments a query's keyword and hybrid answers show, per fragment size (Python answers)",
        "command": f"benchmarks/display_layout.py BUNDLE --queries {repo_path(args.queries)} --sizes {args.sizes} "
                   f"--layouts {args.layouts}",
        "bundle": repo_path(args.bundle),
        "queries": len(queries),
        "date": f"{started:%Y-%m-%d}",
        "sizes": rows,
    }
    common.save_report("display-layout", json.dumps(report, indent=1), args.out, started)


if __name__ == "__main__":
    main()
