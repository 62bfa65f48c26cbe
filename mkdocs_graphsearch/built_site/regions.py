"""A built page -> the HTML of its content: what the plugin would have seen as `page.content`.

A built page is the theme around the content (header, navigation, footer). The content is the
first element that matches the first marker that matches at all: `data-graphsearch-body` (any
theme, by hand), Material's and Zensical's `article.md-content__inner`, the `[role=main]` of the
MkDocs, ReadTheDocs and Sphinx themes, then `main`, `article` and at last `body`. Inside it, the
theme's own parts are cut out (Material's tags, edit buttons and page footer, the MkDocs theme's
source labels, navigation); blocks marked `data-graphsearch-ignore` or, as Material does,
`data-search-exclude` are the HTML reader's to skip (`parse.html_tree`, the plugin's too). The
page's `<title>` and its tags (`.md-tag`) come along.

Offsets into the page come from the stdlib HTMLParser (no new dependency); the content is cut
out of the page's own text, so `parse.rendered` reads exactly the bytes the theme wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mkdocs_graphsearch.built_site.selectors import Selector, parse_selector
from mkdocs_graphsearch.parse.html_elements import VOID, ElementParser
from mkdocs_graphsearch.parse.html_tree import defuse

__all__ = ["CONTENT_MARKERS", "PageRegion", "find_region"]

#: Where a page's content is, most specific first.
CONTENT_MARKERS = tuple(
    parse_selector(text)
    for text in ("[data-graphsearch-body]", "article.md-content__inner", "[role=main]", "main", "article", "body")
)
#: Theme parts inside the content that are not the page's text (tags are read on their own).
_IGNORED = tuple(
    parse_selector(text)
    for text in (
        ".md-tags", ".md-content__button", ".md-source-file", ".md-feedback",  # Material, Zensical
        ".source-links",  # the MkDocs theme's `source:` labels
        "nav", "[role=navigation]", "[role=search]",
    )
)
_TAG = parse_selector(".md-tag")


@dataclass
class PageRegion:
    content: str  # the content element's inner HTML, its theme parts cut out ("" if none)
    marker: str  # the selector that found it; "" when the page has none (no <body> either)
    title: str = ""  # the <title>'s text, whitespace collapsed
    tags: list[str] = field(default_factory=list)  # the theme's tag labels, in page order, once each
    redirect: bool = False  # a `<meta http-equiv="refresh">` page (mkdocs-redirects, Zensical's): no content


@dataclass
class _Element:
    tag: str
    start: int  # offset of its `<`
    inner: int  # offset just after its start tag
    markers: list[int]  # indexes of the markers it is the first match of
    ignored: bool = False
    tag_label: bool = False
    title: bool = False


class _Locator(ElementParser):
    def __init__(self, html: str, markers: tuple[Selector, ...]) -> None:
        super().__init__(convert_charrefs=True)
        self.html = html
        self.markers = markers
        self.line_starts = [0] + [match.end() for match in re.finditer("\n", html)]
        self.stack: list[_Element] = []
        self.open_counts: dict[str, int] = {}
        self.found: dict[int, list[int]] = {}  # marker index -> [inner start, inner end]
        self.ignored: list[tuple[int, int]] = []
        self.ignore_depth = 0
        self.title: list[str] = []
        self.title_depth = 0
        self.tags: list[str] = []
        self.tag_text: list[str] | None = None
        self.redirect = False

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        start = self.position()
        inner = start + len(self.get_starttag_text() or "")
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            self.redirect = True
        if tag in VOID:
            return
        element = _Element(tag, start, inner, [])
        for index, marker in enumerate(self.markers):
            if index not in self.found and marker.matches(tag, values):
                self.found[index] = [inner, len(self.html)]
                element.markers.append(index)
        if any(selector.matches(tag, values) for selector in _IGNORED):
            element.ignored = True
            self.ignore_depth += 1
        if self.tag_text is None and _TAG.matches(tag, values):
            element.tag_label, self.tag_text = True, []
        if tag == "title":
            element.title = True
            self.title_depth += 1
        self.stack.append(element)
        self.open_counts[tag] = self.open_counts.get(tag, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        if not self.open_counts.get(tag):
            return  # a stray end tag
        at = self.position()
        close = self.html.find(">", at)
        after = len(self.html) if close < 0 else close + 1
        # Close everything opened since `tag` (an unclosed `<p>`, `<li>`...), as a browser does.
        while self.stack:
            element = self.stack.pop()
            self.open_counts[element.tag] -= 1
            matched = element.tag == tag
            for index in element.markers:
                self.found[index][1] = at
            if element.ignored:
                self.ignore_depth -= 1
                if self.ignore_depth == 0:
                    self.ignored.append((element.start, after if matched else at))
            if element.tag_label and self.tag_text is not None:
                label = " ".join("".join(self.tag_text).split())
                if label and label not in self.tags:
                    self.tags.append(label)
                self.tag_text = None
            if element.title:
                self.title_depth -= 1
            if matched:
                break

    def handle_data(self, data: str) -> None:
        if self.title_depth:
            self.title.append(data)
        if self.tag_text is not None:
            self.tag_text.append(data)


def find_region(html: str, selector: Selector | None = None) -> PageRegion:
    """The page's content: by `selector` alone when given (no match: PageRegion with no marker),
    else by the first of CONTENT_MARKERS that matches. Never raises on bad HTML."""
    html = defuse(html)
    markers = (selector,) if selector is not None else CONTENT_MARKERS
    locator = _Locator(html, markers)
    locator.feed(html)
    locator.close()
    title = " ".join("".join(locator.title).split())
    if not locator.found:
        return PageRegion("", "", title, locator.tags, locator.redirect)
    index = min(locator.found)
    start, end = locator.found[index]
    parts, position = [], start
    for cut_start, cut_end in locator.ignored:  # in document order, never nested
        if cut_start >= start and cut_end <= end:
            parts.append(html[position:cut_start])
            position = cut_end
    parts.append(html[position:end])
    return PageRegion("".join(parts), markers[index].text, title, locator.tags, locator.redirect)
