"""Query filters: facets typed in the query (mirrored by js/src/engine/filters.js; pinned by
tests/vectors/filters.json).

Syntax:
- A filter is `name:value` where a word starts (at the start of the query or after whitespace:
  space, tab, LF, CR, FF, VT), `name` one of FACETS in any ASCII case (`Tags:deploy`). Anything
  else with a colon is text: `http://x`, `std::vector`, `re:match`, `(kind:code)`.
- The value is quoted, `"` up to the next `"` (to the end of the query when none follows), or
  else every character up to the next whitespace. A filter whose value has an empty key
  (`tags:`, `tags:""`, `in:/`) is text.
- Each filter is cut out of the query and one space put in its place: the rest is the text the
  engine searches (`retry kind:code policy` searches `retry   policy`).
- Values compare by key (text/facets.py: `tags:"Dead Letter"` = `tags:dead-letter`); `in`
  values by path key (`in:/user-guide/` = `in:user-guide`). Each facet keeps its keys in order
  of first appearance, once each.
- Several values of one facet match any of them (OR); different facets must all match (AND).
  There is no negation: `-tags:x` is text.

What each facet matches (per chunk):
- tags: a page's front matter tags (keyword.json `pages.tags`; a bundle without it has none).
- in: a page in that folder or below it: the path key of its folders (its path without the file
  name) equals the value or starts with value + `/`; a page at the docs root is in none.
- kind: `prose` (page roots and sections), `code` (code blocks), `api` (mkdocstrings objects).
- lang: a code block whose language (text/facets.py language_of, through the manifest's
  `language_aliases`) is the value's, likewise mapped: `lang:py` finds ```python blocks.
A value no chunk has (`kind:poem`) matches nothing.

How search uses them (engine/search.py): exactly the unfiltered algorithm over the matching
chunks only, as if the site had no others (the bundle's precomputed impacts and vectors are
unchanged): keyword scores and cosines of other chunks are 0 before anything is ranked, so
ranks, fusion, exact covers and definitions count matching chunks only, and graph expansion never
reaches another chunk. A query whose text has no token left (`tags:deploy` alone) lists the
matching chunks instead: grouped by page in bundle order (pages by path, chunks in page order),
score 0, `via` ["filter"].
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.text.facets import KIND_FACET, facet_key, language_of, path_key

FACETS = ("tags", "in", "kind", "lang")
#: Whitespace that ends an unquoted value and starts a word (ASCII only: both engines agree).
WHITESPACE = " \t\n\r\f\v"
#: An older manifest's search settings have no `language_aliases` (bundle/settings.py).
LANGUAGE_ALIASES_IF_ABSENT: dict[str, str] = {}

Filters = dict[str, list[str]]


@dataclass
class ParsedQuery:
    """The query's text with its filters cut out, and the filters' keys by facet."""

    text: str
    filters: Filters = field(default_factory=dict)


def value_key(facet: str, value: str) -> str:
    return path_key(value) if facet == "in" else facet_key(value)


def _facet_at(query: str, start: int) -> str | None:
    """The facet whose `name:` starts at `start`, if any (ASCII case-insensitive)."""
    for facet in FACETS:
        head = query[start : start + len(facet) + 1]
        if head.isascii() and head.lower() == facet + ":":
            return facet
    return None


def add_filter(filters: Filters, facet: str, key: str) -> None:
    keys = filters.setdefault(facet, [])
    if key not in keys:
        keys.append(key)


def parse_query(query: str) -> ParsedQuery:
    parsed = ParsedQuery("")
    pieces: list[str] = []
    done = 0  # the query up to here is in `pieces`
    i, n = 0, len(query)
    while i < n:
        if query[i] in WHITESPACE or (i > 0 and query[i - 1] not in WHITESPACE):
            i += 1
            continue
        facet = _facet_at(query, i)
        if facet is None:
            i += 1
            continue
        start = i + len(facet) + 1
        if start < n and query[start] == '"':
            close = query.find('"', start + 1)
            end = n if close < 0 else close + 1
            value = query[start + 1 : close if close >= 0 else n]
        else:
            end = start
            while end < n and query[end] not in WHITESPACE:
                end += 1
            value = query[start:end]
        key = value_key(facet, value)
        if not key:
            i += 1
            continue
        add_filter(parsed.filters, facet, key)
        pieces += [query[done:i], " "]
        done = i = end
    parsed.text = "".join([*pieces, query[done:]])
    return parsed


def parse_filter(argument: str) -> tuple[str, str]:
    """One `facet:value` given apart from the query (`graphsearch query --filter`), unquoted:
    (facet, key). Raises ValueError naming the problem."""
    name, colon, value = argument.partition(":")
    facet = name.lower() if name.isascii() else name
    if not colon or facet not in FACETS:
        raise ValueError(f"filter {argument!r} is not FACET:VALUE with FACET one of {', '.join(FACETS)}")
    key = value_key(facet, value)
    if not key:
        raise ValueError(f"filter {argument!r} has no value")
    return facet, key


def merged(filters: Filters, extra: Iterable[tuple[str, str]]) -> Filters:
    """The query's filters and those given apart (in that order), as if all were typed."""
    result = {facet: list(keys) for facet, keys in filters.items()}
    for facet, key in extra:
        add_filter(result, facet, key)
    return result


def language_aliases(bundle: Bundle) -> Mapping[str, str]:
    aliases: Mapping[str, str] = bundle.settings.get("language_aliases", LANGUAGE_ALIASES_IF_ABSENT)
    return aliases


def _page_mask(bundle: Bundle, facet: str, keys: list[str]) -> np.ndarray:
    pages = bundle.pages
    if facet == "tags":
        tags = pages.get("tags") or [[] for _ in pages["path"]]
        return np.array([any(facet_key(tag) in keys for tag in page_tags) for page_tags in tags], dtype=bool)
    folders = [path_key(path.rpartition("/")[0]) for path in pages["path"]]
    return np.array(
        [bool(folder) and any(folder == key or folder.startswith(key + "/") for key in keys) for folder in folders],
        dtype=bool,
    )


def _chunk_mask(bundle: Bundle, facet: str, keys: list[str]) -> np.ndarray:
    kinds = bundle.chunks["kind"]
    if facet == "kind":
        return np.array([KIND_FACET.get(kind, kind) in keys for kind in kinds], dtype=bool)
    aliases = language_aliases(bundle)
    wanted = {aliases.get(key, key) for key in keys}
    languages = bundle.chunks["language"]
    pairs = zip(kinds, languages, strict=True)
    return np.array([kind == "code" and language_of(lang, aliases) in wanted for kind, lang in pairs], dtype=bool)


def allowed_chunks(bundle: Bundle, filters: Filters) -> np.ndarray:
    """True for each chunk that every facet of `filters` matches."""
    allowed = np.ones(bundle.n_chunks, dtype=bool)
    pages = np.asarray(bundle.chunks["page"], dtype=np.int64)
    for facet, keys in filters.items():
        if facet in ("tags", "in"):
            allowed &= _page_mask(bundle, facet, keys)[pages]
        else:
            allowed &= _chunk_mask(bundle, facet, keys)
    return allowed
