"""Filter chips and code results in a real browser (issue 12): a chip, clicked or pressed from the
keyboard, puts its `facet:value` in the box, shows as pressed, and the results narrow."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser_support import (  # noqa: E402 (after the skip)
    DIALOG,
    OPTIONS,
    XSS_TAG,
    assert_same_origin,
    expect,
    open_search,
    search_for,
    wait_complete,
)

pytestmark = pytest.mark.browser

INPUT = f"{DIALOG} .gs-input"
CHIPS = f"{DIALOG} .gs-chip"


def chip(page, word: str):
    return page.locator(f'{CHIPS}[data-word="{word}"]')


def kinds(page) -> set[str]:
    """The kind classes of the options on screen (gs-kind-code, gs-kind-section...)."""
    return set(page.locator(OPTIONS).evaluate_all(
        "options => options.map((o) => [...o.classList].find((c) => c.startsWith('gs-kind-')))"
    ))


def test_clicking_a_chip_filters_and_clicking_again_clears(page, sites):
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "retry")
    wait_complete(page)
    assert kinds(page) > {"gs-kind-code"}, "unfiltered, prose and code both come back"
    code = chip(page, "kind:code")
    expect(code).to_have_attribute("aria-pressed", "false")
    code.click()
    expect(page.locator(INPUT)).to_have_value("retry kind:code ")
    expect(page.locator(INPUT)).to_be_focused()  # a click leaves the reader typing
    expect(code).to_have_attribute("aria-pressed", "true")
    wait_complete(page)
    expect(page.locator(f"{OPTIONS}:not(.gs-kind-code)")).to_have_count(0)
    assert kinds(page) == {"gs-kind-code"}
    # Code results say their language.
    expect(page.locator(f"{OPTIONS} .gs-badge-kind", has_text="python").first).to_be_visible()
    code.click()
    expect(page.locator(INPUT)).to_have_value("retry")
    expect(code).to_have_attribute("aria-pressed", "false")
    expect(page.locator(f"{OPTIONS}:not(.gs-kind-code)").first).to_be_visible()
    assert_same_origin(page, sites)


def test_chips_work_from_the_keyboard(page, sites):
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "worker")
    wait_complete(page)
    rust = chip(page, "lang:rust")
    expect(rust).to_be_visible()
    # Tab from the box: the close button, then the chips in order.
    words = page.locator(CHIPS).evaluate_all("chips => chips.map((c) => c.dataset.word)")
    for _ in range(2 + words.index("lang:rust")):
        page.keyboard.press("Tab")
    expect(rust).to_be_focused()
    page.keyboard.press("Enter")
    expect(rust).to_have_attribute("aria-pressed", "true")
    expect(rust).to_be_focused()
    expect(page.locator(INPUT)).to_have_value("worker lang:rust ")
    wait_complete(page)
    expect(page.locator(OPTIONS)).to_have_count(1)
    rust_section = sites.url("mkdocs", "how-to/go-and-rust-workers/#rust")
    expect(page.locator(OPTIONS).first).to_have_attribute("href", rust_section)
    expect(page.locator(f"{OPTIONS} .gs-badge-kind")).to_have_text("rust")
    page.keyboard.press("Space")
    expect(rust).to_have_attribute("aria-pressed", "false")
    expect(page.locator(INPUT)).to_have_value("worker")


def test_a_typed_filter_presses_its_chip_and_lists_pages(page, sites):
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "in:how-to")
    wait_complete(page)
    expect(chip(page, "in:how-to")).to_have_attribute("aria-pressed", "true")
    titles = page.locator(f"{DIALOG} .gs-page-title")
    expect(titles).to_have_text(["Handling dead jobs", "Deploying to production", "Workers in Go and Rust"])
    expect(page.locator(f"{DIALOG} .gs-badge-related")).to_have_count(0)


def test_a_hostile_tag_is_a_chip_of_text(page, sites):
    page.goto(sites.url("xss", ""))
    open_search(page)
    search_for(page, "zebrafish")
    wait_complete(page)
    word = "tags:<img-src=x-onerror=alert(5)>"
    hostile = chip(page, word)
    expect(hostile).to_have_text(word)
    expect(hostile).to_have_attribute("title", f"Tag: {XSS_TAG} (1)")
    hostile.click()
    wait_complete(page)
    expect(page.locator(f"{DIALOG} .gs-page-title")).to_have_count(1)
    expect(page.locator(f"{DIALOG} img, {DIALOG} [onerror]")).to_have_count(0)
    assert page.dialogs == []
