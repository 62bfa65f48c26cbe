"""`graphsearch build` in a real browser (issue 21): sites built by Zensical (its search on and
off), by MkDocs without the plugin (`mkdocs` theme with its built-in search, `readthedocs`
without), by Sphinx and by hand.

On a nested page of each: the site's search control (Zensical's header button, the theme's, or a
`data-graphsearch-open` element), `/` and, on Zensical, Ctrl+K open our dialog and only ours; a
query lands on the section's real anchor; no page error; no request leaves the local server.
Keyword-only bundles: what is checked is the takeover and the landing, not the ranking.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import EXAMPLE_SITE
from host_sites import SITES, ZENSICAL_SEARCH_OFF, graphsearch_build, zensical_build

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser_support import DIALOG, OPTIONS, expect, open_search, search_for, serve  # noqa: E402 (after the skip)

pytestmark = pytest.mark.browser

NESTED = {"zensical": "user-guide/jobs/", "zensical-nosearch": "user-guide/jobs/", "mkdocs": "user-guide/jobs/",
          "readthedocs": "user-guide/jobs/", "handmade": "guide/kites/", "sphinx": "usage.html"}
#: The search control a reader clicks, per site.
OPENERS = {
    "zensical": ".md-search__button",  # the header's Search button (the label is the narrow-screen one)
    "zensical-nosearch": ".md-header .gs-trigger",  # ours, where Zensical would have its own
    "mkdocs": 'a[data-bs-target="#mkdocs_search_modal"]',
    "readthedocs": ".wy-side-nav-search .gs-trigger",
    "handmade": "[data-graphsearch-open]",
    "sphinx": '#searchbox input[name="q"]',  # the side bar's search field
}
#: (query, URL path and anchor the first result must land on)
LANDINGS = {
    "zensical": ("idempotency key", "/zensical/user-guide/jobs/#idempotency"),
    "zensical-nosearch": ("idempotency key", "/zensical-nosearch/user-guide/jobs/#idempotency"),
    "mkdocs": ("idempotency key", "/mkdocs/user-guide/jobs/#idempotency"),
    "readthedocs": ("idempotency key", "/readthedocs/user-guide/jobs/#idempotency"),
    "handmade": ("slack line stall", "/handmade/guide/kites/#line-tension"),
    "sphinx": ("foghorn", "/sphinx/usage.html#fog-horn"),
}


def _mkdocs_build(out: Path, theme: str, plugins: list[object]) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(
        config_file=str(EXAMPLE_SITE / "mkdocs.yml"), site_dir=str(out), plugins=plugins,
        theme={"name": theme, "highlightjs": False},
    )
    build(config)


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory):
    """Each site built by its host, then `graphsearch build`, all served by one local server."""
    root = tmp_path_factory.mktemp("hosts")
    www = root / "www"
    www.mkdir()
    site, config = zensical_build(root / "zensical-project")
    assert graphsearch_build(site, "--config", str(config)) == 0
    site.rename(www / "zensical")
    site, config = zensical_build(root / "zensical-nosearch-project", ZENSICAL_SEARCH_OFF)
    assert graphsearch_build(site, "--config", str(config)) == 0
    site.rename(www / "zensical-nosearch")
    _mkdocs_build(www / "mkdocs", "mkdocs", ["search"])
    assert graphsearch_build(www / "mkdocs") == 0
    _mkdocs_build(www / "readthedocs", "readthedocs", [])
    assert graphsearch_build(www / "readthedocs", "--config", str(EXAMPLE_SITE / "mkdocs.yml")) == 0
    if importlib.util.find_spec("sphinx") is not None:
        sphinx_build = Path(sys.executable).with_name("sphinx-build")
        source = SITES / "sphinx-lighthouse"
        subprocess.run([str(sphinx_build), "-q", "-b", "html", str(source), str(www / "sphinx")], check=True)
        assert graphsearch_build(www / "sphinx") == 0
    shutil.copytree(SITES / "handmade", www / "handmade")
    assert graphsearch_build(www / "handmade") == 0
    with serve(www) as base_url:
        yield base_url


@pytest.fixture
def host_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.requests, page.problems = [], []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.problems.append(f"page error: {error.message}"))

    def on_console(message) -> None:
        # A hand-written site has no favicon: the browser's own request for one is not the page's.
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            page.problems.append(f"console error: {message.text} ({message.location.get('url')})")

    page.on("console", on_console)
    yield page
    context.close()


def _open_dialogs(page) -> int:
    """Open <dialog>s anywhere, open shadow roots included (Zensical's lives in one)."""
    return page.evaluate(
        """() => {
          const roots = [document, ...[...document.querySelectorAll("*")].map((e) => e.shadowRoot).filter(Boolean)];
          return roots.reduce((n, root) => n + root.querySelectorAll("dialog[open]").length, 0);
        }"""
    )


def _only_ours_is_open(page) -> None:
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator(f"{DIALOG} .gs-input")).to_be_focused()
    page.wait_for_timeout(150)  # a second dialog would open on the same event: give it the time
    assert _open_dialogs(page) == 1


def _close(page) -> None:
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")


@pytest.mark.parametrize("site", sorted(NESTED))
def test_on_a_nested_page_our_dialog_opens_and_lands_on_the_anchor(host_page, hosts: str, site: str) -> None:
    if site == "sphinx":
        pytest.importorskip("sphinx", reason="sphinx is not installed")
    page = host_page
    page.goto(f"{hosts}{site}/{NESTED[site]}")
    page.wait_for_load_state("load")
    expect(page.locator(DIALOG)).to_have_count(1)
    open_search(page, "/")
    _only_ours_is_open(page)
    _close(page)
    if site.startswith("zensical"):
        page.keyboard.press("Control+k")
        _only_ours_is_open(page)
        _close(page)
    if site == "zensical":
        page.set_viewport_size({"width": 600, "height": 800})  # the narrow header's search icon
        page.locator('label.md-header__button[for="__search"]').click()
        _only_ours_is_open(page)
        _close(page)
        page.set_viewport_size({"width": 1280, "height": 800})
    opener = page.locator(OPENERS[site]).first
    expect(opener).to_be_visible()
    opener.click()
    _only_ours_is_open(page)
    query, landing = LANDINGS[site]
    search_for(page, query)
    first = page.locator(OPTIONS).first
    href = first.get_attribute("href") or ""
    first.click()
    page.wait_for_url(f"**{landing}")
    target = urlsplit(page.url).fragment
    expect(page.locator(f'[id="{target}"]')).to_have_count(1)
    assert href, "the first result has no link"
    origin = urlsplit(hosts)[:2]
    foreign = [url for url in page.requests if not url.startswith("data:") and urlsplit(url)[:2] != origin]
    assert not foreign, f"requests beyond the site: {foreign}"
    if site == "zensical-nosearch":  # Zensical's index is not downloaded
        assert not [url for url in page.requests if url.endswith("/search.json")]
    assert page.problems == [], "\n".join(page.problems)
