"""Markdown page -> `Page`: a root chunk, heading sections, fenced code blocks, links.

The steps, each in its own module: decode, front matter (`frontmatter`), admonition bodies
un-indented (`blocks`), markdown-it block tokens, plain text and links (`plaintext`, `links`),
anchors (`anchors`), code symbols (`symbols`). This module only orders them and builds chunks.
Everything is line-preserving, so every chunk can say which source lines it owns.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from mkdocs_graphsearch.text.cells import CELL

from .anchors import AnchorAllocator, parse_heading_attrs
from .blocks import flatten_blocks
from .chunks import ChunkTree
from .frontmatter import FrontMatter, parse_front_matter
from .links import Resolution, WikiIndex, resolve_markdown_link
from .model import DEFAULT_CHUNK_DEPTH, BrokenLink, Chunk, Link, LinkKind, Page, PageWarning, clip
from .plaintext import RawLink, heading_names, html_text, inline_text

__all__ = ["DEFAULT_CHUNK_DEPTH", "MARKDOWN_PARSER", "PageFacts", "decode_source", "page_facts", "parse_page"]

#: Block nesting (markdown-it levels: a blockquote is one, a list item two) past which a block's
#: lines are kept as plain text (`_deep_text`), bounding recursion on `>>>>>>...` and deep lists.
#: Python-Markdown renders any depth, so nothing past it may be lost: markdown-it's own
#: `maxNesting` (which silently drops the rest of the page) sits above it and is never reached.
NESTING_LIMIT = 100

# No real paragraph is this long (the corpora's longest is far shorter); past it, inline markup
# is not parsed. markdown-it-py's time per `[` or `*` adds up: one huge paragraph of brackets
# would otherwise take minutes.
_INLINE_LIMIT = 100_000


def _guarded_inline(state: StateCore) -> None:
    """markdown-it's core `inline` rule, except that huge inline runs stay plain text."""
    for token in state.tokens:
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        if len(token.content) > _INLINE_LIMIT:
            token.children.append(Token("text", "", 0, content=token.content))
        else:
            state.md.inline.parse(token.content, state.md, state.env, token.children)


# Leading block markup of a line kept as plain text: quote markers, list bullets and numbers.
_MARKERS_RE = re.compile(r"^(?:[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*")


