"""Time to the answer after the last keystroke: ours (keyword first, final hybrid) vs Material's own
search, on the same site, in the same run (issue 23's latency target).

    .venv/bin/python benchmarks/material_latency.py [--corpus mkdocs-docs] [--runs 3] [--cache-dir DIR]
    .venv/bin/python benchmarks/material_latency.py --skip-build   # reuse the sites built last time
    .venv/bin/python benchmarks/material_latency.py --baseline DIR  # also ours as built in DIR (e.g. at main)

1. Builds the corpus twice with `theme: material` into `--work` (default
   benchmarks/.cache/material-latency/NAME, ignored by git): with Material's built-in `search`
   plugin, and with `graphsearch` alone (embedding cache `--cache-dir`, default WORK/cache: give a
   copy of a warm cache, or the build embeds every section).
2. Serves both from 127.0.0.1 (a server this script stops) and drives Chromium: per run, per query,
   per input (`paste`: the whole query pasted with Ctrl+V; `typed`: typed at `--key-ms` a key), per
   engine (interleaved), a fresh context (empty cache) opens the site's home page (or `--start`),
   waits for its load event, clicks the theme's search field (ours: the header button that opens our dialog),
   and enters the query (`--baseline`: a third engine, `baseline`, our plugin's site as built
   elsewhere, e.g. by an earlier commit: before/after in one run). From the last input event (the
   paste, or the last key) it records:
   - Material: `results`, when its result list last changed (its answer to the final text shown);
   - ours: `keyword`, the first list of results shown (not the start list), and `final`, the first
     answer shown in hybrid mode and complete (ui/box.js data-gs-mode, data-gs-complete);
   each also from navigation start (`*_nav`). Nothing changes for 1.5 s after: the answer settled.
3. For ours, a trace of each run: the worker's start, each search file's request (logical name,
   start, sent, first byte and end after the last input), and the fetch chain depth before the final answer (the
   longest run of requests each started after the previous one ended): phases
   worker/manifest/keyword/terms/display/texts/encoder/vectors/graph, and render (final answer
   shown minus the last file it waited for); and `intent_keyword`: from the reader's first sign
   of intent (the worker's start: ui/client.js warmOn) to the end of keyword.json, which a
   query's term shards wait for (`intent` in the table: how long before the last input it came).
4. Prints the table (p50 per input) and writes benchmarks/results/material-latency-NAME-DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import browser_bench as bb
from common import repo_path, save_report

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared"
ENGINES = ("material", "ours")
INPUTS = ("paste", "typed")
#: judged questions of the dev set (phrased as a reader would), the first --queries of them
QUERIES = [
    "how do I deploy my docs to github pages", "configure navigation", "use_directory_urls",
    "add a custom 404 page", "plugin events", "extra_css",
]
TIMEOUT_MS = 30_000
QUIET_MS = 1500
#: the search field each theme shows at a 1200 px wide viewport
OPEN = {"material": ".md-search__input", "ours": ".gs-trigger-material", "baseline": ".gs-trigger-material"}
#: logical file name prefix -> phase of the trace
PHASES = (("search/manifest", "manifest"), ("search/keyword", "keyword"), ("search/postings", "terms"),
          ("search/terms", "terms"), ("search/display", "display"), ("search/text", "texts"),
          ("search/encoder", "encoder"), ("search/vocab", "encoder"), ("search/vectors", "vectors"),
          ("search/centroids", "vectors"), ("search/graph", "graph"), ("assets/graphsearch/engine", "worker"))

# Every render of the result list after the last input event (ours: ui/panel.js replaces the
# list's children; Material: its list's), with the state it left.
INSTRUMENT = r"""
(() => {
  const B = window.__lat = { lastInput: -1, worker: null, changes: [] };
  const now = () => performance.now();
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) { if (B.worker === null) B.worker = now(); super(...args); }
  };
  window.addEventListener("input", () => { B.lastInput = now(); B.changes = []; }, true);
  const state = () => {
    const ours = document.querySelector("dialog.gs-dialog .gs-box");
    if (ours) {
      return { items: ours.querySelectorAll(".gs-group:not(.gs-start) .gs-option").length,
               mode: ours.dataset.gsMode || "", complete: ours.dataset.gsComplete === "true" };
    }
    return { items: document.querySelectorAll(".md-search-result__item").length };
  };
  new MutationObserver((records) => {
    if (B.lastInput < 0) return;
    const rendered = records.some((r) => r.target instanceof Element &&
                                        r.target.matches("dialog.gs-dialog .gs-list, .md-search-result__list"));
    if (rendered) B.changes.push({ t: now(), ...state() });
  }).observe(document, { subtree: true, childList: true });
})();
"""


def note(message: str) -> None:
    bb.note(message)


def build(corpus: Path, work: Path, cache: Path) -> dict:
    """The two Material sites under work/www/{material,ours}: wall time of each build."""
    configs = work / "configs"
    configs.mkdir(parents=True, exist_ok=True)
    plugins = {"material": "  - search\n", "ours": f"  - graphsearch:\n      cache_dir: {cache}\n"}
    info = {}
    for engine, body in plugins.items():
        config = configs / f"{engine}.yml"
        config.write_text(f"site_name: {corpus.name}\ndocs_dir: {corpus}\ntheme:\n  name: material\n"
                          f"plugins:\n{body}", encoding="utf-8")
        site = work / "www" / engine
        if site.exists():
            shutil.rmtree(site)
        note(f"build {engine}")
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            bb.die(f"mkdocs build ({engine}) failed:\n{proc.stderr[-4000:]}")
        info[engine] = {"wall_s": round(time.perf_counter() - t0, 2)}
    return info


def chain_depth(files: list[dict]) -> int:
    """The longest run of requests each started after the previous one ended."""
    ordered = sorted(files, key=lambda f: f["end"])
    depth: list[int] = []
    for i, f in enumerate(ordered):
        depth.append(1 + max((depth[j] for j in range(i) if ordered[j]["end"] <= f["start"]), default=0))
    return max(depth, default=0)


def phase(path: str) -> str:
    return next((name for prefix, name in PHASES if path.startswith(prefix)), "other")


def run_one(browser, base: str, engine: str, query: str, how: str, key_ms: int, start: str = "") -> dict:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.add_init_script(INSTRUMENT)
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    finished: list = []
    page.on("requestfinished", lambda request: finished.append(request))
    try:
        page.goto(f"{base}{engine}/{start}", wait_until="load")
        page.click(OPEN[engine])
        field = OPEN[engine] if engine == "material" else ".gs-dialog .gs-input"
        page.wait_for_selector(f"{field}:focus")
        if how == "paste":
            page.evaluate("q => navigator.clipboard.writeText(q)", query)
            page.keyboard.press("Control+V")
        else:
            page.keyboard.type(query, delay=key_ms)
        value = page.input_value(field)
        # Settled: an answer, then nothing for QUIET_MS (ours: its final, hybrid answer).
        page.wait_for_function(
            """([engine, quiet]) => { const B = window.__lat, c = B.changes, last = c[c.length - 1];
                 if (!last || performance.now() - last.t < quiet) return false;
                 return engine === "material" ? last.items > 0 : last.complete; }""",
            arg=[engine, QUIET_MS], timeout=TIMEOUT_MS, polling=100)
        lat = page.evaluate("window.__lat")
        origin = page.evaluate("performance.timeOrigin")
        typed_at = lat["lastInput"]
        changes = lat["changes"]
        result: dict = {"engine": engine, "query": query, "input": how, "value_ok": value == query,
                        "input_nav": round(typed_at, 1), "errors": errors}
        if engine == "material":
            shown = [c for c in changes if c["items"] > 0]
            result["results"] = round(shown[-1]["t"] - typed_at, 1)
            result["results_nav"] = round(shown[-1]["t"], 1)
            result["items"] = shown[-1]["items"]
            return result
        keyword = next(c for c in changes if c["items"] > 0)
        final = next((c for c in changes if c["items"] > 0 and c["complete"] and c["mode"] == "hybrid"), None)
        result |= {"keyword": round(keyword["t"] - typed_at, 1), "keyword_nav": round(keyword["t"], 1),
                   "keyword_mode": keyword["mode"],
                   "final": round(final["t"] - typed_at, 1) if final else None,
                   "final_nav": round(final["t"], 1) if final else None,
                   "final_mode": changes[-1]["mode"], "items": changes[-1]["items"],
                   "worker_start": round(lat["worker"] - typed_at, 1) if lat["worker"] is not None else None}
        result["trace"] = trace(finished, f"{base}{engine}/", engine, origin, typed_at, final["t"] if final else None)
        ends = result["trace"]["keyword_end"]
        result["intent_keyword"] = (round(ends - result["worker_start"], 1)
                                    if ends is not None and result["worker_start"] is not None else None)
        return result
    finally:
        context.close()


def trace(finished: list, prefix: str, site: str, origin: float, typed_at: float, final: float | None) -> dict:
    """Ours' search files (logical names), ms after the last input, and the chain before `final`."""
    files = []
    names = bb.LOGICAL.get(site, {})
    for request in finished:
        if not request.url.startswith(prefix):
            continue
        path = urlsplit(request.url[len(prefix):]).path
        path = names.get(path, path)
        if not path.startswith(("search/", "assets/graphsearch/engine")):
            continue
        timing = request.timing
        start = timing["startTime"] - origin
        end = start + timing["responseEnd"]
        # sent: the request left (after any wait for one of the host's connections); first_byte:
        # the server's answer began (Playwright: -1 when the browser did not say)
        sent, first = timing["requestStart"], timing["responseStart"]
        files.append({"path": path, "phase": phase(path), "start": round(start - typed_at, 1),
                      "sent": round(start + sent - typed_at, 1) if sent >= 0 else None,
                      "first_byte": round(start + first - typed_at, 1) if first >= 0 else None,
                      "end": round(end - typed_at, 1)})
    files.sort(key=lambda f: f["start"])
    out: dict = {"files": files, "requests": len(files)}
    keyword = next((f for f in files if f["path"].startswith("search/keyword")), None)
    out["keyword_end"] = keyword["end"] if keyword else None
    if final is not None:
        before = [f for f in files if f["end"] <= final - typed_at]
        out["requests_before_final"] = len(before)
        out["chain_depth"] = chain_depth(before)
        phases: dict[str, dict] = {}
        for f in before:
            p = phases.setdefault(f["phase"], {"first_start": f["start"], "last_end": f["end"], "requests": 0})
            p["first_start"] = min(p["first_start"], f["start"])
            p["last_end"] = max(p["last_end"], f["end"])
            p["requests"] += 1
        out["phases"] = phases
        out["render"] = round(final - typed_at - max((f["end"] for f in before), default=0), 1)
    return out


