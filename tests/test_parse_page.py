"""parse_page as a whole: decoding, titles, ids, spans, options and robustness."""

from __future__ import annotations

import time

import pytest

from mkdocs_graphsearch.parse import Page, parse_page
from mkdocs_graphsearch.parse.frontmatter import parse_front_matter


def owners(page: Page, line: int) -> list[str]:
    return [c.id for c in page.chunks if c.line <= line <= c.end_line]


def assert_spans_partition(page: Page, text: str) -> None:
    """Every non-blank line after the front matter: one root/section owner, maybe one code."""
    by_id = {c.id: c for c in page.chunks}
    for number, content in enumerate(text.split("\n"), start=1):
        if number <= page.front_matter_lines or not content.strip():
            continue
        holders = [c for c in page.chunks if c.line <= number <= c.end_line]
        tiles = [c for c in holders if c.kind != "code"]
        codes = [c for c in holders if c.kind == "code"]
        assert len(tiles) == 1, (number, content, [c.id for c in holders])
        assert len(codes) <= 1, (number, content, [c.id for c in holders])
        if codes:
            assert by_id[codes[0].parent or ""] is tiles[0]


def test_public_api() -> None:
    import mkdocs_graphsearch.parse as parse

    assert sorted(parse.__all__) == sorted(
        ["BrokenLink", "Chunk", "Link", "Page", "PageWarning", "extract_symbols", "parse_page", "slugify"]
    )


def test_invalid_utf8_is_replaced_and_warned_at_its_line() -> None:
    page = parse_page(b"# Title\n\nok\nbad \xff\xfe byte\n", "p.md", set())
    assert "bad \ufffd\ufffd byte" in page.chunks[0].text
    assert [(w.line, w.message) for w in page.warnings] == [(4, "invalid UTF-8 (replaced by U+FFFD)")]


def test_nul_bom_and_crlf() -> None:
    source = "\ufeff# Ti\x00tle\r\n\r\nText\r\n\r\n## Sec\rtion\r\n".encode()
    page = parse_page(source, "p.md", set())
    assert page.title == "Title"
    assert [(c.title, c.line, c.end_line) for c in page.chunks] == [("Title", 1, 4), ("Sec", 5, 6)]
    assert page.chunks[1].text == "tion"


def test_str_with_lone_surrogates_is_cleaned() -> None:
    page = parse_page("# A\ud800B\n", "p.md", set())
    assert page.title == "A\ufffdB"


@pytest.mark.parametrize(
    ("source", "title"),
    [
        ("---\ntitle: From YAML\n---\n# From h1\n", "From YAML"),
        ("Intro\n\n# From h1\n", "From h1"),
        ("```\n# not a title\n```\n\n## Section\n", "name-of_file"),
        ("", "name-of_file"),
        ("#\n\nEmpty h1\n", "name-of_file"),
    ],
)
def test_title_sources(source: str, title: str) -> None:
    assert parse_page(source, "dir/name-of_file.md", set()).title == title


def test_chunk_depth_controls_sections() -> None:
    source = "# T\n\n## Two\n\n### Three\n\n###### Six\n\nsix text\n"
    deep = parse_page(source, "p.md", set(), chunk_depth=6)
    assert [c.level for c in deep.chunks] == [1, 2, 3, 6]
    shallow = parse_page(source, "p.md", set(), chunk_depth=2)
    assert [c.title for c in shallow.chunks] == ["T", "Two"]
    assert shallow.chunks[1].text == "Three\nSix\nsix text"
    none = parse_page(source, "p.md", set(), chunk_depth=0)
    assert [c.kind for c in none.chunks] == ["page"]
    assert none.chunks[0].text == "Two\nThree\nSix\nsix text"


def test_ids_stay_unique_when_titles_collide_with_generated_ids() -> None:
    source = "```\nroot code\n```\n\n## code-1\n\n## A\n\n## A::2\n\n## A\n"
    page = parse_page(source, "p.md", set())
    ids = [c.id for c in page.chunks]
    assert len(ids) == len(set(ids))
    assert ids == ["p.md", "p.md::code-1", "p.md::code-1::2", "p.md::A", "p.md::A::2", "p.md::A::2::2"]


def test_code_chunk_fields() -> None:
    page = parse_page("# T\n\n## Sec\n\n```ts title=\"a.ts\"\nexport class Api {}\n```\n", "p.md", set())
    code = page.chunks[-1]
    assert (code.kind, code.id, code.parent, code.level, code.anchor, code.title) == (
        "code", "p.md::Sec::code-1", "p.md::Sec", 3, "sec", "Sec")
    assert (code.language, code.symbols, code.text, code.line, code.end_line) == (
        "ts", ["Api"], "export class Api {}", 5, 7)
    assert code.heading_path == ["T", "Sec"]


def test_front_matter_only_and_spans_with_front_matter() -> None:
    text = "---\ntitle: T\n---\n\nIntro\n\n## A\n\ntext\n"
    page = parse_page(text, "p.md", set())
    assert page.front_matter_lines == 3
    assert [(c.line, c.end_line) for c in page.chunks] == [(1, 6), (7, 9)]
    assert_spans_partition(page, text)


