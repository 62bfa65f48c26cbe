"""Property test: any markdown-ish input parses, and chunks own every line exactly once."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_graphsearch.parse import parse_page
from mkdocs_graphsearch.parse.markdown import decode_source

KNOWN = {"index.md", "a/b.md", "a/c.md", "x.md"}

LINE = st.one_of(
    st.sampled_from([
        "# Title", "## Section", "### Sub", "#### Four", "##### Five", "###### Six", "#", "## Same", "## Same",
        "Setext", "===", "---", "```", "```python", "~~~", "````", "```js title=\"x\"", "    indented code",
        "!!! note \"Admon\"", "??? tip", "=== \"Tab\"", "    ```bash", "    ```", "        nested",
        "- item", "1. item", "> quote", "> ## quoted heading", "| a | b |", "|---|---|", "<div>", "</div>",
        "<!-- comment", "-->", "[link](a/c.md#x)", "[bad](missing.md)", "[[b]]", "[[c|alias]]", "[[nope]]",
        "[[b#Heading]]", "`[[code]]`", "title: x", "tags: [a, b]", "search: {boost: 2}", "...",
        "## Heading {#explicit}", "def f(): pass", "{{< note >}}", "",
    ]),
    st.text(max_size=30),
)
DOCUMENT = st.lists(LINE, max_size=40).map("\n".join)
SOURCE = st.one_of(
    DOCUMENT,
    DOCUMENT.map(lambda text: "---\n" + text),  # front matter fragments, closed or not
    DOCUMENT.map(lambda text: text.replace("\n", "\r\n")),
    st.binary(max_size=400),
    st.tuples(DOCUMENT, st.binary(max_size=20)).map(lambda pair: pair[0].encode() + pair[1]),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SOURCE, st.integers(min_value=0, max_value=6))
def test_parse_never_raises_and_spans_partition_lines(source: str | bytes, depth: int) -> None:
    page = parse_page(source, "a/b.md", KNOWN, chunk_depth=depth)
    assert not [w for w in page.warnings if "internal parser error" in w.message]
    assert parse_page(source, "a/b.md", sorted(KNOWN), chunk_depth=depth).to_json() == page.to_json()

    chunks = page.chunks
    ids = [c.id for c in chunks]
    assert chunks[0].kind == "page" and chunks[0].id == "a/b.md" and chunks[0].parent is None
    assert len(ids) == len(set(ids))
    by_id = {c.id: c for c in chunks}
    for position, chunk in enumerate(chunks[1:], start=1):
        parent = by_id[chunk.parent or ""]
        assert ids.index(parent.id) < position  # parents come first
        assert parent.kind != "code"
        assert chunk.level == parent.level + 1 if chunk.kind == "code" else chunk.level > 0
        assert chunk.level <= max(depth, 1) + 1

    text, _ = decode_source(source)
    lines = text.split("\n")
    n_lines = len(lines) - 1 if text.endswith("\n") else len(lines)
    for chunk in chunks:
        assert chunk.end_line <= max(n_lines, 0)
        if chunk.kind == "code":
            parent = by_id[chunk.parent or ""]
            assert parent.line <= chunk.line <= chunk.end_line <= parent.end_line
    for number in range(page.front_matter_lines + 1, n_lines + 1):
        if not lines[number - 1].strip():
            continue
        holders = [c for c in chunks if c.line <= number <= c.end_line]
        tiles = [c for c in holders if c.kind != "code"]
        codes = [c for c in holders if c.kind == "code"]
        assert len(tiles) == 1, (number, lines[number - 1], [c.id for c in holders])
        assert len(codes) <= 1, (number, [c.id for c in holders])
        if codes:
            assert codes[0].parent == tiles[0].id
