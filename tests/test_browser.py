"""The reader's search UI in a real browser (Debian chromium driven by Playwright).

Sites are built on demand into one temporary folder and served by one local HTTP server, so
every test can check that nothing is fetched from anywhere else.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import EXAMPLE_SITE, shared_chromium

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect = playwright_api.expect

# A real browser on a loaded 2-core machine occasionally misses a key press or a request by a
# tick (about one run in ten): a failing test gets two more tries, and a real bug fails all three.
pytestmark = [pytest.mark.browser, pytest.mark.flaky(reruns=2)]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

DIALOG = "dialog.gs-dialog"
OPTIONS = f"{DIALOG} .gs-option"
STATUS = f"{DIALOG} .gs-status"

# ------------------------------------------------------------------------------ site builds


def _build(config_file: Path, site_dir: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file=str(config_file), site_dir=str(site_dir))
    build(config)


def _write_config(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _example_config(folder: Path, name: str, body: str, base: str = "mkdocs.yml") -> Path:
    return _write_config(
        folder / f"{name}.yml",
        f"INHERIT: {EXAMPLE_SITE / base}\ndocs_dir: {EXAMPLE_SITE / 'docs'}\n{body}",
    )


# The mkdocs theme loads highlight.js from a CDN unless told not to: off, so the only
# requests left are the site's own.
MKDOCS_THEME = "theme:\n  name: mkdocs\n  highlightjs: false\n"
# With semantic search, sharing example-site's embedding cache (as its own builds do); the
# takeover and XSS sites don't need embeddings (keyword-only bundles, faster builds).
SEMANTIC = f"plugins:\n  - graphsearch:\n      cache_dir: {EXAMPLE_SITE / '.cache' / 'graphsearch'}\n"
BUILTIN_SEARCH = "plugins:\n  - search\n  - graphsearch:\n      embeddings: false\n"

XSS_TITLE = "<img src=x onerror=alert(1)>"
XSS_PAGES = {
    "index.md": "# Home\n\nWelcome, zebrafish lovers.\n",
    "evil.md": (
        f"---\ntitle: {XSS_TITLE}\n---\n\n# Zebrafish page\n\nZebrafish intro paragraph.\n\n"
        "## The `<script>alert(2)</script>` zebrafish heading\n\n"
        "Zebrafish snippet bait &lt;img src=x onerror=alert(3)&gt; and a [x](javascript:alert(1)) link.\n"
    ),
    "find.md": '# Find\n\n<div id="graphsearch"></div>\n',
}


def bundle_part(bundle: Path, part: str) -> Path:
    """Where a part of a bundle (by its logical name, e.g. "keyword.json") is on disk."""
    from mkdocs_graphsearch.bundle.format import file_name

    return bundle / file_name(json.loads((bundle / "manifest.json").read_text(encoding="utf-8")), part)


def _rewrite_bundle_file(bundle: Path, part: str, data: bytes) -> None:
    """Replace one bundle part and fix the manifest so the tampered part still loads."""
    from mkdocs_graphsearch.bundle.format import hashed_name

    bundle_part(bundle, part).unlink()
    name = hashed_name(part, data)
    (bundle / name).write_bytes(data)
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][part] = {"name": name, "bytes": len(data), "crc32": zlib.crc32(data)}
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


class Sites:
    """Builds each test site once, on first use, under one served folder."""

    def __init__(self, root: Path, base_url: str) -> None:
        self.root = root
        self.base_url = base_url
        self.configs = root.parent / "configs"
        self.configs.mkdir()
        self.built: set[str] = set()
        self.lock = threading.RLock()

    def url(self, name: str, path: str = "") -> str:
        with self.lock:
            if name not in self.built:
                getattr(self, f"_build_{name.replace('-', '_')}")(self.root / name)
                self.built.add(name)
        return f"{self.base_url}{name}/{path}"

    def _build_mkdocs(self, out: Path) -> None:
        _build(_example_config(self.configs, "mkdocs", MKDOCS_THEME + SEMANTIC), out)

    def _build_material(self, out: Path) -> None:
        pytest.importorskip("material", reason="mkdocs-material is not installed")
        _build(EXAMPLE_SITE / "mkdocs-material.yml", out)

    def _build_mkdocs_builtin(self, out: Path) -> None:
        _build(_example_config(self.configs, "mkdocs-builtin", MKDOCS_THEME + BUILTIN_SEARCH), out)

    def _build_material_builtin(self, out: Path) -> None:
        pytest.importorskip("material", reason="mkdocs-material is not installed")
        config = _example_config(self.configs, "material-builtin", BUILTIN_SEARCH, base="mkdocs-material.yml")
        _build(config, out)

    def _build_rtd_builtin(self, out: Path) -> None:
        theme = "theme:\n  name: readthedocs\n  highlightjs: false\n"
        _build(_example_config(self.configs, "rtd-builtin", theme + BUILTIN_SEARCH), out)

    def _build_corrupt(self, out: Path) -> None:
        self.url("mkdocs")
        shutil.copytree(self.root / "mkdocs", out)
        postings = bundle_part(out / "search", "postings.bin")
        postings.write_bytes(postings.read_bytes()[: postings.stat().st_size // 2])

    def _build_bad_vectors(self, out: Path) -> None:
        self.url("mkdocs")
        shutil.copytree(self.root / "mkdocs", out)
        vectors = bundle_part(out / "search", "vectors.bin")
        data = bytearray(vectors.read_bytes())
        data[:64] = bytes(64)  # same size, wrong CRC-32
        vectors.write_bytes(bytes(data))

    def _build_missing(self, out: Path) -> None:
        self.url("mkdocs")
        shutil.copytree(self.root / "mkdocs", out)
        shutil.rmtree(out / "search")

    def _build_xss(self, out: Path) -> None:
        """A readthedocs site with hostile titles, plus a bundle tampered with to point
        results at `javascript:` and another origin (what a broken or malicious build could do)."""
        docs = self.configs / "xss-docs"
        docs.mkdir()
        for name, text in XSS_PAGES.items():
            (docs / name).write_text(text, encoding="utf-8")
        # evil.md stays out of the nav: MkDocs puts page titles into the theme's nav as HTML,
        # which would fire before any search happens.
        config = _write_config(
            self.configs / "xss.yml",
            f"site_name: XSS probe\ndocs_dir: {docs}\ntheme:\n  name: readthedocs\n  highlightjs: false\n"
            "plugins:\n  - graphsearch:\n      embeddings: false\nnav:\n  - index.md\n  - find.md\n",
        )
        _build(config, out)
        bundle = out / "search"
        keyword = json.loads(bundle_part(bundle, "keyword.json").read_text(encoding="utf-8"))
        urls = keyword["pages"]["url"]
        urls[keyword["pages"]["path"].index("evil.md")] = "javascript:alert(1)//"
        urls[keyword["pages"]["path"].index("index.md")] = "//evil.example/"
        _rewrite_bundle_file(bundle, "keyword.json", json.dumps(keyword).encode())


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("browser") / "www"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Sites(root, f"http://127.0.0.1:{server.server_port}/")
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; CI installs it)")
    with shared_chromium(CHROMIUM, CHROMIUM_ARGS) as browser:  # one for every module importing this fixture
        yield browser


@pytest.fixture
def page(browser, sites):
    """A fresh page that records requests, dialogs (alert) and errors from our scripts."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.requests = []
    page.dialogs = []
    errors = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: errors.append(error))
    yield page
    context.close()
    ours = [error for error in errors if "graphsearch" in (error.stack or "")]
    assert not ours, f"errors from the search runtime: {ours}"


