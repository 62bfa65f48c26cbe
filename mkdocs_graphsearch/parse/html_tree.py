"""Rendered page HTML -> a flat list of headings, text runs, code blocks and API names.

Why a flat list: it is the same shape `markdown._collect` gives the markdown front-end, so
`rendered` can build chunks exactly as `markdown` does. The stdlib `HTMLParser` reads the
HTML (no new dependency); this module only decides what is a heading, text or code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mkdocs_graphsearch.text.cells import CELL

from .html_elements import VOID, ElementParser
from .plaintext import code_span, is_stop_word_name

__all__ = ["HtmlCode", "HtmlHeading", "HtmlItem", "HtmlLink", "HtmlSymbols", "HtmlText", "defuse", "read_html"]


@dataclass
class HtmlLink:
    """An `<a href>` and its text (whitespace collapsed), as the markdown front-end's links."""

    href: str
    text: str = ""


@dataclass
class HtmlHeading:
    level: int
    anchor: str  # the element's `id`; "" when it has none
    title: str
    links: list[HtmlLink]
    symbols: list[str]  # mkdocstrings objects: the dotted id, its last part, the signature's name
    doc: bool = False  # an mkdocstrings object's heading (`doc-heading`)


@dataclass
class HtmlText:
    text: str
    links: list[HtmlLink] = field(default_factory=list)


@dataclass
class HtmlCode:
    language: str | None
    code: str


@dataclass
class HtmlSymbols:
    """API names met outside a section heading: a hidden mkdocstrings root, a signature block."""

    names: list[str]


HtmlItem = HtmlHeading | HtmlText | HtmlCode | HtmlSymbols

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Elements that start a new line of text (everything else is inline).
_BLOCKS = frozenset(
    "address article aside blockquote caption dd details dialog div dl dt fieldset figcaption figure "
    "footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody tfoot "
    "thead tr ul".split()
)
_CELLS = frozenset(["td", "th"])  # a table row is one line, its cells apart (text/cells.py)
# Never text: scripts, styles, icons (Material's inline SVGs), templates.
_SKIP_TAGS = frozenset(["script", "style", "svg", "template"])
# Permalink markers (`toc` and Material), line numbers (Pygments tables and inline spans) and
# mkdocstrings' symbol-kind badges: shown by CSS, not content.
_SKIP_CLASSES = frozenset(["headerlink", "linenos", "linenodiv", "doc-symbol"])
# mkdocstrings' labels (`property`, `classmethod`) are badges in a heading, not its title.
_HEADING_SKIP_CLASSES = frozenset(["doc-labels", "doc-label"])
# Blocks a page keeps out of search: by hand (any theme), and Material's own block exclusion.
_SKIP_ATTRIBUTES = ("data-graphsearch-ignore", "data-search-exclude")
_LANG_RE = re.compile(r"^(?:language|lang)-([\w+#.-]+)$")
_SPACES_RE = re.compile(r"[ \t\r\f\v]+")  # ASCII only: a no-break space is content
_CELL_SPACES_RE = re.compile(f" ?{CELL} ?")
_NAME_RE = re.compile(r"[^\W\d][\w.]*")


def _language(classes: list[str], attrs: dict[str, str]) -> str | None:
    """`language-python` / `lang-py` class or a `data-lang` attribute, lowercased."""
    data_lang = attrs.get("data-lang", "").strip()
    if data_lang:
        return data_lang.lower()
    for name in classes:
        match = _LANG_RE.match(name)
        if match:
            return match.group(1).lower()
    return None


def _dotted_names(identifier: str) -> list[str]:
    """`pkg.Class.method` -> [`pkg.Class.method`, `method`]; nothing for a non-identifier."""
    if not _NAME_RE.fullmatch(identifier):
        return []
    last = identifier.rsplit(".", 1)[-1]
    return [identifier] if last == identifier or not last else [identifier, last]


def _signature_names(signature: str) -> list[str]:
    """The name a signature declares: `assign_berth(vessel, length=1)` -> `assign_berth`."""
    head = signature.strip().split("(", 1)[0].split("[", 1)[0].split(":", 1)[0].split("=", 1)[0].strip()
    for prefix in ("async def ", "def ", "class "):
        head = head.removeprefix(prefix)
    return _dotted_names(head.strip())


@dataclass
class _Open:
    """An open element: what closing it must undo, and the code language its class names."""

    tag: str
    language: str | None = None
    skip: bool = False
    heading: bool = False
    pre: bool = False
    signature: bool = False
    doc_object: bool = False
    row: bool = False
    link: bool = False
    section: bool = False  # a `<section>` (or docutils' older `<div class="section">`)
    section_id: str = ""
    titled: bool = False  # its first heading was met
    code_span: tuple[list[str], int] | None = None  # inline `<code>`: its sink and where it starts


