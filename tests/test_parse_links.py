"""Link resolution: markdown links relative to the page, wiki links by file name."""

from __future__ import annotations

import pytest

from mkdocs_graphsearch.parse import parse_page
from mkdocs_graphsearch.parse.links import WikiIndex, find_wiki_links, resolve_markdown_link

KNOWN = {
    "index.md",
    "guide/page.md",
    "guide/other.md",
    "guide/sub/index.md",
    "guide/readme-dir/README.md",
    "reference/api.md",
    "reference/other.md",
    "reference/deep/other.md",
    "über uns.md",
}


@pytest.mark.parametrize(
    ("href", "target", "anchor"),
    [
        ("other.md", "guide/other.md", ""),
        ("./other.md#part", "guide/other.md", "part"),
        ("../reference/api.md#get-page", "reference/api.md", "get-page"),
        ("sub/../other.md", "guide/other.md", ""),
        ("#only-anchor", "guide/page.md", "only-anchor"),
        ("sub/", "guide/sub/index.md", ""),
        ("sub/index.md", "guide/sub/index.md", ""),
        ("sub", "guide/sub/index.md", ""),
        ("readme-dir/", "guide/readme-dir/README.md", ""),
        ("other", "guide/other.md", ""),
        ("../reference/other/#x", "reference/other.md", "x"),
        ("other/", "guide/other.md", ""),  # URL style from guide/page/ (use_directory_urls)
        ("../über%20uns.md", "über uns.md", ""),
        ("other.md?plain=1#L3", "guide/other.md", "L3"),
        ("/reference/api.md", "reference/api.md", ""),
        ("../index.md", "index.md", ""),
        ("other.md/#stray-slash", "guide/other.md", "stray-slash"),
        ("%6Fther.md", "guide/other.md", ""),
        ("other.md#caf%C3%A9", "guide/other.md", "café"),
    ],
)
def test_resolves(href: str, target: str, anchor: str) -> None:
    resolution = resolve_markdown_link(href, "guide/page.md", KNOWN)
    assert resolution is not None
    assert (resolution.target, resolution.anchor) == (target, anchor)


@pytest.mark.parametrize(
    "href",
    [
        "https://example.com/page.md",
        "http://x",
        "mailto:someone@example.com",
        "ftp://host/file.md",
        "data:text/plain;base64,SGk=",
        "//cdn.example.com/x.md",
        "javascript:alert(1)",
        "vscode://file/x.md",
        "tel:+123",
        "img/logo.png",
        "../assets/style.css",
        "file.pdf",
        "",
        "#",
        "/absolute/missing/",  # site-absolute URLs may be served by something else: not checked
        "/missing.md",
    ],
)
def test_ignored(href: str) -> None:
    assert resolve_markdown_link(href, "guide/page.md", KNOWN) is None


@pytest.mark.parametrize(
    ("href", "missing"),
    [
        ("gone.md", "guide/gone.md"),
        ("../../outside.md", "../../outside.md"),
        ("nowhere/", "guide/nowhere/"),
        ("nowhere", "guide/nowhere"),
    ],
)
def test_broken(href: str, missing: str) -> None:
    resolution = resolve_markdown_link(href, "guide/page.md", KNOWN)
    assert resolution is not None and resolution.target is None
    assert resolution.missing == missing


def test_wiki_links_found_with_alias_and_heading() -> None:
    found = [(m.target, m.heading, m.display) for m in find_wiki_links(
        "[[page]] [[page|Alias]] [[page#Some Heading]] [[#Local]] [[a|b|c]] [[]] [[ ]] [[x\ny]]"
    )]
    assert found == [
        ("page", "", "page"),
        ("page", "", "Alias"),
        ("page", "Some Heading", "page#Some Heading"),
        ("", "Local", "#Local"),
        ("a", "", "b|c"),
    ]