# ------------------------------------------------------------------------------ helpers


def open_search(page, key: str = "/") -> None:
    page.keyboard.press(key)
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator(f"{DIALOG} .gs-input")).to_be_focused()


def search_for(page, text: str) -> None:
    page.keyboard.type(text)
    expect(page.locator(STATUS)).to_have_class("gs-status gs-state-count")


def wait_complete(page, scope: str = DIALOG) -> None:
    """Wait until every part of the bundle is in (results no longer change)."""
    expect(page.locator(f"{scope} .gs-box")).to_have_attribute("data-gs-complete", "true")


def option_state(page) -> dict:
    return page.evaluate(
        """() => {
          const input = document.querySelector('dialog.gs-dialog .gs-input');
          const options = [...document.querySelectorAll('dialog.gs-dialog .gs-option')];
          return {
            active: input.getAttribute('aria-activedescendant'),
            selected: options.filter((o) => o.getAttribute('aria-selected') === 'true').map((o) => o.id),
            ids: options.map((o) => o.id),
            hrefs: options.map((o) => o.href),
            expanded: input.getAttribute('aria-expanded'),
          };
        }"""
    )


def assert_same_origin(page, sites) -> None:
    origin = urlsplit(sites.base_url)
    foreign = [
        url for url in page.requests
        if not url.startswith("data:") and urlsplit(url)[:2] != origin[:2]
    ]
    assert not foreign, f"requests beyond the site: {foreign}"


