"""The reader's search UI in a real browser (Debian chromium driven by Playwright).

Sites are built on demand into one temporary folder and served by one local HTTP server
(conftest.py's `sites`, tests/browser_support.py), so every test can check that nothing is fetched
from anywhere else. Every state is read through Playwright's auto-waiting assertions (`expect`),
never right after a key press; no test here is retried.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser_support import (  # noqa: E402 (after the skip)
    DIALOG,
    OPTIONS,
    STATUS,
    XSS_TITLE,
    assert_same_origin,
    expect,
    open_search,
    option_ids,
    search_for,
    wait_complete,
)
from mkdocs_graphsearch.bundle.settings import SearchSettings  # noqa: E402

pytestmark = pytest.mark.browser

INPUT = f"{DIALOG} .gs-input"


def expect_active(page, option_id: str) -> None:
    """The option is the combobox's active descendant and the only one selected."""
    expect(page.locator(INPUT)).to_have_attribute("aria-activedescendant", option_id)
    selected = page.locator(f'{OPTIONS}[aria-selected="true"]')
    expect(selected).to_have_count(1)
    expect(selected).to_have_id(option_id)


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
    ids = option_ids(page)
    for _ in range(ids.index(target.get_attribute("id"))):
        page.keyboard.press("ArrowDown")
    expect_active(page, target.get_attribute("id"))
    page.keyboard.press("Enter")
    page.wait_for_url("**/reference/configuration/#visibility_timeout")
    assert page.evaluate("location.hash") == "#visibility_timeout"
    expect(page.locator("#visibility_timeout")).to_be_attached()
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")
    assert_same_origin(page, sites)


@pytest.mark.parametrize(
    ("query", "title"), [("死信队列", "重试与失败（中文）"), ("ワーカーを起動する", "クイックスタート（日本語）")]
)
def test_chinese_and_japanese_queries_find_their_pages(page, sites, query, title):
    """Chromium's own Unicode data plays no part: the runtime's table classifies (issue 11)."""
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, query)
    wait_complete(page)
    expect(page.locator(f"{DIALOG} .gs-page-title").first).to_have_text(title)
    expect(page.locator(f"{DIALOG} .gs-snippet mark").first).to_be_visible()


@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_theme_gets_a_search_button(page, sites, theme):
    page.goto(sites.url(theme, ""))
    button = page.locator(".gs-trigger")
    expect(button).to_have_count(1)
    button.click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator(INPUT)).to_be_focused()
    expect(page.locator(STATUS)).to_have_text("Type to search the documentation.")


def test_keyboard_navigation(page, sites):
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page, "/")
    search_for(page, "retry")
    wait_complete(page)
    expect(page.locator(INPUT)).to_have_attribute("aria-expanded", "true")
    ids = option_ids(page)
    assert len(ids) >= 3
    expect_active(page, ids[0])
    for key in ("ArrowDown", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
    expect_active(page, ids[1])
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # wraps to the last option
    expect_active(page, ids[-1])
    page.keyboard.press("ArrowDown")  # and back to the first
    expect_active(page, ids[0])
    page.keyboard.press("Control+End")
    expect_active(page, ids[-1])
    page.keyboard.press("Control+Home")
    expect_active(page, ids[0])
    page.keyboard.press("ArrowDown")
    expect_active(page, ids[1])
    target = page.locator(f"#{ids[1]}").evaluate("a => a.href")
    page.keyboard.press("Enter")
    page.wait_for_url(target)
    anchor = urlsplit(target).fragment
    assert page.evaluate("location.hash") == f"#{anchor}"
    expect(page.locator(f"[id='{anchor}']")).to_be_attached()


def test_hover_selects_without_moving_the_list(page, sites):
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page)
    search_for(page, "worker")
    wait_complete(page)  # no later part re-renders the list below
    options = page.locator(OPTIONS)
    listbox = page.locator(f"{DIALOG} .gs-list")
    before = listbox.evaluate("l => l.scrollTop")
    box = options.nth(2).bounding_box()
    options.nth(2).hover()
    expect_active(page, options.nth(2).get_attribute("id"))
    assert listbox.evaluate("l => l.scrollTop") == before
    assert options.nth(2).bounding_box() == box
    expect(page.locator(INPUT)).to_be_focused()


