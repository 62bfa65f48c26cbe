"""The HTML front-end: rendered page HTML -> the same Page model as the markdown front-end."""

from __future__ import annotations

import time
from pathlib import Path

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_graphsearch.parse.markdown import parse_page
from mkdocs_graphsearch.parse.model import Page
from mkdocs_graphsearch.parse.rendered import parse_rendered_page

FIXTURES = Path(__file__).parent / "fixtures" / "rendered"
PAGES = {"": "index.md", "api/": "api.md", "api2/": "api2.md", "guide/install/": "guide/install.md",
         "guide/": "guide/index.md"}


def _render(text: str, *extensions: str, **configs: dict[str, object]) -> str:
    base = ["toc", "tables", "fenced_code", "attr_list"]
    return markdown.markdown(text, extensions=[*base, *extensions],
                             extension_configs={"toc": {"permalink": True}, **configs})


def _parse(html: str, path: str = "index.md", url: str = "", title: str = "T", **kw: object) -> Page:
    return parse_rendered_page(html, path, title=title, page_url=url, pages_by_url=PAGES, **kw)  # type: ignore[arg-type]


def _by_anchor(page: Page) -> dict[str, object]:
    return {c.anchor: c for c in page.chunks if c.kind in ("section", "api")}


def test_sections_by_real_ids_and_titles_without_pilcrow() -> None:
    html = _render("# Top\n\nIntro.\n\n## Install it { #setup }\n\nText.\n\n### Deep\n\n## Install it\n\nMore.\n")
    page = _parse(html, title="Top")
    assert [(c.kind, c.title, c.anchor, c.level) for c in page.chunks] == [
        ("page", "Top", "", 1),
        ("section", "Install it", "setup", 2),
        ("section", "Deep", "deep", 3),
        ("section", "Install it", "install-it", 2),
    ]
    assert [c.id for c in page.chunks] == [
        "index.md", "index.md::Install it", "index.md::Deep", "index.md::Install it::2"
    ]
    assert page.chunks[2].parent == "index.md::Install it"
    assert page.chunks[2].heading_path == ["Top", "Install it", "Deep"]
    assert "¶" not in " ".join(c.title + c.text for c in page.chunks)
    assert page.chunks[0].text == "Intro." and page.broken_links == [] and page.warnings == []


def test_same_chunks_as_markdown_front_end_on_a_plain_page() -> None:
    source = ("# Guide\n\nSee [install](install.md#requirements) and [home](../index.md).\n\n"
              "## Use `uv run`\n\n| a | b |\n|---|---|\n| one | two |\n\n```python\nx = 1\n```\n\n"
              "##### Folded\n\nbody\n\n## Use `uv run`\n\nagain\n")
    from_source = parse_page(source, "guide/index.md", set(PAGES.values()) | {"guide/install.md"}, chunk_depth=4)
    # MkDocs rewrites `.md` hrefs to page URLs; Python-Markdown alone does not.
    html = _render(source).replace('"install.md#', '"install/#').replace('"../index.md"', '"../"')
    rendered = _parse(html, "guide/index.md", "guide/", title="Guide", chunk_depth=4)
    assert [c.to_json() for c in rendered.chunks] == [c.to_json() for c in from_source.chunks]


def test_deeper_headings_fold_and_heading_without_id() -> None:
    html = "<h2>No id</h2><p>a</p><h3 id='x'>Three</h3><p>b</p>"
    page = _parse(html, chunk_depth=2)
    assert [(c.title, c.anchor) for c in page.chunks[1:]] == [("No id", "")]
    assert page.chunks[1].text == "a\nThree\nb"


def test_front_matter_title_keeps_the_h1_as_text() -> None:
    page = _parse(_render("# Shown heading\n\nbody\n"), title="From front matter", tags=["t"], boost=2.0, exclude=True)
    assert page.title == "From front matter" and page.chunks[0].text == "Shown heading\nbody"
    assert (page.tags, page.boost, page.exclude) == (["t"], 2.0, True)


def test_code_language_text_and_symbols_across_highlighters() -> None:
    source = "## Code\n\n```python\ndef greet(name):\n    return name\n```\n\nUse `inline()` here.\n"
    variants = [
        _render(source),  # fenced_code: <pre><code class="language-python">
        _render(source, "pymdownx.highlight", "pymdownx.superfences",
                **{"pymdownx.highlight": {"pygments_lang_class": True, "linenums": True}}),
        _render(source, "pymdownx.highlight", "pymdownx.superfences",
                **{"pymdownx.highlight": {"use_pygments": False}}),
        '<h2 id="code">Code</h2><pre data-lang="Python"><code>def greet(name):\n    return name\n</code></pre>'
        "<p>Use <code>inline()</code> here.</p>",
    ]
    for html in variants:
        page = _parse(html)
        code = [c for c in page.chunks if c.kind == "code"]
        assert len(code) == 1, html
        assert (code[0].language, code[0].symbols, code[0].id) == ("python", ["greet"], "index.md::Code::code-1"), html
        assert code[0].text == "def greet(name):\n    return name", html
        assert "inline()" in page.chunks[1].text


