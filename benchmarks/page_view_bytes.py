"""What one page view costs a reader who never searches, and what the first search adds, in Chromium.

    .venv/bin/python benchmarks/page_view_bytes.py                       # builds example-site and mkdocs-docs
    .venv/bin/python benchmarks/page_view_bytes.py --site NAME=SITE_DIR ...  # sites built already

Issue 8, "Bytes". For each site: a fresh browser context opens the home page, waits for `load`
and then --wait-ms more (the runtime once prefetched the whole bundle when the page was idle),
and counts every file received from the site's search folders (`search/`: the bundle;
`assets/graphsearch/`: the runtime), raw and gzip -9 (what a host that compresses would send;
the local server sends raw bytes), and whether a worker started. Then it presses `/`, types a
query and waits until every part of the bundle is in: the bytes the first search costs.
Sizes and the server come from browser_bench.py. Builds use the plugin's defaults (embeddings
on; embedding cache in benchmarks/.cache/page-view-bytes).
"""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
import tempfile
from pathlib import Path

from browser_bench import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CORPUS,
    THEME,
    Server,
    Sizes,
    fetched,
    learn_names,
    record_requests,
    rounded,
    to_json,
)
from common import HERE, REPO, die, repo_path, save_report

EXAMPLE = REPO / "example-site"
QUERY = "theme"


def build(name: str, config_text: str, out: Path, configs: Path) -> Path:
    configs.mkdir(parents=True, exist_ok=True)
    config = configs / f"{name}.yml"
    config.write_text(config_text, encoding="utf-8")
    print(f"page_view_bytes: mkdocs build {name}", file=sys.stderr)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(out)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        die("page_view_bytes", f"mkdocs build ({name}) failed:\n{proc.stderr[-4000:]}")
    return out


def default_sites(root: Path, cache: Path) -> dict[str, Path]:
    plugin = "plugins:\n  - graphsearch:\n      cache_dir: {}\n"
    return {
        "example-site": build("example-site", f"INHERIT: {EXAMPLE / 'mkdocs.yml'}\ndocs_dir: {EXAMPLE / 'docs'}\n"
                              + plugin.format(cache / "example-site"), root / "example-site", root / "configs"),
        "mkdocs-docs": build("mkdocs-docs", f"site_name: MkDocs\ndocs_dir: {CORPUS}\n{THEME}"
                             + plugin.format(cache / "mkdocs-docs"), root / "mkdocs-docs", root / "configs"),
    }


def split(files: list[dict]) -> dict:
    out = {}
    for label, prefix in (("bundle", "search/"), ("runtime", "assets/graphsearch/")):
        chosen = [f for f in files if f["path"].startswith(prefix)]
        out[label] = {"requests": len(chosen), "raw": sum(f["raw"] for f in chosen),
                      "gzip": sum(f["gzip"] for f in chosen), "files": sorted(f["path"] for f in chosen)}
    return out


