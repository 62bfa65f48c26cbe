"""Plain text from markdown-it inline tokens and raw HTML, collecting links on the way.

Why plain text: chunk text feeds the tokenizer, the embedder and result snippets; markup
characters there are noise. Why collect links here: this is the one pass that knows which
text is code (wiki links inside code never count) and which source line each link is on.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from mkdocs_graphsearch.text.tokenize import tokenize

from .links import WikiMatch, find_wiki_links

__all__ = [
    "RawLink", "clean_template_tags", "code_span", "heading_names", "html_text", "inline_text", "is_stop_word_name",
    "without_span_marks",
]


@dataclass
class RawLink:
    """A link as written: a markdown `href` (and the text between its brackets) or a wiki
    match, with its 1-based source line."""

    line: int
    href: str | None = None
    wiki: WikiMatch | None = None
    text: str = ""


class _InlineWriter:
    """Accumulates one inline run; plain text runs are buffered so `[[wiki]]` can span tokens."""

    def __init__(self, first_line: int) -> None:
        self.parts: list[str] = []
        self.links: list[RawLink] = []
        self.line = first_line
        self._buffer: list[str] = []
        self._buffer_line = first_line
        self._open: tuple[RawLink, int] | None = None  # a markdown link and where its text starts

    def text(self, content: str) -> None:
        if not self._buffer:
            self._buffer_line = self.line
        self._buffer.append(content)
        self.line += content.count("\n")

    def verbatim(self, content: str) -> None:
        """Text that is not scanned for wiki links (inline code, image alt)."""
        self.flush()
        self.parts.append(content)
        self.line += content.count("\n")

    def open_link(self, href: object) -> None:
        self.flush()
        if isinstance(href, str):
            link = RawLink(line=self.line, href=href)
            self.links.append(link)
            self._open = (link, len(self.parts))

    def close_link(self) -> None:
        """The link's text: what was written since it opened, whitespace collapsed."""
        self.flush()
        if self._open is not None:
            link, start = self._open
            link.text = " ".join("".join(self.parts[start:]).split())
            self._open = None

    def flush(self) -> None:
        if not self._buffer:
            return
        run = "".join(self._buffer)
        self._buffer = []
        if "[[" not in run:
            self.parts.append(run)
            return
        pieces: list[str] = []
        last = 0
        line = self._buffer_line
        for match in find_wiki_links(run):
            pieces.append(run[last : match.start])
            pieces.append(match.display)
            line += run.count("\n", last, match.start)  # counted incrementally: stays linear
            self.links.append(RawLink(line=line, wiki=match))
            last = match.end
        pieces.append(run[last:])
        self.parts.append("".join(pieces))


def inline_text(
    children: Sequence[Token] | None, first_line: int, *, heading: bool = False
) -> tuple[str, list[RawLink]]:
    """Render inline tokens to plain text; return it with the links found (in order).

    Breaks become newlines (spaces in headings). Images give their alt text, except in
    headings where Python-Markdown's toc (and so the anchor) ignores them.
    """
    writer = _InlineWriter(first_line)
    for token in children or ():
        kind = token.type
        if kind == "text" or kind == "text_special":
            writer.text(token.content)
        elif kind == "softbreak" or kind == "hardbreak":
            writer.text(" " if heading else "\n")
            if heading:
                writer.line += 1
        elif kind == "code_inline":
            writer.verbatim(token.content if heading else code_span(token.content))
        elif kind == "link_open":
            writer.open_link(token.attrs.get("href"))
        elif kind == "link_close":
            writer.close_link()
        elif kind == "image":
            if not heading:
                writer.verbatim(token.content)
        elif kind == "html_inline":
            writer.flush()  # a tag is dropped, its inner text stays (separate tokens)
    writer.flush()
    return "".join(writer.parts), writer.links


def is_stop_word_name(content: str) -> bool:
    """A code span of stop words alone (`where`, `as`): prose would drop it, code keeps it."""
    return not tokenize(content) and bool(tokenize(content, code=True))


def code_span(content: str) -> str:
    """A code span's text in body text; one of stop words alone (`where`, `as`) keeps its
    backticks, so the tokenizer reads it as a name (text/tokenize.py rule 6), not as prose it
    drops. (Headings are shown as titles: theirs are kept plain, see `heading_names`.)"""
    return f"`{content}`" if is_stop_word_name(content) else content


def heading_names(children: Sequence[Token] | None) -> list[str]:
    """A heading's code spans of stop words alone, as names of its section: the title is shown
    plain, and in `` `select` and `from` `` its prose would drop `from` (a title of stop words
    alone is kept whole: text/tokenize.py rule 9)."""
    names = (token.content.strip() for token in children or () if token.type == "code_inline")
    return [name for name in names if is_stop_word_name(name)]


_MARKED_SPAN = re.compile(r"`([^`]*)`")


def without_span_marks(text: str) -> str:
    """Body text less the backticks `code_span` kept: what a reader sees (the embedding model
    reads this, so that a site's passages embed as they did before code spans kept them)."""
    return _MARKED_SPAN.sub(lambda m: m[1] if code_span(m[1]) != m[1] else m[0], text) if "`" in text else text


_TAG_RE = re.compile(r"</?[A-Za-z][^<>]*>|<![A-Za-z][^<>]*>|<\?[^<>]*\?>")


def _drop_between(text: str, lowered: str, start_tag: str, end_tag: str) -> tuple[str, str]:
    """Remove every `start_tag ... end_tag` span (an unclosed one runs to the end). Linear."""
    if start_tag not in lowered:
        return text, lowered
    kept: list[str] = []
    kept_lower: list[str] = []
    pos = 0
    while True:
        begin = lowered.find(start_tag, pos)
        if begin == -1:
            break
        kept.append(text[pos:begin])
        kept_lower.append(lowered[pos:begin])
        end = lowered.find(end_tag, begin + len(start_tag))
        if end == -1:
            pos = len(text)
            break
        pos = end + len(end_tag)
    kept.append(text[pos:])
    kept_lower.append(lowered[pos:])
    return "".join(kept), "".join(kept_lower)


def html_text(raw: str) -> str:
    """Visible text of an HTML block: comments, scripts and styles dropped, tags stripped."""
    lowered = raw.lower()
    raw, lowered = _drop_between(raw, lowered, "<!--", "-->")
    raw, lowered = _drop_between(raw, lowered, "<script", "</script>")
    raw, lowered = _drop_between(raw, lowered, "<style", "</style>")
    text = html.unescape(_TAG_RE.sub("", raw))
    return "\n".join(line.strip() for line in text.split("\n") if line.strip())


# Hugo shortcodes (`{{< note >}}`, `{{% tab %}}`) appear in docs ported from Hugo; they are
# template markup, not text. `text="..."` (e.g. glossary tooltips) is what the reader sees.
_SHORTCODE_RE = re.compile(r"\{\{[<%][^{}\n]{0,1000}?[%>]\}\}")
_SHORTCODE_TEXT_RE = re.compile(r"\btext=\"([^\"]*)\"")


def _shortcode_sub(match: re.Match[str]) -> str:
    inner = _SHORTCODE_TEXT_RE.search(match.group(0))
    return inner.group(1) if inner else ""


def clean_template_tags(text: str) -> str:
    """Replace Hugo shortcodes by the text they show (usually none)."""
    if "{{" not in text:
        return text
    cleaned = _SHORTCODE_RE.sub(_shortcode_sub, text)
    if cleaned == text:
        return text
    return "\n".join(line for line in cleaned.split("\n") if line.strip())  # lines left empty