def test_line_numbers_never_leak_into_code() -> None:
    source = "```js\nexport function hello() {}\nconst b = 2\n```\n"
    for style in ("table", "inline", "pymdownx-inline"):
        html = _render(source, "pymdownx.highlight", "pymdownx.superfences",
                       **{"pymdownx.highlight": {"linenums": True, "linenums_style": style}})
        (code,) = [c for c in _parse(html).chunks if c.kind == "code"]
        assert code.text == "export function hello() {}\nconst b = 2", style
    html = _render("```python\nx = 1\n```\n", "codehilite", codehilite={"linenums": True})
    (code,) = [c for c in _parse(html).chunks if c.kind == "code"]
    assert code.text == "x = 1"


def test_recorded_material_page() -> None:
    page = _parse((FIXTURES / "material_index.html").read_text(), title="Harbor docs")
    code = [c for c in page.chunks if c.kind == "code"]
    assert [c.text for c in code] == ["def greet(name):\n    return name", "export function hello() {}"]
    assert [c.symbols for c in code] == [["greet"], ["hello"]]
    section = page.chunks[1]
    assert (section.title, section.anchor) == ("Code", "code")
    assert "one\x1ftwo" in section.text.split("\n")  # a table row is one line, its cells apart (text/cells.py)
    links = [(link.target, link.anchor) for link in page.chunks[0].links]
    assert links == [("guide/install.md", "requirements"), ("api.md", "")]


def test_mkdocstrings_sections_symbols_and_hidden_root() -> None:
    page = _parse((FIXTURES / "mkdocstrings_api.html").read_text(), "api.md", "api/", title="API")
    sections = _by_anchor(page)
    assert list(sections) == ["harbor", "harbor.MooringPlanner", "harbor.MooringPlanner.__init__",
                              "harbor.MooringPlanner.assign_berth", "harbor.tide_table", "hidden-root"]
    berth = sections["harbor.MooringPlanner.assign_berth"]
    assert berth.symbols == ["harbor.MooringPlanner.assign_berth", "assign_berth"]
    # An object's heading makes an `api` entry, which defines the object's names.
    assert [c.kind for c in sections.values()] == ["api"] * 5 + ["section"]
    assert berth.definitions == berth.symbols and sections["hidden-root"].definitions == []
    assert berth.parent == "api.md::MooringPlanner" and berth.level == 4
    assert "The vessel name." in berth.text and "¶" not in berth.title
    assert sections["harbor"].symbols == ["harbor"]
    # `show_root_heading: false`: no heading, but the text and the object's names stay in the section.
    hidden = sections["hidden-root"]
    assert "Tide heights for a day." in hidden.text and hidden.symbols == ["harbor.tide_table", "tide_table"]
    # Source listings are code chunks of their object, line numbers left out.
    source = [c for c in page.chunks if c.kind == "code" and c.parent == berth.id]
    assert source and source[0].text.startswith("def assign_berth(self") and "15" not in source[0].text.split()


def test_mkdocstrings_folded_when_deeper_than_chunk_depth() -> None:
    page = _parse((FIXTURES / "mkdocstrings_api.html").read_text(), "api.md", "api/", title="API", chunk_depth=3)
    planner = _by_anchor(page)["harbor.MooringPlanner"]
    assert "The vessel name." in planner.text and "assign_berth(vessel, length=10.0)" in planner.text
    assert {"harbor.MooringPlanner.assign_berth", "assign_berth", "__init__"} <= set(planner.symbols)


def test_mkdocstrings_separate_signature_and_badges() -> None:
    page = _parse((FIXTURES / "mkdocstrings_separate_signature.html").read_text(), "api2.md", "api2/", title="API two")
    sections = _by_anchor(page)
    capacity = sections["harbor.MooringPlanner.capacity"]
    assert capacity.title == "capacity"  # no `class-attribute` label badges in the title
    assert capacity.symbols == ["harbor.MooringPlanner.capacity", "capacity"]
    berth = sections["harbor.MooringPlanner.assign_berth"]
    assert berth.title == "assign_berth" and "assign_berth(vessel, length=10.0)" in berth.text
    assert not [c for c in page.chunks if c.kind == "code"]  # signatures are their section's text
    assert sections["harbor.MooringPlanner"].symbols == ["harbor.MooringPlanner", "MooringPlanner"]