def measure(browser, server: Server, sizes: Sizes, site: str, wait_ms: int, latency_ms: int) -> dict:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    if latency_ms:  # Chromium's network emulation: every response this much later (round trip)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                       "downloadThroughput": -1, "uploadThroughput": -1})
    requests = record_requests(page)
    try:
        page.goto(f"{server.base}{site}/", wait_until="load")
        page.wait_for_timeout(wait_ms)
        origin = page.evaluate("performance.timeOrigin")
        view = split(fetched(requests, "ours", site, server.base, sizes, origin))
        view["workers"] = len(page.workers)
        # Intent -> first result on screen: `/` pressed (the first intent of a reader who never
        # pointed at a search box), the query typed at once; marked in the page.
        page.evaluate("""() => {
          window.__firstOption = null;
          new MutationObserver((_, observer) => {
            if (document.querySelector('dialog.gs-dialog .gs-option')) {
              window.__firstOption = performance.now();
              observer.disconnect();
            }
          }).observe(document.body, { childList: true, subtree: true });
          window.__intent = performance.now();
        }""")
        page.keyboard.press("/")
        page.keyboard.type(QUERY)
        page.wait_for_selector('dialog.gs-dialog .gs-box[data-gs-complete="true"]', timeout=60_000)
        first_ms = page.evaluate("window.__firstOption - window.__intent")
        page.wait_for_timeout(300)
        searched = split(fetched(requests, "ours", site, server.base, sizes, origin))
        searched["workers"] = len(page.workers)
        return {"page_view": view, "after_first_search": searched, "intent_to_first_result_ms": first_ms}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", action="append", default=[], metavar="NAME=SITE_DIR",
                        help="a site built already (repeat); default: build example-site and mkdocs-docs")
    parser.add_argument("--wait-ms", type=int, default=6000, help="idle time after `load` before counting")
    parser.add_argument("--runs", type=int, default=3, help="fresh contexts per site (figures must agree)")
    parser.add_argument("--latency-ms", type=int, default=0, help="emulated round-trip latency (Chromium, CDP)")
    parser.add_argument("--cache-dir", type=Path, default=HERE / ".cache" / "page-view-bytes")
    parser.add_argument("--out", type=Path, help="JSON output (default benchmarks/results/pageview-DATE.json)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        die("page_view_bytes", f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    started = dt.datetime.now()
    with tempfile.TemporaryDirectory(prefix="page-view-bytes-") as tmp:
        www = Path(tmp) / "www"
        www.mkdir()
        if args.site:
            sites = {name: Path(path).resolve() for name, path in (item.split("=", 1) for item in args.site)}
        else:
            sites = default_sites(Path(tmp) / "built", args.cache_dir.resolve())
        for name, path in sites.items():
            (www / name).symlink_to(path, target_is_directory=True)
            if list(path.glob("assets/graphsearch/*/ui/ui.js")):
                learn_names(name, path)  # versioned runtime and hashed parts -> stable names
        server = Server(www)
        sizes = Sizes(www, server.base)
        results: dict = {}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for name in sites:
                    runs = [measure(browser, server, sizes, name, args.wait_ms, args.latency_ms) for _ in range(args.runs)]
                    results[name] = {"site_dir": repo_path(sites[name]), "runs": runs}
                browser.close()
        finally:
            server.stop()
    lines = [f"page_view_bytes: home page, {args.wait_ms} ms after load, then `/` + {QUERY!r} until complete; "
             f"KiB gzip -9 (raw), median of {args.runs} fresh contexts; emulated latency {args.latency_ms} ms"]
    for name, result in results.items():
        for phase in ("page_view", "after_first_search"):
            row = sorted(result["runs"], key=lambda r: r[phase]["bundle"]["gzip"] + r[phase]["runtime"]["gzip"])
            mid = row[len(row) // 2][phase]
            lines.append(
                f"  {name:14} {phase:20} bundle {mid['bundle']['gzip'] / 1024:7.1f} ({mid['bundle']['raw'] / 1024:7.1f}) "
                f"in {mid['bundle']['requests']} requests | runtime {mid['runtime']['gzip'] / 1024:5.1f} "
                f"({mid['runtime']['raw'] / 1024:5.1f}) in {mid['runtime']['requests']} | workers {mid['workers']}"
            )
        times = sorted(r["intent_to_first_result_ms"] for r in result["runs"])
        lines.append(f"  {name:14} `/` -> first result on screen: median {times[len(times) // 2]:.0f} ms "
                     f"(runs: {', '.join(f'{t:.0f}' for t in times)})")
    print("\n".join(lines))
    save_report("pageview", to_json(rounded({"date": started.isoformat(timespec="seconds"), "query": QUERY,
                                              "wait_ms": args.wait_ms, "latency_ms": args.latency_ms, "table": "\n".join(lines), **results})),
                args.out, started)


if __name__ == "__main__":
    main()
