"""Loading in a real browser (issue 8): bytes before intent, and deploys.

A page view that never searches fetches the runtime's UI half (js/src/ui/: its modules, ui.css) only:
nothing from the bundle folder, no worker, until the reader shows intent. A deploy (a rebuild into
the same folder) never mixes two builds: served by a host that lets browsers cache every file for
an hour, a reloaded page (and a page left open) answers from the new build, because manifest.json
is revalidated every time and every part has a content-hashed name.
"""

from __future__ import annotations

import re
import shutil
import threading
from collections import Counter
from urllib.parse import urlsplit

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser_support import (  # noqa: E402 (after the skip)
    DIALOG,
    MKDOCS_THEME,
    OPTIONS,
    STATUS,
    QuietHandler,
    build_site,
    expect,
    open_search,
    search_for,
    serve,
    wait_complete,
    write_config,
)
from conftest import EXAMPLE_SITE  # noqa: E402

pytestmark = pytest.mark.browser

#: Longer than the idle prefetch this replaces waited (requestIdleCallback, timeout 3 s).
IDLE_MS = 4000


def _bundle_requests(urls: list[str]) -> list[str]:
    return [url for url in urls if "/search/" in url]


def _manifest_requested(page) -> bool:
    return any(url.endswith("/search/manifest.json") for url in page.requests)


@pytest.mark.parametrize("intent", ["key", "focus"])
def test_no_bundle_bytes_before_intent(page, sites, intent):
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    page.wait_for_load_state("load")
    page.wait_for_timeout(IDLE_MS)
    page.mouse.move(600, 500)  # the pointer over the page's text (not a search box) is no intent
    page.mouse.down()
    page.mouse.up()
    page.wait_for_timeout(300)
    assert _bundle_requests(page.requests) == [], "the bundle was fetched before any intent"
    assert page.workers == [], "a worker started before any intent"
    runtime = sorted(url.split("/assets/graphsearch/", 1)[1].split("/", 1)[1] for url in page.requests
                     if "/assets/graphsearch/" in url)
    assert runtime == ["ui/ui.css", "ui/ui.js"], runtime  # the UI in one file; nothing of engine/ (the worker)

    if intent == "key":
        open_search(page, "/")
    else:  # the theme's search button: focus alone starts loading, before any key
        page.locator(".gs-trigger").focus()
        for _ in range(600):  # 30 s at most
            if _manifest_requested(page):
                break
            page.wait_for_timeout(50)
        assert _manifest_requested(page), "focus did not start loading"
        page.keyboard.press("Enter")
        expect(page.locator(DIALOG)).to_have_attribute("open", "")
    search_for(page, "visibility_timeout")
    wait_complete(page)
    expect(page.locator(OPTIONS).first).to_be_visible()
    fetched = _bundle_requests(page.requests)
    assert any(url.endswith("/search/manifest.json") for url in fetched)
    assert any(re.search(r"/search/keyword\.[0-9a-f]{8}\.json$", url) for url in fetched), fetched
    assert [worker.url.rsplit("/", 1)[-1] for worker in page.workers] == ["worker.js"]


def test_window_api_starts_loading(page, sites):
    page.goto(sites.url("mkdocs", ""))
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    assert _bundle_requests(page.requests) == []
    page.evaluate("window.graphsearchUI.open('heartbeat')")
    expect(page.locator(STATUS)).to_have_class("gs-status gs-state-count")
    assert _bundle_requests(page.requests)


# ------------------------------------------------------------------------------ deploy


class _CachingHandler(QuietHandler):
    """A host that lets browsers keep every file but HTML for an hour (as CDNs often do)."""

    def end_headers(self) -> None:
        html = self.path.split("?")[0].endswith(("/", ".html"))
        self.send_header("Cache-Control", "no-cache" if html else "public, max-age=3600")
        super().end_headers()