# A `<pre>` takes its language from itself, its `<code>`, or a highlight wrapper this close
# above it (Material/pymdownx: `div.language-py > table > tbody > tr > td > div > pre`).
_WRAPPER_DEPTH = 6


class _Reader(ElementParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[HtmlItem] = []
        self.stack: list[_Open] = []
        self.sections: list[_Open] = []  # the open section elements, innermost last
        self.open_counts: dict[str, int] = {}  # per tag: end tags close only what is open
        self.skip_depth = 0
        self.signature_depth = 0
        self.doc_object_depth = 0
        self.row_depth = 0  # inside a table row everything is one line
        self.row_cells = 0  # cells opened in the current row
        self.text: list[str] = []
        self.links: list[HtmlLink] = []
        self.open_link: tuple[HtmlLink, list[str]] | None = None  # the open `<a href>`, its text so far
        self.heading: HtmlHeading | None = None
        self.heading_is_doc = False
        self.heading_parts: list[str] = []
        self.code: list[str] | None = None
        self.code_language: str | None = None
        self.code_in_signature = False

    # -- emitting items -----------------------------------------------------------------------

    def flush_text(self) -> None:
        # Whitespace within a line collapses, as a browser shows it (table cells, indentation).
        lines = (
            _CELL_SPACES_RE.sub(CELL, _SPACES_RE.sub(" ", line)).strip(" ") for line in "".join(self.text).split("\n")
        )
        text = "\n".join(line for line in lines if line)
        if text or self.links:
            self.items.append(HtmlText(text, self.links))
        self.text, self.links = [], []

    def end_heading(self) -> None:
        if self.heading is None:
            return
        heading, self.heading = self.heading, None
        heading.title = " ".join("".join(self.heading_parts).split())
        if self.heading_is_doc:
            heading.symbols.extend(_signature_names(heading.title))
        self.heading_parts = []
        self.items.append(heading)

    def end_code(self) -> None:
        if self.code is None:
            return
        code = "".join(self.code)
        code = code[:-1] if code.endswith("\n") else code  # the fence's last newline, as markdown
        if self.code_in_signature:
            # A separated mkdocstrings signature: text of its object's section, and its name.
            self.items.append(HtmlSymbols(_signature_names(code)))
            self.items.append(HtmlText(code))
        else:
            self.items.append(HtmlCode(self.code_language, code))
        self.code = None

    def end_link(self) -> None:
        if self.open_link is not None:
            link, parts = self.open_link
            link.text = " ".join("".join(parts).split())
            self.open_link = None

    def section_anchor(self) -> str:
        """The id of the section this heading opens, for a heading without its own: Sphinx
        (docutils) writes `<section id="x"><h2>` with the id on the section, not the heading.
        Only the section's first heading takes it."""
        if not self.sections or self.sections[-1].titled:
            return ""
        self.sections[-1].titled = True
        return self.sections[-1].section_id

    def sink(self) -> list[str]:
        """Where text goes now: the open code block, else the open heading, else body text."""
        if self.code is not None:
            return self.code
        return self.heading_parts if self.heading is not None else self.text

    # -- parser events ------------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        classes = values.get("class", "").split()
        if tag in _BLOCKS:
            self.end_heading()  # headings hold inline content only: this one was left open
            if tag in _HEADINGS:
                self.end_code()  # so was this `<pre>`
            self.text.append(" " if self.row_depth and tag != "tr" else "\n")
        elif tag in _CELLS:
            self.text.append(CELL if self.row_cells else " ")
            self.row_cells += 1
        elif tag == "br" and self.skip_depth == 0:
            sink = self.sink()
            sink.append(" " if self.row_depth and sink is self.text else "\n")
        if tag in VOID:
            if tag == "img" and self.skip_depth == 0 and self.heading is None and self.code is None:
                self.text.append(values.get("alt", ""))  # as the markdown front-end keeps alt text
                if self.open_link is not None:
                    self.open_link[1].append(values.get("alt", ""))
            return

        entry = _Open(tag, _language(classes, values))
        heading_badge = self.heading is not None and not _HEADING_SKIP_CLASSES.isdisjoint(classes)
        skipped = tag in _SKIP_TAGS or not _SKIP_CLASSES.isdisjoint(classes) or heading_badge
        if skipped or any(name in values for name in _SKIP_ATTRIBUTES):
            entry.skip = True
            self.skip_depth += 1
        if tag == "tr":
            entry.row = True
            self.row_depth += 1
            self.row_cells = 0
        if tag == "section" or (tag == "div" and "section" in classes):
            entry.section, entry.section_id = True, values.get("id", "")
            self.sections.append(entry)
        if "doc-object" in classes:
            entry.doc_object = True
            self.doc_object_depth += 1
        if "doc-signature" in classes:
            entry.signature = True
            self.signature_depth += 1

        if self.skip_depth == 0:
            if tag in _HEADINGS:
                self.flush_text()
                section_id = self.section_anchor()  # called for every heading: it marks the section titled
                identifier = values.get("id", "") or section_id
                self.heading_is_doc = "doc-heading" in classes
                symbols = _dotted_names(identifier) if self.heading_is_doc else []
                self.heading = HtmlHeading(_HEADINGS[tag], identifier, "", [], symbols, self.heading_is_doc)
                entry.heading = True
            elif tag == "pre" and self.code is None:
                self.flush_text()
                self.code = []
                wrappers = (e.language for e in reversed(self.stack[-_WRAPPER_DEPTH:]) if e.language)
                self.code_language = entry.language or next(wrappers, None)
                self.code_in_signature = self.signature_depth > 0
                entry.pre = True
            elif tag == "code" and self.code is not None and entry.language:
                self.code_language = entry.language
            elif tag == "code" and self.code is None:
                sink = self.sink()
                entry.code_span = (sink, len(sink))
            elif tag == "a":
                href = values.get("href")
                if href is not None:
                    link = HtmlLink(href)
                    (self.heading.links if self.heading is not None else self.links).append(link)
                    self.open_link, entry.link = (link, []), True
                elif values.get("id") and self.doc_object_depth > 0 and self.heading is None:
                    # mkdocstrings' anchor for an object rendered without a heading.
                    self.items.append(HtmlSymbols(_dotted_names(values["id"])))

        self.stack.append(entry)
        self.open_counts[tag] = self.open_counts.get(tag, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCKS:
            self.text.append(" " if self.row_depth and tag != "tr" else "\n")
        elif tag in _CELLS:
            self.text.append(" ")
        if not self.open_counts.get(tag):
            return  # a stray end tag
        # Close everything opened since `tag` (unclosed `<li>`, `<p>`...): amortised linear.
        while self.stack:
            entry = self.stack.pop()
            self.open_counts[entry.tag] -= 1
            if entry.skip:
                self.skip_depth -= 1
            if entry.doc_object:
                self.doc_object_depth -= 1
            if entry.signature:
                self.signature_depth -= 1
            if entry.row:
                self.row_depth -= 1
            if entry.section:
                self.sections.pop()
            if entry.heading:
                self.end_heading()
            if entry.pre:
                self.end_code()
            if entry.link:
                self.end_link()
            if entry.code_span is not None:  # as the markdown front-end writes it (plaintext.py)
                sink, start = entry.code_span
                if self.heading is not None and sink is self.heading_parts:
                    name = "".join(sink[start:]).strip()
                    if is_stop_word_name(name):
                        self.heading.symbols.append(name)
                else:
                    sink[start:] = [code_span("".join(sink[start:]))]
            if entry.tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        sink = self.sink()
        data = data.replace(CELL, " ")  # only between cells (text/cells.py)
        sink.append(data.replace("\n", " ") if self.row_depth and sink is self.text else data)
        if self.open_link is not None:
            self.open_link[1].append(data)

    def finish(self) -> list[HtmlItem]:
        self.close()
        self.end_heading()
        self.end_code()
        self.flush_text()
        return self.items


def defuse(html: str) -> str:
    """Escape the constructs that make `HTMLParser` quadratic or raise; linear string scans.

    Unclosable `<` (after the last `>`) and comments with no `-->` after them make it rescan
    the rest of the input once per `<`; `<![` can trip an assertion. None occurs in real
    rendered pages, where they are text anyway.
    """
    last_gt = html.rfind(">")
    if html.find("<", last_gt + 1) != -1:
        html = html[: last_gt + 1] + html[last_gt + 1 :].replace("<", "&lt;")
    last_close = html.rfind("-->")
    start = max(last_close, 0)
    if html.find("<!--", start) != -1:
        html = html[:start] + html[start:].replace("<!--", "&lt;!--")
    return html.replace("<![", "&lt;![")


def read_html(html: str) -> list[HtmlItem]:
    """Headings, text runs, code blocks and API names of rendered HTML, in document order."""
    reader = _Reader()
    reader.feed(defuse(html))
    return reader.finish()