def _deep_text(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Past `NESTING_LIMIT`, the rest of this block (to where it ends) as one plain-text token."""
    if state.level < NESTING_LIMIT:
        return False
    if silent:
        return True
    line = start_line + 1
    while line < end_line and (state.isEmpty(line) or state.sCount[line] >= state.blkIndent):
        line += 1
    token = state.push("deep_text", "", 0)
    token.map = [start_line, line]
    raw = state.getLines(start_line, line, state.blkIndent, False)
    token.content = "\n".join(_MARKERS_RE.sub("", row) for row in raw.split("\n"))
    state.line = line
    return True


def _markdown_parser() -> MarkdownIt:
    """CommonMark plus GFM tables and strikethrough (what MkDocs sites write), huge inline runs
    kept as text (`_guarded_inline`) and blocks past NESTING_LIMIT as text (`_deep_text`)."""
    parser = MarkdownIt("commonmark", {"maxNesting": NESTING_LIMIT + 10}).enable(["table", "strikethrough"])
    parser.core.ruler.at("inline", _guarded_inline)
    parser.block.ruler.before("table", "deep_text", _deep_text)
    return parser


MARKDOWN_PARSER = _markdown_parser()
# The same block tokens without inline parsing: all a page's source-level warnings need
# (`page_facts`), at a fraction of a whole parse.
_BLOCK_PARSER = _markdown_parser()
_BLOCK_PARSER.core.ruler.enableOnly(["normalize", "block"])

_SURROGATE_RE = re.compile(r"[\ud800-\udfff]")


def decode_source(source: bytes | str) -> tuple[str, list[tuple[int, str]]]:
    """Text with `\\n` newlines, no NUL, no BOM; plus (line, message) warnings.

    Bytes are UTF-8; invalid sequences become U+FFFD and one warning names the first one's line.
    """
    notes: list[tuple[int, str]] = []
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = data[: exc.start].decode("utf-8", errors="replace")
            line = before.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
            notes.append((line, "invalid UTF-8 (replaced by U+FFFD)"))
            text = data.decode("utf-8", errors="replace")
    else:
        text = str(source)
        if text.startswith("\ufeff"):
            text = text[1:]
        if _SURROGATE_RE.search(text):
            text = _SURROGATE_RE.sub("\ufffd", text)  # lone surrogates cannot be encoded later
    if "\x00" in text:
        text = text.replace("\x00", "")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, notes


@dataclass
class _Heading:
    level: int
    title: str
    explicit_id: str | None
    line: int  # 1-based
    links: list[RawLink]
    names: list[str]  # code spans of stop words alone (plaintext.heading_names)


@dataclass
class _Text:
    line: int
    text: str
    links: list[RawLink] = field(default_factory=list)


@dataclass
class _Fence:
    line: int
    end_line: int
    info: str
    code: str


_Item = _Heading | _Text | _Fence


def _heading_title(inline: Token | None, line: int) -> tuple[str, str | None, list[RawLink]]:
    """Plain title, explicit `{ #id }` and links of a heading's inline token."""
    children = list(inline.children or []) if inline is not None else []
    explicit_id: str | None = None
    if children and children[-1].type == "text":
        # attr_list reads only the heading's last text run, as we do here.
        attrs = parse_heading_attrs(children[-1].content)
        if attrs.explicit_id is not None or attrs.text != children[-1].content:
            last = children[-1].copy()
            last.content = attrs.text
            children[-1] = last
            explicit_id = attrs.explicit_id
    text, links = inline_text(children, line, heading=True)
    return " ".join(text.split()), explicit_id, links


def _language(info: str) -> str | None:
    """First word of a fence's info string, lowercased: `ts title="x"` -> `ts`.

    Also `{ .python title="x" }` (pymdownx attribute form) and `python{1,3}` give `python`.
    """
    info = info.strip()
    if not info:
        return None
    if info.startswith("{"):
        m = re.search(r"(?:^|[\s{])\.([\w+#-]+)", info)
        return m.group(1).lower() if m else None
    word = info.split()[0].split("{")[0].strip(".,;:")
    if "=" in word or word.startswith(("(", "[")):
        return None  # only options (`hl_lines="4"`): no language given
    return word.lower() or None


def _block_note(token: Token) -> str | None:
    """The warning a block token gives: a code fence left open, nesting past NESTING_LIMIT."""
    if token.type == "fence" and token.map:
        code = token.content
        # A closed fence spans its content plus two fence lines; one fence line: unclosed.
        content_lines = code.count("\n") + (1 if code and not code.endswith("\n") else 0)
        if token.map[1] - token.map[0] < content_lines + 2:
            return "unclosed code fence: it runs to the end of its block"
    elif token.type == "deep_text":
        return f"nesting deeper than {NESTING_LIMIT} levels: the rest of the block is indexed as plain text"
    return None


def _collect(tokens: list[Token], notes: list[tuple[int, str]]) -> list[_Item]:
    """One pass over block tokens: headings, fences and text runs, in document order."""
    items: list[_Item] = []
    row: list[str] | None = None
    row_links: list[RawLink] = []
    row_line = 1
    index = 0
    count = len(tokens)
    while index < count:
        token = tokens[index]
        kind = token.type
        line = token.map[0] + 1 if token.map else (items[-1].line if items else 1)
        if kind == "heading_open":
            inline = tokens[index + 1] if index + 1 < count and tokens[index + 1].type == "inline" else None
            title, explicit_id, links = _heading_title(inline, line)
            level = int(token.tag[1]) if len(token.tag) == 2 and token.tag[1].isdigit() else 1
            names = heading_names(inline.children if inline is not None else None)
            items.append(_Heading(level, title, explicit_id, line, links, names))
            index += 3 if inline is not None else 2
            continue
        note = _block_note(token)
        if note is not None:
            notes.append((line, note))
        if kind == "fence":
            end_line = token.map[1] if token.map else line
            code = token.content
            items.append(_Fence(line, end_line, token.info, code[:-1] if code.endswith("\n") else code))
        elif kind == "deep_text":
            items.append(_Text(line, token.content.strip("\n")))
        elif kind == "code_block":
            items.append(_Text(line, token.content.rstrip("\n")))
        elif kind == "html_block":
            text = html_text(token.content)
            if text:
                items.append(_Text(line, text))
        elif kind == "tr_open":
            row, row_links, row_line = [], [], line
        elif kind == "tr_close":
            if row is not None and any(row):  # one line, cells apart (text/cells.py)
                items.append(_Text(row_line, CELL.join(cell.replace(CELL, " ") for cell in row), row_links))
            row = None
        elif kind == "inline":
            text, links = inline_text(token.children, line)
            if row is not None:
                row.append(" ".join(text.split()))
                row_links.extend(links)
            elif text or links:
                items.append(_Text(line, text, links))
        index += 1
    return items


class _Builder(ChunkTree):
    """The page's chunk tree plus link resolution and warnings."""

    def __init__(self, path: str, title: str, known_pages: Collection[str]) -> None:
        super().__init__(path, title)
        self.known_pages = known_pages
        self.wiki = WikiIndex(known_pages)
        self.resolved: dict[tuple[str, str, str], Resolution | None] = {}  # pages repeat links
        self.broken: list[BrokenLink] = []
        self.warnings: list[PageWarning] = []

    def add_links(self, position: int, raw_links: list[RawLink]) -> None:
        chunk = self.chunks[position]
        for raw in raw_links:
            kind: LinkKind
            if raw.wiki is not None:
                kind, key = "wiki", ("wiki", raw.wiki.target, raw.wiki.heading)
                written = raw.wiki.target or f"#{raw.wiki.heading}"
            else:
                kind, key = "markdown", ("markdown", raw.href or "", "")
                written = raw.href or ""
            if key in self.resolved:
                resolution = self.resolved[key]
            elif raw.wiki is not None:
                resolution = self.resolved[key] = self.wiki.resolve(raw.wiki.target, raw.wiki.heading, self.path)
            else:
                resolution = self.resolved[key] = resolve_markdown_link(written, self.path, self.known_pages)
            if resolution is None:
                continue
            if resolution.target is not None:
                text = raw.wiki.display if raw.wiki is not None else raw.text
                chunk.links.append(Link(resolution.target, resolution.anchor, kind, raw.line, " ".join(text.split())))
            else:
                target = resolution.missing or written
                self.broken.append(BrokenLink(target, raw.line, kind, resolution.reason))
                self.warnings.append(
                    PageWarning(self.path, raw.line, f"broken link to {clip(target)} ({resolution.reason})")
                )


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0] or path


