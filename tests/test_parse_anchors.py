"""Anchors must be the ids Python-Markdown's toc (+ attr_list) gives the built HTML."""

from __future__ import annotations

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown.extensions.toc import slugify as pm_slugify
from markdown.extensions.toc import unique as pm_unique

from mkdocs_graphsearch.parse import parse_page, slugify
from mkdocs_graphsearch.parse.anchors import parse_heading_attrs, unique

HEADINGS = [
    "Hello World",
    "Hello World",
    "hello-world",
    "Hello World_1",
    "Hello World",
    "Über Größe straße",
    "日本語のタイトル",
    "Ça va? Très bien!",
    "C++ & C# (compared)",
    "The `use_directory_urls` option",
    "*Emphasis* and **strong** and ~~strike~~",
    "A [link](other.md) in a title",
    "Entities &amp; &lt;tag&gt; &copy;",
    "HTML <span class=\"x\">inside</span> title",
    "Dots.and.dashes -- and --- more",
    "Numbers 1.2.3 and v2",
    "Emoji 🎉 party",
    "snake_case_name",
    "Trailing hashes ##",
    "Title {#explicit}",
    "Other { #explicit }",
    "With class {.cls}",
    "Colon form {: #colon-id }",
    "Key value {id=kv-id data-x=1}",
    "x_1",
    "x",
    "x",
    "x",
    "ﬁ ligature Ⅻ roman ²",
    "Title with `{#not-attr}`",
    "Bad attr {#a}}",
    "No space{#nospace}",
    "Quote \"double\" 'single'",
    "Slash / and back\\\\slash",
    "!!!",
    "—",
    "   padded   title   ",
    "Ünïcödé ÀÉÎÕÜ",
    "Ελληνικά and Русский",
    "Mixed {#mixed .c key=\"v w\"}",
    "Ends with attr-like {not attr}",
    "Config: `site_name` (required)",
]


def _pm_ids(source: str) -> list[str]:
    md = markdown.Markdown(extensions=["toc", "attr_list"], extension_configs={"toc": {"toc_depth": 6}})
    md.convert(source)
    ids: list[str] = []

    def walk(tokens: list[dict[str, object]]) -> None:
        for token in tokens:
            ids.append(str(token["id"]))
            walk(token["children"])  # type: ignore[arg-type]

    walk(md.toc_tokens)  # type: ignore[attr-defined]
    return ids


def _our_ids(source: str) -> list[str]:
    page = parse_page(source, "page.md", set(), chunk_depth=6)
    return [chunk.anchor for chunk in page.chunks if chunk.kind == "section"]


def test_anchors_match_python_markdown_for_many_headings() -> None:
    source = "\n\n".join(f"## {text}" for text in HEADINGS) + "\n"
    assert _our_ids(source) == _pm_ids(source)


def test_anchors_match_python_markdown_across_levels_and_setext() -> None:
    source = (
        "## Intro\n\nSetext one\n==========\n\n### Sub\n\nSetext two\n----------\n\n"
        "#### Deep\n\n##### Deeper\n\n###### Deepest\n\n# Sub\n\n## Sub\n"
    )
    assert _our_ids(source) == _pm_ids(source)


def test_explicit_ids_are_reserved_before_generated_ones() -> None:
    # toc collects every explicit id first, so an earlier plain "Custom" already gets _1.
    source = "## Custom\n\n## Later {#custom}\n"
    assert _our_ids(source) == _pm_ids(source) == ["custom_1", "custom"]


def test_empty_headings_get_underscore_ids_like_python_markdown() -> None:
    source = "## Intro\n\n## !!!\n\n## ...\n\n## 日本\n"
    assert _our_ids(source) == _pm_ids(source) == ["intro", "_1", "_2", "_3"]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_slugify_equals_python_markdown_slugify(text: str) -> None:
    assert slugify(text) == pm_slugify(text, "-")


# Titles built from characters with no markdown meaning: both parsers must see the same text.
_SAFE_TITLE = st.text(
    alphabet=st.sampled_from(list("abcXYZ019 -.,:;?'\"/+=%$@()éÜßñ日本ΩЖ")), min_size=1, max_size=20
).filter(lambda t: t.strip() and not t.strip().startswith(("-", "+", "=", "0", "1", "9")))


@settings(max_examples=40, deadline=None)
@given(st.lists(_SAFE_TITLE, min_size=1, max_size=8))
def test_random_titles_and_repeats_match_python_markdown(titles: list[str]) -> None:
    source = "## start\n\n" + "\n\n".join(f"## {t}" for t in titles + titles[:2]) + "\n"
    assert _our_ids(source) == _pm_ids(source)


@pytest.mark.parametrize(
    "ids",
    [
        ["a", "a", "a"],
        ["a_1", "a", "a", "a_1"],
        ["", "", "_1"],
        ["x_2", "x", "x", "x", "x_1"],
        ["b"] * 50 + ["b_3", "b_60", "b"],
    ],
)
def test_unique_matches_python_markdown(ids: list[str]) -> None:
    ours: set[str] = set()
    counters: dict[str, int] = {}
    theirs: set[str] = set()
    their_counters: dict[str, int] = {}
    for anchor in ids:
        assert unique(anchor, ours, counters) == pm_unique(anchor, theirs, their_counters)


def test_attr_list_parsing() -> None:
    attrs = parse_heading_attrs("Title {#one .cls #two}")
    assert (attrs.text, attrs.explicit_id) == ("Title", "two")
    attrs = parse_heading_attrs("Title {#a}}")
    assert (attrs.text, attrs.explicit_id) == ("Title {#a}}", None)
    attrs = parse_heading_attrs("Title ## { #x }")
    assert (attrs.text, attrs.explicit_id) == ("Title", "x")
    assert parse_heading_attrs("Title{#x}").explicit_id is None