# -------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_type_enter_lands_on_the_anchor(page, sites, theme):
    page.goto(sites.url(theme, "user-guide/jobs/"))
    open_search(page)
    search_for(page, "visibility_timeout")
    wait_complete(page)
    title = page.locator(".gs-section-title", has_text="visibility_timeout")
    target = page.locator(OPTIONS, has=title)
    expect(target).to_have_count(1)
    expect(target.locator(".gs-snippet mark").first).to_be_visible()
    group = page.locator(f"{DIALOG} .gs-group", has=title)
    expect(group.locator(".gs-page-title")).to_have_text("Configuration reference")
    assert [worker.url.rsplit("/", 1)[-1] for worker in page.workers] == ["worker.js"]  # off the main thread
    state = option_state(page)
    for _ in range(state["ids"].index(target.get_attribute("id"))):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url("**/reference/configuration/#visibility_timeout")
    assert page.evaluate("location.hash") == "#visibility_timeout"
    assert page.evaluate("document.getElementById('visibility_timeout') !== null")
    assert not page.locator(DIALOG).evaluate("d => d.open")
    assert_same_origin(page, sites)


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_theme_gets_a_search_button(page, sites, theme):
    page.goto(sites.url(theme, ""))
    button = page.locator(".gs-trigger")
    expect(button).to_have_count(1)
    button.click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator(f"{DIALOG} .gs-input")).to_be_focused()
    expect(page.locator(STATUS)).to_have_text("Type to search the documentation.")


def test_keyboard_navigation(page, sites):
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page, "/")
    search_for(page, "retry")
    wait_complete(page)
    state = option_state(page)
    assert state["expanded"] == "true"
    assert len(state["ids"]) >= 3
    assert state["active"] == state["ids"][0] and state["selected"] == [state["ids"][0]]
    for key in ("ArrowDown", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
    state = option_state(page)
    assert state["active"] == state["ids"][1] and state["selected"] == [state["ids"][1]]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # wraps to the last option
    assert option_state(page)["active"] == state["ids"][-1]
    page.keyboard.press("ArrowDown")  # and back to the first
    assert option_state(page)["active"] == state["ids"][0]
    page.keyboard.press("ArrowDown")
    target = state["hrefs"][1]
    page.keyboard.press("Enter")
    page.wait_for_url(target)
    anchor = urlsplit(target).fragment
    assert page.evaluate("location.hash") == f"#{anchor}"
    assert page.evaluate("(id) => document.getElementById(id) !== null", anchor)


def test_hover_selects_without_moving_the_list(page, sites):
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page)
    search_for(page, "worker")
    wait_complete(page)
    options = page.locator(OPTIONS)
    before = page.locator(f"{DIALOG} .gs-list").evaluate("l => l.scrollTop")
    box = options.nth(2).bounding_box()
    options.nth(2).hover()
    assert option_state(page)["active"] == options.nth(2).get_attribute("id")
    assert page.locator(f"{DIALOG} .gs-list").evaluate("l => l.scrollTop") == before
    assert options.nth(2).bounding_box() == box
    expect(page.locator(f"{DIALOG} .gs-input")).to_be_focused()


