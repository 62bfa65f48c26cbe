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

Since format 6 a fragment leaves out what follows from the rest (compact_display; read back by
expand_display, and js/src/engine/bundle/display.js the same way): a chunk's id where it is the
one parse/chunks.py gives it (derived_ids; `chunks.ids` maps a fragment-relative chunk number
to any other id), a title equal to its parent's (null: a code block's, most often) and an anchor
derived_anchor gives (a code block's parent's, or Markdown's default slug of the title). Ids
were half of a fragment's bytes, code blocks a third of its chunks and most anchors slugs, so a
fragment holds about three times the pages and an answer's pages are in fewer files.

Since format 8 a fragment also leaves out what the chunk tree and the page paths give (read back
by expand_display and expand_pages, and display.js the same way): a chunk's parent where it is
derived_parents' (the nearest chunk before it on its page that is no code block and has a lower
level; `chunks.parents` maps a fragment-relative chunk number to any other parent, -1 for none),
a page's title where it is its top chunk's (null) and its url where derived_url gives it from its
path (null). Parents (chunk numbers, which never repeat) and the pages' titles and urls were
much of a fragment's gzip bytes, and each answer fetches most of a larger site's fragments.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from mkdocs_graphsearch.bundle.format import DISPLAY_FRAGMENT_BYTES, BundleError, display_fragment

#: The display-only columns of keyword.json's chunks and pages (ids, titles and anchors weigh
#: most).
DISPLAY_CHUNKS = ("anchor", "id", "level", "parent", "title")
DISPLAY_PAGES = ("title", "url")
#: The chunk columns a format-8 fragment stores as lists (its ids and parents: the sparse `ids`
#: and `parents` objects).
STORED_CHUNKS = ("anchor", "level", "title")
#: The sparse chunk columns of a format-8 fragment: objects keyed by chunk number in the fragment.
SPARSE_CHUNKS = ("ids", "parents")
#: A run of a display fragment (one page or pages next to one another): its first chunk, end
#: chunk (exclusive), first page, end page (exclusive).
Run = tuple[int, int, int, int]


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


def derived_ids(
    titles: Sequence[str], parents: Sequence[int], kinds: Sequence[str], chunk_pages: Sequence[int],
    paths: Sequence[str], start: int,
) -> list[str | None]:
    """The ids parse/chunks.py gives chunks start, start + 1, ... (of `titles` and `parents`, which
    begin at chunk `start`; `kinds` and `chunk_pages` over every chunk): a page's top chunk its
    path, a code block `PARENT_ID::code-N` (its parent's Nth), any other `PATH::TITLE`, `::N` added
    for its page's Nth of that title. None where it names a parent outside them (no such id)."""
    ids: list[str | None] = []
    codes: dict[int, int] = {}
    titled: dict[tuple[int, str], int] = {}
    for i, (title, parent) in enumerate(zip(titles, parents, strict=True)):
        chunk, page = start + i, chunk_pages[start + i]
        if parent < 0:
            ids.append(paths[page])
        elif kinds[chunk] == "code":
            codes[parent] = n = codes.get(parent, 0) + 1
            above = ids[parent - start] if start <= parent < chunk else None
            ids.append(None if above is None else f"{above}::code-{n}")
        else:
            titled[page, title] = n = titled.get((page, title), 0) + 1
            ids.append(f"{paths[page]}::{title}" if n == 1 else f"{paths[page]}::{title}::{n}")
    return ids


def slug(title: str) -> str | None:
    """Python-Markdown's default heading id for a title of printable ASCII (toc.slugify: what
    is not a letter, digit, `_`, space or `-` removed, spaces at the ends removed, lowercase,
    runs of spaces and `-` one `-`); None for any other title (no rule both engines share)."""
    if not all(" " <= char <= "~" for char in title):
        return None
    return _DASHES.sub("-", _UNSLUGGED.sub("", title).strip(" ").lower())


_UNSLUGGED = re.compile(r"[^A-Za-z0-9_ -]")
_DASHES = re.compile(r"[- ]+")


def derived_anchor(chunk: int, kinds: Sequence[str], parent: int, parent_anchor: str | None, title: str) -> str | None:
    """The anchor a format-6 fragment leaves out (null): a code block's is its parent's
    (`parent_anchor`: None when the parent is not before it in the fragment), any other chunk's
    the slug of its title."""
    return parent_anchor if kinds[chunk] == "code" and parent >= 0 else slug(title)


