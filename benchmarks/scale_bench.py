"""Scale benchmark (issue 10, "Measure"): one site, ours vs Pagefind vs MkDocs' built-in search,
builds and Chromium in one run, one table with ratios.

    .venv/bin/python benchmarks/scale_bench.py --corpus mkdocs-docs
    .venv/bin/python benchmarks/scale_bench.py --corpus k8s-docs --seed-cache .cache/eval
    .venv/bin/python benchmarks/scale_bench.py --corpus /tmp/big --queries-file tests/eval/k8s-docs.queries.jsonl \\
        --seed-cache .cache/eval
    .venv/bin/python benchmarks/scale_bench.py --corpus k8s-docs --skip-build   # reuse the sites built last time
    .venv/bin/python benchmarks/scale_bench.py --corpus k8s-docs --skip-build --first-query-only  # bytes only

`--corpus` is a folder name under ../shared/corpora or a folder of markdown (e.g. one written by
benchmarks/make_big_site.py). The docs are copied into `--work` (default
benchmarks/.cache/scale-bench/NAME, ignored by git), since one page gets edited.

1. Builds (unless --skip-build), each its own process (build_bench.timed_run: wall time, peak RSS;
   from compiled modules, build_bench.py BYTECODE),
   `theme: mkdocs` (highlightjs off), in this order: cold, warm (nothing changed), then one page
   edited (`--edit`, default the first page) and built again, for each of
   - ours: `plugins: [graphsearch]`, embedding cache `WORK/cache` (emptied first, or a copy of
     `--seed-cache DIR`: then "cold" embeds only what that cache lacks, and the report says so);
   - MkDocs: `plugins: [search]`;
   - Pagefind: `plugins: []`, then `pagefind --site` on the output (its time is the sum of the two,
     its peak memory the larger).
   Bundle size on disk: ours `search/` + `assets/graphsearch/`, MkDocs `search/`, Pagefind `pagefind/`.
2. Chromium (unless --skip-browser), browser_bench's machinery on the three built sites: cold runs
   (`--contexts` fresh contexts per engine, a different query each), counting from the network every
   file under the engine's folders whose response ended before the first result, and for ours before
   the first result shown in hybrid mode (ui/box.js `data-gs-mode="hybrid"` on a box with an option);
   bytes after 10 queries in one context; warm latency: keystroke -> results in the DOM (ours, MkDocs)
   and engine API per prefix (ours' worker, Pagefind's search() + data() of 5).
   `--first-query-only`: only the cold runs of ours and Pagefind (the first-query bytes and
   times; no MkDocs, no 10-query session, no warm figures), e.g. after `--skip-build`.
3. Prints the table (markdown) and writes benchmarks/results/scale-NAME-DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import sys
import time
from pathlib import Path

import browser_bench as bb
import build_bench
import common
from common import repo_path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared"
#: judged queries per shared corpus; the first 10 are the cold queries (mkdocs-docs: browser_bench's)
QUERY_FILES = {
    "mkdocs-docs": SHARED / "eval" / "mkdocs-docs.queries.jsonl",
    "k8s-docs": REPO / "tests" / "eval" / "k8s-docs.queries.jsonl",
}
THEME = {"name": "mkdocs", "highlightjs": False}
KINDS = ("cold", "warm", "edit")


def die(message: str) -> None:
    common.die("scale_bench", message)


def disk_bytes(site: Path, prefixes: tuple[str, ...]) -> dict:
    files = [f for p in prefixes if (site / p).is_dir() for f in (site / p).rglob("*") if f.is_file()]
    return {"files": len(files), "bytes": sum(f.stat().st_size for f in files)}


def run_builds(
    docs: Path,
    work: Path,
    www: Path,
    seed_cache: Path | None,
    edit: str | None,
    kinds: tuple[str, ...] = KINDS,
    engines: tuple[str, ...] = bb.ENGINES,
) -> dict:
    """Cold, warm and after-edit builds of the three sites into www/{ours,mkdocs,pagefind}."""
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    page = edit or pages[0]
    if page not in pages:
        die(f"--edit {page}: no such page in {docs}")
    cache = work / "cache"
    if seed_cache and seed_cache.is_relative_to(cache):
        die(f"--seed-cache {seed_cache} is the run's own cache, emptied before the cold build: copy it elsewhere first")
    if cache.exists():
        shutil.rmtree(cache)
    if seed_cache:
        shutil.copytree(seed_cache, cache)
    configs = work / "configs"
    configs.mkdir(parents=True, exist_ok=True)
    plugins = {"ours": [{"graphsearch": {"cache_dir": str(cache)}}], "mkdocs": ["search"], "pagefind": []}
    plugins = {name: p for name, p in plugins.items() if name in engines}
    config = {
        name: build_bench.write_config(configs / f"{name}.yml", docs.name, docs, www / name, p, THEME)
        for name, p in plugins.items()
    }
    code = REPO
    pagefind = bb.pagefind_executable() if "pagefind" in engines else ""
    runs: dict[str, dict] = {name: {} for name in plugins}
    build_bench.warm_bytecode(code, work)  # the builds run from compiled modules (build_bench.py)
    for kind in kinds:
        if kind == "edit":
            with (docs / page).open("a", encoding="utf-8") as out:
                out.write(build_bench.EDIT)
        for name in plugins:
            if kind == "cold" and (www / name).exists():
                shutil.rmtree(www / name)
            bb.note(f"build {name} {kind} ...")
            run = build_bench.timed_build(config[name], code)
            if name == "pagefind":
                index = build_bench.timed_run([pagefind, "--site", str(www / name)], work)
                run = {
                    "wall_s": round(run["wall_s"] + index["wall_s"], 2),
                    "mkdocs_s": run["wall_s"],
                    "pagefind_s": index["wall_s"],
                    "peak_rss_mib": max(run["peak_rss_mib"], index["peak_rss_mib"]),
                    "load_before": run["load_before"],
                    "load_after": index["load_after"],
                }
            runs[name][kind] = run
            bb.note(f"  {name} {kind}: {run}")
    return {"edited_page": page, "seed_cache": repo_path(seed_cache) if seed_cache else None, "runs": runs}


def site_facts(www: Path, engines: tuple[str, ...]) -> dict:
    manifest = www / "ours" / "search" / "manifest.json"
    return {
        "counts": json.loads(manifest.read_text(encoding="utf-8")).get("counts") if "ours" in engines else None,
        "disk": {name: disk_bytes(www / name, bb.SEARCH_PREFIXES[name]) for name in engines},
    }


def run_browser(
    www: Path,
    queries: list[str],
    cold_queries: list[str],
    contexts: int,
    warmup: int,
    engines: tuple[str, ...],
    first_only: bool = False,
) -> dict:
    from playwright.sync_api import sync_playwright

    if first_only:
        engines = tuple(e for e in engines if e in FIRST_QUERY_ENGINES)
    if "ours" in engines:
        bb.learn_names("ours", www / "ours")
    if "pagefind" in engines:
        bb.write_pagefind_page(www / "pagefind", copied_from_search_site=False)
    server = bb.Server(www)
    sizes = bb.Sizes(www, server.base)
    res: dict = {"cold": {e: {"runs": []} for e in engines}}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(bb.CHROMIUM), args=bb.CHROMIUM_ARGS)
            bench = bb.Bench(browser, server, sizes)
            for i in range(contexts):
                query = cold_queries[i % len(cold_queries)]
                bb.note(f"cold {i + 1}/{contexts}: {query!r}")
                for engine in engines if i % 2 == 0 else engines[::-1]:
                    try:
                        run = bench.cold(engine, query)
                    except Exception as error:  # noqa: BLE001 - a failed run is reported, not fatal
                        bb.note(f"  {engine}: failed: {error}")
                        run = {"first": None, "error": str(error)}
                    run["query"] = query
                    res["cold"][engine]["runs"].append(run)
            for engine in engines:
                res["cold"][engine]["summary"] = bb.summarize_cold(res["cold"][engine]["runs"], engine)
            res["typed"] = {}
            for engine in (x for x in FIRST_QUERY_ENGINES if x in engines):
                bb.note(f"typed question: {engine}")
                res["typed"][engine] = bench.typed(engine, bb.TYPED_QUESTION)
            if first_only:
                res["chromium"] = browser.version
                browser.close()
                return res
            res["session"] = {}
            for engine in engines:
                bb.note(f"10-query session: {engine}")
                res["session"][engine] = bench.session(engine, cold_queries[:10])
            res["api"] = {}
            for engine in (x for x in ("ours", "pagefind") if x in engines):
                bb.note(f"warm, engine API per prefix: {engine}")
                raw = bench.warm_api(engine, queries)
                res["api"][engine] = {"summary": bb.summarize_api(raw), "raw": raw}
            res["typing"] = {}
            for engine in (x for x in ("ours", "mkdocs") if x in engines):
                bb.note(f"warm, typing {len(queries)} queries: {engine}")
                raw = bench.warm_typing(engine, queries[:warmup], queries)
                summary = bb.summarize_typing(raw, engine)
                raw.pop("samples")
                res["typing"][engine] = {"summary": summary, "raw": raw}
            res["chromium"] = browser.version
            browser.close()
    finally:
        server.stop()
    return res


#: --first-query-only: the engines whose first queries issue 10's byte target compares
FIRST_QUERY_ENGINES = ("ours", "pagefind")


def first_query_table(report: dict) -> str:
    """--first-query-only: ours' and Pagefind's gzip bytes and times before the first result."""
    cold = {e: report["browser"]["cold"][e]["summary"] for e in FIRST_QUERY_ENGINES}
    ours, pagefind = cold["ours"], cold["pagefind"]
    rows = [
        ("gzip KiB before the first keyword result", ours["before_first"]["gzip"], pagefind["before_first"]["gzip"]),
        (
            "gzip KiB before the first hybrid result",
            ours.get("before_hybrid", {}).get("gzip"),
            pagefind["before_first"]["gzip"],
        ),
        (
            "gzip KiB before the first hybrid result, without `text.*`",
            ours.get("before_hybrid_without_text", {}).get("gzip"),
            pagefind["before_first"]["gzip"],
        ),
        (
            "gzip KiB until that answer is complete (every snippet in)",
            ours.get("before_complete", {}).get("gzip"),
            pagefind["before_first"]["gzip"],
        ),
    ]
    lines = ["| figure (median of the cold runs) | ours | Pagefind | ours / Pagefind |", "|---|---:|---:|---:|"]
    lines += [f"| {label} | {kib(a)} | {kib(b)} | {ratio(a, b)} |" for label, a, b in rows]
    requests = [
        ("requests before the first keyword result", ours["before_first"]["requests"],
         pagefind["before_first"]["requests"]),
        (
            "requests before the first hybrid result",
            ours.get("before_hybrid", {}).get("requests"),
            pagefind["before_first"]["requests"],
        ),
        (
            "requests before the first hybrid result, without `text.*`",
            ours.get("before_hybrid_without_text", {}).get("requests"),
            pagefind["before_first"]["requests"],
        ),
        (
            "requests until that answer is complete (every snippet in)",
            ours.get("before_complete", {}).get("requests"),
            pagefind["before_first"]["requests"],
        ),
    ]
    typed = report["browser"].get("typed", {})
    if "ours" in typed and "pagefind" in typed:
        a, b = typed["ours"]["total"], typed["pagefind"]["total"]
        question = f"{typed['ours']['question']!r} at {typed['ours']['delay_ms']} ms a key"
        requests.append((f"requests, {question}, until its final answer", a["requests"], b["requests"]))
        lines.append(f"| gzip KiB, {question}, until its final answer | {kib(a['gzip'])} | {kib(b['gzip'])} "
                     f"| {ratio(a['gzip'], b['gzip'])} |")
    lines += [f"| {label} | {a} | {b} | {ratio(a, b)} |" for label, a, b in requests]
    for p in ("p50", "p95"):
        a, b = ours.get("nav_to_hybrid_ms", {}).get(p), pagefind["nav_to_first_ms"].get(p)
        lines.append(f"| cold: navigation -> first (hybrid) result, {p} ms | {ms(a)} | {ms(b)} | {ratio(a, b)} |")
    if "before_hybrid_gzip_by_kind" in ours:
        kinds = ", ".join(f"{kind} {kib(v)}" for kind, v in ours["before_hybrid_gzip_by_kind"].items() if v)
        lines.append(f"\nours before the first hybrid result, median gzip KiB by file kind: {kinds}; requests by run: "
                     f"{ours['before_hybrid_requests_by_run']}")
    return "\n".join(lines)


def kib(v) -> str:
    return "-" if v is None else f"{v / 1024:,.1f}"


def ms(v) -> str:
    return "-" if v is None else f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def ratio(a, b) -> str:
    return f"{a / b:.2f}" if a is not None and b else "-"


def markdown_table(report: dict) -> str:
    """One row per figure; columns ours, MkDocs, Pagefind and ours/peer ratios (below 1: ours smaller/faster)."""
    rows: list[tuple[str, list, str]] = []  # label, values per engine, unit formatter
    builds = report.get("builds")
    browser = report.get("browser")
    e = bb.ENGINES  # columns; an engine left out (--engines) has "-" in its column

    def each(part: dict, *path: str) -> list:
        """part[engine][path...] per engine, None where the engine or a key is missing."""
        values = []
        for x in e:
            value = part.get(x)
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            values.append(value)
        return values

    if browser:
        cold = {x: browser["cold"][x]["summary"] for x in browser["cold"]}
        hybrid = each(cold, "before_first", "gzip")
        hybrid[0] = cold.get("ours", {}).get("before_hybrid", {}).get("gzip")
        rows.append(("gzip KiB before the first keyword result (1)", each(cold, "before_first", "gzip"), "kib"))
        rows.append(("gzip KiB before the first hybrid result (1)", hybrid, "kib"))
        rows.append(("gzip KiB after 10 queries", each(browser["session"], "total", "gzip"), "kib"))
        rows.append(("requests before the first result", each(cold, "before_first", "requests"), "n"))
        for p in ("p50", "p95"):
            rows.append((f"cold: navigation -> first result, {p} ms", each(cold, "nav_to_first_ms", p), "ms"))
        for p in ("p50", "p95"):
            hyb = each(cold, "nav_to_first_ms", p)
            hyb[0] = cold.get("ours", {}).get("nav_to_hybrid_ms", {}).get(p)
            rows.append((f"cold: navigation -> first hybrid result, {p} ms (1)", hyb, "ms"))
        typing, api = browser["typing"], browser["api"]
        for p in ("p50", "p95"):
            rows.append(
                (f"warm: keystroke -> results in the DOM, {p} ms (2)", each(typing, "summary", "dom_ms", p), "ms")
            )
        for p in ("p50", "p95"):
            rows.append((f"warm: engine API per prefix, {p} ms (3)", each(api, "summary", "timed", p), "ms"))
    if builds:
        runs = builds["runs"]
        for kind in (k for k in KINDS if k in next(iter(runs.values()))):
            rows.append(
                (
                    f"build {kind}, s" + (" (4)" if kind == "cold" and builds["seed_cache"] else ""),
                    each(runs, kind, "wall_s"),
                    "s",
                )
            )
        peaks = [max(r["peak_rss_mib"] for r in runs[x].values()) if x in runs else None for x in e]
        rows.append(("peak build memory, MiB", peaks, "mib"))
    facts = report.get("site")
    if facts:
        rows.append(("search files on disk, KiB", each(facts["disk"], "bytes"), "kib"))
    fmt = {
        "kib": kib,
        "ms": ms,
        "n": lambda v: "-" if v is None else f"{v:g}",
        "s": lambda v: f"{v:.1f}",
        "mib": lambda v: f"{v:,.0f}",
    }
    lines = [
        "| figure | ours | MkDocs search | Pagefind | ours / MkDocs | ours / Pagefind |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, values, unit in rows:
        cells = [fmt[unit](v) if v is not None else "-" for v in values]
        lines.append(
            f"| {label} | {' | '.join(cells)} | {ratio(values[0], values[1])} | {ratio(values[0], values[2])} |"
        )
    notes = [
        "(1) files under search/ and assets/graphsearch/ (ours), search/ (MkDocs), pagefind/ (Pagefind) whose",
        "    response ended before the result was in the DOM, gzip -9 of each; median of the cold runs. Ours: hybrid",
        "    = the first answer that ran in hybrid mode; the peers have one kind (their first result, Pagefind's",
        "    search() + data() of 5).",
        "(2) from the event the engine reacts to (ours: input; MkDocs: keyup); MkDocs clears the list under",
        "    3 characters.",
        "(3) ours: a query posted to the search worker -> its answer; Pagefind: search() + data() of 5, second pass.",
    ]
    if builds and builds["seed_cache"]:
        notes.append(
            f"(4) ours' cold build started from a copy of the embedding cache {builds['seed_cache']}: it embeds only "
            "passages missing from it."
        )
    return "\n".join(lines + [""] + notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, help="mkdocs-docs, k8s-docs (../shared/corpora) or a folder")
    parser.add_argument(
        "--queries-file", type=Path, help="JSON lines with a `query` field (default: the corpus's judged set)"
    )
    parser.add_argument(
        "--work", type=Path, help="docs copy, caches and built sites (default benchmarks/.cache/scale-bench/NAME)"
    )
    parser.add_argument("--seed-cache", type=Path, help="start ours' embedding cache from a copy of this folder")
    parser.add_argument("--edit", help="the page to edit (relative to the docs); default: the first")
    parser.add_argument("--skip-build", action="store_true", help="reuse the sites of the last run in --work")
    parser.add_argument("--skip-browser", action="store_true", help="builds and sizes only")
    parser.add_argument("--cold-only", action="store_true", help="only the cold builds (no warm, no edit)")
    parser.add_argument(
        "--first-query-only", action="store_true", help="browser: only the cold runs of ours and Pagefind"
    )
    parser.add_argument("--contexts", type=int, default=10, help="fresh browser contexts per engine (cold runs)")
    parser.add_argument(
        "--queries", type=int, default=10, help="judged queries typed (and their prefixes run) for the warm figures"
    )
    parser.add_argument("--warmup-queries", type=int, default=5)
    parser.add_argument(
        "--engines",
        default=",".join(bb.ENGINES),
        help="comma-separated subset of ours,mkdocs,pagefind to build and measure (a big site: ours alone)",
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    engines = tuple(x for x in bb.ENGINES if x in args.engines.split(","))
    if not engines or set(args.engines.split(",")) - set(bb.ENGINES):
        die(f"--engines {args.engines}: give a comma-separated subset of {','.join(bb.ENGINES)}")
    if args.first_query_only and set(FIRST_QUERY_ENGINES) - set(engines):
        die("--first-query-only compares ours with Pagefind: --engines must include both")

    source = SHARED / "corpora" / args.corpus if "/" not in args.corpus else Path(args.corpus)
    if not source.is_dir():
        die(f"no corpus {source} (shared corpora live in ../shared beside the repository)")
    name = source.name
    queries_file = args.queries_file or QUERY_FILES.get(name)
    if queries_file is None or not queries_file.exists():
        die(
            f"no queries for {name}: give --queries-file "
            "(e.g. tests/eval/k8s-docs.queries.jsonl for a make_big_site.py site)"
        )
    queries = [
        json.loads(line)["query"] for line in queries_file.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    cold_queries = bb.COLD_QUERIES if name == "mkdocs-docs" else queries[:10]
    work = (args.work or HERE / ".cache" / "scale-bench" / name).resolve()
    www = work / "www"
    started = dt.datetime.now()
    t0 = time.perf_counter()
    load_start = os.getloadavg()
    report: dict = {
        "corpus": repo_path(source),
        "queries_file": repo_path(queries_file),
        "cold_queries": cold_queries,
        "git": bb.git_state(),
        "cpus": len(os.sched_getaffinity(0)),
        "started": started.isoformat(timespec="seconds"),
        "engines": list(engines),
    }
    if not args.skip_build:
        docs = work / "docs"
        if docs.exists():
            shutil.rmtree(docs)
        shutil.copytree(source, docs)
        if not any((docs / name).exists() for name in ("index.md", "README.md")):
            # The browser runs open each site's home page (k8s-docs has only Hugo's `_index.md`).
            (docs / "index.md").write_text(f"# {name}\n\nThe home page scale_bench added.\n", encoding="utf-8")
        report["builds"] = run_builds(
            docs,
            work,
            www,
            args.seed_cache.resolve() if args.seed_cache else None,
            args.edit,
            ("cold",) if args.cold_only else KINDS,
            engines,
        )
    elif not all((www / x).is_dir() for x in engines):
        die(f"--skip-build: no sites built in {www} (run once without it)")
    report["site"] = site_facts(www, engines)
    if not args.skip_browser:
        if not bb.CHROMIUM.exists():
            die(f"{bb.CHROMIUM} is missing (apt-get install chromium)")
        report["browser"] = run_browser(
            www,
            queries[: args.queries],
            cold_queries,
            args.contexts,
            args.warmup_queries,
            engines,
            args.first_query_only,
        )
    report["loadavg"] = [load_start, os.getloadavg()]
    report["wall_s"] = round(time.perf_counter() - t0, 1)
    counts = report["site"]["counts"] or {}
    header = (
        f"scale_bench: {name}, {counts.get('chunks', '?')} chunks, {counts.get('pages', '?')} pages; "
        f"commit {report['git']['commit']}; load {load_start[0]:.1f} -> {os.getloadavg()[0]:.1f} on "
        f"{report['cpus']} CPUs; {report['wall_s']:.0f} s"
    )
    table = first_query_table(report) if args.first_query_only and "browser" in report else markdown_table(report)
    report["table"] = header + "\n" + table
    print(header)
    print(table)
    common.save_report(f"scale-{name}", bb.to_json(bb.rounded(report)), args.out, started)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main()