def test_a_deploy_never_mixes_two_builds(browser, tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    docs = tmp_path / "docs"
    shutil.copytree(EXAMPLE_SITE / "docs", docs)
    config = write_config(
        tmp_path / "mkdocs.yml",
        f"INHERIT: {EXAMPLE_SITE / 'mkdocs.yml'}\ndocs_dir: {docs}\n{MKDOCS_THEME}"
        "plugins:\n  - graphsearch:\n      embeddings: false\n",
    )
    site = root / "site"
    build_site(config, site)  # build A

    context = browser.new_context(viewport={"width": 1200, "height": 800})
    errors: list[str] = []

    def on_console(message) -> None:
        # Ours only (a theme's console noise is test_browser_themes.py's business).
        if message.type == "error" and re.search(r"/(assets/graphsearch|search)/", message.location["url"]):
            errors.append(message.text)

    try:
        with serve(root, _CachingHandler) as base:
            reader = context.new_page()
            idle = context.new_page()  # open on build A, never searched before the deploy
            for tab in (reader, idle):
                tab.on("pageerror", lambda error: errors.append(f"page error: {error.message}\n{error.stack}"))
                tab.on("console", on_console)
                tab.goto(f"{base}site/user-guide/jobs/")
            open_search(reader)
            search_for(reader, "visibility_timeout")
            wait_complete(reader)
            expect(reader.locator(OPTIONS).first).to_be_visible()
            reader.keyboard.press("Control+a")
            reader.keyboard.type("quokkaberry")
            wait_complete(reader)
            expect(reader.locator(STATUS)).to_have_class("gs-status gs-state-empty")  # not in build A

            # Deploy B: the same site with one page that now has a word only B knows.
            page_md = docs / "user-guide" / "retries.md"
            page_md.write_text(page_md.read_text(encoding="utf-8") + "\n## Quokkaberry backoff\n\n"
                               "The quokkaberry strategy waits a random time.\n", encoding="utf-8")
            build_site(config, site)

            reader.reload()
            open_search(reader)
            search_for(reader, "quokkaberry")
            wait_complete(reader)
            expect(reader.locator(".gs-section-title", has_text="Quokkaberry backoff")).to_have_count(1)
            # The page left open on A starts its search after the deploy: it gets B too.
            open_search(idle)
            search_for(idle, "quokkaberry")
            wait_complete(idle)
            expect(idle.locator(".gs-section-title", has_text="Quokkaberry backoff")).to_have_count(1)
            for tab in (reader, idle):
                expect(tab.locator(f"{DIALOG} .gs-warning")).to_be_hidden()
                expect(tab.locator(DIALOG)).not_to_contain_text("corrupted")
    finally:
        context.close()
    assert not errors, errors


# ------------------------------------------------------------------------------ a stalled server


def _stalling_handler(pattern: str, times: int, release: threading.Event, seen: Counter[str]):  # type: ignore[no-untyped-def]
    """A handler that leaves the first `times` requests of each path matching `pattern` without
    any answer (until `release`), and serves everything else."""

    class Stalling(QuietHandler):
        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            seen[path] += 1
            if re.search(pattern, path) and seen[path] <= times:
                release.wait()
                self.close_connection = True
                return
            super().do_GET()

    return Stalling


#: Seconds the runtime gives a fetch in these tests (15 by default). Only the file under test is
#: stalled; every other file must arrive within it, on a loaded machine too: generous, not tight.
#: A stalled file costs twice this (it is retried once).
STALL_SECONDS = 5
#: How long a test waits for the outcome: both tries of a stalled file, then the answer.
OUTCOME_MS = (2 * STALL_SECONDS + 50) * 1000


@pytest.fixture(scope="module")
def stalled_site(sites, tmp_path_factory):
    """The semantic example site, its pages telling the runtime to give a fetch STALL_SECONDS."""
    site = tmp_path_factory.mktemp("stalled") / "www"
    sites.url("mkdocs")  # built on first use
    shutil.copytree(sites.root / "mkdocs", site)
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        timeout = f'data-graphsearch-timeout="{STALL_SECONDS}" data-graphsearch-bundle='
        html.write_text(text.replace("data-graphsearch-bundle=", timeout), encoding="utf-8")
    return site


@pytest.mark.parametrize(
    ("pattern", "times", "outcome"),
    [
        (r"^/search/manifest\.json$", 2, "error"),
        (r"^/search/keyword\.[0-9a-f]+\.json$", 2, "error"),  # a part every query needs
        (r"^/search/keyword\.[0-9a-f]+\.json$", 1, "results"),  # the retry is answered
        (r"^/search/postings\.[0-9]+\.[0-9a-f]+\.bin$", 1, "results"),  # a term shard's retry too
        (r"^/search/vectors\.[0-9a-f]+\.bin$", 2, "keyword only"),  # the semantic part, in the background
        (r"^/search/display\.[0-9]+\.[0-9a-f]+\.json$", 1, "results"),  # titles of the pages shown: retried
        # the seeds' edges: a warning (a question, as a query its best section spells out whole
        # answers by keyword order and expands nothing)
        (r"^/search/graph\.[0-9]+\.[0-9a-f]+\.json$", 2, "no graph"),
    ],
    ids=["manifest", "keyword", "keyword-once", "shard-once", "vectors", "display-once", "graph-shard"],
)
def test_a_stalled_bundle_fetch_is_retried_once_then_reported(browser, stalled_site, pattern, times, outcome):
    release, seen = threading.Event(), Counter()
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    try:
        with serve(stalled_site, _stalling_handler(pattern, times, release, seen)) as base:
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(f"{error.message}\n{error.stack}"))
            page.goto(f"{base}user-guide/jobs/")
            open_search(page)
            # One input, one query: typed key by key, each prefix's answer fetches fragments of
            # its own, whose first (stalled) try may still be waiting when the last answer is in.
            question = pattern.startswith(r"^/search/graph\.")
            page.keyboard.insert_text("what happens to a job that keeps failing" if question else "visibility_timeout")
            status = page.locator(STATUS)
            if outcome not in ("keyword only", "no graph"):  # the keyword part answers at once then
                expect(status).to_have_text("Loading the search index…")
            if outcome == "error":
                expect(status).to_have_class("gs-status gs-state-error", timeout=OUTCOME_MS)
                expect(status).to_contain_text("Search is unavailable: cannot read ")
                expect(status).to_contain_text(f"no response for {STALL_SECONDS} s for ")
                expect(status).to_contain_text("(tried twice)")
            else:
                expect(status).to_have_class("gs-status gs-state-count", timeout=OUTCOME_MS)
                box = page.locator(f"{DIALOG} .gs-box")
                expect(box).to_have_attribute("data-gs-complete", "true", timeout=OUTCOME_MS)
                expect(page.locator(OPTIONS).first).to_be_visible()
                # the mode the answer on screen ran in (the scale benchmark times the first hybrid one)
                mode = "keyword" if outcome == "keyword only" else "hybrid"
                expect(box).to_have_attribute("data-gs-mode", mode)
                warning = page.locator(f"{DIALOG} .gs-warning")
                if outcome == "keyword only":
                    expect(warning).to_contain_text("Some results may be missing: semantic: cannot read vectors.bin: ")
                    expect(warning).to_contain_text("(tried twice)")
                elif outcome == "no graph":
                    expect(warning).to_contain_text("Some results may be missing: graph: cannot read graph.")
                    expect(warning).to_contain_text("(tried twice)")
                else:
                    expect(warning).to_be_hidden()
            stalled = [path for path in seen if re.search(pattern, path)]  # fragments: one or more
            tries = min(times + 1, 2)  # one retry, never more
            for _ in range(2 * STALL_SECONDS * 20):  # a later part's re-answer may still be in its first try
                if all(seen[path] >= tries for path in stalled):
                    break
                page.wait_for_timeout(50)
            assert stalled and all(seen[path] == tries for path in stalled), seen
    finally:
        release.set()
        context.close()
    assert not errors, errors


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        # the worker's file holds the whole engine (site_output/js_bundle.py): no other module to stall
        (r"^/assets/graphsearch/[0-9a-f]+/engine/worker\.js$",
         f"the search runtime did not start: no response for {STALL_SECONDS} s"),
    ],
    ids=["worker.js"],
)
def test_a_stalled_runtime_module_is_reported(browser, stalled_site, pattern, message):
    """A module of the runtime itself that never arrives: the error state after the timeout,
    never "Loading…" forever (a module import cannot be retried)."""
    release, seen = threading.Event(), Counter()
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    try:
        with serve(stalled_site, _stalling_handler(pattern, 2, release, seen)) as base:
            page = context.new_page()
            page.goto(f"{base}user-guide/jobs/")
            open_search(page)
            page.keyboard.type("visibility_timeout")
            status = page.locator(STATUS)
            expect(status).to_have_class("gs-status gs-state-error", timeout=OUTCOME_MS)
            expect(status).to_contain_text(message)
            assert any(re.search(pattern, path) for path in seen), seen
    finally:
        release.set()
        context.close()
