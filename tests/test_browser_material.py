"""Material integration and small screens (issue 24): `?h=` on result links so Material's
search.highlight marks the landed page, the header's search field kept a field, Enter right
after a paste opens the pasted query's result, the filter chips behind a "Filters" toggle on a
phone, and a picked result closing the theme's navigation drawer.

Every state is read through Playwright's auto-waiting assertions (`expect`); no wall-clock limit.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser_support import DIALOG, OPTIONS, expect, open_search, search_for, wait_complete  # noqa: E402

pytestmark = pytest.mark.browser

INPUT = f"{DIALOG} .gs-input"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(error.message))
    yield page
    context.close()
    assert not errors, errors


# ------------------------------------------------------------------------------ search.highlight


@pytest.mark.parametrize("site", ["material-highlight", "material-builtin-highlight"])
def test_result_links_carry_the_query_and_material_marks_the_landed_page(page, sites, site):
    page.goto(sites.url(site, ""))
    open_search(page, "/")
    search_for(page, "dead letter kind:prose")
    wait_complete(page)
    first = page.locator(OPTIONS).first
    href = first.get_attribute("href")
    assert parse_qs(urlsplit(href).query)["h"] == ["dead letter"]  # the words, not the filter
    first.click()
    page.wait_for_url(href)
    # Material's own highlighter (with its search plugin) or ours (without), in Material's markup.
    marks = page.locator('[data-md-component="content"] mark[data-md-highlight]')
    expect(marks.first).to_be_visible()
    assert set(" ".join(marks.all_inner_texts()).lower().split()) <= {"dead", "letter"}


def test_without_search_highlight_links_carry_no_query(page, sites):
    page.goto(sites.url("material", ""))
    open_search(page, "/")
    search_for(page, "dead letter")
    assert "h=" not in (page.locator(OPTIONS).first.get_attribute("href") or "")


# ------------------------------------------------------------------------------ the header field


def test_materials_header_keeps_a_search_field(page, sites):
    page.goto(sites.url("material-highlight", ""))
    opener = page.locator(".md-header .gs-trigger")
    expect(opener).to_be_visible()
    expect(opener).to_contain_text("Search")  # a field's placeholder, not an icon alone
    box = opener.bounding_box()
    assert box is not None and box["width"] > 150  # Material's own field: 11.7rem
    icon, label = opener.locator("svg").bounding_box(), opener.locator(".gs-trigger-label").bounding_box()
    assert icon is not None and label is not None
    assert abs(icon["y"] + icon["height"] / 2 - label["y"] - label["height"] / 2) < 4  # side by side, as a field
    opener.click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")


def test_on_a_phone_materials_header_shows_the_search_icon(phone, sites):
    phone.goto(sites.url("material-highlight", ""))
    opener = phone.locator(".md-header .gs-trigger")
    expect(opener).to_be_visible()
    box = opener.bounding_box()
    assert box is not None and box["width"] < 60  # as Material's own: an icon below 60em


# ------------------------------------------------------------------------------ Enter after a paste


def test_enter_right_after_a_paste_opens_the_pasted_querys_result(page, sites):
    page.goto(sites.url("material-highlight", ""))
    open_search(page, "/")
    search_for(page, "cron schedule")
    wait_complete(page)
    expected = page.locator(OPTIONS).first.get_attribute("href")
    page.locator(INPUT).fill("")
    search_for(page, "dead letter queue")
    wait_complete(page)
    previous = page.locator(OPTIONS).first.get_attribute("href")
    assert urlsplit(previous).path != urlsplit(expected).path
    # Paste the first query back and press Enter in the same task, so no answer can come between
    # (the fastest a reader can be): the list still shows the other query's results.
    page.locator(INPUT).evaluate(
        """(input, text) => {
            input.value = text;
            input.dispatchEvent(new Event("input", { bubbles: true }));
            input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
        }""",
        "cron schedule",
    )
    page.wait_for_url(expected)


# ------------------------------------------------------------------------------ phones: chips, drawer


def test_on_a_phone_the_chips_wait_behind_a_filters_toggle(phone, sites):
    phone.goto(sites.url("material-highlight", ""))
    phone.locator(".md-header .gs-trigger").click()
    expect(phone.locator(DIALOG)).to_have_attribute("open", "")
    toggle = phone.locator(f"{DIALOG} .gs-chips-toggle")
    chips = phone.locator(f"{DIALOG} .gs-chip")
    expect(toggle).to_be_visible()
    total = chips.count()
    assert total > 20
    expect(toggle).to_have_text(f"Filters ({total})")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(chips.first).to_be_hidden()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    group = phone.locator(f"{DIALOG} .gs-chips")
    # Every chip within the screen's width (they wrap: no sideways strip to discover).
    assert group.evaluate("g => g.scrollWidth <= g.clientWidth")
    for box in (chips.nth(i).bounding_box() for i in range(total)):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    chips.filter(has_text=re.compile(r"^kind:code$")).click()
    expect(phone.locator(INPUT)).to_have_value(re.compile(r"kind:code"))
    expect(toggle).to_have_text(f"Filters (1 of {total} on)")
    toggle.click()  # closed again: the pressed chip stays in view, the others wait
    expect(chips.filter(has_text=re.compile(r"^kind:code$"))).to_be_visible()
    expect(chips.filter(has_text=re.compile(r"^kind:prose$"))).to_be_hidden()


def test_the_filters_toggle_is_not_shown_on_a_wide_screen(page, sites):
    page.goto(sites.url("material-highlight", ""))
    open_search(page, "/")
    expect(page.locator(f"{DIALOG} .gs-chip").first).to_be_visible()
    expect(page.locator(f"{DIALOG} .gs-chips-toggle")).to_be_hidden()


def _pick_a_result_on_this_page(page, query: str, path: str) -> None:
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    page.locator(INPUT).fill(query)
    wait_complete(page)
    target = page.locator(OPTIONS).first
    href = target.get_attribute("href")
    assert urlsplit(href).path.endswith(path)  # on the page being read: only the anchor changes
    target.click()
    page.wait_for_url(href)
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")


def test_picking_a_result_on_the_same_page_closes_materials_drawer(phone, sites):
    # Material closes its drawer on a hash change itself: a guard that ours keeps it so.
    phone.goto(sites.url("material", "user-guide/retries/"))
    phone.locator('label.md-header__button[for="__drawer"]').click()
    expect(phone.locator("#__drawer")).to_be_checked()
    phone.keyboard.press("/")  # the drawer's overlay covers the header's opener
    _pick_a_result_on_this_page(phone, "jitter random factor", "/user-guide/retries/")
    expect(phone.locator("#__drawer")).not_to_be_checked()


def test_picking_a_result_from_the_mkdocs_themes_menu_closes_it(phone, sites):
    phone.goto(sites.url("mkdocs", "user-guide/retries/"))
    toggler = phone.locator('.navbar-toggler[data-bs-target="#navbar-collapse"]')
    toggler.click()
    menu = phone.locator("#navbar-collapse")
    expect(menu).to_have_class(re.compile(r"\bshow\b"))
    phone.locator(".navbar .gs-trigger").click()  # the Search link inside the opened menu
    _pick_a_result_on_this_page(phone, "jitter random factor", "/user-guide/retries/")
    expect(menu).not_to_have_class(re.compile(r"\bshow\b"))
    expect(toggler).to_have_attribute("aria-expanded", "false")
