"""Browser benchmark: what a reader waits for and downloads, ours vs MkDocs' search vs Pagefind, in Chromium.

    .venv/bin/python benchmarks/browser_bench.py [--contexts 10] [--keep DIR]

Issue 5, "Measure". Needs ../shared (corpus mkdocs-docs and its judged queries), Debian chromium at
/usr/bin/chromium, Python playwright, and `pip install pagefind_bin` (Pagefind's binary from PyPI).

1. Builds three sites from ../shared/corpora/mkdocs-docs with `theme: mkdocs` (`highlightjs: false`):
   ours (`plugins: [graphsearch]`, embedding cache in benchmarks/.cache/browser-bench), MkDocs'
   built-in `search`, and a copy of the built-in site indexed by `pagefind --site`.
2. Serves them from one local HTTP/1.1 server and measures in headless Chromium:
   - cold: fresh browser context per run (empty cache), from navigation start to the first result
     of one query (p50 of --contexts runs, a different query each run, engines interleaved);
   - warm: with the index loaded, from each keystroke of the 40 judged queries (typed character
     by character) to the results for that text being in the DOM; Pagefind's API per prefix;
   - bytes: search files fetched before the first result, and after 10 queries.
3. Prints a table with ratios and writes every figure to benchmarks/results/browser-DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import gzip
import http.server
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

from common import bundle_parts, part_kind, repo_path, save_report

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpora" / "mkdocs-docs"
QUERIES = SHARED / "eval" / "mkdocs-docs.queries.jsonl"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ENGINES = ("ours", "mkdocs", "pagefind")
LABELS = {"ours": "ours", "mkdocs": "MkDocs search", "pagefind": "Pagefind"}
#: cold runs use one query each (run i: COLD_QUERIES[i % 10]); the 10-query session uses all of them
COLD_QUERIES = [
    "use_directory_urls", "deploy to github pages", "theme", "plugin events", "configure navigation",
    "extra_css", "custom 404 page", "markdown extensions", "edit_uri", "localization",
]
#: per engine, the folders of the site that are its search (everything else is page/theme, not counted)
SEARCH_PREFIXES = {
    "ours": ("search/", "assets/graphsearch/"),
    "mkdocs": ("search/",),
    "pagefind": ("pagefind/",),
}
#: path prefixes (logical names: learn_names) of the files the first answer does not wait for (ours: the
#: semantic part, loaded after the first answer is computed; on this fast local server they often arrive
#: before it is shown all the same)
LATER_PARTS = {"ours": ("search/vectors.", "search/centroids.", "search/encoder", "search/vocab."),
               "mkdocs": (), "pagefind": ()}
#: ours' files a keyword answer waits for (logical names): the manifest, keyword.json, the query's term shards
KEYWORD_FILES = ("search/manifest.json", "search/keyword.json", "search/postings.")
PAGEFIND_PAGE = "graphsearch-bench.html"
TIMEOUT_MS = 30_000
KEY_TIMEOUT_MS = 3_000
THEME = "theme:\n  name: mkdocs\n  highlightjs: false\n"

# Runs in every page before its own scripts. Marks are performance.now() values: ms since the
# navigation started (the page's time origin).
#  - Worker: the constructor marks when search starts loading (ours: ui.js on intent, e.g. `/`;
#    MkDocs: search/main.js at parse time); message listeners added with addEventListener
#    (ours) are wrapped so the time is taken after the page's handler has updated the DOM.
#  - a MutationObserver marks when each selector in __benchWatch first matches.
#  - key and input events: timestamps of the latest keydown/input/keyup.
INSTRUMENT = r"""
(() => {
  const B = window.__bench = { marks: {}, last: null, waiters: [], renders: 0, lastRender: -1,
                               lastError: -1, lastKeydown: -1, lastInput: -1, lastKeyup: -1, workers: [] };
  const now = () => performance.now();
  const mark = (name, t) => { if (!(name in B.marks)) B.marks[name] = t === undefined ? now() : t; };
  B.mark = mark;
  const afterPaint = (cb) => requestAnimationFrame(() => setTimeout(cb, 0));
  const settle = () => {
    B.waiters = B.waiters.filter((w) => !w.check());
  };
  const Native = window.Worker;
  if (Native) {
    window.Worker = class extends Native {
      constructor(...args) {
        mark("worker");
        super(...args);
        B.workers.push(this);
        const add = this.addEventListener.bind(this);
        super.addEventListener("error", () => { B.lastError = now(); settle(); });
        // MkDocs sets worker.onmessage: note when each message arrives, then run its handler.
        let onmessage = null;
        Object.defineProperty(this, "onmessage", { configurable: true, get: () => onmessage,
                                                   set: (fn) => { onmessage = fn; } });
        add("message", (event) => {
          if (typeof onmessage === "function") {
            B.lastMessage = now();
            onmessage.call(this, event);
          }
        });
        const post = this.postMessage.bind(this);
        this.postMessage = (...message) => { B.lastPost = now(); return post(...message); };
        this.addEventListener = (type, fn, options) => {
          if (type !== "message" || typeof fn !== "function") return add(type, fn, options);
          return add(type, (event) => {
            const arrived = now();
            fn(event);
            const data = event.data;
            if (data && data.type === "results") {
              const t = now();
              const entry = { query: data.query, id: data.id, n: (data.results || []).length, t, message: arrived,
                              complete: data.complete, painted: null };
              if (data.channel !== "bench") {
                B.last = entry;
                afterPaint(() => { entry.painted = now(); settle(); });
              }
              settle();
            }
          }, options);
        };
      }
    };
  }
  for (const [type, key] of [["keydown", "lastKeydown"], ["input", "lastInput"], ["keyup", "lastKeyup"]]) {
    window.addEventListener(type, (event) => {
      B[key] = event.timeStamp;
      B[key + "Run"] = now();
      if (type === "keydown" && event.key === "/") mark("slash", event.timeStamp);
      if (type === "input") mark("input", event.timeStamp);
    }, true);
  }
  document.addEventListener("DOMContentLoaded", () => {
    mark("domcontentloaded");
    // Cold runs of ours: search as soon as the page is ready, as MkDocs' ?q= and the Pagefind page
    // do (ui.js starts in a DOMContentLoaded listener of its own, after this one: hence the timeout).
    if (window.__benchQuery) {
      setTimeout(() => {
        if (!window.graphsearchUI) return;
        mark("query");
        window.graphsearchUI.open(window.__benchQuery);
      }, 0);
    }
  }, true);
  window.addEventListener("load", () => mark("load"), true);
  const watch = window.__benchWatch || [];
  if (watch.length) {
    const observer = new MutationObserver(() => {
      let pending = 0, found = false;
      for (const [name, selector] of watch) {
        if (name in B.marks) continue;
        if (document.querySelector(selector)) { mark(name); found = true; }
        else pending++;
      }
      if (!pending) observer.disconnect();
      if (found) settle();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true,
                                 attributeFilter: ["data-gs-complete", "data-gs-mode"] });
  }
  // Resolves when marks[name] exists.
  B.waitMark = (name, timeout) => new Promise((resolve) => {
    const w = { check: () => { if (name in B.marks) { resolve(B.marks[name]); return true; } return false; } };
    if (!w.check()) {
      B.waiters.push(w);
      setTimeout(() => { if (!w.check()) { B.waiters = B.waiters.filter((x) => x !== w); resolve(null); } }, timeout);
    }
  });
  // Ours: the answer for exactly this text, after the UI rendered it (and after the next paint).
  B.waitAnswer = (value, timeout) => new Promise((resolve) => {
    const w = { check: () => {
      const last = B.last;
      if (last && last.query === value && last.t >= B.lastInput && last.painted !== null) {
        resolve({ keydown: B.lastKeydown, input: B.lastInput, inputRun: B.lastInputRun, post: B.lastPost,
                  message: last.message, dom: last.t,
                  painted: last.painted, n: last.n });
        return true;
      }
      return false;
    } };
    if (!w.check()) {
      B.waiters.push(w);
      setTimeout(() => { if (!w.check()) { B.waiters = B.waiters.filter((x) => x !== w); resolve(null); } }, timeout);
    }
  });
  // MkDocs' search: any change to #mkdocs-search-results after the last keyup (or a worker error:
  // lunr throws on some query syntax, the worker dies for that query and nothing is shown).
  B.lastMessage = -1;
  B.watchResults = (selector) => {
    const target = document.querySelector(selector);
    new MutationObserver(() => {
      const entry = { t: now(), painted: null, message: B.lastMessage >= B.lastKeyup ? B.lastMessage : null };
      B.renders++;
      B.lastRender = entry.t;
      B.lastRenderEntry = entry;
      afterPaint(() => { entry.painted = now(); settle(); });
    }).observe(target, { childList: true });
  };
  B.waitRender = (timeout) => new Promise((resolve) => {
    const w = { check: () => {
      const e = B.lastRenderEntry;
      if (e && e.t >= B.lastKeyup && e.painted !== null) {
        resolve({ keydown: B.lastKeydown, keyup: B.lastKeyup, keyupRun: B.lastKeyupRun, post: B.lastPost,
                  message: e.message, dom: e.t, painted: e.painted,
                  n: document.querySelectorAll(B.resultSelector).length });
        return true;
      }
      if (B.lastError >= B.lastKeyup) {
        resolve({ keydown: B.lastKeydown, keyup: B.lastKeyup, error: B.lastError });
        return true;
      }
      return false;
    } };
    if (!w.check()) {
      B.waiters.push(w);
      setTimeout(() => { if (!w.check()) { B.waiters = B.waiters.filter((x) => x !== w); resolve(null); } }, timeout);
    }
  });
  // Ours without the UI: post queries to the search worker on a channel of our own.
  B.workerRoundTrips = async (queries) => {
    const worker = B.workers[0];
    // The EventTarget methods themselves: the instance's addEventListener is our wrapper.
    const listen = (handler) => EventTarget.prototype.addEventListener.call(worker, "message", handler);
    const unlisten = (handler) => EventTarget.prototype.removeEventListener.call(worker, "message", handler);
    let id = 1e9;
    const times = [];
    for (const query of queries) {
      const myId = ++id;
      const t0 = now();
      const n = await new Promise((resolve) => {
        const handler = (event) => {
          const d = event.data;
          if (d && d.type === "results" && d.channel === "bench" && d.id === myId) {
            unlisten(handler);
            resolve((d.results || []).length);
          }
        };
        listen(handler);
        worker.postMessage({ type: "query", channel: "bench", id: myId, query });
      });
      times.push([now() - t0, n]);
    }
    return times;
  };
})();
"""

# The Pagefind page: the site's own home page (same theme, CSS and fonts as the other two), with
# MkDocs' search script removed and this module added. With ?q=, it does what the issue measures:
# import + init + first search + data() of the first 5 results, timed with performance.now().
PAGEFIND_SCRIPT = r"""<script type="module">
const P = window.__pf = {};
const q = new URLSearchParams(location.search).get("q");
P.t0 = performance.now();
const pagefind = await import("./pagefind/pagefind.js");
P.tImport = performance.now();
await pagefind.init();
P.tInit = performance.now();
window.pagefind = pagefind;
if (q) {
  const r = await pagefind.search(q);
  P.tSearch = performance.now();
  const data = await Promise.all(r.results.slice(0, 5).map((x) => x.data()));
  P.tData = performance.now();
  P.count = r.results.length;
  P.urls = data.map((d) => d.url);
}
P.done = true;
// Time search() (+ data() of the first 5) for each query, in order.
P.runs = async (queries, withData) => {
  const out = [];
  for (const query of queries) {
    const t0 = performance.now();
    const r = await pagefind.search(query);
    if (withData) await Promise.all(r.results.slice(0, 5).map((x) => x.data()));
    out.push([performance.now() - t0, r.results.length]);
  }
  return out;
};
</script>
"""


#: Bench.typed: a 32-character question, typed at a steady pace (issue 23's typing session).
TYPED_QUESTION = "how do I deploy my docs to github"
TYPED_KEY_MS = 120
# Pagefind's typing session (Bench.typed): its debounced search per prefix, then the results' data.
PAGEFIND_TYPED = r"""async ([question, delay]) => {
  let last = null;
  for (let i = 1; i <= question.length; i++) {
    last = window.pagefind.debouncedSearch(question.slice(0, i));
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  const r = await last;
  await Promise.all((r ? r.results : []).slice(0, 5).map((x) => x.data()));
  return r ? r.results.length : 0;
}"""


# Ours, step by step on the page's main thread (the worker runs the same code): module import
# (fetch + compile of the worker's module graph), then each bundle part from bytes already fetched.
BUNDLE_CPU = r"""async ([site, query, runtimeDir]) => {
  const runtime = new URL(runtimeDir, site);
  let t0 = performance.now();
  const [formatJs, readJs, workerJs, engineJs] = await Promise.all([
    import(new URL("engine/bundle/format.js", runtime).href), import(new URL("engine/bundle/read.js", runtime).href),
    import(new URL("engine/worker.js", runtime).href), import(new URL("engine/engine.js", runtime).href)]);
  const t = { import_modules: performance.now() - t0 };
  const files = {};  // by stored (CRC-32) file name, every file the manifest lists
  files["manifest.json"] = new Uint8Array(await (await fetch(new URL("search/manifest.json", site))).arrayBuffer());
  const manifest = JSON.parse(new TextDecoder().decode(files["manifest.json"]));  // checksummed: bytes kept as served
  for (const part of formatJs.listedParts(manifest)) {
    const name = formatJs.fileName(manifest, part);
    const response = await fetch(new URL(`search/${name}`, site));
    if (response.ok) files[name] = new Uint8Array(await response.arrayBuffer());
  }
  const fetchFile = async (name) => {
    if (!(name in files)) throw new Error(`HTTP 404 for ${name}`);
    return files[name];
  };
  const text0 = files[formatJs.fileName(manifest, formatJs.textFragment(0))];
  t0 = performance.now();
  await readJs.loadKeywordBundle(fetchFile);
  t.keyword_part = performance.now() - t0;
  t0 = performance.now();
  formatJs.crc32(text0);
  t.text_fragment_0_crc32 = performance.now() - t0;
  t0 = performance.now();
  JSON.parse(new TextDecoder().decode(text0));
  t.text_fragment_0_json_parse = performance.now() - t0;
  t0 = performance.now();
  const bundle = await workerJs.loadBundle(fetchFile);
  t.all_parts = performance.now() - t0;
  t0 = performance.now();
  engineJs.search(bundle, query, { mode: "keyword" });
  t.first_search_keyword = performance.now() - t0;
  t0 = performance.now();
  engineJs.search(bundle, query, { mode: "keyword" });
  t.second_search_keyword = performance.now() - t0;
  t0 = performance.now();
  engineJs.search(bundle, query);
  t.first_search_default_mode = performance.now() - t0;
  return t;
}"""


def die(message: str) -> None:
    print(f"browser_bench: {message}", file=sys.stderr)
    sys.exit(2)


def note(message: str) -> None:
    print(f"[{dt.datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def pct(values: list[float], p: float) -> float | None:
    """Percentile with linear interpolation (p in 0..100)."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    k = (len(v) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def med(values: list) -> float | None:
    v = [x for x in values if x is not None]
    return statistics.median(v) if v else None


# ------------------------------------------------------------------------------- builds


def build_sites(www: Path, configs: Path, cache_dir: Path) -> dict:
    """The three sites under www/ours, www/mkdocs, www/pagefind; wall times of each step."""
    configs.mkdir(parents=True, exist_ok=True)
    head = f"site_name: MkDocs\ndocs_dir: {CORPUS}\n{THEME}"
    plugins = {
        "ours": f"plugins:\n  - graphsearch:\n      cache_dir: {cache_dir}\n",
        "mkdocs": "plugins:\n  - search\n",
    }
    info = {}
    for name, body in plugins.items():
        config = configs / f"{name}.yml"
        config.write_text(head + body, encoding="utf-8")
        warm = cache_dir.is_dir() and any(cache_dir.rglob("*"))
        note(f"build {name}" + (f" (embedding cache {cache_dir}, {'warm' if warm else 'empty: embeds every chunk'})"
                                if name == "ours" else ""))
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(www / name)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            die(f"mkdocs build ({name}) failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
        info[name] = {"wall_s": round(time.perf_counter() - t0, 2)}
        if name == "ours":
            info[name]["cache_was_warm"] = warm
    manifest = json.loads((www / "ours" / "search" / "manifest.json").read_text(encoding="utf-8"))
    if not manifest.get("vectors"):
        note("warning: our bundle has no vectors (embedding model unavailable?): keyword-only bundle measured")
    info["ours"]["counts"] = manifest.get("counts")
    learn_names("ours", www / "ours")
    info["ours"]["semantic"] = bool(manifest.get("vectors"))

    # Pagefind indexes the same HTML as the built-in site (a copy, so MkDocs' files stay as built).
    shutil.copytree(www / "mkdocs", www / "pagefind")
    exe = pagefind_executable()
    note(f"pagefind --site {www / 'pagefind'}")
    t0 = time.perf_counter()
    proc = subprocess.run([exe, "--site", str(www / "pagefind")], capture_output=True, text=True)
    if proc.returncode != 0:
        die(f"pagefind failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    wall = time.perf_counter() - t0
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.strip()
    info["pagefind"] = {"wall_s": round(wall, 2), "version": version,
                        "indexed": {k: int(v) for v, k in re.findall(r"Indexed (\d+) (pages|words)", proc.stdout)}}
    write_pagefind_page(www / "pagefind", copied_from_search_site=True)
    return info


def write_pagefind_page(site: Path, copied_from_search_site: bool) -> None:
    """The Pagefind page: the site's home page with PAGEFIND_SCRIPT (and without MkDocs' search
    script, if the site was built with the `search` plugin)."""
    home = (site / "index.html").read_text(encoding="utf-8")
    page, n = re.subn(r'\s*<script src="search/main\.js"></script>', "", home)
    if copied_from_search_site and n != 1:
        die("could not find MkDocs' search/main.js script tag in the built home page")
    page = page.replace("</body>", PAGEFIND_SCRIPT + "</body>", 1)
    (site / PAGEFIND_PAGE).write_text(page, encoding="utf-8")


def git_state() -> dict:
    """The commit measured and any uncommitted changes to the plugin or runtime (read-only git)."""
    def git(*args: str) -> str:
        proc = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
        return proc.stdout.strip() if proc.returncode == 0 else ""
    changed = [line[3:] for line in git("--no-optional-locks", "status", "--porcelain").splitlines()
               if line[3:].startswith(("mkdocs_graphsearch/", "js/src/"))]
    return {"commit": git("rev-parse", "--short", "HEAD"), "uncommitted_runtime_changes": changed}


def pagefind_executable() -> str:
    try:
        from pagefind_bin import get_executable
    except ImportError:
        die("Pagefind is missing: install it into this venv first with `pip install pagefind_bin` "
            "(PyPI package pagefind_bin ships the pagefind binary)")
    try:
        return str(get_executable())
    except FileNotFoundError as error:
        die(f"pagefind_bin is installed but has no binary for this platform: {error}")
    raise AssertionError


# ------------------------------------------------------------------------------- server


class _Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real hosts do (no compression: sizes below say both)
    # TCP_NODELAY, as real hosts set it (nginx's tcp_nodelay): without it a kept-alive connection's
    # response body waits for the client's delayed ACK of its headers (Nagle's algorithm), a delay
    # charged to every file fetched after the page loaded and to none that came with it.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class Server:
    def __init__(self, root: Path) -> None:
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.server.server_port}/"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


# ------------------------------------------------------------------------------- bytes


class Sizes:
    """Sizes of served files, raw and gzip -9 (what a host that compresses would send)."""

    def __init__(self, www: Path, base: str) -> None:
        self.www = www
        self.base = base
        self.cache: dict[str, tuple[int, int]] = {}

    def of(self, url: str) -> tuple[int, int]:
        path = urlsplit(url).path
        if path not in self.cache:
            file = self.www / path.lstrip("/")
            if file.is_dir():
                file = file / "index.html"
            data = file.read_bytes() if file.is_file() else b""
            self.cache[path] = (len(data), min(len(data), len(gzip.compress(data, 9, mtime=0))) if data else 0)
        return self.cache[path]


def record_requests(page) -> list:
    finished: list = []
    page.on("requestfinished", lambda request: finished.append(request))
    return finished


#: per site, its versioned and content-hashed paths -> stable names (assets/graphsearch/<hash>/ui.js ->
#: assets/graphsearch/ui.js, search/keyword.<crc32>.json -> search/keyword.json), so every run and
#: build reports the same paths; and the runtime's versioned folder
LOGICAL: dict[str, dict[str, str]] = {}
RUNTIME_DIR: dict[str, str] = {}
#: The runtime's modules one by one (Bench.bundle_cpu), in our site under this folder.
BENCH_MODULES = "graphsearch-bench-modules"


def learn_names(site: str, site_dir: Path) -> None:
    """Fill LOGICAL and RUNTIME_DIR for one of our built sites."""
    names = LOGICAL.setdefault(site, {})
    for part, path in bundle_parts(site_dir / "search").items():  # stored (CRC-32) name -> logical name
        names[f"search/{path.name}"] = f"search/{part}"
    for ui in site_dir.glob("assets/graphsearch/*/ui/ui.js"):
        runtime = ui.parent.parent
        RUNTIME_DIR[site] = f"{runtime.relative_to(site_dir).as_posix()}/"
        for file in runtime.rglob("*"):
            if file.is_file():
                path = file.relative_to(runtime).as_posix()
                names[f"{RUNTIME_DIR[site]}{path}"] = f"assets/graphsearch/{path}"


def fetched(requests: list, engine: str, site: str, base: str, sizes: Sizes, time_origin: float) -> list[dict]:
    """Every finished request: site-relative path, counted (search) or not, sizes, start/end ms after navigation."""
    out = []
    prefix = f"{base}{site}/"
    for request in requests:
        url = request.url
        if not url.startswith(prefix):
            continue
        rel = urlsplit(url[len(prefix):]).path
        rel = LOGICAL.get(site, {}).get(rel, rel)
        timing = request.timing
        start = timing["startTime"] - time_origin
        end = start + timing["responseEnd"] if timing["responseEnd"] >= 0 else None
        raw, gz = sizes.of(url)
        out.append({"path": rel, "search": rel.startswith(SEARCH_PREFIXES[engine]), "raw": raw, "gzip": gz,
                    "start_ms": round(start, 1), "end_ms": None if end is None else round(end, 1)})
    return out


def totals(files: list[dict], before: float | None = None) -> dict:
    chosen = [f for f in files if f["search"] and (before is None or (f["end_ms"] is not None and f["end_ms"] <= before))]
    return {"requests": len(chosen), "raw": sum(f["raw"] for f in chosen), "gzip": sum(f["gzip"] for f in chosen),
            "files": sorted({f["path"] for f in chosen})}


# ------------------------------------------------------------------------------- runs


WATCH = {
    "ours": [["first", "dialog.gs-dialog .gs-option"], ["snippet", "dialog.gs-dialog .gs-snippet"],
             ["complete", 'dialog.gs-dialog .gs-box[data-gs-complete="true"]'], ["ui", "dialog.gs-dialog"],
             # the first answer that ran in hybrid mode (ui/box.js data-gs-mode), with an option shown
             ["hybrid", 'dialog.gs-dialog .gs-box[data-gs-mode="hybrid"] .gs-option']],
    "mkdocs": [["first", "#mkdocs-search-results article"]],
    "pagefind": [],
}


class Bench:
    def __init__(self, browser, server: Server, sizes: Sizes) -> None:
        self.browser = browser
        self.base = server.base
        self.sizes = sizes

    def page(self, engine: str, query: str | None = None):
        context = self.browser.new_context(viewport={"width": 1200, "height": 800})
        page = context.new_page()
        setup = f"window.__benchWatch = {json.dumps(WATCH[engine])};\n"
        if query is not None:
            setup += f"window.__benchQuery = {json.dumps(query)};\n"
        page.add_init_script(setup + INSTRUMENT)
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        return context, page

    def url(self, engine: str, query: str | None = None) -> str:
        url = f"{self.base}pagefind/{PAGEFIND_PAGE}" if engine == "pagefind" else f"{self.base}{engine}/"
        return url + (f"?q={quote(query)}" if query else "")

    # --- cold: one fresh context, one query

    def cold(self, engine: str, query: str) -> dict:
        context, page = self.page(engine, query if engine == "ours" else None)
        requests = record_requests(page)
        try:
            if engine == "ours":
                page.goto(self.url("ours"), wait_until="commit")  # the query goes in at DOMContentLoaded
                page.evaluate("t => __bench.waitMark('first', t)", TIMEOUT_MS)
                page.evaluate("t => __bench.waitMark('complete', t)", TIMEOUT_MS)
                marks = page.evaluate("__bench.marks")
                result = {"first": marks.get("first"), "start": marks.get("worker"), "marks": marks,
                          "hybrid": marks.get("hybrid"),  # None: no hybrid answer (no vectors)
                          "results": page.locator("dialog.gs-dialog .gs-group").count()}
            elif engine == "mkdocs":
                page.goto(self.url("mkdocs", query), wait_until="commit")  # the theme opens its modal for ?q=
                page.evaluate("t => __bench.waitMark('first', t)", TIMEOUT_MS)
                marks = page.evaluate("__bench.marks")
                result = {"first": marks.get("first"), "start": marks.get("worker"), "marks": marks,
                          "results": page.locator("#mkdocs-search-results article").count()}
            else:
                page.goto(self.url("pagefind", query), wait_until="commit")
                page.wait_for_function("window.__pf && window.__pf.done === true", timeout=TIMEOUT_MS)
                pf = page.evaluate("({t0: __pf.t0, tImport: __pf.tImport, tInit: __pf.tInit, tSearch: __pf.tSearch,"
                                   " tData: __pf.tData, count: __pf.count})")
                marks = page.evaluate("__bench.marks") | pf
                result = {"first": pf["tData"], "start": pf["t0"], "marks": marks, "results": pf["count"]}
            page.wait_for_timeout(200)  # let late requests finish (they are counted only if before the result)
            time_origin = page.evaluate("performance.timeOrigin")
            files = fetched(requests, engine, engine, self.base, self.sizes, time_origin)
            result["files"] = files
            result["before_first"] = totals(files, result["first"]) if result["first"] is not None else None
            if result.get("hybrid") is not None:
                result["before_hybrid"] = totals(files, result["hybrid"])
            if result["marks"].get("complete") is not None:  # ours: every snippet in
                result["before_complete"] = totals(files, result["marks"]["complete"])
            needed = [f for f in files if not f["path"].startswith(LATER_PARTS[engine])]
            result["needed_first"] = totals(needed, result["first"]) if result["first"] is not None else None
            result["errors"] = page.errors
            return result
        finally:
            context.close()

    # --- a question typed key by key: every request and byte until its final answer

    def typed(self, engine: str, question: str, delay_ms: int = TYPED_KEY_MS) -> dict:
        """Ours: `/` on a fresh page, the question typed at `delay_ms` a key, until its complete
        (hybrid) answer; requests from `/` on. Pagefind: its page loaded (import and init), then
        `debouncedSearch` of every prefix at the same pace (what its UI does: 300 ms) and data()
        of the last one's first 5 results; every pagefind/ request from the page's start."""
        context, page = self.page(engine)
        requests = record_requests(page)
        try:
            if engine == "ours":
                page.goto(self.url("ours"), wait_until="load")
                page.wait_for_selector("dialog.gs-dialog", state="attached")
                start = page.evaluate("performance.now()")
                page.keyboard.press("/")
                page.keyboard.type(question, delay=delay_ms)
                page.evaluate("t => __bench.waitMark('complete', t)", TIMEOUT_MS)
                mode = page.locator("dialog.gs-dialog .gs-box").get_attribute("data-gs-mode")
            else:
                page.goto(self.url("pagefind"), wait_until="load")
                page.wait_for_function("window.__pf && window.__pf.done === true", timeout=TIMEOUT_MS)
                start, mode = 0.0, "pagefind"
                page.evaluate(PAGEFIND_TYPED, [question, delay_ms])
            page.wait_for_timeout(300)
            time_origin = page.evaluate("performance.timeOrigin")
            files = [f for f in fetched(requests, engine, engine, self.base, self.sizes, time_origin)
                     if f["start_ms"] >= start]
            return {"question": question, "delay_ms": delay_ms, "mode": mode, "total": totals(files),
                    "errors": page.errors}
        finally:
            context.close()

    # --- ours: CPU cost of each loading step, in a fresh page (cold JIT), from bytes in memory

    def bundle_cpu(self, query: str) -> dict:
        # The site ships the worker as one file (site_output/js_bundle.py): the steps are timed on
        # the same modules, stripped as shipped, served beside the site under BENCH_MODULES.
        from mkdocs_graphsearch.site_output.assets import runtime_path, runtime_sources, shipped

        modules = self.sizes.www / "ours" / BENCH_MODULES
        if not modules.is_dir():
            for source in runtime_sources():
                (modules / runtime_path(source)).parent.mkdir(parents=True, exist_ok=True)
                (modules / runtime_path(source)).write_text(shipped(source), encoding="utf-8")
        context, page = self.page("ours")
        try:
            # A page of the same origin without ui.js (the server's 404 page), so no worker competes.
            page.goto(f"{self.base}ours/no-such-page-browser-bench")
            return page.evaluate(BUNDLE_CPU, [f"{self.base}ours/", query, f"{BENCH_MODULES}/"])
        finally:
            context.close()

    # --- 10 queries in one context: total bytes

    def session(self, engine: str, queries: list[str]) -> dict:
        context, page = self.page(engine)
        requests = record_requests(page)
        t0 = time.perf_counter()
        answered = []
        try:
            if engine == "ours":
                page.goto(self.url("ours"), wait_until="commit")
                page.wait_for_selector("dialog.gs-dialog", state="attached")
                page.keyboard.press("/")
                box = page.locator("dialog.gs-dialog .gs-input")
                for query in queries:
                    box.fill(query)
                    answered.append(page.evaluate("([q, t]) => __bench.waitAnswer(q, t)", [query, TIMEOUT_MS]) is not None)
                page.evaluate("t => __bench.waitMark('complete', t)", TIMEOUT_MS)
            elif engine == "mkdocs":
                page.goto(self.url("mkdocs", queries[0]), wait_until="commit")
                answered.append(page.evaluate("t => __bench.waitMark('first', t)", TIMEOUT_MS) is not None)
                page.evaluate("() => { __bench.resultSelector = '#mkdocs-search-results article';"
                              " __bench.watchResults('#mkdocs-search-results'); }")
                box = page.locator("#mkdocs-search-query")
                for query in queries[1:]:
                    box.fill(query)
                    box.press("End")  # its search runs on keyup
                    answered.append(page.evaluate("t => __bench.waitRender(t)", TIMEOUT_MS) is not None)
            else:
                page.goto(self.url("pagefind", queries[0]), wait_until="commit")
                page.wait_for_function("window.__pf && window.__pf.done === true", timeout=TIMEOUT_MS)
                answered.append(True)
                page.evaluate("qs => __pf.runs(qs, true)", queries[1:])
                answered.extend([True] * (len(queries) - 1))
            page.wait_for_timeout(300)
            time_origin = page.evaluate("performance.timeOrigin")
            files = fetched(requests, engine, engine, self.base, self.sizes, time_origin)
            return {"queries": queries, "answered": answered, "total": totals(files), "files": files,
                    "wall_s": round(time.perf_counter() - t0, 2), "errors": page.errors}
        finally:
            context.close()

    # --- warm: typing the judged queries character by character

    def open_ours_loaded(self, page) -> None:
        """Open our search on a fresh page and wait until every part of the bundle is in."""
        page.goto(self.url("ours"), wait_until="commit")
        page.wait_for_selector("dialog.gs-dialog", state="attached")
        page.keyboard.press("/")
        page.keyboard.insert_text("theme")
        page.evaluate("t => __bench.waitMark('complete', t)", TIMEOUT_MS)

    def warm_typing(self, engine: str, warmup: list[str], queries: list[str]) -> dict:
        """Ours and MkDocs: keystroke -> results for that text in the DOM (and after the next paint)."""
        context, page = self.page(engine)
        t0 = time.perf_counter()
        try:
            if engine == "ours":
                self.open_ours_loaded(page)
                wait = "([q, t]) => __bench.waitAnswer(q, t)"
                box = page.locator("dialog.gs-dialog .gs-input")
            else:
                page.goto(self.url("mkdocs", "theme"), wait_until="commit")
                page.evaluate("t => __bench.waitMark('first', t)", TIMEOUT_MS)
                page.evaluate("() => { __bench.resultSelector = '#mkdocs-search-results article';"
                              " __bench.watchResults('#mkdocs-search-results'); }")
                box = page.locator("#mkdocs-search-query")
                box.focus()
                wait = "([q, t]) => __bench.waitRender(t)"
            samples = {"warmup": [], "timed": []}
            for phase, batch in (("warmup", warmup), ("timed", queries)):
                for query in batch:
                    box.fill("")  # ours: an input event, the box clears in the page
                    if engine == "mkdocs":
                        box.press("End")  # its keyup handler clears the results at once
                        page.evaluate("t => __bench.waitRender(t)", KEY_TIMEOUT_MS)
                    for i, ch in enumerate(query):
                        page.keyboard.type(ch)
                        r = page.evaluate(wait, [query[: i + 1], KEY_TIMEOUT_MS])
                        samples[phase].append({"query": query, "text": query[: i + 1], **(r or {"timeout": True})})
            return {"samples": samples, "compact": compact_samples(samples), "wall_s": round(time.perf_counter() - t0, 2), "errors": page.errors}
        finally:
            context.close()

    def warm_api(self, engine: str, queries: list[str]) -> dict:
        """Ours: worker round trips on a channel of our own (no DOM); Pagefind: search() + data(5).
        Every prefix of every query, in typing order; a first pass then a timed pass."""
        prefixes = [q[: i + 1] for q in queries for i in range(len(q))]
        context, page = self.page(engine)
        try:
            if engine == "ours":
                self.open_ours_loaded(page)
                first = page.evaluate("qs => __bench.workerRoundTrips(qs)", prefixes)
                timed = page.evaluate("qs => __bench.workerRoundTrips(qs)", prefixes)
                return {"first_pass": first, "timed": timed, "prefixes": len(prefixes)}
            page.goto(self.url("pagefind"), wait_until="commit")
            page.wait_for_function("window.__pf && window.__pf.done === true", timeout=TIMEOUT_MS)
            first = page.evaluate("qs => __pf.runs(qs, true)", prefixes)  # fetches index chunks and fragments
            timed = page.evaluate("qs => __pf.runs(qs, true)", prefixes)
            search_only = page.evaluate("qs => __pf.runs(qs, false)", prefixes)
            full_search = page.evaluate("qs => __pf.runs(qs, false)", queries * 3)  # search() alone, warm
            full_data = page.evaluate("qs => __pf.runs(qs, true)", queries * 3)
            return {"first_pass": first, "timed": timed, "prefixes": len(prefixes), "search_only": search_only,
                    "full_query_search_only": full_search, "full_query_with_data": full_data}
        finally:
            context.close()


# ------------------------------------------------------------------------------- summary


def file_kind(path: str) -> str:
    """A fetched file's kind: common.part_kind of its name (`display.3.ab12cd34.json` -> display,
    `assets/graphsearch/HASH/engine/worker.js` -> worker)."""
    return part_kind(path.rsplit("/", 1)[-1])


def hybrid_breakdown(runs: list[dict]) -> dict:
    """Medians over the runs of what came in before the first hybrid result: gzip bytes per file
    kind, and requests and gzip bytes without the snippet texts (`text.*`). Under load some text
    fragments end before the hybrid mark and some do not, which moves the totals by tens of KiB;
    without them two runs of the same code compare (issue 23)."""
    kinds: dict[str, list[int]] = {}
    plain: list[dict] = []
    for r in runs:
        before = set(r["before_hybrid"]["files"])
        chosen = [f for f in r["files"] if f["path"] in before]
        for kind in {file_kind(f["path"]) for f in chosen} | set(kinds):
            kinds.setdefault(kind, [0] * len(plain)).append(sum(f["gzip"] for f in chosen if file_kind(f["path"]) == kind))
        rest = [f for f in chosen if file_kind(f["path"]) != "text"]
        plain.append({"requests": len(rest), "gzip": sum(f["gzip"] for f in rest)})
    return {
        "before_hybrid_without_text": {k: med([p[k] for p in plain]) for k in ("requests", "gzip")},
        "before_hybrid_gzip_by_kind": {kind: med(sizes) for kind, sizes in sorted(kinds.items())},
        "before_hybrid_requests_by_run": [r["before_hybrid"]["requests"] for r in runs],
    }


def summarize_cold(runs: list[dict], engine: str) -> dict:
    ok = [r for r in runs if r.get("first") is not None]
    out = {
        "runs": len(runs), "answered": len(ok),
        "nav_to_first_ms": {"p50": med([r["first"] for r in ok]), "min": min((r["first"] for r in ok), default=None),
                            "max": max((r["first"] for r in ok), default=None)},
        "start_to_first_ms": {"p50": med([r["first"] - r["start"] for r in ok if r["start"] is not None])},
        "before_first": {k: med([r["before_first"][k] for r in ok]) for k in ("requests", "raw", "gzip")},
        "needed_first": {k: med([r["needed_first"][k] for r in ok]) for k in ("requests", "raw", "gzip")},
        "zero_result_runs": sum(1 for r in ok if not r["results"]),
    }
    out["nav_to_first_ms"]["p95"] = pct([r["first"] for r in ok], 95)
    hybrid = [r for r in ok if r.get("hybrid") is not None]
    if hybrid:
        out["hybrid_runs"] = len(hybrid)
        out["nav_to_hybrid_ms"] = {"p50": med([r["hybrid"] for r in hybrid]), "p95": pct([r["hybrid"] for r in hybrid], 95)}
        out["before_hybrid"] = {k: med([r["before_hybrid"][k] for r in hybrid]) for k in ("requests", "raw", "gzip")}
        out.update(hybrid_breakdown(hybrid))
    complete = [r for r in ok if r.get("before_complete") is not None]
    if complete:
        out["before_complete"] = {k: med([r["before_complete"][k] for r in complete]) for k in ("requests", "raw", "gzip")}
    m = lambda key: med([r["marks"].get(key) for r in ok])  # noqa: E731
    if engine == "ours":
        phases = []
        for r in ok:
            files = r["files"]
            # The worker's modules (not the page's UI modules, ui*.js, in by page load).
            modules = [f for f in files if f["path"].startswith("assets/graphsearch/") and f["path"].endswith(".js")
                       and not f["path"].startswith("assets/graphsearch/ui") and f["end_ms"] is not None
                       and f["start_ms"] < (r["first"] or 0)]
            kw = [f for f in files if f["path"].startswith(KEYWORD_FILES)]
            manifest = next((f for f in files if f["path"] == "search/manifest.json"), None)
            if not (modules and kw and manifest):
                continue
            phases.append({
                "domcontentloaded": r["marks"].get("domcontentloaded"), "ui_ready": r["marks"].get("ui"),
                "query": r["marks"].get("query"), "worker": r["marks"].get("worker"),
                "modules_loaded": max(f["end_ms"] for f in modules),
                "manifest_requested": manifest["start_ms"],
                "keyword_received": max(f["end_ms"] for f in kw if f["end_ms"] is not None),
                "first": r["first"], "snippet": r["marks"].get("snippet"), "complete": r["marks"].get("complete"),
            })
        out["phases_ms"] = {k: med([p[k] for p in phases]) for k in (phases[0] if phases else {})}
        out["module_requests_before_first"] = med([sum(1 for f in r["files"] if f["path"].endswith(".js")
                                                       and f["search"] and f["end_ms"] is not None
                                                       and f["end_ms"] <= r["first"]) for r in ok])
        out["nav_to_snippet_ms"] = m("snippet")
        out["first_answer_had_snippets_runs"] = sum(1 for r in ok if r["marks"].get("snippet") is not None
                                                    and r["marks"]["snippet"] - r["first"] < 1)
        out["nav_to_complete_ms"] = m("complete")
        per_file: dict[str, list] = {}
        for r in ok:
            for f in r["files"]:
                if f["search"]:
                    per_file.setdefault(f["path"], []).append(f)
        out["files"] = {path: {"raw": fs[0]["raw"], "gzip": fs[0]["gzip"], "start_ms": med([f["start_ms"] for f in fs]),
                               "end_ms": med([f["end_ms"] for f in fs]),
                               "before_first_runs": sum(1 for r in ok for f in r["files"]
                                                        if f["path"] == path and f["end_ms"] is not None
                                                        and f["end_ms"] <= r["first"])}
                        for path, fs in sorted(per_file.items(), key=lambda kv: med([f["start_ms"] for f in kv[1]]))}
    elif engine == "mkdocs":
        idx = [next((f for f in r["files"] if f["path"] == "search/search_index.json"), None) for r in ok]
        out["phases_ms"] = {"domcontentloaded": m("domcontentloaded"), "worker": m("worker"),
                            "index_received": med([f["end_ms"] for f in idx if f]), "first": m("first")}
    else:
        out["phases_ms"] = {"module_start": m("t0"), "import": med([r["marks"]["tImport"] - r["marks"]["t0"] for r in ok]),
                            "init": med([r["marks"]["tInit"] - r["marks"]["tImport"] for r in ok]),
                            "search": med([r["marks"]["tSearch"] - r["marks"]["tInit"] for r in ok]),
                            "data5": med([r["marks"]["tData"] - r["marks"]["tSearch"] for r in ok])}
        out["import_init_first_query_ms"] = out["start_to_first_ms"]["p50"]
    return out


KEY_FIELDS = ("keydown", "input", "inputRun", "keyup", "keyupRun", "post", "message", "dom", "painted", "n", "error")


def compact_samples(samples: dict) -> dict:
    """For the JSON: per query, one row per keystroke (text = the query's first i+1 characters),
    the fields of KEY_FIELDS (ms after navigation start; null where not measured); null row = timeout."""
    out = {}
    for phase, rows in samples.items():
        by_query: list[dict] = []
        for row in rows:
            if not by_query or by_query[-1]["query"] != row["query"] or len(row["text"]) == 1:
                by_query.append({"query": row["query"], "keys": []})
            by_query[-1]["keys"].append(None if row.get("timeout") else
                                        [None if row.get(f) is None else round(row[f], 1) for f in KEY_FIELDS])
        out[phase] = by_query
    return out


def rounded(value):
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def to_json(value, indent: str = "") -> str:
    """Indented JSON whose lists of numbers (or of short lists) stay on one line: the raw samples."""
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(str(k))}: {to_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
        return "[\n" + ",\n".join(inner + to_json(v, inner) for v in value) + f"\n{indent}]"
    return json.dumps(value, separators=(",", ":")) if isinstance(value, list) else json.dumps(value)


def summarize_typing(result: dict, engine: str) -> dict:
    timed = result["samples"]["timed"]
    start = "input" if engine == "ours" else "keyup"
    dom = [s["dom"] - s[start] for s in timed if "dom" in s]
    painted = [s["painted"] - s[start] for s in timed if "dom" in s]
    from_keydown = [s["dom"] - s["keydown"] for s in timed if "dom" in s]
    out = {"keystrokes": len(timed), "from": start,
           "dom_ms": {"p50": pct(dom, 50), "p95": pct(dom, 95), "max": max(dom, default=None)},
           "painted_ms": {"p50": pct(painted, 50), "p95": pct(painted, 95)},
           "dom_from_keydown_ms": {"p50": pct(from_keydown, 50), "p95": pct(from_keydown, 95)},
           # of the keystrokes answered by the worker: to the answer's arrival, and the page's handling
           "to_message_ms": {"p50": pct([s["message"] - s[start] for s in timed if s.get("message") is not None], 50)},
           "render_ms": {"p50": pct([s["dom"] - s["message"] for s in timed if s.get("message") is not None], 50),
                         "p95": pct([s["dom"] - s["message"] for s in timed if s.get("message") is not None], 95)},
           "timeouts": sum(1 for s in timed if s.get("timeout")),
           "worker_errors": sum(1 for s in timed if "error" in s),
           "wall_s": result["wall_s"]}
    if engine == "mkdocs":
        searched = [s["dom"] - s["keyup"] for s in timed if "dom" in s and len(s["text"]) >= 3]
        out["searched_only_dom_ms"] = {"p50": pct(searched, 50), "p95": pct(searched, 95), "keystrokes": len(searched)}
        out["error_queries"] = sorted({s["query"] for s in timed if "error" in s})
    return out


def summarize_api(result: dict) -> dict:
    def stats(rows):
        t = [r[0] for r in rows]
        return {"p50": pct(t, 50), "p95": pct(t, 95), "max": max(t, default=None), "n": len(t)}

    out = {"timed": stats(result["timed"]), "first_pass": stats(result["first_pass"]), "prefixes": result["prefixes"]}
    for key in ("search_only", "full_query_search_only", "full_query_with_data"):
        if key in result:
            out[key] = stats(result[key])
    return out


def ratio(a, b) -> str:
    return f"{a / b:.2f}" if a is not None and b else "-"


def fmt(v, unit: str = "") -> str:
    if v is None:
        return "-"
    if unit == "KiB":
        return f"{v / 1024:.1f}"
    if isinstance(v, float):
        return f"{v:.1f}" if v < 100 else f"{v:.0f}"
    return str(v)


def table(head: tuple, body: list[tuple]) -> str:
    widths = [max(len(str(row[i])) for row in [head, *body]) for i in range(len(head))]
    lines = []
    for n, row in enumerate([head, *body]):
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def report(res: dict) -> str:
    cold, sess, typing, api = res["cold"], res["session"], res["typing"], res["api"]
    o, mk, pf = (cold[e]["summary"] for e in ENGINES)
    rows = []

    def row(label, a, b, c, unit="", ours_vs_pf=None):
        rows.append((label, fmt(a, unit), fmt(b, unit), fmt(c, unit), ratio(a, b), ratio(ours_vs_pf if ours_vs_pf is not None else a, c)))

    row("cold: navigation -> first result, p50 ms", o["nav_to_first_ms"]["p50"], mk["nav_to_first_ms"]["p50"],
        pf["nav_to_first_ms"]["p50"])
    row("cold: search start -> first result, p50 ms (1)", o["start_to_first_ms"]["p50"], mk["start_to_first_ms"]["p50"],
        pf["start_to_first_ms"]["p50"])
    row("cold: search KiB received before first result, raw", o["before_first"]["raw"], mk["before_first"]["raw"],
        pf["before_first"]["raw"], "KiB")
    row("cold: search KiB received before first result, gzip (2)", o["before_first"]["gzip"], mk["before_first"]["gzip"],
        pf["before_first"]["gzip"], "KiB")
    row("cold: search KiB the first result waits for, gzip (2)", o["needed_first"]["gzip"], mk["needed_first"]["gzip"],
        pf["needed_first"]["gzip"], "KiB")
    row("cold: search requests before first result", o["before_first"]["requests"], mk["before_first"]["requests"],
        pf["before_first"]["requests"])
    s = {e: sess[e]["total"] for e in ENGINES}
    row("search KiB after 10 queries, raw", s["ours"]["raw"], s["mkdocs"]["raw"], s["pagefind"]["raw"], "KiB")
    row("search KiB after 10 queries, gzip (2)", s["ours"]["gzip"], s["mkdocs"]["gzip"], s["pagefind"]["gzip"], "KiB")
    row("search requests after 10 queries", s["ours"]["requests"], s["mkdocs"]["requests"], s["pagefind"]["requests"])
    ot, mt = typing["ours"]["summary"], typing["mkdocs"]["summary"]
    oa, pa = api["ours"]["summary"], api["pagefind"]["summary"]
    rows.append(("warm keystroke -> results in DOM, p50 ms (3)", fmt(ot["dom_ms"]["p50"]), fmt(mt["dom_ms"]["p50"]),
                 "-", ratio(ot["dom_ms"]["p50"], mt["dom_ms"]["p50"]), "-"))
    rows.append(("warm keystroke -> results in DOM, p95 ms (3)", fmt(ot["dom_ms"]["p95"]), fmt(mt["dom_ms"]["p95"]),
                 "-", ratio(ot["dom_ms"]["p95"], mt["dom_ms"]["p95"]), "-"))
    rows.append(("warm keystroke -> next frame, p50 ms (3)", fmt(ot["painted_ms"]["p50"]), fmt(mt["painted_ms"]["p50"]),
                 "-", ratio(ot["painted_ms"]["p50"], mt["painted_ms"]["p50"]), "-"))
    rows.append(("warm per prefix, engine API, p50 ms (4)", fmt(oa["timed"]["p50"]), "-", fmt(pa["timed"]["p50"]),
                 "-", ratio(oa["timed"]["p50"], pa["timed"]["p50"])))
    rows.append(("warm per prefix, engine API, p95 ms (4)", fmt(oa["timed"]["p95"]), "-", fmt(pa["timed"]["p95"]),
                 "-", ratio(oa["timed"]["p95"], pa["timed"]["p95"])))
    out = [table(("figure", "ours", "MkDocs", "Pagefind", "ours/MkDocs", "ours/Pagefind"), rows)]
    out.append(
        "(1) ours: Worker created (ui.js, on opening search) -> first option; MkDocs: its Worker created -> first result;\n"
        "    Pagefind: import() -> init() -> search() -> data() of the first 5 (the issue's 'import+init+first query').\n"
        "(2) gzip -9 of each file: what a host that compresses would send (this server sends raw bytes).\n"
        "    Counted: ours search/ + assets/graphsearch/ (ui.js, ui.css, worker modules); MkDocs search/;\n"
        "    Pagefind pagefind/. Not counted: the HTML page and the theme's CSS/JS/fonts (same for all three).\n"
        f"(3) from the event the engine reacts to (ours: input; MkDocs: keyup), {ot['keystrokes']} keystrokes of the\n"
        f"    {res['n_queries']} judged queries typed one character at a time, each waited for; MkDocs skips texts\n"
        "    under 3 characters.\n"
        "(4) every prefix of the judged queries; ours: postMessage to the search worker -> its answer (no DOM);\n"
        "    Pagefind: search() + data() of the first 5, second pass (the first pass fetched the chunks).")
    # details
    ph = o.get("phases_ms", {})
    out.append("\nours, cold, medians (ms after navigation start): " + ", ".join(f"{k} {fmt(v)}" for k, v in ph.items()))
    out.append(f"  search modules fetched before the first result: {fmt(o.get('module_requests_before_first'))}")
    out.append("  search files (median start -> end ms after navigation; raw / gzip KiB; runs received before first result):")
    for path, f in o.get("files", {}).items():
        out.append(f"    {path:<34} {fmt(f['start_ms']):>6} -> {fmt(f['end_ms']):>6}  {f['raw'] / 1024:7.1f} / "
                   f"{f['gzip'] / 1024:6.1f}  {f['before_first_runs']}/{o['answered']}")
    out.append(f"  first answer already had snippets (waited for its text fragments) in {o.get('first_answer_had_snippets_runs')}"
               f"/{o['answered']} runs")
    out.append("  CPU per loading step, fresh page, main thread, bytes in memory (median of 3, ms): "
               + ", ".join(f"{k} {fmt(v)}" for k, v in res["bundle_cpu"]["median_ms"].items()))
    out.append("MkDocs, cold, medians (ms after navigation start): "
               + ", ".join(f"{k} {fmt(v)}" for k, v in mk["phases_ms"].items()))
    out.append("Pagefind, cold, medians (ms): " + ", ".join(f"{k} {fmt(v)}" for k, v in pf["phases_ms"].items()))
    out.append(f"Pagefind warm, full query: search() alone p50 {fmt(pa['full_query_search_only']['p50'])} ms, "
               f"search() + data(5) p50 {fmt(pa['full_query_with_data']['p50'])} ms; per prefix first pass "
               f"(fetching chunks) p50 {fmt(pa['first_pass']['p50'])} / p95 {fmt(pa['first_pass']['p95'])} ms")
    out.append(f"Pagefind warm per prefix, search() alone: p50 {fmt(pa['search_only']['p50'])} / p95 "
               f"{fmt(pa['search_only']['p95'])} ms")
    out.append(f"warm keystroke split (p50 ms; keystrokes the worker answered): to the answer's arrival in the page: ours "
               f"{fmt(ot['to_message_ms']['p50'])}, MkDocs {fmt(mt['to_message_ms']['p50'])}; page handling to DOM "
               f"(render): ours {fmt(ot['render_ms']['p50'])} / p95 {fmt(ot['render_ms']['p95'])}, MkDocs "
               f"{fmt(mt['render_ms']['p50'])} / p95 {fmt(mt['render_ms']['p95'])}")
    out.append(f"ours warm per prefix, worker round trip, first pass p50 {fmt(oa['first_pass']['p50'])} / p95 "
               f"{fmt(oa['first_pass']['p95'])} ms")
    out.append(f"MkDocs warm, keystrokes that searched (>= 3 characters): p50 {fmt(mt['searched_only_dom_ms']['p50'])} / "
               f"p95 {fmt(mt['searched_only_dom_ms']['p95'])} ms over {mt['searched_only_dom_ms']['keystrokes']}; "
               f"worker errors (lunr threw) {mt['worker_errors']}, timeouts {mt['timeouts']}; ours timeouts {ot['timeouts']}")
    out.append(f"from keydown instead: ours p50 {fmt(ot['dom_from_keydown_ms']['p50'])} ms, MkDocs p50 "
               f"{fmt(mt['dom_from_keydown_ms']['p50'])} ms (playwright sends keyup right after keydown)")
    zero = {e: cold[e]["summary"]["zero_result_runs"] for e in ENGINES}
    if any(zero.values()):
        out.append(f"cold runs whose first answer had no results: {zero}")
    return "\n".join(out)


# ------------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--contexts", type=int, default=10, help="fresh browser contexts per engine for cold figures")
    parser.add_argument("--warmup-queries", type=int, default=10,
                        help="judged queries typed untimed before the timed pass (ours, MkDocs)")
    parser.add_argument("--queries", type=int, default=0, help="type only the first N judged queries (default: all 40)")
    parser.add_argument("--cache-dir", type=Path, default=HERE / ".cache" / "browser-bench" / "graphsearch",
                        help="our embedding cache (persistent: a rerun embeds nothing)")
    parser.add_argument("--keep", type=Path, help="build the sites here and keep them (default: a temporary folder)")
    parser.add_argument("--out", type=Path, help="JSON output (default benchmarks/results/browser-DATE.json)")
    args = parser.parse_args()

    for path in (CORPUS, QUERIES):
        if not path.exists():
            die(f"{path} is missing (the shared corpora and judged queries go in ../shared)")
    if not CHROMIUM.exists():
        die(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        die("playwright is missing: pip install playwright (the browser is Debian's chromium)")
    pagefind_executable()
    queries = [json.loads(line)["query"] for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.queries:
        queries = queries[: args.queries]

    load_start = os.getloadavg()
    t_start = time.perf_counter()
    tmp = None
    if args.keep:
        if args.keep.exists():
            shutil.rmtree(args.keep)
        root = args.keep
    else:
        tmp = tempfile.TemporaryDirectory(prefix="browser-bench-")
        root = Path(tmp.name)
    www = root / "www"
    www.mkdir(parents=True)
    builds = build_sites(www, root / "configs", args.cache_dir.resolve())
    server = Server(www)
    sizes = Sizes(www, server.base)
    res: dict = {"n_queries": len(queries), "cold": {e: {"runs": []} for e in ENGINES}}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            bench = Bench(browser, server, sizes)
            for i in range(args.contexts):
                query = COLD_QUERIES[i % len(COLD_QUERIES)]
                note(f"cold {i + 1}/{args.contexts}: {query!r}")
                for engine in (ENGINES if i % 2 == 0 else ENGINES[::-1]):  # alternate the order
                    try:
                        run = bench.cold(engine, query)
                    except Exception as error:  # noqa: BLE001 - a failed run is reported, not fatal
                        note(f"  {engine}: failed: {error}")
                        run = {"query": query, "first": None, "error": str(error)}
                    run["query"] = query
                    res["cold"][engine]["runs"].append(run)
            for engine in ENGINES:
                res["cold"][engine]["summary"] = summarize_cold(res["cold"][engine]["runs"], engine)
            note("ours: CPU cost of each loading step (3 fresh pages)")
            cpu = [bench.bundle_cpu(COLD_QUERIES[1]) for _ in range(3)]
            res["bundle_cpu"] = {"runs": cpu, "median_ms": {k: med([c[k] for c in cpu]) for k in cpu[0]}}
            res["session"] = {}
            for engine in ENGINES:
                note(f"10-query session: {engine}")
                res["session"][engine] = bench.session(engine, COLD_QUERIES)
            res["api"] = {}
            for engine in ("ours", "pagefind"):
                note(f"warm, engine API per prefix: {engine}")
                raw = bench.warm_api(engine, queries)
                res["api"][engine] = {"summary": summarize_api(raw), "raw": raw}
            res["typing"] = {}
            for engine in ("ours", "mkdocs"):
                note(f"warm, typing {len(queries)} queries: {engine}")
                raw = bench.warm_typing(engine, queries[: args.warmup_queries], queries)
                summary = summarize_typing(raw, engine)
                raw["samples"] = {"fields": KEY_FIELDS, **raw.pop("compact")}
                res["typing"][engine] = {"summary": summary, "raw": raw}
            chromium_version = browser.version
            browser.close()
    finally:
        server.stop()
    load_end = os.getloadavg()

    text = report(res)
    header = (f"browser_bench: {CORPUS.name} ({builds['ours'].get('counts', {}).get('pages', '?')} pages), "
              f"Chromium {chromium_version}, {args.contexts} fresh contexts per engine, Pagefind "
              f"{builds['pagefind']['version']}; load average {load_start[0]:.1f} -> {load_end[0]:.1f} "
              f"on {os.cpu_count()} CPUs; {time.perf_counter() - t_start:.0f} s")
    state = git_state()
    header += f"\ncommit {state['commit']}" + (f" + uncommitted changes in {', '.join(state['uncommitted_runtime_changes'])}"
                                              if state["uncommitted_runtime_changes"] else "")
    print(header)
    print(text)
    meta = {"date": dt.datetime.now().isoformat(timespec="seconds"), "python": platform.python_version(),
            "platform": platform.platform(), "cpus": os.cpu_count(), "chromium": chromium_version,
            "chromium_args": CHROMIUM_ARGS, "loadavg_start": load_start, "loadavg_end": load_end,
            "corpus": repo_path(CORPUS), "queries_file": repo_path(QUERIES), "cold_queries": COLD_QUERIES,
            "git": git_state(), "contexts": args.contexts, "warmup_queries": args.warmup_queries, "builds": builds,
            "wall_s": round(time.perf_counter() - t_start, 1)}
    print()
    save_report("browser", to_json(rounded({"meta": meta, "table": header + "\n" + text, **res})), args.out, dt.datetime.now())
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
