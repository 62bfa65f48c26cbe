"""Display fragments (`display.<i>.json`): the columns only a shown result needs, out of keyword.json.

Scoring, filtering, grouping and tie-breaking read keyword.json's columns (pages.path and tags;
chunks.kind, language, page, defines): ties break by chunk index, never by id. What a result
shows (a chunk's id, anchor, title, level, parent; a page's url and title) is split into
fragments over page-aligned chunk ranges (the manifest's `display_starts`; a format-4 bundle has
none: its display fragments cover its text fragments' ranges, `text_starts`), so the first
answer fetches the few fragments of the pages it shows, not every title of the site (on a large
site these columns were most of keyword.json's bytes).

Since format 5 a display fragment ends at the first page boundary once it holds
DISPLAY_FRAGMENT_BYTES (fragment_starts), apart from the text fragments: a page's display
columns weigh a fraction of its snippet texts, and each answer while the reader types needs its
pages' titles, so fewer, larger display files cost a typed question far fewer requests.

Fragment i holds {"chunks": {column: values of chunks starts[i] .. }, "pages": {column:
values of pages page_starts[i] .. page_starts[i + 1] - 1 (the last: to the end)}}, where
page_starts[0] = 0 and page_starts[i] = chunks.page[starts[i]]: chunks.page never decreases
and a fragment starts a page (schema.py checks both), so a page's chunks and its own columns are
in one fragment. js/src/engine/bundle/read.js loadDisplay reads the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from mkdocs_graphsearch.bundle.format import DISPLAY_FRAGMENT_BYTES, display_fragment

#: The display-only columns of keyword.json's chunks and pages (ids, titles and anchors weigh
#: most).
DISPLAY_CHUNKS = ("anchor", "id", "level", "parent", "title")
DISPLAY_PAGES = ("title", "url")


def display_starts(manifest: Mapping[str, Any]) -> list[int]:
    """Each display fragment's first chunk: the manifest's `display_starts`, or a format-4
    bundle's `text_starts`."""
    starts: list[int] = manifest.get("display_starts", manifest["text_starts"])
    return starts


def page_range(chunk_pages: Sequence[int], starts: Sequence[int], n_pages: int, index: int) -> tuple[int, int]:
    """The pages whose columns display fragment `index` holds: start, end (exclusive)."""
    start = chunk_pages[starts[index]] if index else 0
    end = chunk_pages[starts[index + 1]] if index + 1 < len(starts) else n_pages
    return start, end


def fragment_starts(keyword: Mapping[str, Any], target: int | None = None) -> list[int]:
    """The display fragments' first chunks: a fragment ends at the first page boundary once its
    columns hold `target` (DISPLAY_FRAGMENT_BYTES) bytes of JSON (at least one fragment: [0])."""
    target = DISPLAY_FRAGMENT_BYTES if target is None else target
    chunks, pages = keyword["chunks"], keyword["pages"]
    chunk_pages = chunks["page"]
    starts, size = [0], 0
    for chunk, page in enumerate(chunk_pages):
        if not chunk or page != chunk_pages[chunk - 1]:  # a page starts
            if size >= target:
                starts.append(chunk)
                size = 0
            size += sum(len(orjson.dumps(pages[key][page])) + 1 for key in DISPLAY_PAGES)
        size += sum(len(orjson.dumps(chunks[key][chunk])) + 1 for key in DISPLAY_CHUNKS)
    return starts


def display_part(keyword: Mapping[str, Any], starts: Sequence[int]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """keyword.json's document without its display columns, and the display fragments' bytes."""
    chunks, pages = keyword["chunks"], keyword["pages"]
    n_chunks, n_pages = len(chunks["page"]), len(pages["path"])
    fragments = {}
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else n_chunks
        first, last = page_range(chunks["page"], starts, n_pages, index)
        document = {
            "chunks": {key: chunks[key][start:end] for key in DISPLAY_CHUNKS},
            "pages": {key: pages[key][first:last] for key in DISPLAY_PAGES},
        }
        fragments[display_fragment(index)] = orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    rest = {
        **keyword,
        "chunks": {key: value for key, value in chunks.items() if key not in DISPLAY_CHUNKS},
        "pages": {key: value for key, value in pages.items() if key not in DISPLAY_PAGES},
    }
    return rest, fragments


def merge_display(keyword: dict[str, Any], fragment: Mapping[str, Any]) -> None:
    """Append a checked fragment's columns to keyword.json's (fragments in order)."""
    for table, columns in (("chunks", DISPLAY_CHUNKS), ("pages", DISPLAY_PAGES)):
        for key in columns:
            keyword[table].setdefault(key, []).extend(fragment[table][key])
