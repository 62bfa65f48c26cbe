"""Facet values and their keys (mirrored in js/src/engine/filters.js; the filter syntax and what each
facet matches: engine/filters.py). The build lists facet values under their keys
(index/facets.py) and the engines match a typed `tags:Dead_Letter` against a page's
`dead letter` through them.

key(value): Unicode NFKC, lowercased (final sigma folded to sigma, as the tokenizer does), `"`
removed, each run of whitespace (space, tab, LF, CR, FF, VT), `_` and `-` made one `-`, and `-`
trimmed at both ends: `Dead Letter_Queue` -> `dead-letter-queue`. So a key never holds a space:
a UI can always write a filter as `name:key`, unquoted.
path_key(path): the key of each `/`-separated segment, empty segments dropped, joined by `/`:
`/User Guide//advanced/` -> `user-guide/advanced`.
language_of(language, aliases): the language a code block counts as, its key through the
manifest's `language_aliases` (`Py` -> `python`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

_RUNS = re.compile(r"[ \t\n\r\f\v_-]+")

#: A chunk kind -> its `kind:` facet value (a kind this table lacks is its own value).
KIND_FACET = {"page": "prose", "section": "prose", "api": "api", "code": "code"}


def facet_key(value: str) -> str:
    folded = unicodedata.normalize("NFKC", value).lower().replace("\u03c2", "\u03c3").replace('"', "")
    return _RUNS.sub("-", folded).strip("-")


def path_key(path: str) -> str:
    return "/".join(key for key in (facet_key(part) for part in path.split("/")) if key)


def language_of(language: str, aliases: Mapping[str, str]) -> str:
    key = facet_key(language)
    return aliases.get(key, key)
