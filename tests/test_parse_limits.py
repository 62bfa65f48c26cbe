"""Parser limits never lose text: deep nesting, YAML alias bombs, unbounded values in warnings."""

from __future__ import annotations

import time

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_graphsearch.parse.frontmatter import MAX_VALUES
from mkdocs_graphsearch.parse.markdown import NESTING_LIMIT, parse_page
from mkdocs_graphsearch.parse.model import WARNING_VALUE_LIMIT, Page
from mkdocs_graphsearch.parse.rendered import parse_rendered_page
from mkdocs_graphsearch.parse.wikilinks import rewrite_wiki_links
from mkdocs_graphsearch.text.tokenize import tokenize

DEEP_LIST = "".join("  " * depth + f"- item{depth}word\n" for depth in range(10))
DEEP_QUOTE = ">" * 50 + " quoteword\n" + ">" * 50 + " quotemore\n"
LATER = "\n## Later\n\nlaterword\n"


def _words(page: Page) -> set[str]:
    return {token for chunk in page.chunks for token in tokenize(chunk.title + "\n" + chunk.text)}


def _rendered(source: str) -> Page:
    html = markdown.markdown(source, extensions=["toc"])
    return parse_rendered_page(html, "p.md", title="P", page_url="p/", pages_by_url={"p/": "p.md"})


@pytest.mark.parametrize("deep", [DEEP_LIST, DEEP_QUOTE, DEEP_LIST + "\n" + DEEP_QUOTE])
@pytest.mark.parametrize("front_end", ["markdown", "rendered"])
def test_deep_nesting_keeps_every_word_and_later_sections(deep: str, front_end: str) -> None:
    source = "# P\n\n" + deep + LATER
    page = parse_page(source, "p.md", {"p.md"}) if front_end == "markdown" else _rendered(source)
    assert set(tokenize(source)) - {"p"} <= _words(page)
    assert [c.title for c in page.chunks if c.kind == "section"] == ["Later"]
    assert page.warnings == []  # within the limits: nothing to report


@pytest.mark.parametrize(
    ("deep", "first_line"),
    [
        (">" * 10_000 + " quoteword\n", 3),
        ("- " * 10_000 + "itemword\n", 3),
        ("".join("  " * depth + f"- item{depth}word\n" for depth in range(NESTING_LIMIT)), 3 + NESTING_LIMIT // 2 - 1),
    ],
)
def test_absurd_nesting_is_fast_keeps_the_text_and_warns_at_its_line(deep: str, first_line: int) -> None:
    # Guards against super-linear blow-ups, not speed tests: CPU time, so machine load does not count.
    source = "# P\n\n" + deep + "more after\n" + LATER
    start = time.process_time()
    page = parse_page(source, "p.md", {"p.md"})
    assert time.process_time() - start < 2
    words = {token for token in tokenize(source) if token.isalpha()} - {"p"}
    assert words <= _words(page)
    assert [c.title for c in page.chunks if c.kind == "section"] == ["Later"]
    assert page.chunks[1].text == "laterword"
    [warning] = page.warnings
    assert warning.path == "p.md" and "nesting deeper than" in warning.message
    assert warning.line == first_line


def _bomb(levels: int = 9) -> str:
    rows = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    rows += [f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(rows) + f"\ntags: *l{levels - 1}\ntitle: Bomb\n"


def test_yaml_alias_bomb_is_refused_quickly_with_one_bounded_warning() -> None:
    front = _bomb()
    assert len(front.encode()) < 700
    source = "---\n" + front + "---\n\n# Heading\n\nbodyword\n"
    start = time.process_time()
    page = parse_page(source, "b.md", {"b.md"})
    assert time.process_time() - start < 0.5
    [warning] = page.warnings
    assert f"more than {MAX_VALUES} values" in warning.message and warning.line == 1
    assert len(str(warning)) < 200
    # Still a YAML mapping (MkDocs strips it): not page text, and none of its fields are read.
    assert page.front_matter_lines == front.count("\n") + 2
    assert page.title == "Heading" and page.tags == []
    assert "lol" not in _words(page) and "bodyword" in _words(page)


def test_self_referencing_front_matter_is_refused() -> None:
    page = parse_page("---\nloop: &a [*a]\ntitle: T\n---\nbody\n", "c.md", {"c.md"})
    assert page.title == "c" and "more than" in page.warnings[0].message


def test_alias_free_and_small_alias_front_matter_are_read() -> None:
    plain = parse_page("---\ntitle: Plain\ntags: [a, b]\nsearch: {boost: 2}\n---\nbody\n", "a.md", {"a.md"})
    assert (plain.title, plain.tags, plain.boost, plain.warnings) == ("Plain", ["a", "b"], 2.0, [])
    shared = parse_page("---\nname: &n Shared\ntitle: *n\ntags: [*n, x]\n---\nbody\n", "s.md", {"s.md"})
    assert (shared.title, shared.tags, shared.warnings) == ("Shared", ["Shared", "x"], [])


@pytest.mark.parametrize(
    ("source", "echoed"),
    [
        ("---\ntags: [[" + "x" * 100_000 + ", " + "x, " * 5_000 + "]]\n---\nbody\n", "front matter tag ["),
        ("[a](" + "y" * 50_000 + ".md)\n", "broken link to y"),
        ("[[" + "z" * 400 + "]]\n", "broken link to z"),
    ],
)
def test_warnings_never_echo_unbounded_values(source: str, echoed: str) -> None:
    page = parse_page(source, "w.md", {"w.md"})
    [warning] = [w for w in page.warnings if echoed in w.message]
    assert len(warning.message) < WARNING_VALUE_LIMIT + 80
    assert "\u2026" in warning.message or "..." in warning.message


def test_unresolved_wiki_link_warning_is_bounded() -> None:
    _, [warning] = rewrite_wiki_links("[[" + "z" * 400 + "]]\n", "w.md", {"w.md"})
    assert len(warning.message) < WARNING_VALUE_LIMIT + 80
    assert "\u2026" in warning.message or "..." in warning.message


# One line of nested block markup: quote markers and list bullets mixed, at any depth.
_PREFIX = st.lists(st.sampled_from(["> ", "- ", "1. ", "  ", "* "]), max_size=300).map("".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_PREFIX, st.sampled_from(["alpha", "beta", "gamma"])), min_size=1, max_size=8))
def test_any_nesting_keeps_every_word_and_the_next_section(rows: list[tuple[str, str]]) -> None:
    source = "".join(f"{prefix}{word}\n" for prefix, word in rows) + LATER
    page = parse_page(source, "p.md", {"p.md"})
    assert {word for _, word in rows} <= _words(page)
    assert [c.title for c in page.chunks if c.kind == "section"] == ["Later"]
    assert all(w.path == "p.md" and w.line >= 1 for w in page.warnings)
