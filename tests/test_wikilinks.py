"""`[[wiki]]` links become markdown links before MkDocs renders the page."""

from __future__ import annotations

import pytest

from mkdocs_graphsearch.parse.wikilinks import markdown_start_line, rewrite_wiki_links

PAGES = {"index.md", "guide/tides.md", "guide/mooring.md", "reference/api.md", "my page.md"}


def rewrite(text: str, path: str = "guide/tides.md") -> tuple[str, list[str]]:
    out, warnings = rewrite_wiki_links(text, path, PAGES)
    return out, [str(w) for w in warnings]


def test_targets_alias_and_heading() -> None:
    out, warnings = rewrite("See [[mooring]], [[api|the API]] and [[mooring#Bollard Ratings]].")
    assert out == (
        "See [mooring](<mooring.md>), [the API](<../reference/api.md>) and "
        "[mooring#Bollard Ratings](<mooring.md#bollard-ratings>)."
    )
    assert warnings == []


def test_same_page_heading_and_odd_names() -> None:
    out, _ = rewrite("[[#Spring tides|below]] and [[my page]] and [[a]b]]", "index.md")
    assert out == "[below](<#spring-tides>) and [my page](<my page.md>) and [[a]b]]"


def test_a_markdown_link_with_bracketed_text_is_not_a_wiki_link() -> None:
    """mkdocs-docs' release notes: `[[1]](../about/contributing.md#...)` is a footnote-style link."""
    text = "Thanks [[1]](mooring.md#bollards) and [[mooring]]."
    out, warnings = rewrite(text)
    assert out == "Thanks [[1]](mooring.md#bollards) and [mooring](<mooring.md>)."
    assert warnings == []


def test_link_text_is_escaped() -> None:
    out, _ = rewrite("[[mooring|see *this* \\ one]]")
    assert out == "[see *this* \\\\ one](<mooring.md>)"


def test_unresolved_link_is_its_text_and_one_warning_with_the_source_line() -> None:
    out, warnings = rewrite_wiki_links("intro\n\nGo to [[anchorage|the anchorage]].", "index.md", PAGES, first_line=5)
    assert out == "intro\n\nGo to the anchorage."
    assert [str(w) for w in warnings] == ["index.md:7: wiki link [[anchorage]] matches no page; shown as text"]


def test_an_excluded_page_is_linked_as_markdown_links_are_and_a_built_one_wins() -> None:
    excluded = ["mooring.md", "drafts/anchorage.md"]  # exclude_docs: MkDocs reports such links at INFO
    out, warnings = rewrite_wiki_links("[[anchorage]], [[mooring]], [[nowhere]]", "index.md", PAGES,
                                       excluded_pages=excluded)  # fmt: skip
    assert out == "[anchorage](<drafts/anchorage.md>), [mooring](<guide/mooring.md>), nowhere"
    assert [str(w) for w in warnings] == ["index.md:1: wiki link [[nowhere]] matches no page; shown as text"]


def test_code_is_left_alone() -> None:
    text = "`[[mooring]]` and ``a [[mooring]] b``\n\n```\n[[mooring]]\n```\n\n    [[mooring]]\n\n[[mooring]]"
    out, warnings = rewrite(text)
    assert out == text.replace("\n[[mooring]]", "\n[mooring](<mooring.md>)").replace(
        "```\n[mooring](<mooring.md>)", "```\n[[mooring]]"
    )
    assert out.count("[[mooring]]") == 4 and warnings == []


def test_wiki_links_inside_admonitions_are_rewritten() -> None:
    out, _ = rewrite('!!! note "Tip"\n    Read [[mooring]] first.\n')
    assert out == '!!! note "Tip"\n    Read [mooring](<mooring.md>) first.\n'


def test_start_line_after_front_matter() -> None:
    source = b"---\ntitle: X\n---\n\n# Hello\n"
    assert markdown_start_line("# Hello\n", source) == 5
    assert markdown_start_line("# Changed by another plugin\n", source) == 1


def test_the_page_is_parsed_up_to_its_last_wiki_link_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a line is code depends on the lines before it only: a fence left open holds the
    link after it, and the lines after the last link are not parsed (mkdocs-docs' release notes)."""
    import mkdocs_graphsearch.parse.wikilinks as wikilinks

    parsed: list[list[str]] = []
    code_lines = wikilinks._code_lines

    def spy(lines: list[str]) -> set[int]:
        parsed.append(lines)
        return code_lines(lines)

    monkeypatch.setattr(wikilinks, "_code_lines", spy)
    page = "# A\n\nSee [[b]].\n\n```toml\n[[tool.x]]\nname = [[b]]\n" + "\nmore text\n" * 50
    text, warnings = rewrite_wiki_links(page, "a.md", ["a.md", "b.md"])
    assert text.startswith("# A\n\nSee [b](<b.md>).\n\n```toml\n[[tool.x]]\nname = [[b]]\n") and warnings == []
    assert [len(lines) for lines in parsed] == [7]  # up to the line of the last `[[b]]`
    parsed.clear()
    unclosed = "# A\n\nA list starts with `[[` in this language.\n"  # `[[` and no wiki link: no parse
    assert rewrite_wiki_links(unclosed, "a.md", ["a.md"]) == (unclosed, []) and parsed == []