def _source(source: bytes | str) -> tuple[int, FrontMatter, list[tuple[int, str]], str]:
    """A page's line count, front matter, decoding and front matter warnings, and the markdown
    markdown-it reads: front matter lines blank, the rest keeps its line numbers."""
    text, decode_notes = decode_source(source)
    lines = text.split("\n")
    n_lines = len(lines) - 1 if text.endswith("\n") else (len(lines) if text else 0)
    if text.endswith("\n"):
        lines.pop()
    front = parse_front_matter(lines)
    notes: list[tuple[int, str]] = list(decode_notes) + list(front.warnings)
    body = [""] * front.line_count + lines[front.line_count :]
    return n_lines, front, notes, "\n".join(flatten_blocks(body, front.line_count))


def _parse(
    source: bytes | str,
    path: str,
    known_pages: Collection[str],
    chunk_depth: int,
) -> Page:
    n_lines, front, notes, body = _source(source)
    items = _collect(MARKDOWN_PARSER.parse(body), notes)

    headings = [item for item in items if isinstance(item, _Heading)]
    # Python-Markdown toc's ids. In the plugin the rendered page's real ids are used instead
    # (parse/rendered.py): includes and extensions can add headings this source does not show.
    allocator = AnchorAllocator([h.explicit_id for h in headings if h.explicit_id is not None])
    anchors = [allocator.allocate(h.title, h.explicit_id) for h in headings]
    anchor_of = {id(h): anchor for h, anchor in zip(headings, anchors, strict=True)}

    first_h1 = next((h for h in headings if h.level == 1), None)
    title = front.title or (first_h1.title if first_h1 is not None and first_h1.title else "") or _stem(path)
    # The page's own h1 opens the page: it is the root, not a section of it.
    root_h1 = headings[0] if headings and headings[0].level == 1 else None

    builder = _Builder(path, title, known_pages)
    for item in items:
        current = builder.current
        if isinstance(item, _Heading):
            if item is root_h1:
                if front.title and item.title and item.title != front.title:
                    builder.add_text(current, item.title)  # shown on the page: keep it searchable
                builder.add_symbols(current, item.names)
                builder.add_links(current, item.links)
                continue
            if item.level > chunk_depth:
                builder.add_text(current, item.title)  # deep headings fold into their section
                builder.add_symbols(current, item.names)
                builder.add_links(current, item.links)
                continue
            section = builder.open_section(item.title, item.level, anchor_of[id(item)], item.line)
            builder.add_symbols(section, item.names)
            builder.add_links(section, item.links)
        elif isinstance(item, _Fence):
            builder.add_code(_language(item.info), item.code, item.line, item.end_line)
        else:
            builder.add_text(current, item.text)
            builder.add_links(current, item.links)

    # Spans: root and sections tile the page (root also owns the front matter); code chunks
    # sit inside their parent's span.
    sections = builder.sections
    for position, next_position in zip(sections, [*sections[1:], None], strict=True):
        chunk = builder.chunks[position]
        chunk.end_line = builder.chunks[next_position].line - 1 if next_position is not None else n_lines
    builder.finish_texts()

    warnings = [PageWarning(path, line, message) for line, message in notes]
    warnings.extend(builder.warnings)
    warnings.sort(key=lambda w: w.line)
    return Page(
        path=path, title=title, chunks=builder.chunks, tags=list(front.tags), boost=front.boost,
        exclude=front.exclude, broken_links=builder.broken, warnings=warnings,
        front_matter_lines=front.line_count,
    )