def test_shortcuts_and_escape(page, sites):
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page, "s")
    page.keyboard.type("sss")  # typing `s` in the box is just text
    expect(page.locator(f"{DIALOG} .gs-input")).to_have_value("sss")
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")
    open_search(page, "/")
    expect(page.locator(f"{DIALOG} .gs-input")).to_have_value("sss")  # the query is kept
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")
    # A shortcut key typed into another field stays there.
    page.evaluate("document.body.append(Object.assign(document.createElement('input'), {id: 'other'}))")
    page.locator("#other").type("/s")
    expect(page.locator("#other")).to_have_value("/s")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")


def test_no_results_echoes_the_query(page, sites):
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    query = "zzqqxv <i>zzqqw</i>"
    page.keyboard.type(query)
    wait_complete(page)
    status = page.locator(STATUS)
    expect(status).to_have_class("gs-status gs-state-empty")
    expect(status).to_have_text(f"No results for “{query}”")
    assert status.locator("i").count() == 0
    assert page.locator(OPTIONS).count() == 0
    assert page.locator(f"{DIALOG} .gs-input").get_attribute("aria-expanded") == "false"
    assert status.get_attribute("aria-live") == "polite" and status.get_attribute("role") == "status"


def test_loading_state_then_results(page, sites):
    held = []
    page.route("**/search/postings.*.bin", lambda route: held.append(route))
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    page.keyboard.type("heartbeat")
    expect(page.locator(STATUS)).to_have_text("Loading the search index…")
    for _ in range(100):  # the worker asks for manifest.json first, then postings.bin
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the bundle was not requested"
    held[0].continue_()
    expect(page.locator(STATUS)).to_have_class("gs-status gs-state-count")
    expect(page.locator(OPTIONS).first).to_be_visible()


@pytest.mark.parametrize(
    ("site", "message"),
    [
        ("corrupt", "postings.bin is"),  # "... N bytes, the manifest says M (truncated or stale)"
        ("missing", "cannot read manifest.json: HTTP 404"),
    ],
)
def test_broken_bundle_shows_an_error_and_the_page_works(page, sites, site, message):
    page.goto(sites.url(site, "user-guide/jobs/"))
    open_search(page)
    page.keyboard.type("retry")
    status = page.locator(STATUS)
    expect(status).to_have_class("gs-status gs-state-error")
    expect(status).to_contain_text("Search is unavailable: ")
    expect(status).to_contain_text(message)
    assert page.locator(OPTIONS).count() == 0
    page.keyboard.press("Escape")
    expect(page.locator("h1").first).to_have_text("Jobs and tasks")
    page.locator(".navbar a", has_text="Next").click()
    page.wait_for_url("**/user-guide/queues-and-workers/")


def test_semantic_part_failing_leaves_keyword_search(page, sites):
    page.goto(sites.url("bad-vectors", "user-guide/jobs/"))
    open_search(page)
    search_for(page, "visibility_timeout")
    wait_complete(page)
    expect(page.locator(OPTIONS).first).to_be_visible()
    expect(page.locator(f"{DIALOG} .gs-warning")).to_have_text(
        "Some results may be missing: semantic: vectors.bin is corrupted (CRC-32 differs from the manifest)"
    )
    assert page.locator(f"{DIALOG} .gs-badge").count() == 0