def derived_parents(levels: Sequence[int], kinds: Sequence[str], chunk_pages: Sequence[int], start: int) -> list[int]:
    """The parents a format-8 fragment leaves out, of chunks start, start + 1, ... (`levels` from
    chunk `start`; `kinds` and `chunk_pages` over every chunk): the nearest chunk before it on its
    page, from `start` on, that is no code block and has a lower level; -1 where there is none."""
    parents: list[int] = []
    heads: list[int] = []  # the chunks a later one on the page may hang from, levels increasing
    for i, level in enumerate(levels):
        chunk = start + i
        if i and chunk_pages[chunk] != chunk_pages[chunk - 1]:
            heads.clear()
        above = len(heads)
        while above and levels[heads[above - 1] - start] >= level:
            above -= 1
        parents.append(heads[above - 1] if above else -1)
        if kinds[chunk] != "code":  # a code block hangs from them, but hides none of them
            del heads[above:]
            heads.append(chunk)
    return parents


def derived_url(path: str) -> str | None:
    """The url a format-8 fragment leaves out (null): MkDocs' directory url of a Markdown page's
    path (`a/b.md` -> `a/b/`, `a/index.md` and `a/README.md` -> `a/`, `index.md` -> ``); None for
    a path that is no `.md` file (no rule both engines share)."""
    if not path.endswith(".md"):
        return None
    stem = path[:-3]
    head, _, name = stem.rpartition("/")
    if name in ("index", "README"):
        return f"{head}/" if head else ""
    return f"{stem}/"


def compact_display(keyword: Mapping[str, Any]) -> dict[str, Any]:
    """keyword.json's display columns as a format-8 fragment stores them (over every chunk and
    page: display_part slices them): `ids` maps a chunk to its id where derived_ids gives another
    and `parents` to its parent where derived_parents gives another, a title equal to its
    parent's (on its page, before it) is None, and so is an anchor derived_anchor gives; under
    `pages`, a page's title equal to its top chunk's is None, and so is a url derived_url gives."""
    chunks, pages = keyword["chunks"], keyword["pages"]
    parents, chunk_pages, kinds = chunks["parent"], chunks["page"], chunks["kind"]
    levels = chunks["level"]
    tops = {page: chunk for chunk, page in reversed(list(enumerate(chunk_pages)))}
    titles, anchors = chunks["title"], chunks["anchor"]
    derived = derived_ids(titles, parents, kinds, chunk_pages, pages["path"], 0)
    near = [0 <= parent < chunk and chunk_pages[parent] == chunk_pages[chunk] for chunk, parent in enumerate(parents)]
    ids = enumerate(zip(chunks["id"], derived, strict=True))
    guessed = derived_parents(levels, kinds, chunk_pages, 0)
    return {
        "level": levels,
        "parents": {chunk: parent for chunk, (parent, guess) in enumerate(zip(parents, guessed, strict=True))
                    if parent != guess},
        "title": [None if near[c] and titles[parents[c]] == title else title for c, title in enumerate(titles)],
        "anchor": [
            None if anchor == derived_anchor(c, kinds, parents[c], anchors[parents[c]] if near[c] else None, titles[c])
            else anchor
            for c, anchor in enumerate(anchors)
        ],
        "ids": {chunk: id_ for chunk, (id_, guess) in ids if id_ != guess},
        "pages": {
            "title": [None if page in tops and titles[tops[page]] == title else title
                      for page, title in enumerate(pages["title"])],
            "url": [None if url == derived_url(path) else url
                    for path, url in zip(pages["path"], pages["url"], strict=True)],
        },
    }


