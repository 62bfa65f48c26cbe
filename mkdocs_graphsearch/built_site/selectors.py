"""One CSS compound selector, as much as content markers need: `main`, `div.body`, `#content`,
`[role=main]`, `article.md-content__inner`, `[data-graphsearch-body]`.

No combinators and no pseudo-classes: an element matches by its own tag, id, classes and
attributes. The markers of real themes need no more, and the stdlib has no CSS engine.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Selector", "parse_selector"]

_TAG_RE = re.compile(r"[A-Za-z][\w-]*|\*")
_PART_RE = re.compile(
    r"""([.#])([\w-]+)"""  # .class or #id
    r"""|\[\s*([\w:.-]+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\]\s"']+))\s*)?\]"""  # [attr] or [attr=value]
)


@dataclass(frozen=True)
class Selector:
    text: str
    tag: str | None
    classes: frozenset[str]
    attributes: tuple[tuple[str, str | None], ...]  # (name, value or None for presence); `id` is one

    def matches(self, tag: str, attributes: Mapping[str, str]) -> bool:
        """Does an element (its lowercase tag, its attributes) match?"""
        if self.tag is not None and self.tag != tag:
            return False
        if self.classes and not self.classes <= set(attributes.get("class", "").split()):
            return False
        for name, value in self.attributes:
            if name not in attributes or (value is not None and attributes[name] != value):
                return False
        return True


def parse_selector(text: str) -> Selector:
    """`tag`, `.class`, `#id`, `[attr]`, `[attr=value]` in one compound; ValueError otherwise."""
    source = text.strip()
    tag_match = _TAG_RE.match(source)
    tag = tag_match.group(0).lower() if tag_match else None
    position = tag_match.end() if tag_match else 0
    classes: set[str] = set()
    attributes: list[tuple[str, str | None]] = []
    while position < len(source):
        part = _PART_RE.match(source, position)
        if part is None:
            raise ValueError(
                f"unsupported selector {text!r}: one element's tag, #id, .class, [attr] or [attr=value], no combinators"
            )
        if part.group(1) == ".":
            classes.add(part.group(2))
        elif part.group(1) == "#":
            attributes.append(("id", part.group(2)))
        else:
            value = next((v for v in part.group(4, 5, 6) if v is not None), None)
            attributes.append((part.group(3).lower(), value))
        position = part.end()
    if not source or (tag is None and not classes and not attributes):
        raise ValueError(f"empty selector {text!r}")
    return Selector(source, None if tag == "*" else tag, frozenset(classes), tuple(attributes))