def test_shortcuts_and_escape(page, sites):
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page, "s")
    page.keyboard.type("sss")  # typing `s` in the box is just text
    expect(page.locator(INPUT)).to_have_value("sss")
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")
    open_search(page, "/")
    expect(page.locator(INPUT)).to_have_value("sss")  # the query is kept
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")
    # A shortcut key typed into another field stays there.
    page.evaluate("document.body.append(Object.assign(document.createElement('input'), {id: 'other'}))")
    page.locator("#other").type("/s")
    expect(page.locator("#other")).to_have_value("/s")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")


def test_no_results_echoes_no_more_of_a_pasted_megabyte_than_the_engine_reads(page, sites):
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    page.locator(INPUT).fill("zzqqxv " * 150_000)  # ~1 MB, pasted
    wait_complete(page)
    status = page.locator(STATUS)
    expect(status).to_have_class("gs-status gs-state-empty")
    shown = status.text_content() or ""
    # The manifest's max_query_chars: the same cut as the engine's.
    cut = SearchSettings().max_query_chars
    assert shown.startswith("No results for “zzqqxv") and len(shown) <= len("No results for “”") + cut, len(shown)


def test_a_table_row_snippet_reads_with_its_headers(page, sites):
    """Issue 22: a row of the configuration table shows as `cell — Header: cell`, never as cells
    run together (engine/snippet.py, text/cells.py)."""
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "concurrency default")
    wait_complete(page)
    row = page.locator(f"{DIALOG} .gs-snippet", has_text="— Type: integer, Default: 4")
    expect(row.first).to_be_visible()
    expect(row.first.locator("mark").first).to_be_visible()
    assert "\x1f" not in page.locator(DIALOG).inner_text()


def test_a_new_keystroke_makes_the_shown_answer_incomplete(page, sites):
    """data-gs-complete speaks of the box's query: a complete answer to "dead" does not make
    "dead letter" complete before its own answer is in (tests wait on this flag)."""
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "dead")
    wait_complete(page)
    flag_after_key = page.locator(INPUT).evaluate(
        """input => {
            input.value += " letter";
            input.dispatchEvent(new InputEvent("input", { inputType: "insertText" }));
            return input.closest(".gs-box").dataset.gsComplete;  // read before any answer can come
        }"""
    )
    assert flag_after_key == "false"
    wait_complete(page)


def test_no_results_echoes_the_query(page, sites):
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    query = "zzqqxv <i>zzqqw</i>"
    page.keyboard.type(query)
    wait_complete(page)
    status = page.locator(STATUS)
    expect(status).to_have_class("gs-status gs-state-empty")
    expect(status).to_have_text(f"No results for “{query}”")
    expect(status.locator("i")).to_have_count(0)
    expect(page.locator(OPTIONS)).to_have_count(0)
    expect(page.locator(INPUT)).to_have_attribute("aria-expanded", "false")
    expect(status).to_have_attribute("aria-live", "polite")
    expect(status).to_have_attribute("role", "status")


def test_loading_state_then_results(page, sites):
    held = []
    page.route("**/search/postings.*.bin", lambda route: held.append(route))
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    # in one input event: a prefix such as "he" (a stop word) needs no term shard and would be
    # answered at once, now that the runtime is one file and starts quickly
    page.keyboard.insert_text("heartbeat")
    expect(page.locator(STATUS)).to_have_text("Loading the search index…")
    for _ in range(600):  # the worker asks for manifest.json first, then the query's term shards (30 s at most)
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
        ("corrupt", "keyword.json is corrupted (CRC-32 differs from the manifest): rebuild the site"),
        ("missing", "cannot read manifest.json: HTTP 404"),
        # Parts fetched for the query: an error, never "No results" for words the site has.
        ("bad-postings", ".bin is corrupted (CRC-32 differs from the manifest): rebuild the site"),
        ("bad-display", ".json is corrupted (CRC-32 differs from the manifest): rebuild the site"),
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
    expect(page.locator(OPTIONS)).to_have_count(0)
    expect(page.locator(DIALOG)).not_to_contain_text("No results")
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
    # Nothing found by meaning or through the graph (code results still name their language).
    expect(page.locator(f"{DIALOG} .gs-badge-semantic, {DIALOG} .gs-badge-related")).to_have_count(0)


