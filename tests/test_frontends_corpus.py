"""Both front-ends agree on the shared corpora: markdown source vs what Python-Markdown renders.

For every page: render it as MkDocs does by default (`toc`, `tables`, `fenced_code`; plus
`attr_list`, which all four corpora's sites use for `{ #id }` heading ids, and toc permalinks
so the `¶` markers are exercised), parse the source with `parse_page` and the HTML with
`parse_rendered_page`, and compare (kind, title, anchor, level, language) per chunk exactly and
each chunk's text as a token multiset. A page may differ only for a reason in `REASONS`, each a
predicate over its source. The corpora carry no mkdocs.yml, so the extension list is fixed here.
Needs ../shared/corpora; skipped without it.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import markdown
import pytest
from markdown_it import MarkdownIt

from conftest import CORPORA, require_shared
from mkdocs_graphsearch.parse.folder import markdown_files
from mkdocs_graphsearch.parse.frontmatter import parse_front_matter
from mkdocs_graphsearch.parse.markdown import decode_source, parse_page
from mkdocs_graphsearch.parse.model import Page
from mkdocs_graphsearch.parse.rendered import parse_rendered_page
from mkdocs_graphsearch.text.tokenize import tokenize

pytestmark = pytest.mark.corpus

CORPUS_NAMES = ["mkdocs-docs", "uv-docs", "fastapi-docs", "k8s-docs"]
EXTENSIONS = ["toc", "tables", "fenced_code", "attr_list"]
EXTENSION_CONFIGS = {"toc": {"permalink": True}}

_COMMONMARK = MarkdownIt("commonmark").enable(["table"])


@functools.lru_cache(maxsize=1)  # two reasons ask in turn about the same page
def _block_types(source: str) -> set[str]:
    return {token.type for token in _COMMONMARK.parse(source)}


def _lines(pattern: str) -> Callable[[str], bool]:
    compiled = re.compile(pattern, re.M)
    return lambda source: compiled.search(source) is not None


_LIST_ITEM_RE = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+\S")


def _list_without_blank_line(source: str) -> bool:
    previous = ""
    for line in source.split("\n"):
        if _LIST_ITEM_RE.match(line) and previous.strip() and not _LIST_ITEM_RE.match(previous):
            return True
        previous = line
    return False


# Why a page may differ, each a predicate over its source (front matter removed). Checked in
# order; a differing page that matches none fails the test.
REASONS: list[tuple[str, Callable[[str], bool]]] = [
    ("block extension syntax Python-Markdown's defaults do not render (admonitions `!!!`/`???`, "
     "tabs `===`, blocks `///`)", _lines(r"^\s*(?:!!!|\?\?\?\+?|===|/{3,})\s*\S")),
    ("indented code block: markdown-it keeps it as text, the HTML cannot tell it from a fence",
     lambda source: "code_block" in _block_types(source)),
    ("fence not at column 0 (in a list or quote): Python-Markdown's fenced_code does not see it",
     _lines(r"^[ \t>]+(?:```|~~~)")),
    ("fence options Python-Markdown's fenced_code rejects (`title=`, `linenums=`: pymdownx."
     "superfences syntax), so the fence is not code there",
     _lines(r"^\s*(?:```|~~~)[ ]*\.?[\w#.+-]*[ ]+(?!hl_lines=)\w+=")),
    ("raw HTML block: Python-Markdown and CommonMark delimit and render raw HTML differently",
     lambda source: "html_block" in _block_types(source)),
    ("list right after a paragraph line: Python-Markdown wants a blank line first, so the "
     "list markers stay paragraph text", _list_without_blank_line),
    ("Hugo shortcodes: markdown inside `{{% %}}` / `{{< >}}` renders differently",
     _lines(r"\{\{[<%]")),
]


def _page_source(corpus: Path, rel: str) -> str:
    text, _ = decode_source((corpus / rel).read_bytes())
    return text


def _shape(page: Page) -> list[tuple[object, ...]]:
    return [(c.kind, c.title, c.anchor, c.level, c.language) for c in page.chunks]


def _same_tokens(one: str, other: str) -> bool:
    """Token multisets equal; equal word multisets imply it (tokenizing is the slow part)."""
    return sorted(one.split()) == sorted(other.split()) or Counter(tokenize(one)) == Counter(tokenize(other))


def _agree(one: Page, other: Page) -> bool:
    return _shape(one) == _shape(other) and all(
        _same_tokens(a.text, b.text) for a, b in zip(one.chunks, other.chunks, strict=True)
    )


def _url(rel: str) -> str:
    """use_directory_urls: `a/b.md` -> `a/b/`, `a/index.md` -> `a/`."""
    stem = rel[: -len(".md")]
    if stem == "index" or stem.endswith("/index") or stem == "README" or stem.endswith("/README"):
        stem = stem.rpartition("/")[0]
    return stem + "/" if stem else ""


def _compare_corpus(name: str) -> dict[str, object]:
    corpus = require_shared(CORPORA / name)
    paths = markdown_files(corpus)
    known = set(paths)
    pages_by_url = {_url(rel): rel for rel in paths}
    md = markdown.Markdown(extensions=EXTENSIONS, extension_configs=EXTENSION_CONFIGS)
    chunks = {"markdown": 0, "rendered": 0}
    by_reason: Counter[str] = Counter()
    unexplained: list[str] = []
    for rel in paths:
        source = _page_source(corpus, rel)
        lines = source.split("\n")
        front = parse_front_matter(lines)
        body = "\n".join(lines[front.line_count :])
        from_source = parse_page(source, rel, known)
        html = md.reset().convert(body)
        rendered = parse_rendered_page(
            html, rel, title=from_source.title, page_url=_url(rel), pages_by_url=pages_by_url,
            tags=front.tags, boost=front.boost, exclude=front.exclude,
        )
        chunks["markdown"] += len(from_source.chunks)
        chunks["rendered"] += len(rendered.chunks)
        assert not rendered.warnings, (rel, rendered.warnings)
        if _agree(from_source, rendered):
            continue
        reason = next((why for why, applies in REASONS if applies(body)), None)
        if reason is None:
            unexplained.append(rel)
        else:
            by_reason[reason] += 1
    agree = len(paths) - sum(by_reason.values()) - len(unexplained)
    return {"pages": len(paths), "agree": agree, "chunks": chunks, "differ_by_reason": dict(by_reason),
            "unexplained": unexplained}


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_front_ends_agree(name: str) -> None:
    summary = _compare_corpus(name)
    print(f"\n{name}: {summary}")
    assert not summary["unexplained"], summary["unexplained"]