def test_hostile_titles_and_urls_stay_inert(page, sites):
    page.goto(sites.url("xss", ""))
    open_search(page)
    page.keyboard.type("zebrafish")
    expect(page.locator(STATUS)).to_have_class("gs-status gs-state-count")
    wait_complete(page)
    ui = page.locator(DIALOG)
    expect(ui.locator(".gs-page-title", has_text=XSS_TITLE)).to_have_count(1)
    expect(ui.locator(".gs-section-title", has_text="The <script>alert(2)</script> zebrafish heading")).to_have_count(1)
    expect(ui.locator(".gs-snippet", has_text="<img src=x onerror=alert(3)>")).to_have_count(1)
    assert ui.locator("img, script, [onerror], iframe, object").count() == 0
    hrefs = page.evaluate("[...document.querySelectorAll('.gs-dialog a')].map((a) => a.getAttribute('href'))")
    assert hrefs, "no result links"
    for href in hrefs:
        assert href is None or (href.startswith(sites.base_url) and "evil.example" not in href), href
    # The tampered results have no link at all, and Enter on them does nothing.
    disabled = ui.locator('.gs-option[aria-disabled="true"]')
    assert disabled.count() >= 2
    url = page.url
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    assert page.url == url
    assert page.dialogs == []
    assert page.evaluate("document.querySelectorAll('img[src=\"x\"]').length") == 0
    assert_same_origin(page, sites)


def test_inline_mount_and_query_parameter(page, sites):
    page.goto(sites.url("xss", "find/?q=find"))
    box = page.locator("#graphsearch .gs-box.gs-inline")
    expect(box).to_have_count(1)
    expect(box.locator(".gs-input")).to_have_value("find")
    expect(box.locator(".gs-status")).to_have_class("gs-status gs-state-count")
    wait_complete(page, "#graphsearch")
    expect(box.locator(f'.gs-option[href="{sites.url("xss", "find/")}"]')).to_have_count(1)
    assert page.dialogs == []
    # readthedocs without its search plugin: our box in the side bar opens the dialog.
    page.locator(".wy-side-nav-search .gs-trigger").click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")


def test_builtin_mkdocs_search_is_taken_over(page, sites):
    page.goto(sites.url("mkdocs-builtin", "user-guide/jobs/"))
    page.locator('a[data-bs-target="#mkdocs_search_modal"]').click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    search_for(page, "visibility_timeout")
    assert "show" not in (page.locator("#mkdocs_search_modal").get_attribute("class") or "")
    page.keyboard.press("Escape")
    page.keyboard.press("s")  # the theme's own shortcut for its modal
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    assert "show" not in (page.locator("#mkdocs_search_modal").get_attribute("class") or "")


def test_builtin_material_search_is_taken_over(page, sites):
    page.goto(sites.url("material-builtin", "user-guide/jobs/"))
    page.locator(".md-search__input").click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    assert not page.locator("#__search").is_checked()
    search_for(page, "visibility_timeout")
    wait_complete(page)
    target = page.locator(OPTIONS).first.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(target)


def test_builtin_readthedocs_search_is_taken_over(page, sites):
    # Its results page (search.html?q=) shows our results in place of its own.
    page.goto(sites.url("rtd-builtin", "search.html?q=retry+policy"))
    box = page.locator("[data-graphsearch] .gs-box.gs-inline")
    expect(box.locator(".gs-input")).to_have_value("retry policy")
    wait_complete(page, "[data-graphsearch]")
    expect(box.locator(".gs-option").first).to_be_visible()
    expect(page.locator("#mkdocs-search-results")).to_be_hidden()
    expect(page.locator("#content_search")).to_be_hidden()
    # Its side-bar field hands over to our dialog.
    page.locator("#rtd-search-form input").click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    page.keyboard.type("cron")
    expect(page.locator(f"{DIALOG} .gs-input")).to_have_value("cron")
    expect(page.locator("#rtd-search-form input")).to_have_value("")


