"""Heading anchors exactly as Python-Markdown's `toc` + `attr_list` extensions make them.

Why: a search hit must link to the id the built HTML really has. In the plugin MkDocs' own toc
supplies the ids; standalone (CLI, tests) we recompute them with the same rules, so both agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import MutableSet

__all__ = ["AnchorAllocator", "HeadingAttrs", "parse_heading_attrs", "slugify", "unique"]

# Python-Markdown toc: `slugify(value, separator="-")`.
_STRIP_RE = re.compile(r"[^\w\s-]")
_SEP_RE = re.compile(r"[-\s]+")


def slugify(text: str) -> str:
    """Python-Markdown's default toc slug: NFKD, ASCII only, drop punctuation, lowercase, `-`."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = _STRIP_RE.sub("", value).strip().lower()
    return _SEP_RE.sub("-", value)


_IDCOUNT_RE = re.compile(r"^(.*)_([0-9]+)$")


def unique(anchor: str, used: MutableSet[str], counters: dict[str, int] | None = None) -> str:
    """Make `anchor` unique in `used` (and add it) the way Python-Markdown's toc `unique()` does.

    Repeats get `_1`, `_2`...; an empty slug becomes `_1`. `counters` remembers, per base, how
    many suffixes are known taken, so 10,000 identical headings stay linear (same results).
    """
    if anchor in used or not anchor:
        m = _IDCOUNT_RE.match(anchor)
        if m:
            base, count = m.group(1), int(m.group(2))
        else:
            base, count = anchor, 0
        skip = False
        if counters is not None:
            known = counters.get(base, 0)
            if count <= known or anchor == f"{base}_{known + 1}":
                skip = True
                count = max(count, known)
        count += 1
        while f"{base}_{count}" in used:
            count += 1
        anchor = f"{base}_{count}"
        if skip and counters is not None:
            counters[base] = count
    used.add(anchor)
    return anchor


class AnchorAllocator:
    """Hands out heading ids for one page in document order.

    Why a class: Python-Markdown first reserves every explicit id of the page, then slugifies
    the other headings in order, so allocation needs the whole page's explicit ids up front.
    """

    def __init__(self, explicit_ids: list[str]) -> None:
        self._used: set[str] = set(explicit_ids)
        self._counters: dict[str, int] = {}

    def allocate(self, title: str, explicit_id: str | None) -> str:
        if explicit_id is not None:
            return explicit_id  # toc never overrides a pre-existing id, even a duplicate
        return unique(slugify(title), self._used, self._counters)


# attr_list's heading pattern: at least one space, `{`, optional `:`, body, `}` at line end.
_HEADER_ATTR_RE = re.compile(r"[ ]+\{\:?[ ]*([^\}\n ][^\n]*)\}[ ]*$")
# attr_list's scanner tokens, in its order of preference.
_ATTR_TOKEN_RE = re.compile(
    r"""(?P<dq>[^ =}]+=".*?")|(?P<sq>[^ =}]+='.*?')|(?P<kv>[^ =}]+=[^ =}]+)|(?P<word>[^ =}]+)|(?P<sp>[ ])"""
)


_ATTR_SEARCH_WINDOW = 4096


class HeadingAttrs:
    """What an attr list at the end of a heading says: the text without it and the id it sets."""

    __slots__ = ("text", "explicit_id")

    def __init__(self, text: str, explicit_id: str | None) -> None:
        self.text = text
        self.explicit_id = explicit_id


def _scan_attrs(body: str) -> tuple[list[tuple[str, str | None]], str]:
    """attr_list's `get_attrs_and_remainder`: tokens, plus any text left from the first `}`."""
    attrs: list[tuple[str, str | None]] = []
    pos = 0
    while pos < len(body):
        m = _ATTR_TOKEN_RE.match(body, pos)
        if m is None or m.end() == pos:
            break
        token = m.group(0)
        if m.group("dq") is not None:
            key, value = token.split("=", 1)
            attrs.append((key, value.strip('"')))
        elif m.group("sq") is not None:
            key, value = token.split("=", 1)
            attrs.append((key, value.strip("'")))
        elif m.group("kv") is not None:
            key, value = token.split("=", 1)
            attrs.append((key, value))
        elif m.group("word") is not None:
            if token.startswith("."):
                attrs.append((".", token[1:]))
            elif token.startswith("#"):
                attrs.append(("id", token[1:]))
            else:
                attrs.append((token, None))
        pos = m.end()
    remainder = body[pos:]
    brace = remainder.find("}")
    return attrs, (remainder[brace:] if brace != -1 else "")


def parse_heading_attrs(text: str) -> HeadingAttrs:
    """Strip a trailing `{ #id .class key=value }` from heading text, as attr_list does.

    `text` is the heading's last plain-text run (inline code never carries attributes). An
    extra `}` makes attr_list refuse the whole list; then the text is left untouched.
    """
    if not text.rstrip(" ").endswith("}"):
        return HeadingAttrs(text, None)
    # Only the tail can hold an attr list; bounding the search keeps huge headings linear.
    offset = max(0, len(text) - _ATTR_SEARCH_WINDOW)
    m = _HEADER_ATTR_RE.search(text, offset)
    if m is None:
        return HeadingAttrs(text, None)
    attrs, remainder = _scan_attrs(m.group(1))
    if remainder:
        return HeadingAttrs(text, None)
    explicit_id: str | None = None
    for key, value in attrs:
        if key == "id" and value is not None:
            explicit_id = value  # later ids win, as repeated `elem.set("id", ...)` would
    stripped = text[: m.start()].rstrip("#").rstrip()  # attr_list also drops trailing #s
    return HeadingAttrs(stripped, explicit_id)
