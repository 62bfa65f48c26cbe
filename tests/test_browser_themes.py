"""Theme compatibility (issue 8): every theme starts cleanly with and without its own `search`.

The example site is built for the mkdocs, readthedocs and Material themes, each with and without
the built-in `search` plugin (six builds, embeddings off), and each build is served at the root of
its own local server so that 404.html (absolute paths) works as it would on a real host. Every page
opened must load without a page error or a console error, the theme's own start-up must have run,
and `/` plus a query must show results (our runtime's takeover of the theme works everywhere).
"""

from __future__ import annotations

import functools
import http.server
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import EXAMPLE_SITE

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

# The shared helpers (conftest.py's `browser` fixture skips when chromium is missing).
from browser_support import DIALOG, OPTIONS, expect, open_search, search_for  # noqa: E402 (after the skip)

pytestmark = pytest.mark.browser

#: (theme, config file, theme options): highlight.js off so nothing is fetched from a CDN.
THEMES = {
    "mkdocs": ("mkdocs.yml", {"name": "mkdocs", "highlightjs": False}),
    "readthedocs": ("mkdocs.yml", {"name": "readthedocs", "highlightjs": False}),
    "material": ("mkdocs-material.yml", None),  # its own file's theme options (no Google Fonts)
}
CONFIGS = [(theme, search) for theme in THEMES for search in (False, True)]
CONFIG_IDS = [f"{theme}-{'search' if search else 'nosearch'}" for theme, search in CONFIGS]

#: The element the reader clicks to search, per (theme, built-in search on).
OPENERS = {
    ("mkdocs", False): ".navbar .gs-trigger",
    ("mkdocs", True): 'a[data-bs-target="#mkdocs_search_modal"]',
    ("readthedocs", False): ".wy-side-nav-search .gs-trigger",
    ("readthedocs", True): "#rtd-search-form input",
    ("material", False): ".md-header .gs-trigger",
    ("material", True): ".md-search__input",
}

NESTED = "user-guide/jobs/"  # has tables (the mkdocs theme styles them in its start-up)
MISSING = "user-guide/no-such-page/"  # answered with 404.html, as a host does


@dataclass
class Site:
    theme: str
    search: bool
    url: str  # root URL of its own server


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves one built site at / and answers a missing path with its 404.html (status 404)."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def _build(site_dir: Path, theme: str, search: bool) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config_file, theme_options = THEMES[theme]
    if theme == "material":
        pytest.importorskip("material", reason="mkdocs-material is not installed")
    overrides: dict[str, object] = {
        "plugins": [*(["search"] if search else []), {"graphsearch": {"embeddings": False}}],
    }
    if theme_options is not None:
        overrides["theme"] = theme_options
    build(load_config(config_file=str(EXAMPLE_SITE / config_file), site_dir=str(site_dir), **overrides))


class _Sites:
    """Builds and serves each configuration once, on first use; stops every server at the end."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sites: dict[tuple[str, bool], Site] = {}
        self.servers: list[tuple[http.server.ThreadingHTTPServer, threading.Thread]] = []

    def get(self, theme: str, search: bool) -> Site:
        key = (theme, search)
        if key not in self.sites:
            site_dir = self.root / f"{theme}-{int(search)}"
            _build(site_dir, theme, search)
            handler = functools.partial(_SiteHandler, directory=str(site_dir))
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            thread = threading.Thread(target=server.serve_forever, daemon=True)
            thread.start()
            self.servers.append((server, thread))
            self.sites[key] = Site(theme, search, f"http://127.0.0.1:{server.server_port}/")
        return self.sites[key]

    def close(self) -> None:
        for server, thread in self.servers:
            server.shutdown()
            server.server_close()
            thread.join()


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory):
    built = _Sites(tmp_path_factory.mktemp("themes"))
    try:
        yield built
    finally:
        built.close()


@pytest.fixture(params=CONFIGS, ids=CONFIG_IDS)
def site(request, sites) -> Site:
    return sites.get(*request.param)


@pytest.fixture
def page(browser):
    """A fresh page that records every page error and console error (any script's, not only ours)."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(f"page error: {error.message}\n{error.stack}"))

    def on_console(message) -> None:
        if message.type != "error":
            return
        # The one expected error: the browser reporting the 404 status of the missing page itself.
        if message.location.get("url", "").endswith(MISSING) and "404" in message.text:
            return
        page.problems.append(f"console error: {message.text} ({message.location.get('url')})")

    page.on("console", on_console)
    yield page
    context.close()


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(100)  # let DOMContentLoaded/load handlers and the runtime's start-up finish


def test_pages_load_without_errors(page, site):
    for path in ("", NESTED, MISSING):
        _open(page, site.url + path)
        # Our runtime started (its dialog exists) on every page, 404 included.
        expect(page.locator(DIALOG)).to_have_count(1)
        if site.theme == "mkdocs":
            # base.js's start-up ran to the end: it styles tables and shows the shortcut keys.
            if path == NESTED:
                expect(page.locator("table.table.table-striped").first).to_be_attached()
            expect(page.locator("#mkdocs_keyboard_modal .search.shortcut kbd")).to_have_text("s")
        if site.theme == "readthedocs" and path == NESTED:
            expect(page.locator("div.rst-content table.docutils").first).to_be_attached()
    assert page.problems == [], "\n".join(page.problems)


def test_slash_and_the_theme_opener_show_results(page, site):
    _open(page, site.url + NESTED)
    open_search(page, "/")
    search_for(page, "visibility_timeout")
    expect(page.locator(OPTIONS).first).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")
    # The search control the reader sees (the theme's own, or ours where it has none) opens our
    # dialog, and there is exactly one of it.
    opener = page.locator(OPENERS[(site.theme, site.search)])
    expect(opener).to_have_count(1)
    expect(page.locator(".gs-trigger")).to_have_count(0 if site.search else 1)
    opener.click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator(f"{DIALOG} .gs-input")).to_be_focused()
    expect(page.locator(OPTIONS).first).to_be_visible()  # the query was kept
    # Nothing of the theme's own search is showing.
    assert page.locator(".modal.show, .modal-backdrop").count() == 0
    assert page.problems == [], "\n".join(page.problems)


@pytest.mark.parametrize("search", [False, True], ids=["nosearch", "search"])
def test_mkdocs_theme_query_in_the_url_opens_our_dialog(page, sites, search):
    # base.js shows its search modal for ?q=; ours opens instead, with that query.
    _open(page, sites.get("mkdocs", search).url + NESTED + "?q=visibility_timeout")
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator(f"{DIALOG} .gs-input")).to_have_value("visibility_timeout")
    expect(page.locator(OPTIONS).first).to_be_visible()
    assert page.locator(".modal.show, .modal-backdrop").count() == 0
    assert page.problems == [], "\n".join(page.problems)