def expand_display(
    fragment: Mapping[str, Any], kinds: Sequence[str], chunk_pages: Sequence[int], paths: Sequence[str],
    start: int, index: int,
) -> dict[str, list[Any]]:
    """Checked display fragment `index`'s chunk columns in full (format 6: compact_display's
    undone, format 8 its parents too; before: as stored), its first chunk `start`; a BundleError
    names what it cannot derive."""
    chunks = fragment["chunks"]
    if "ids" not in chunks:
        return {key: chunks[key] for key in DISPLAY_CHUNKS}
    name = display_fragment(index)
    parents = fragment_parents(chunks, kinds, chunk_pages, start)
    titles = list(chunks["title"])
    for i, title in enumerate(titles):
        if title is None:
            if not start <= parents[i] < start + i:
                raise BundleError(f"{name}: chunks.title[{i}] is null but its parent is not before it in the fragment")
            titles[i] = titles[parents[i] - start]
    anchors = list(chunks["anchor"])
    for i, anchor in enumerate(anchors):
        if anchor is None:
            parent = parents[i]
            above = anchors[parent - start] if start <= parent < start + i else None
            anchors[i] = derived_anchor(start + i, kinds, parent, above, titles[i])
            if anchors[i] is None:
                raise BundleError(f"{name}: chunks.anchor[{i}] is null but cannot be derived (corrupted)")
    ids = derived_ids(titles, parents, kinds, chunk_pages, paths, start)
    for i, id_ in chunks["ids"].items():
        ids[int(i)] = id_
    if None in ids:
        raise BundleError(f"{name}: chunks.ids lacks the id of chunk {start + ids.index(None)} (corrupted)")
    return {"anchor": anchors, "id": ids, "level": chunks["level"], "parent": parents, "title": titles}


def fragment_parents(
    chunks: Mapping[str, Any], kinds: Sequence[str], chunk_pages: Sequence[int], start: int
) -> list[int]:
    """A checked fragment's parents: its `parent` list (format 7 and older), or derived_parents
    with its `parents` (format 8)."""
    if "parents" not in chunks:
        return list(chunks["parent"])
    parents = derived_parents(chunks["level"], kinds, chunk_pages, start)
    for i, parent in chunks["parents"].items():
        parents[int(i)] = parent
    return parents


def expand_pages(
    fragment: Mapping[str, Any], titles: Sequence[str], chunk_pages: Sequence[int], paths: Sequence[str],
    start: int, first: int, index: int,
) -> dict[str, list[str]]:
    """Checked display fragment `index`'s page columns in full (format 8: a null title its top
    chunk's, of the fragment's full chunk `titles`, and a null url derived_url's; before: as
    stored), its first chunk `start` and first page `first`; a BundleError names what it cannot
    derive."""
    pages = fragment["pages"]
    tops: dict[int, int] = {}
    for i in range(len(titles)):
        tops.setdefault(chunk_pages[start + i], i)
    name = display_fragment(index)
    out: dict[str, list[str]] = {"title": list(pages["title"]), "url": list(pages["url"])}
    for i, title in enumerate(out["title"]):
        if title is None:
            if first + i not in tops:
                raise BundleError(f"{name}: pages.title[{i}] is null but its page has no chunk (corrupted)")
            out["title"][i] = titles[tops[first + i]]
    for i, url in enumerate(out["url"]):
        if url is None:
            derived = derived_url(paths[first + i])
            if derived is None:
                raise BundleError(f"{name}: pages.url[{i}] is null but cannot be derived (corrupted)")
            out["url"][i] = derived
    return out


def fragment_starts(
    keyword: Mapping[str, Any], target: int | None = None, compact: Mapping[str, Any] | None = None
) -> list[int]:
    """The display fragments' first chunks: a fragment ends at the first page boundary once its
    columns hold `target` (DISPLAY_FRAGMENT_BYTES) bytes of JSON as compact_display stores them
    (at least one fragment: [0]); `compact`: compact_display(keyword) if the caller has it."""
    target = DISPLAY_FRAGMENT_BYTES if target is None else target
    chunks = compact if compact is not None else compact_display(keyword)
    chunk_pages = keyword["chunks"]["page"]
    starts, size = [0], 0
    for chunk, page in enumerate(chunk_pages):
        if not chunk or page != chunk_pages[chunk - 1]:  # a page starts
            if size >= target:
                starts.append(chunk)
                size = 0
            size += page_bytes(chunks, page)
        size += chunk_bytes(chunks, chunk)
    return starts


def grouped_pages(compact: Mapping[str, Any], firsts: Sequence[int], keys: Sequence[int]) -> list[int]:
    """Each page's display fragment, grouped (format 10, bundle/display_groups.py): the pages in
    order of their key (`keys`: display_groups.page_clusters), then page number, a fragment
    ending before the first page once it holds DISPLAY_FRAGMENT_BYTES of JSON as compact_display
    stores them (`firsts`: display_groups.page_firsts)."""
    fragment, size, out = 0, 0, [0] * len(keys)
    for page in sorted(range(len(keys)), key=lambda p: (keys[p], p)):
        if size >= DISPLAY_FRAGMENT_BYTES:
            fragment, size = fragment + 1, 0
        out[page] = fragment
        size += page_bytes(compact, page)
        size += sum(chunk_bytes(compact, chunk) for chunk in range(firsts[page], firsts[page + 1]))
    return out


