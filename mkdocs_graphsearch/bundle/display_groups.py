"""Display fragments grouped by meaning (format 10; mirrored by js/src/engine/bundle/display-groups.js
and read.js displayRuns): a fragment holds pages that rank together, not a range of pages in path
order.

An answer's pages are near one another in meaning, not in path: on a large site each page it
showed sat in a display file of its own. A site whose vectors are clustered (bundle/vector_shards.py)
therefore orders its pages by the cluster most of their chunks are in (the clusters are numbered
along a chain of their centroids, index/kmeans.py chained, so near clusters are near in this
order too; ties to the lower cluster, then by page number), and cuts that order into fragments
at DISPLAY_FRAGMENT_BYTES, between pages. keyword.json's `pages.display` gives each page's
fragment and the manifest's `display_count` their number (in place of `display_starts`).

A fragment holds its pages in page-number order: its chunk columns are those of its pages'
chunks, run after run (a run: pages next to one another in page order), its sparse `ids` and
`parents` keyed by chunk number in the fragment, its page columns those of its pages. Each run
is read back like a format-9 fragment starting at the run's first chunk (display.py
expand_display, expand_pages): what a fragment derives, it derives within a page.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from mkdocs_graphsearch.bundle.display import (
    DISPLAY_CHUNKS,
    DISPLAY_PAGES,
    SPARSE_CHUNKS,
    STORED_CHUNKS,
    Run,
    display_starts,
    expand_display,
    expand_pages,
)


def page_clusters(chunk_pages: Sequence[int], chunk_clusters: Sequence[int], n_pages: int) -> list[int]:
    """Each page's cluster: the one most of its chunks are in (ties to the lower); -1 for a page
    without chunks."""
    counts: list[Counter[int]] = [Counter() for _ in range(n_pages)]
    for page, cluster in zip(chunk_pages, chunk_clusters, strict=True):
        counts[page][cluster] += 1
    return [min(count, key=lambda c: (-count[c], c)) if count else -1 for count in counts]


def page_firsts(chunk_pages: Sequence[int], n_pages: int) -> list[int]:
    """Each page's first chunk, then the chunk count (a page without chunks: the next page's)."""
    firsts = [len(chunk_pages)] * (n_pages + 1)
    for chunk in range(len(chunk_pages) - 1, -1, -1):
        firsts[chunk_pages[chunk]] = chunk
    for page in range(n_pages - 1, -1, -1):
        firsts[page] = min(firsts[page], firsts[page + 1])
    return firsts


def fragment_runs(firsts: Sequence[int], page_display: Sequence[int], count: int) -> list[list[Run]]:
    """Each of the `count` fragments' runs (`firsts`: page_firsts), in page order: one pass over
    the pages (js/src/engine/bundle/display-groups.js reads one fragment's at a time)."""
    runs: list[list[Run]] = [[] for _ in range(count)]
    for page, fragment in enumerate(page_display):
        each = runs[fragment]
        if each and each[-1][3] == page:
            start, _, first, _ = each[-1]
            each[-1] = (start, firsts[page + 1], first, page + 1)
        else:
            each.append((firsts[page], firsts[page + 1], page, page + 1))
    return runs


def run_chunks(runs: Sequence[Run]) -> list[int]:
    """The chunks a fragment's runs hold, in order (those of its graph shard too)."""
    return [chunk for start, end, _, _ in runs for chunk in range(start, end)]


def run_fragment(fragment: Mapping[str, Any], at: int, page_at: int, run: Run) -> dict[str, Any]:
    """The part of a checked grouped fragment a run holds, as a fragment of its own (`at`,
    `page_at`: the run's first chunk and page in the fragment), for display.expand_display."""
    start, end, first, last = run
    chunks = fragment["chunks"]
    part: dict[str, Any] = {key: chunks[key][at : at + end - start] for key in STORED_CHUNKS}
    for key in SPARSE_CHUNKS:
        part[key] = {str(int(i) - at): value for i, value in chunks[key].items() if at <= int(i) < at + end - start}
    pages = {key: fragment["pages"][key][page_at : page_at + last - first] for key in DISPLAY_PAGES}
    return {"chunks": part, "pages": pages}


def display_count(manifest: Mapping[str, Any]) -> int:
    """How many display fragments a bundle has: its `display_count` (grouped), else one per
    display_starts entry."""
    count: int = manifest["display_count"] if "display_count" in manifest else len(display_starts(manifest))
    return count


def expand_grouped(keyword: dict[str, Any], fragment: Mapping[str, Any], index: int, runs: Sequence[Run]) -> None:
    """Fill keyword.json's display columns (lists over every chunk and page) from checked grouped
    fragment `index`, run by run (display.expand_display, expand_pages)."""
    chunks, pages = keyword["chunks"], keyword["pages"]
    at = page_at = 0
    for run in runs:
        start, end, first, last = run
        part = run_fragment(fragment, at, page_at, run)
        columns = expand_display(part, chunks["kind"], chunks["page"], pages["path"], start, index)
        page_columns = expand_pages(part, columns["title"], chunks["page"], pages["path"], start, first, index)
        for key in DISPLAY_CHUNKS:
            chunks[key][start:end] = columns[key]
        for key in DISPLAY_PAGES:
            pages[key][first:last] = page_columns[key]
        at, page_at = at + end - start, page_at + last - first
