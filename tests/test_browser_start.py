"""The start list in a real browser: an empty, focused search box offers the site's most connected
pages (the manifest's `top`), keyboard navigable, from the manifest alone; typing replaces it."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser_support import DIALOG, OPTIONS, STATUS, XSS_TITLE, expect, open_search  # noqa: E402 (after the skip)

pytestmark = pytest.mark.browser

INPUT = f"{DIALOG} .gs-input"
START = f"{DIALOG} .gs-start"


def _top(sites) -> list[dict[str, str]]:
    sites.url("mkdocs")  # built on first use
    return json.loads((sites.root / "mkdocs" / "search" / "manifest.json").read_text(encoding="utf-8"))["top"]


def test_empty_box_lists_the_most_connected_pages_and_keys_move_through_them(page, sites):
    top = _top(sites)
    assert len(top) == 8
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page)
    expect(page.locator(START)).to_be_visible()
    expect(page.locator(f"{START} .gs-page-title")).to_have_text("Start here")
    expect(page.locator(f"{OPTIONS} .gs-section-title")).to_have_text([entry["title"] for entry in top])
    expect(page.locator(INPUT)).to_have_attribute("aria-expanded", "true")
    expect(page.locator(INPUT)).not_to_have_attribute("aria-activedescendant", re.compile(".*"))  # Enter opens nothing
    expect(page.locator(STATUS)).to_have_text("Type to search the documentation.")

    ids = page.locator(OPTIONS).evaluate_all("options => options.map((o) => o.id)")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator(INPUT)).to_have_attribute("aria-activedescendant", ids[1])
    expect(page.locator(f"#{ids[1]}")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowUp")
    expect(page.locator(INPUT)).to_have_attribute("aria-activedescendant", ids[0])

    # Typing replaces the list with results; emptying the box brings it back.
    page.keyboard.type("heartbeat")
    expect(page.locator(STATUS)).to_have_class("gs-status gs-state-count")
    expect(page.locator(START)).to_have_count(0)
    for _ in "heartbeat":
        page.keyboard.press("Backspace")
    expect(page.locator(START)).to_be_visible()
    expect(page.locator(OPTIONS)).to_have_count(len(top))

    # Enter on a chosen page opens it.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(sites.url("mkdocs", top[1]["url"]))
    expect(page.locator("h1").first).to_have_text(re.compile(re.escape(top[1]["title"].split(" ")[0])))
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")


def test_the_list_needs_the_manifest_only(page, sites):
    held = []
    page.route("**/search/keyword.*.json", lambda route: held.append(route))  # never answered
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    expect(page.locator(START)).to_be_visible()
    expect(page.locator(OPTIONS)).to_have_count(len(_top(sites)))
    expect(page.locator(STATUS)).to_have_text("Type to search the documentation.")
    assert not [url for url in page.requests if "/search/related." in url]  # the runtime never fetches it
    hrefs = page.locator(OPTIONS).evaluate_all("options => options.map((o) => o.href)")
    assert all(href.startswith(sites.url("mkdocs")) for href in hrefs), hrefs


def test_an_inline_box_shows_it_on_focus_and_hides_it_on_blur(page, sites):
    page.goto(sites.url("xss", "find/"))  # a page with <div id="graphsearch">
    page.evaluate("document.body.append(Object.assign(document.createElement('input'), {id: 'elsewhere'}))")
    start = page.locator("#graphsearch .gs-start")
    expect(start).to_have_count(0)
    page.locator("#graphsearch .gs-input").focus()
    expect(start).to_be_visible()
    # The site's hostile page title is shown as text, never as HTML.
    expect(start.locator(".gs-section-title", has_text=XSS_TITLE)).to_have_count(1)
    expect(start.locator("img")).to_have_count(0)
    assert page.dialogs == []
    page.locator("#elsewhere").focus()
    expect(start).to_have_count(0)