def test_wiki_resolution_by_stem_deterministic_on_ambiguity() -> None:
    index = WikiIndex(KNOWN)
    # "other" is guide/other.md, reference/other.md and reference/deep/other.md: shortest wins.
    assert index.resolve("other", "", "index.md").target == "guide/other.md"
    assert index.resolve("deep/other", "", "index.md").target == "reference/deep/other.md"
    assert index.resolve("reference/other", "", "index.md").target == "reference/other.md"
    assert index.resolve("API", "", "index.md").target == "reference/api.md"  # case-insensitive fallback
    assert index.resolve("api.md", "Get Page!", "index.md").anchor == "get-page"
    assert index.resolve("", "Local Part", "guide/page.md").target == "guide/page.md"
    missing = index.resolve("nope", "", "index.md")
    assert missing.target is None and missing.missing == "nope"


def test_same_result_whatever_the_order_of_known_pages() -> None:
    ordered = sorted(KNOWN)
    forward = WikiIndex(ordered).resolve("other", "", "x.md").target
    backward = WikiIndex(list(reversed(ordered))).resolve("other", "", "x.md").target
    assert forward == backward == "guide/other.md"


def test_links_land_in_their_chunk_with_lines_and_broken_ones_warn() -> None:
    source = (
        "# Title\n\n[a](other.md)\n\n## Section\n\nx [[api]] y\n\n"
        "```\n[[in-code]] [b](gone.md)\n```\n\n[c](gone.md) `[[inline code]]`\n"
    )
    page = parse_page(source, "guide/page.md", KNOWN)
    root, section, code = page.chunks
    assert [(link.target, link.kind, link.line) for link in root.links] == [("guide/other.md", "markdown", 3)]
    assert [(link.target, link.kind, link.line) for link in section.links] == [("reference/api.md", "wiki", 7)]
    assert code.links == []
    assert [(b.target, b.line, b.kind) for b in page.broken_links] == [("guide/gone.md", 13, "markdown")]
    assert [str(w) for w in page.warnings] == ["guide/page.md:13: broken link to guide/gone.md (no such page)"]


def test_link_lines_follow_soft_breaks() -> None:
    page = parse_page("para line one\nline [two](other.md)\nthree [[api]]\n", "guide/page.md", KNOWN)
    assert [link.line for link in page.chunks[0].links] == [2, 3]


def test_links_in_headings_belong_to_the_section() -> None:
    page = parse_page("# T\n\n## See [api](../reference/api.md)\n", "guide/page.md", KNOWN)
    assert page.chunks[1].title == "See api"
    assert [link.target for link in page.chunks[1].links] == ["reference/api.md"]


def test_reference_style_links_resolve() -> None:
    page = parse_page("# T\n\nSee [the API][api].\n\n[api]: ../reference/api.md#x\n", "guide/page.md", KNOWN)
    assert [(link.target, link.anchor) for link in page.chunks[0].links] == [("reference/api.md", "x")]


def test_links_carry_the_text_the_reader_sees() -> None:
    # Emphasis, inline code and line breaks inside the brackets; a wiki link's alias, else its
    # written target; a link in a table cell; an image's alt text is the text of an image link.
    source = (
        "# T\n\nSee [the *retry*\npolicy](other.md#x), [`run_all`](../reference/api.md) and\n"
        "[[api|the API]], [[other#Some Heading]], [![logo](x.png)](other.md).\n\n"
        "| a | [in a cell](other.md) |\n|---|---|\n"
    )
    page = parse_page(source, "guide/page.md", KNOWN)
    assert [(link.target, link.kind, link.text) for link in page.chunks[0].links] == [
        ("guide/other.md", "markdown", "the retry policy"),
        ("reference/api.md", "markdown", "run_all"),
        ("reference/api.md", "wiki", "the API"),
        ("guide/other.md", "wiki", "other#Some Heading"),
        ("guide/other.md", "markdown", "logo"),
        ("guide/other.md", "markdown", "in a cell"),
    ]
