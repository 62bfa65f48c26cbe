"""Turn `[[wiki]]` links into markdown links before MkDocs renders a page.

Why: wiki links feed the search graph, but Python-Markdown does not know them, so readers
would see raw brackets. Rewritten as `[text](<relative/path.md#anchor>)`, MkDocs itself turns
them into URLs (and checks them); an unresolved one becomes its plain text and one warning.
Code (fences, indented code, inline code spans) is left alone, as the parser does.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection

from .anchors import slugify as default_slugify
from .blocks import flatten_blocks
from .links import WikiIndex, WikiMatch, find_wiki_links
from .model import PageWarning, clip

__all__ = ["markdown_start_line", "rewrite_wiki_links"]

_BACKTICKS_RE = re.compile(r"`+")
_LINK_TEXT_ESCAPES = str.maketrans({"[": r"\[", "]": r"\]", "\\": "\\\\"})


def _code_lines(lines: list[str]) -> set[int]:
    """0-based indexes of lines inside fenced or indented code blocks."""
    # Block rules only: code blocks do not depend on inline markup, whose parse was most of the
    # time here on a long release log (on every build: such a page has `[[`). Imported here:
    # markdown-it is loaded only for a page with a wiki link.
    from markdown_it.rules_core import block, normalize
    from markdown_it.rules_core.state_core import StateCore

    from .markdown import MARKDOWN_PARSER

    state = StateCore("\n".join(flatten_blocks(lines)), MARKDOWN_PARSER, {})
    normalize(state)
    block(state)
    inside: set[int] = set()
    for token in state.tokens:
        if token.type in ("fence", "code_block") and token.map:
            inside.update(range(token.map[0], token.map[1]))
    return inside


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Spans of inline code in one line: a backtick run up to the next run of the same length."""
    spans: list[tuple[int, int]] = []
    runs = list(_BACKTICKS_RE.finditer(line))
    i = 0
    while i < len(runs):
        opening = runs[i]
        closing = next((j for j in range(i + 1, len(runs)) if len(runs[j].group()) == len(opening.group())), None)
        if closing is None:
            i += 1
            continue
        spans.append((opening.start(), runs[closing].end()))
        i = closing + 1
    return spans


def markdown_start_line(markdown: str, source: bytes) -> int:
    """The source line where `markdown` starts: MkDocs strips the front matter (and the blank
    lines after it) before plugins see a page. 1 when the text was changed before us."""
    text = source.decode("utf-8", errors="replace").replace("\r\n", "\n")
    if markdown and text.endswith(markdown):
        return text[: len(text) - len(markdown)].count("\n") + 1
    return 1


def _link(match: WikiMatch, target: str, anchor: str, page_path: str) -> str:
    relative = posixpath.relpath(target, posixpath.dirname(page_path) or ".") if target != page_path else ""
    destination = relative + (f"#{anchor}" if anchor else "")
    return f"[{match.display.translate(_LINK_TEXT_ESCAPES)}](<{destination or '#'}>)"


def rewrite_wiki_links(
    markdown: str,
    page_path: str,
    known_pages: Collection[str],
    *,
    first_line: int = 1,
    excluded_pages: Collection[str] = (),
    slugify: Callable[[str], str] = default_slugify,
) -> tuple[str, list[PageWarning]]:
    """The page with its wiki links rewritten, and one warning per unresolved wiki link.

    `first_line` is the source line of the markdown's first line (MkDocs strips front matter
    before plugins see the text), so warnings name the line in the file. A link that matches
    no known page but one of `excluded_pages` (MkDocs' exclude_docs, drafts) becomes a link to
    it, as a markdown link would be: MkDocs reports those itself, at INFO (`--strict` passes).
    `slugify` makes a `#Heading`'s anchor as the site's toc makes heading ids (its `slugify` and
    `separator` settings), so the link lands on the id the built page has.
    """
    if "[[" not in markdown:
        return markdown, []
    lines = markdown.split("\n")
    found = {number: list(find_wiki_links(line)) for number, line in enumerate(lines) if "[[" in line}
    found = {number: matches for number, matches in found.items() if matches}
    if not found:
        return markdown, []
    # Whether a line is code depends only on the lines up to it (blocks open and close in one
    # forward pass): the page is parsed up to its last wiki link, not to its end.
    in_code = _code_lines(lines[: max(found) + 1])
    index, excluded = WikiIndex(known_pages, slugify), WikiIndex(excluded_pages, slugify)
    warnings: list[PageWarning] = []
    for number, matches in found.items():
        if number in in_code:
            continue
        line = lines[number]
        spans = _code_spans(line)
        pieces: list[str] = []
        cursor = 0
        for match in matches:
            if any(start < match.end and match.start < end for start, end in spans):
                continue
            resolution = index.resolve(match.target, match.heading, page_path)
            if resolution.target is None and excluded_pages:
                resolution = excluded.resolve(match.target, match.heading, page_path)
            if resolution.target is None:
                written = match.target or f"#{match.heading}"
                warnings.append(
                    PageWarning(
                        page_path, first_line + number, f"wiki link [[{clip(written)}]] matches no page; shown as text"
                    )
                )
                replacement = match.display
            else:
                replacement = _link(match, resolution.target, resolution.anchor, page_path)
            pieces += [line[cursor : match.start], replacement]
            cursor = match.end
        if pieces:
            lines[number] = "".join(pieces) + line[cursor:]
    return "\n".join(lines), warnings