def test_front_matter_details() -> None:
    assert parse_front_matter(["---", "title: x", "..."]).title == "x"  # `...` also closes
    assert parse_front_matter(["---", "title: x"]).line_count == 0  # unclosed: not front matter
    assert parse_front_matter(["---", "- a list", "---"]).warnings  # not a mapping: text + warning
    assert parse_front_matter(["---", "tags: solo", "---"]).tags == ["solo"]
    assert parse_front_matter(["---", "tags: [a, a, 1]", "---"]).tags == ["a", "1"]
    assert parse_front_matter(["---", "search: {boost: 1e999}", "---"]).boost == 1.0
    assert parse_front_matter(["---", "search: {boost: 0}", "---"]).boost == 0.0
    assert parse_front_matter(["---", "search: {exclude: yes}", "---"]).exclude is True  # YAML 1.1 bool
    assert parse_front_matter(["---", "x: !!python/object:os.system ls", "---"]).warnings
    assert parse_front_matter(["", "---", "title: x", "---"]).title is None  # must be the first line


def test_admonition_heading_and_unclosed_fence_in_admonition() -> None:
    text = "# T\n\n!!! note\n\n    ## Inside\n\n    ```\n    never closed\n\nAfter\n"
    page = parse_page(text, "p.md", set())
    assert [c.kind for c in page.chunks] == ["page", "section", "code"]
    assert page.chunks[1].title == "Inside"
    assert any("unclosed" in w.message and w.line == 7 for w in page.warnings)
    assert_spans_partition(page, text)


def test_fences_inside_fences_are_not_admonitions() -> None:
    text = "````markdown\n!!! note\n\n    ```python\n    x = 1\n    ```\n````\n"
    page = parse_page(text, "p.md", set())
    assert [c.kind for c in page.chunks] == ["page", "code"]
    assert page.chunks[1].text == "!!! note\n\n    ```python\n    x = 1\n    ```"


def test_many_headings_and_big_page_stay_fast() -> None:
    # Guards against super-linear blow-ups, not speed tests: CPU time, so machine load does not count.
    text = "\n\n".join(f"## Heading {i % 100}\n\ntext {i} [[h{i}]]" for i in range(10_000))
    start = time.process_time()
    page = parse_page(text, "p.md", set())
    assert time.process_time() - start < 10
    assert len(page.chunks) == 10_001 and len({c.id for c in page.chunks}) == 10_001
    assert len(page.broken_links) == 10_000

    one_paragraph = "[[x]] [a](b.md) *y* " * 60_000  # 1.2 MB in one paragraph: plain text past the limit
    start = time.process_time()
    page = parse_page(one_paragraph, "p.md", set())
    assert time.process_time() - start < 10
    assert len(page.broken_links) == 60_000  # wiki links still seen


@pytest.mark.parametrize(
    "source",
    [
        b"\x00\x01\x02\xff" * 1000,
        ">" * 5000 + " deep",
        "- " * 3000 + "x",
        "".join("    " * i + "!!! note\n" for i in range(200)),
        "[" * 20000,
        "---\n" + "[" * 5000 + "\n---\n",
        "```\n" * 999,
        "# " + "{" * 10000,
        "<div>\n<!--" + "x" * 1000,
        "\t\t- a\n\t\t\t```\n\t\tb\n",
        "\u2028\u2029\x0b\x0c\x1c\x85\n# h\n",
    ],
)
def test_hostile_inputs_do_not_raise_or_hit_the_fallback(source: bytes | str) -> None:
    page = parse_page(source, "p.md", set())
    assert not [w for w in page.warnings if "internal parser error" in w.message]
    assert page.chunks and page.chunks[0].kind == "page"


def test_last_resort_fallback_keeps_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import mkdocs_graphsearch.parse.markdown as markdown_module

    def boom(*args: object) -> Page:
        raise RuntimeError("bug")

    monkeypatch.setattr(markdown_module, "_parse", boom)
    page = parse_page(b"# T\n\nbody\n", "p.md", set())
    assert page.chunks[0].text == "# T\n\nbody\n"
    assert "internal parser error" in page.warnings[0].message


def test_a_code_span_of_stop_words_stays_a_name() -> None:
    """`where` in backticks is an API name, not prose (issue 22): both front-ends keep its
    backticks in body text, so the tokenizer indexes it; headings stay plain (they are shown)."""
    from mkdocs_graphsearch.index.passages import passage_text
    from mkdocs_graphsearch.parse.rendered import parse_rendered_page
    from mkdocs_graphsearch.text.tokenize import tokenize

    source = (
        "# Filters\n\nUse `where` to filter, `select()` to pick. Where does it go?\n\n## `as`\n\nx\n\n"
        "## `select` and `from`\n\ny\n"
    )
    html = (
        '<h1 id="filters">Filters</h1><p>Use <code>where</code> to filter, <code>select()</code> to pick. '
        'Where does it go?</p><h2 id="as"><code>as</code></h2><p>x</p>'
        '<h2 id="select-and-from"><code>select</code> and <code>from</code></h2><p>y</p>'
    )
    for page in (
        parse_page(source, "f.md", ["f.md"]),
        parse_rendered_page(html, "f.md", title="Filters", page_url="f/", pages_by_url={"f/": "f.md"}),
    ):
        root, section, mixed = page.chunks
        assert root.text == "Use `where` to filter, select() to pick. Where does it go?"
        assert tokenize(root.text).count("where") == 1 and section.title == "as"
        # A heading mixing names and prose: shown plain, its stop-word name kept as a symbol.
        assert mixed.title == "select and from" and mixed.symbols == ["from"]
        # The embedding model reads the text as shown, as before the backticks were kept.
        assert passage_text(root) == "Filters\nUse where to filter, select() to pick. Where does it go?"