def test_links_resolved_against_the_page_url() -> None:
    html = ('<p><a href="../">up</a> <a href="../install/#requirements">req</a> <a href="#local">here</a> '
            '<a href="/api2/">abs</a> <a href="../index.html">idx</a> <a href="../../api/index.html#x%20y">enc</a> '
            '<a href="https://example.com/">ext</a> <a href="mailto:a@b">mail</a> <a href="../img/x.png">img</a> '
            '<a href="../../../out/">out</a> <a href="">empty</a></p>')
    page = _parse(html, "guide/install.md", "guide/install/")
    assert [(link.target, link.anchor, link.kind, link.line) for link in page.chunks[0].links] == [
        ("guide/index.md", "", "markdown", 0),
        ("guide/install.md", "requirements", "markdown", 0),
        ("guide/install.md", "local", "markdown", 0),
        ("api2.md", "", "markdown", 0),
        ("guide/index.md", "", "markdown", 0),
        ("api.md", "x y", "markdown", 0),
    ]
    assert page.broken_links == []
    # use_directory_urls: false
    flat = {"index.html": "index.md", "guide/install.html": "guide/install.md"}
    page = parse_rendered_page('<p><a href="../index.html">home</a> <a href="install.html#a">i</a></p>',
                               "guide/install.md", title="I", page_url="guide/install.html", pages_by_url=flat)
    links = [(link.target, link.anchor) for link in page.chunks[0].links]
    assert links == [("index.md", ""), ("guide/install.md", "a")]


def test_links_in_headings_go_to_their_section_and_permalinks_are_skipped() -> None:
    page = _parse(_render("# T\n\n## See [api](../../api/)\n\ntext\n"), "guide/install.md", "guide/install/")
    assert page.chunks[0].links == []
    assert [(link.target, link.anchor) for link in page.chunks[1].links] == [("api.md", "")]


def test_text_skips_scripts_styles_and_decodes_entities() -> None:
    html = ("<p>a &amp; b&nbsp;c</p><script>var hidden = 1;</script><style>.x{}</style>"
            "<ul><li>one</li><li>two<br>three</li></ul><p><img alt='diagram'> end</p>")
    assert _parse(html).chunks[0].text == "a & b\xa0c\none\ntwo\nthree\ndiagram end"


def test_malformed_html_never_raises() -> None:
    for html in ["<h2 id='a'>open heading<p>para", "<pre><code class='language-py'>x = 1", "</div></p><h3>",
                 "<![CDATA[x", "<!-- unclosed", "<a href='x", "<h2 id=x>t</h2><<<<", "\x00\ud800"]:
        page = _parse(html)
        assert page.chunks[0].id == "index.md"


def test_pathological_inputs_stay_fast() -> None:
    # A guard against quadratic blow-ups (minutes), not a speed test: CPU time of this process,
    # so other jobs loading the machine do not count.
    for html in ["<!--" * 50_000, "</" * 100_000, "<a " * 100_000, "<![" * 50_000, "<!x" * 100_000,
                 "<li>" * 100_000 + "</ul>", "<h2>" * 50_000]:
        start = time.process_time()
        _parse(html)
        assert time.process_time() - start < 5, html[:10]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["<h2 id='a'>", "</h2>", "<pre>", "</pre>", "<code class='language-js'>",
                                 "<a href='#x'>", "</a>", "<table><tr><td>", "</td>", "text", "&amp;", "<!--", "-->",
                                 "<", ">", "<br>", "<a class='headerlink'>", "<div class='doc-object'><a id='p.q'>",
                                 "<h1>", "\n"]),
                max_size=60).map("".join) | st.text(max_size=300))
def test_hypothesis_never_raises(html: str) -> None:
    page = _parse(html)
    assert page.chunks[0].kind == "page" and not page.warnings
    assert len({c.id for c in page.chunks}) == len(page.chunks)


def test_links_carry_their_text_as_in_the_markdown_front_end() -> None:
    source = ("# Guide\n\nSee [the *retry*\npolicy](install.md#requirements), [`uv run`](../index.md)\n"
              "and [![logo](x.png)](install.md).\n\n## See [the API](../api.md)\n\ntext\n")
    from_source = parse_page(source, "guide/index.md", set(PAGES.values()) | {"guide/install.md"})
    html = (_render(source).replace('"install.md#', '"install/#').replace('"install.md"', '"install/"')
            .replace('"../index.md"', '"../"').replace('"../api.md"', '"../api/"'))
    rendered = _parse(html, "guide/index.md", "guide/", title="Guide")
    texts = [[(link.target, link.anchor, link.text) for link in chunk.links] for chunk in rendered.chunks]
    assert texts == [[(link.target, link.anchor, link.text) for link in chunk.links] for chunk in from_source.chunks]
    assert texts == [
        [("guide/install.md", "requirements", "the retry policy"), ("index.md", "", "uv run"),
         ("guide/install.md", "", "logo")],
        [("api.md", "", "the API")],  # the heading's permalink is no link
    ]
