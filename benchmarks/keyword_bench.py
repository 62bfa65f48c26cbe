"""Keyword search benchmark: graphsearch vs MkDocs' built-in lunr search vs MiniSearch.

    npm install --prefix benchmarks
    .venv/bin/python benchmarks/keyword_bench.py [--corpus mkdocs-docs --corpus k8s-docs]

For each corpus (../shared/corpora/NAME) it measures, in one run, so the ratios compare
figures taken on the same machine under the same load:

- index build wall time: `graphsearch index` vs `mkdocs build` (theme mkdocs, plugins [search]);
- sizes, raw and gzip -9: our bundle per file and split first keystroke / rest, MkDocs'
  search_index.json, a serialized lunr index, a serialized MiniSearch index, and the JS each
  engine ships;
- under node (benchmarks/js_latency.mjs): index load/build time and query latency p50/p95 of
  each engine, and the queries each returns nothing for (or, for lunr, throws on).

Prints one table per corpus and writes every figure to benchmarks/results/keyword-DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common
from common import bundle_parts, gz, part_kind, tool

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared"
EVAL_QUERIES = "mkdocs-docs.queries.jsonl"
#: what every first keystroke fetches (part kinds: common.part_kind); the term shards (`postings`) and the
#: text and display fragments it needs depend on the query, so they count with the rest
FIRST_KEYSTROKE = ("manifest", "keyword")


def die(message: str) -> None:
    common.die("keyword_bench", message)


def sizes(path: Path) -> dict:
    data = path.read_bytes()
    return {"raw": len(data), "gzip": gz(data)}


def add(*parts: dict) -> dict:
    return {"raw": sum(p["raw"] for p in parts), "gzip": sum(p["gzip"] for p in parts)}


def run_timed(cmd: list[str], repeats: int, label: str) -> list[float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            die(f"{label} failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
    return times


# ---------------------------------------------------------------- queries

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
# not at either end of a generated query ("replace the" -> "replace")
EDGE_WORDS = {"a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "from", "as", "at"}


def heading_queries(docs: Path, n: int, seed: int) -> list[dict]:
    """n queries of 1-3 consecutive words from random headings of the corpus (deterministic)."""
    headings = []
    for md in sorted(docs.rglob("*.md")):
        in_fence = False
        for line in md.read_text(encoding="utf-8", errors="replace").splitlines():
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            m = None if in_fence else HEADING.match(line)
            if not m:
                continue
            text = re.sub(r"\{\{.*?\}\}|\{#.*?\}|\[([^\]]*)\]\([^)]*\)|<[^>]+>", r"\1", m.group(2))
            words = re.findall(r"[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9]|[A-Za-z0-9]", text)
            if words:
                headings.append(tuple(words))
    headings = sorted(set(headings))  # each distinct heading once: no run of "Response" headings
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < n:
        words = rng.choice(headings)
        k = rng.randint(1, min(3, len(words)))
        start = rng.randint(0, len(words) - k)
        picked = [w.lower() for w in words[start:start + k]]
        while picked and picked[0] in EDGE_WORDS:
            picked.pop(0)
        while picked and picked[-1] in EDGE_WORDS:
            picked.pop()
        if picked:
            out.append({"id": f"heading-{len(out) + 1:03d}", "query": " ".join(picked)})
    return out


def judged_queries() -> list[dict]:
    path = SHARED / "eval" / EVAL_QUERIES
    if not path.exists():
        die(f"{path} is missing")
    lines = path.read_text(encoding="utf-8").splitlines()
    return [{"id": q["id"], "query": q["query"]} for q in (json.loads(line) for line in lines if line.strip())]


# ---------------------------------------------------------------- runtime JS sizes

IMPORT = re.compile(r"""(?:import|export)\s[^;]*?from\s+["'](\./[^"']+)["']|import\(\s*["'](\./[^"']+)["']\s*\)""")


def import_graph(entry: Path) -> list[Path]:
    """entry and every module it imports, statically or dynamically (relative imports only)."""
    seen: list[Path] = []
    todo = [entry.resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        code = path.read_text(encoding="utf-8")
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", code, flags=re.S)  # JSDoc import("...") types
        for m in IMPORT.finditer(code):
            todo.append((path.parent / (m.group(1) or m.group(2))).resolve())
    return sorted(seen)


def js_sizes(paths: list[Path]) -> dict:
    """Per-file gzip summed (files served separately) and the raw total."""
    return add(*(sizes(p) for p in paths)) | {"files": [p.name for p in paths]}


# ---------------------------------------------------------------- one corpus

def bench_corpus(name: str, args, tmp: Path) -> dict:
    docs = SHARED / "corpora" / name
    if not docs.is_dir():
        die(f"no corpus {docs}")
    work = tmp / name
    work.mkdir()
    pages = sum(1 for _ in docs.rglob("*.md"))
    print(f"[{name}] {pages} markdown files", file=sys.stderr)

    # our bundle
    bundle = work / "bundle"
    cmd = [tool("graphsearch"), "index", str(docs), "--out", str(bundle)]
    ours_build = run_timed(cmd, args.build_repeats, "graphsearch index")
    print(f"[{name}] graphsearch index: {statistics.median(ours_build):.2f} s", file=sys.stderr)

    # plain MkDocs with the built-in search plugin
    site = work / "site"
    yml = work / "mkdocs.yml"
    yml.write_text(
        json.dumps({
            "site_name": name,
            "docs_dir": str(docs),
            "site_dir": str(site),
            "theme": "mkdocs",
            "plugins": ["search"],
        }),
        encoding="utf-8",
    )
    mkdocs_cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(yml)]
    mkdocs_build = run_timed(mkdocs_cmd, args.build_repeats, "mkdocs build")
    print(f"[{name}] mkdocs build: {statistics.median(mkdocs_build):.2f} s", file=sys.stderr)
    search_index = site / "search" / "search_index.json"
    if not search_index.exists():
        die(f"mkdocs build wrote no {search_index}")

    baseline = {}
    if args.plugin_builds:
        for label, plugins in (("mkdocs_build_no_search", []), ("mkdocs_build_graphsearch", ["graphsearch"])):
            yml_b = work / f"{label}.yml"
            yml_b.write_text(json.dumps({
                "site_name": name, "docs_dir": str(docs), "site_dir": str(work / label),
                "theme": "mkdocs", "plugins": plugins,
            }), encoding="utf-8")
            times = run_timed([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(yml_b)],
                              args.build_repeats, label)
            baseline[label] = {"median_s": statistics.median(times), "runs_s": times}
            print(f"[{name}] {label}: {statistics.median(times):.2f} s", file=sys.stderr)

    # queries
    queries = judged_queries()
    if name != EVAL_QUERIES.split(".")[0]:
        queries += heading_queries(docs, args.heading_queries, args.seed)
    qfile = work / "queries.json"
    qfile.write_text(json.dumps(queries), encoding="utf-8")

    # node: load and latency
    scratch = work / "scratch"
    node_cmd = [
        args.node, str(HERE / "js_latency.mjs"),
        "--bundle", str(bundle), "--search-index", str(search_index), "--queries", str(qfile),
        "--rounds", str(args.rounds), "--warmup", str(args.warmup),
        "--load-repeats", str(args.load_repeats), "--scratch", str(scratch),
    ]
    print(f"[{name}] node js_latency.mjs ({len(queries)} queries x {args.rounds})", file=sys.stderr)
    proc = subprocess.run(node_cmd, capture_output=True, text=True, cwd=HERE)
    if proc.returncode != 0:
        die(f"js_latency.mjs failed:\n{proc.stderr[-4000:]}")
    js = json.loads(proc.stdout.strip().splitlines()[-1])

    # sizes
    files = {part: sizes(path) for part, path in bundle_parts(bundle).items()}  # by logical name
    kinds: dict[str, list[dict]] = {}
    for part, size in files.items():
        kinds.setdefault(part_kind(part), []).append(size)
    first = add(*(s for kind in FIRST_KEYSTROKE for s in kinds.get(kind, [])))
    rest = add(*(s for kind, group in kinds.items() if kind not in FIRST_KEYSTROKE for s in group))
    lunr_pkg = HERE / "node_modules" / "lunr"
    mini_umd = HERE / "node_modules" / "minisearch" / "dist" / "umd" / "index.js"
    src = REPO / "js" / "src"
    engine_js = import_graph(src / "engine" / "worker.js")
    ui_js = [src / "ui" / "ui.js", src / "ui" / "ui.css"]
    mkdocs_js = [site / "search" / f for f in ("lunr.js", "worker.js", "main.js")]
    result = {
        "corpus": name,
        "markdown_files": pages,
        "counts": js["counts"],
        "queries": {"total": len(queries), "judged": len(judged_queries()),
                    "generated_from_headings": len(queries) - len(judged_queries())},
        "build_s": {
            "graphsearch_index": {"median_s": statistics.median(ours_build), "runs_s": ours_build},
            "mkdocs_build_search": {"median_s": statistics.median(mkdocs_build), "runs_s": mkdocs_build},
            **baseline,
        },
        "sizes": {
            "ours_files": files,
            "ours_kinds": {kind: add(*group) | {"files": len(group)} for kind, group in kinds.items()},
            "ours_first_keystroke": first | {"files": [n for n in FIRST_KEYSTROKE if n in kinds]},
            "ours_rest": rest,
            "ours_total": add(first, rest),
            "mkdocs_search_index_json": sizes(search_index),
            "lunr_serialized_index": sizes(scratch / "lunr.json"),
            "minisearch_serialized_index": sizes(scratch / "minisearch.json"),
            "js_ours_engine": js_sizes(engine_js),
            "js_ours_ui": js_sizes(ui_js),
            "js_mkdocs_search": js_sizes(mkdocs_js),
            "js_lunr_min": sizes(lunr_pkg / "lunr.min.js"),
            "js_minisearch_umd": sizes(mini_umd),
        },
        "node": js,
    }
    return result


# ---------------------------------------------------------------- report

def kib(n: float) -> str:
    return f"{n / 1024:,.1f} KiB"


def ms(x: float | None) -> str:
    return "-" if x is None else (f"{x:.3f} ms" if x < 10 else f"{x:,.1f} ms")


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None:
        return "-"
    if b == 0:
        return "-" if a == 0 else "inf"
    return f"{a / b:.2f}x"


def table(r: dict) -> str:
    s, n, b = r["sizes"], r["node"], r["build_s"]
    lat, load, zero = n["latency"], n["load_ms"], n["zero_results"]
    q = r["queries"]
    rows: list[tuple[str, str, str, str, float | None, float | None, float | None]] = []

    def row(label, ours, lunr, mini, fmt):
        rows.append((label, fmt(ours), fmt(lunr), fmt(mini), ours, lunr, mini))

    row("index build (wall, median)", b["graphsearch_index"]["median_s"], b["mkdocs_build_search"]["median_s"],
        None, lambda x: "-" if x is None else f"{x:.2f} s")
    row("index gzip: first keystroke / search_index.json / MiniSearch JSON",
        s["ours_first_keystroke"]["gzip"], s["mkdocs_search_index_json"]["gzip"],
        s["minisearch_serialized_index"]["gzip"], lambda x: kib(x))
    row("index gzip: whole bundle / search_index.json / MiniSearch JSON",
        s["ours_total"]["gzip"], s["mkdocs_search_index_json"]["gzip"],
        s["minisearch_serialized_index"]["gzip"], lambda x: kib(x))
    row("index gzip: first keystroke / prebuilt lunr index (+docs) / -",
        s["ours_first_keystroke"]["gzip"],
        s["lunr_serialized_index"]["gzip"] + s["mkdocs_search_index_json"]["gzip"], None,
        lambda x: "-" if x is None else kib(x))
    row("index raw: whole bundle / search_index.json / MiniSearch JSON",
        s["ours_total"]["raw"], s["mkdocs_search_index_json"]["raw"],
        s["minisearch_serialized_index"]["raw"], lambda x: kib(x))
    row("JS gzip: engine graph / MkDocs lunr.js+worker+main / minisearch UMD",
        s["js_ours_engine"]["gzip"], s["js_mkdocs_search"]["gzip"], s["js_minisearch_umd"]["gzip"],
        lambda x: kib(x))
    row("load: loadBundle / lunr build (MkDocs default) / MiniSearch build",
        load["ours_load_bundle"], load["lunr_build"], load["minisearch_build"], ms)
    row("load: loadKeywordBundle / lunr Index.load prebuilt / MiniSearch loadJSON",
        load["ours_load_keyword_bundle"], load["lunr_index_load"], load["minisearch_load_json"], ms)
    row("query p50", lat["ours"]["p50_ms"], lat["lunr"]["p50_ms"], lat["minisearch"]["p50_ms"], ms)
    row("query p95", lat["ours"]["p95_ms"], lat["lunr"]["p95_ms"], lat["minisearch"]["p95_ms"], ms)
    row("query max", lat["ours"]["max_ms"], lat["lunr"]["max_ms"], lat["minisearch"]["max_ms"], ms)
    row(f"zero-result queries (of {q['total']}; lunr incl. errors)", zero["ours"],
        zero["lunr"] + zero["lunr_errors"], zero["minisearch"], lambda x: str(x))

    head = ("metric", "ours", "lunr", "MiniSearch", "ours/lunr", "ours/Mini")
    body = [(label, o, lu, m, ratio(ov, lv), ratio(ov, mv)) for label, o, lu, m, ov, lv, mv in rows]
    widths = [max(len(str(x[i])) for x in [head, *body]) for i in range(len(head))]

    def fmt_row(x: tuple) -> str:
        cells = enumerate(zip(x, widths, strict=True))
        return "  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in cells)

    c = r["counts"]
    lines = [
        f"== {r['corpus']}: {r['markdown_files']} md files, {c['pages']} pages, {c['chunks']} chunks "
        f"(MkDocs search docs: {c['mkdocs_docs']}); {q['total']} queries "
        f"({q['judged']} judged + {q['generated_from_headings']} from headings) x {n['rounds']} rounds, "
        f"warm-up {n['warmup']}; node {n['node']}",
        fmt_row(head),
        fmt_row(tuple("-" * w for w in widths)),
        *(fmt_row(x) for x in body),
        "",
        "ours, scoring only (keywordScores): p50 {} p95 {}; slowest query (median of its rounds): "
        "ours {} {!r}, lunr {} {!r}, MiniSearch {} {!r}".format(
            ms(lat["ours_scoring_only"]["p50_ms"]), ms(lat["ours_scoring_only"]["p95_ms"]),
            ms(lat["ours"]["slowest_query"]["ms"]), lat["ours"]["slowest_query"]["query"],
            ms(lat["lunr"]["slowest_query"]["ms"]), lat["lunr"]["slowest_query"]["query"],
            ms(lat["minisearch"]["slowest_query"]["ms"]), lat["minisearch"]["slowest_query"]["query"]),
        "lunr: {} queries threw, {} returned nothing; lunr.min.js gzip {}; search_index.json parse {}".format(
            zero["lunr_errors"], zero["lunr"], kib(s["js_lunr_min"]["gzip"]), ms(load["search_index_json_parse"])),
        "our bundle files by kind (files, raw / gzip): " + ", ".join(
            f"{k} {v['files']}, {kib(v['raw'])} / {kib(v['gzip'])}" for k, v in s["ours_kinds"].items()),
        "first keystroke ({}): {} / {}; rest: {} / {}; our UI (ui.js+ui.css) gzip {}".format(
            "+".join(s["ours_first_keystroke"]["files"]), kib(s["ours_first_keystroke"]["raw"]),
            kib(s["ours_first_keystroke"]["gzip"]), kib(s["ours_rest"]["raw"]), kib(s["ours_rest"]["gzip"]),
            kib(s["js_ours_ui"]["gzip"])),
    ]
    extra = [k for k in ("mkdocs_build_no_search", "mkdocs_build_graphsearch") if k in b]
    if extra:
        lines.append("mkdocs builds: " + ", ".join(f"{k} {b[k]['median_s']:.2f} s" for k in extra))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", action="append", help="corpus under ../shared/corpora (repeatable; "
                        "default: mkdocs-docs and k8s-docs)")
    parser.add_argument("--rounds", type=int, default=20, help="timed runs per query (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds over all queries first (default 3)")
    parser.add_argument("--build-repeats", type=int, default=3, help="index builds per tool, median reported")
    parser.add_argument("--load-repeats", type=int, default=5, help="index loads per engine (builds: min(3, this))")
    parser.add_argument("--heading-queries", type=int, default=40,
                        help="queries generated from headings, for corpora other than mkdocs-docs")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--plugin-builds", action="store_true",
                        help="also time `mkdocs build` with no plugins and with plugins: [graphsearch]")
    parser.add_argument("--node", default="node")
    parser.add_argument("--out", type=Path, help="JSON output (default benchmarks/results/keyword-DATE.json)")
    args = parser.parse_args()

    if not (SHARED / "corpora").is_dir():
        die(f"needs the shared corpora and queries at {SHARED} (../shared next to the repository); not found")
    if not (HERE / "node_modules" / "lunr").is_dir() or not (HERE / "node_modules" / "minisearch").is_dir():
        die("lunr/minisearch not installed: run `npm install --prefix benchmarks` first")
    if not shutil.which(args.node):
        die(f"node not found ({args.node})")

    corpora = args.corpus or ["mkdocs-docs", "k8s-docs"]
    started = dt.datetime.now()
    results = []
    with tempfile.TemporaryDirectory(prefix="keyword-bench-") as tmp:
        for name in corpora:
            r = bench_corpus(name, args, Path(tmp))
            results.append(r)
            print(table(r), flush=True)
            print(flush=True)
    node_version = subprocess.run([args.node, "--version"], capture_output=True, text=True).stdout.strip()
    report = {
        "benchmark": "keyword",
        "started": started.isoformat(timespec="seconds"),
        "seconds": round((dt.datetime.now() - started).total_seconds(), 1),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": {"python": platform.python_version(), "node": node_version, "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "settings": {k: v for k, v in vars(args).items() if k not in ("out",)} | {"corpus": corpora},
        "corpora": results,
    }
    common.save_report("keyword", json.dumps(report, indent=1, default=str), args.out, started)


if __name__ == "__main__":
    main()
