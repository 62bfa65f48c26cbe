"""Requests one search makes in Chromium on a built site, from the reader's first intent (`/`) to
the final answer (issue 23's request budget; tests/test_browser_budget.py asserts it on the
example site). Counts, not times: the time figures come from scale_bench.py.

    .venv/bin/python benchmarks/request_count.py SITE_DIR "how do I retry a failed job later" [--delay MS | --paste]

SITE_DIR is a site built with the plugin (served from 127.0.0.1 by this script). Prints one JSON
line: requests after intent until the first hybrid answer is on screen and until the answer is
complete (every snippet in), the page view's own requests, the milliseconds from the last key to
the hybrid answer, and the requests by kind (the file name's first word: `worker`, `vocab`, ...).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import threading
from collections import Counter
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# The first option shown by an answer that ran in hybrid mode (ui/box.js sets data-gs-mode).
WATCH = """
window.__hybrid = null;
new MutationObserver(() => {
  const box = document.querySelector("dialog.gs-dialog .gs-box");
  if (window.__hybrid === null && box && box.dataset.gsMode === "hybrid" && box.querySelector(".gs-option"))
    window.__hybrid = performance.now();
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def count(site: Path, query: str, delay_ms: int | None) -> dict:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context().new_page()
            page.add_init_script(WATCH)
            requests: list = []
            page.on("request", lambda request: requests.append(request))
            page.goto(f"http://127.0.0.1:{server.server_port}/", wait_until="load")
            view = len(requests)
            page.keyboard.press("/")
            if delay_ms is None:
                page.keyboard.insert_text(query)
            else:
                page.keyboard.type(query, delay=delay_ms)
            typed = page.evaluate("performance.now()")
            page.locator('dialog.gs-dialog .gs-box[data-gs-complete="true"]').wait_for(timeout=60_000)
            page.wait_for_timeout(500)
            hybrid, origin = page.evaluate("[window.__hybrid, performance.timeOrigin]")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    after = requests[view:]
    before_hybrid = [r for r in after if hybrid is not None and r.timing["startTime"] - origin <= hybrid]
    return {
        "query": query,
        "typed": "pasted" if delay_ms is None else f"{delay_ms} ms a key",
        "page_view_requests": view,
        "requests_before_first_hybrid": len(before_hybrid) if hybrid is not None else None,
        "requests_until_complete": len(after),
        "last_key_to_hybrid_ms": None if hybrid is None else round(hybrid - typed),
        "kinds": dict(sorted(Counter(r.url.rsplit("/", 1)[-1].split(".")[0] for r in after).items())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("query")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--delay", type=int, default=120, help="ms between keys (default 120)")
    how.add_argument("--paste", action="store_true", help="the query in one input event")
    args = parser.parse_args()
    print(json.dumps(count(args.site, args.query, None if args.paste else args.delay)))


if __name__ == "__main__":
    main()