@dataclass(frozen=True)
class PageFacts:
    """What a page's source alone says: its front matter's search facts and its source-level
    warnings (invalid UTF-8, front matter, unclosed fences, deep nesting), by line: `parse_page`'s
    but for broken links (the plugin leaves those to MkDocs and to the wiki-link rewrite)."""

    tags: list[str]
    boost: float
    exclude: bool
    warnings: list[PageWarning]


def page_facts(source: bytes | str, path: str) -> PageFacts:
    """`PageFacts` of one markdown page: its block tokens only, no inline parse and no chunks
    (the plugin's chunks come from the rendered HTML). Never raises."""
    try:
        _, front, notes, body = _source(source)
        for token in _BLOCK_PARSER.parse(body):
            note = _block_note(token)
            if note is not None:
                notes.append((token.map[0] + 1 if token.map else 1, note))
    except Exception:  # noqa: BLE001 - as parse_page: a page must never stop a build
        page = parse_page(source, path, ())
        return PageFacts(page.tags, page.boost, page.exclude, page.warnings)
    warnings = sorted((PageWarning(path, line, message) for line, message in notes), key=lambda w: w.line)
    return PageFacts(list(front.tags), front.boost, front.exclude, warnings)


def parse_page(
    source: bytes | str,
    path: str,
    known_pages: Collection[str],
    *,
    chunk_depth: int = DEFAULT_CHUNK_DEPTH,
) -> Page:
    """Parse one markdown page into chunks and links. Never raises.

    `path` is the page's docs-relative posix path (it is the root chunk's id); `known_pages`
    the docs' pages, for link checks.
    """
    try:
        return _parse(source, path, known_pages, chunk_depth)
    except Exception as exc:  # noqa: BLE001 - last resort: a page must never stop a build
        text, _ = decode_source(source) if isinstance(source, (bytes, str)) else ("", [])
        root = Chunk(id=path, title=_stem(path), level=1, kind="page", parent=None, anchor="",
                     text=text, line=1, heading_path=[_stem(path)])
        root.end_line = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
        message = f"internal parser error ({type(exc).__name__}: {clip(str(exc))}); page indexed as plain text"
        return Page(path=path, title=root.title, chunks=[root], warnings=[PageWarning(path, 1, message)])
