"""What both HTML readers (`parse.html_tree`, `built_site.regions`) take an element to be.

Each keeps a stack of open elements on the stdlib HTMLParser; they must agree on which elements
never open (the void ones) and on what a self-closing tag does, or the same page is cut into
content in one and read as text in the other.
"""

from __future__ import annotations

from html.parser import HTMLParser

__all__ = ["VOID", "ElementParser"]

#: HTML's void elements: no content and no end tag, so never on a reader's stack.
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


class ElementParser(HTMLParser):
    """An HTMLParser on which a self-closing tag (`<div/>`, `<a id="x"/>`, as XHTML-style
    writers emit) opens and closes its element, and a void one (`<br/>`) only opens it."""

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)