# Never retried (like test_no_request_leaves_the_site): a rerun could hide a real injection.
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
    expect(ui.locator("img, script, [onerror], iframe, object")).to_have_count(0)
    hrefs = page.evaluate("[...document.querySelectorAll('.gs-dialog a')].map((a) => a.getAttribute('href'))")
    assert hrefs, "no result links"
    for href in hrefs:
        assert href is None or (href.startswith(sites.base_url) and "evil.example" not in href), href
    # The tampered results have no link at all, and Enter on them does nothing.
    disabled = ui.locator('.gs-option[aria-disabled="true"]')
    assert disabled.count() >= 2
    expect(ui.locator(".gs-option.gs-active")).to_have_attribute("aria-disabled", "true")
    url = page.url
    page.keyboard.press("Enter")
    page.wait_for_timeout(200)  # a navigation, had Enter started one, would be under way by now
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
    modal = page.locator("#mkdocs_search_modal")
    page.locator('a[data-bs-target="#mkdocs_search_modal"]').click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    search_for(page, "visibility_timeout")
    expect(modal).not_to_have_class(re.compile(r"\bshow\b"))
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).not_to_have_attribute("open", "")
    page.keyboard.press("s")  # the theme's own shortcut for its modal
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(modal).not_to_have_class(re.compile(r"\bshow\b"))


def test_builtin_material_search_is_taken_over(page, sites):
    page.goto(sites.url("material-builtin", "user-guide/jobs/"))
    page.locator(".md-search__input").click()
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator("#__search")).not_to_be_checked()
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
    expect(page.locator(INPUT)).to_have_value("cron")
    expect(page.locator("#rtd-search-form input")).to_have_value("")


def test_runs_without_web_workers(page, sites):
    page.add_init_script("delete window.Worker")
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "heartbeat")
    expect(page.locator(OPTIONS).first).to_be_visible()
    assert page.workers == []


# Never retried: a request to another origin must fail the run it happens in.
@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_no_request_leaves_the_site(page, sites, theme):
    page.goto(sites.url(theme, "user-guide/retries/"))
    open_search(page)
    search_for(page, "dead letter")
    wait_complete(page)  # the first option is final (a later part of the bundle may reorder the list)
    target = page.locator(OPTIONS).first.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(target)  # the next page, not the one being left
    page.wait_for_load_state("load")
    open_search(page)
    search_for(page, "cron schedule")
    wait_complete(page)  # every part requested, snippet texts included
    assert any(re.search(r"/search/text\.\d+\.[0-9a-f]+\.json$", url) for url in page.requests)
    assert_same_origin(page, sites)


@pytest.mark.parametrize("query", ["banana bread recipe", "how to cook pasta", "football scores"])
def test_off_topic_queries_find_nothing(page, sites, query):
    """No answer through a near spelling of an ordinary word (issue 22: bread -> read)."""
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    page.keyboard.type(query)
    wait_complete(page)
    expect(page.locator(STATUS)).to_have_class("gs-status gs-state-empty")


def test_the_site_name_finds_the_home_page_and_katakana_marks_whole_words(page, sites):
    """`tidewater` (mkdocs.yml's site_name) puts the home page first; a Japanese query marks
    whole words, never `ーカ` inside `ローカル` (issue 22)."""
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page)
    search_for(page, "tidewater")
    wait_complete(page)
    expect(page.locator(f"{DIALOG} .gs-page-title").first).to_have_text("Tidewater")
    page.locator(INPUT).fill("ワーカーを起動する")
    wait_complete(page)
    expect(page.locator(f"{DIALOG} .gs-page-title").first).to_have_text("クイックスタート（日本語）")
    marks = page.locator(f"{DIALOG} .gs-snippet mark").all_text_contents()
    assert "ワーカー" in marks and not any(mark in ("ーカ", "ワー", "カー") for mark in marks), marks


def test_a_japanese_query_lists_no_english_page_by_expansion(page, sites):
    """Graph expansion keeps to the seed page's language (issue 22): the Japanese page links
    English pages, which once came back as related results of a Japanese query."""
    page.goto(sites.url("mkdocs", ""))
    open_search(page)
    search_for(page, "キューを一時停止する")
    wait_complete(page)
    expect(page.locator(f"{DIALOG} .gs-page-title")).to_have_text(["クイックスタート（日本語）"])