def test_runs_without_web_workers(page, sites):
    page.add_init_script("delete window.Worker")
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "heartbeat")
    expect(page.locator(OPTIONS).first).to_be_visible()
    assert page.workers == []


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_no_request_leaves_the_site(page, sites, theme):
    page.goto(sites.url(theme, "user-guide/retries/"))
    open_search(page)
    search_for(page, "dead letter")
    target = page.locator(OPTIONS).first.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(target)  # the next page, not the one being left
    page.wait_for_load_state("load")
    open_search(page)
    search_for(page, "cron schedule")
    assert any(re.search(r"/search/text\.[0-9a-f]+\.json$", url) for url in page.requests)
    assert_same_origin(page, sites)


# ------------------------------------------------------- bytes before intent, deploys (issue 8)
# A page view that never searches fetches the runtime's ui.js and ui.css only: nothing from the
# bundle folder, no worker, until the reader shows intent. A deploy (a rebuild into the same
# folder) never mixes two builds: served by a host that lets browsers cache every file for an
# hour, a reloaded page (and a page left open) answers from the new build, because manifest.json
# is revalidated every time and every part has a content-hashed name.

#: Longer than the idle prefetch this replaces waited (requestIdleCallback, timeout 3 s).
IDLE_MS = 4000


def _bundle_requests(urls: list[str]) -> list[str]:
    return [url for url in urls if "/search/" in url]


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
    runtime = [url for url in page.requests if "/assets/graphsearch/" in url]
    assert sorted(url.rsplit("/", 1)[-1] for url in runtime) == ["ui.css", "ui.js"], runtime

    if intent == "key":
        open_search(page, "/")
    else:  # the theme's search button: focus alone starts loading, before any key
        page.locator(".gs-trigger").focus()
        for _ in range(100):
            if any(url.endswith("/search/manifest.json") for url in page.requests):
                break
            page.wait_for_timeout(50)
        assert any(url.endswith("/search/manifest.json") for url in page.requests), "focus did not start loading"
        page.keyboard.press("Enter")
        expect(page.locator(DIALOG)).to_have_attribute("open", "")
    search_for(page, "visibility_timeout")
    wait_complete(page)
    expect(page.locator(OPTIONS).first).to_be_visible()
    fetched = _bundle_requests(page.requests)
    assert any(url.endswith("/search/manifest.json") for url in fetched)
    assert any(re.search(r"/search/keyword\.[0-9a-f]{12}\.json$", url) for url in fetched), fetched
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


class _CachingHandler(_QuietHandler):
    """A host that lets browsers keep every file but HTML for an hour (as CDNs often do)."""

    def end_headers(self) -> None:
        html = self.path.split("?")[0].endswith(("/", ".html"))
        self.send_header("Cache-Control", "no-cache" if html else "public, max-age=3600")
        super().end_headers()


@pytest.fixture
def caching_host(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_CachingHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_deploy_never_mixes_two_builds(browser, caching_host, tmp_path):
    root, base = caching_host
    docs = tmp_path / "docs"
    shutil.copytree(EXAMPLE_SITE / "docs", docs)
    config = _write_config(
        tmp_path / "mkdocs.yml",
        f"INHERIT: {EXAMPLE_SITE / 'mkdocs.yml'}\ndocs_dir: {docs}\n{MKDOCS_THEME}"
        "plugins:\n  - graphsearch:\n      embeddings: false\n",
    )
    site = root / "site"
    _build(config, site)  # build A

    context = browser.new_context(viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    try:
        reader = context.new_page()
        idle = context.new_page()  # open on build A, never searched before the deploy
        for tab in (reader, idle):
            # Ours only (the mkdocs theme's own script has errors of its own on some pages).
            tab.on("pageerror", lambda error: errors.append(str(error)) if "graphsearch" in (error.stack or "") else None)
            tab.on("console", lambda message: errors.append(message.text)
                   if message.type == "error" and re.search(r"/(assets/graphsearch|search)/", message.location["url"])
                   else None)
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
        _build(config, site)

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
            assert "corrupted" not in tab.locator(DIALOG).inner_text()
    finally:
        context.close()
    assert not errors, errors