def page_bytes(compact: Mapping[str, Any], page: int) -> int:
    """A page's bytes in its display fragment (its page columns as compact_display stores them)."""
    return sum(len(orjson.dumps(compact["pages"][key][page])) + 1 for key in DISPLAY_PAGES)


def chunk_bytes(compact: Mapping[str, Any], chunk: int) -> int:
    """A chunk's bytes in its display fragment (its columns as compact_display stores them)."""
    size = sum(len(orjson.dumps(compact[key][chunk])) + 1 for key in STORED_CHUNKS)
    for key in SPARSE_CHUNKS:
        if chunk in compact[key]:
            size += len(orjson.dumps({str(chunk): compact[key][chunk]}))
    return size


def display_part(
    keyword: Mapping[str, Any], starts: Sequence[int], compact: Mapping[str, Any] | None = None,
    runs: Sequence[Sequence[Run]] | None = None,
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """keyword.json's document without its display columns, and the display fragments' bytes
    (format 8: compact_display's columns, `ids` and `parents` by chunk number in the fragment);
    `compact`: compact_display(keyword) if the caller has it; `runs`: each fragment's runs
    (format 10 grouped, bundle/display_groups.py), else fragment i is chunks starts[i] ..."""
    chunks, pages = keyword["chunks"], keyword["pages"]
    compact = compact if compact is not None else compact_display(keyword)
    n_chunks, n_pages = len(chunks["page"]), len(pages["path"])
    if runs is None:
        ends = [*starts[1:], n_chunks]
        runs = [[(start, ends[i], *page_range(chunks["page"], starts, n_pages, i))] for i, start in enumerate(starts)]
    sparse = {key: sorted(compact[key]) for key in SPARSE_CHUNKS}
    fragments = {
        display_fragment(index): orjson.dumps(fragment_document(compact, each, sparse), option=orjson.OPT_SORT_KEYS)
        for index, each in enumerate(runs)
    }
    rest = {
        **keyword,
        "chunks": {key: value for key, value in chunks.items() if key not in DISPLAY_CHUNKS},
        "pages": {key: value for key, value in pages.items() if key not in DISPLAY_PAGES},
    }
    return rest, fragments


def fragment_document(
    compact: Mapping[str, Any], runs: Sequence[Run], sparse: Mapping[str, Sequence[int]]
) -> dict[str, Any]:
    """A display fragment's document of compact_display's columns over its runs (format 9 and
    older: one run); `sparse`: the chunks of each sparse column, rising."""
    chunks: dict[str, Any] = {key: [] for key in STORED_CHUNKS}
    chunks.update({key: {} for key in SPARSE_CHUNKS})
    pages: dict[str, list[Any]] = {key: [] for key in DISPLAY_PAGES}
    at = 0
    for start, end, first, last in runs:
        for key in STORED_CHUNKS:
            chunks[key].extend(compact[key][start:end])
        for key in SPARSE_CHUNKS:
            held = sparse[key][bisect_left(sparse[key], start) : bisect_left(sparse[key], end)]
            chunks[key].update({str(chunk - start + at): compact[key][chunk] for chunk in held})
        for key in DISPLAY_PAGES:
            pages[key].extend(compact["pages"][key][first:last])
        at += end - start
    return {"chunks": chunks, "pages": pages}


def merge_display(keyword: dict[str, Any], fragment: Mapping[str, Any], index: int) -> None:
    """Append checked fragment `index`'s columns (expand_display's) to keyword.json's (fragments in order)."""
    chunks, pages = keyword["chunks"], keyword["pages"]
    start = len(chunks.get("parent", []))
    columns = expand_display(fragment, chunks["kind"], chunks["page"], pages["path"], start, index)
    page_columns = expand_pages(fragment, columns["title"], chunks["page"], pages["path"], start,
                                len(pages.get("title", [])), index)
    for key in DISPLAY_CHUNKS:
        chunks.setdefault(key, []).extend(columns[key])
    for key in DISPLAY_PAGES:
        pages.setdefault(key, []).extend(page_columns[key])