def p50(rows: list[dict], key: str) -> float | None:
    return bb.med([r.get(key) for r in rows])


def table(runs: list[dict]) -> str:
    lines = ["| input | engine | Material results p50 (ms) | keyword p50 (ms) | final hybrid p50 (ms) |"
             " final / Material | requests before final p50 | chain depth p50 |"
             " intent: before input / to keyword.json p50 (ms) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for how in INPUTS:
        mat = [r for r in runs if r["engine"] == "material" and r["input"] == how]
        m = p50(mat, "results")
        for engine in sorted({r["engine"] for r in runs} - {"material"}, reverse=True):
            ours = [r for r in runs if r["engine"] == engine and r["input"] == how]
            if not ours:
                continue
            k, f = p50(ours, "keyword"), p50(ours, "final")
            depth = bb.med([r["trace"].get("chain_depth") for r in ours])
            reqs = bb.med([r["trace"].get("requests_before_final") for r in ours])
            before = bb.med([-r["worker_start"] if r.get("worker_start") is not None else None for r in ours])
            intent = bb.med([r.get("intent_keyword") for r in ours])
            lines.append(f"| {how} | {engine} | {bb.fmt(m)} | {bb.fmt(k)} | {bb.fmt(f)} | "
                         f"{bb.ratio(f, m)} | {bb.fmt(reqs)} | {bb.fmt(depth)} | {bb.fmt(before)} / {bb.fmt(intent)} |")
    lines.append("")
    lines.append("(ms after the last input event: the paste, or the last key; from navigation start: the JSON's *_nav)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="mkdocs-docs", help="a folder under ../shared/corpora, or a path")
    parser.add_argument("--work", type=Path, help="build folder (default benchmarks/.cache/material-latency/NAME)")
    parser.add_argument("--cache-dir", type=Path, help="our embedding cache (default WORK/cache)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--queries", type=int, default=4, help=f"how many of the {len(QUERIES)} queries")
    parser.add_argument("--key-ms", type=int, default=100, help="ms between keys of the typed input")
    parser.add_argument("--inputs", default=",".join(INPUTS))
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--baseline", type=Path, help="a site built with our plugin elsewhere, timed as `baseline`")
    parser.add_argument("--start", default="", help="the page each run opens, under the site (default its home "
                        "page; k8s-docs has none at its root: _index/)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    corpus = Path(args.corpus) if Path(args.corpus).is_dir() else SHARED / "corpora" / args.corpus
    if not corpus.is_dir():
        bb.die(f"no corpus {args.corpus}")
    work = (args.work or HERE / ".cache" / "material-latency" / corpus.name).resolve()
    cache = (args.cache_dir or work / "cache").resolve()
    started = dt.datetime.now()
    builds = None if args.skip_build else build(corpus, work, cache)
    www = work / "www"
    engines = ENGINES
    if args.baseline:
        link = www / "baseline"
        if link.is_symlink():
            link.unlink()
        link.symlink_to(args.baseline.resolve(), target_is_directory=True)
        engines = (*ENGINES, "baseline")
    for site in engines[1:]:
        bb.learn_names(site, www / site)
    inputs = [how for how in args.inputs.split(",") if how]
    from playwright.sync_api import sync_playwright

    load_start = os.getloadavg()
    server = bb.Server(www)
    runs: list[dict] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(bb.CHROMIUM), args=bb.CHROMIUM_ARGS)
            chromium = browser.version
            for run in range(args.runs):
                for query in QUERIES[: args.queries]:
                    for how in inputs:
                        for engine in engines if run % 2 == 0 else engines[::-1]:
                            row = run_one(browser, server.base, engine, query, how, args.key_ms, args.start)
                            row["run"] = run
                            runs.append(row)
                            note(f"{engine} {how} {query!r}: " + (
                                f"results {row['results']} ms" if engine == "material"
                                else f"keyword {row['keyword']} ms, final {row['final']} ms, "
                                     f"depth {row['trace'].get('chain_depth')}"))
            browser.close()
    finally:
        server.stop()
    load_end = os.getloadavg()
    print(table(runs))
    print(f"load average {load_start[0]:.2f} -> {load_end[0]:.2f}; Chromium {chromium}")
    report = {
        "corpus": repo_path(corpus), "started": started.isoformat(timespec="seconds"), "git": bb.git_state(),
        "chromium": chromium, "chromium_args": bb.CHROMIUM_ARGS, "cpus": os.cpu_count(),
        "loadavg_start": load_start, "loadavg_end": load_end, "builds": builds,
        "baseline": repo_path(args.baseline) if args.baseline else None,
        "settings": {"runs": args.runs, "queries": QUERIES[: args.queries], "inputs": inputs, "start": args.start,
                     "key_ms": args.key_ms, "quiet_ms": QUIET_MS},
        "table": table(runs), "runs": runs,
    }
    save_report(f"material-latency-{corpus.name}", json.dumps(report, indent=1), args.out, started)


if __name__ == "__main__":
    main()
