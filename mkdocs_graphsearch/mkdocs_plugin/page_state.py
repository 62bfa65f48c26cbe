"""The last build's parsed pages, kept beside the embedding cache for `--dirty` builds.

Why: `mkdocs build --dirty` and `mkdocs serve --dirty` render only the pages that changed, yet
the bundle must hold every page. Each build saves its pages here; the next one takes the pages
MkDocs did not render from this file, provided the page's source is unchanged (its SHA-256).
A page MkDocs did render is taken from here too when its rendered HTML and everything else its
parse depends on are unchanged (`rendered_key`, site_pages.py): parsing every page's HTML again
was most of an edit's rebuild beyond MkDocs' own work.

File: `pages-<site key>.cache`, framed by files/cache_store.py; payload JSON (the plugin version,
the chunk depth and the pages).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from mkdocs_graphsearch import __version__
from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.parse.model import Chunk, Link, Page

#: Bumped when the saved shape changes; a file of another version is ignored (full re-parse).
#: 2: chunks carry `definitions`, mkdocstrings sections are kind `api`. 3: links carry `text`.
#: 4: pages carry `rendered_key`. 5: framed by cache_store.py, the version in the frame.
STATE_VERSION = 5
_KIND = "pages"


@dataclass
class SavedPage:
    """One page as a build indexed it, with the hash of the source it came from."""

    url: str
    source_sha256: str
    page: Page
    #: What the page was parsed from when MkDocs rendered it (site_pages.py); "" when from markdown.
    rendered_key: str = ""


def source_digest(source: bytes) -> str:
    return hashlib.sha256(source).hexdigest()


def state_file(cache_dir: Path, site_dir: Path) -> Path:
    """One state file per built site: two sites sharing a cache never mix their pages."""
    key = hashlib.sha256(str(site_dir.resolve()).encode("utf-8")).hexdigest()[:16]
    return cache_dir / f"pages-{key}.cache"


def _page_json(page: Page) -> Page:
    """What is kept of a page: all but its broken links and warnings (reported by the build that
    rendered it). orjson writes the dataclasses itself, much faster than `asdict` first."""
    return replace(page, broken_links=[], warnings=[])


def _page_from_json(data: dict[str, Any]) -> Page:
    chunks = [Chunk(**{**chunk, "links": [Link(**link) for link in chunk["links"]]}) for chunk in data["chunks"]]
    return Page(**{**data, "chunks": chunks, "broken_links": [], "warnings": []})


def pages_payload(chunk_depth: int, pages: dict[str, SavedPage]) -> bytes:
    """What `save_pages` writes: every input of the bundle a page gives (bundle_reuse.py hashes it)."""
    data = {
        "generator": __version__,
        "chunk_depth": chunk_depth,
        "pages": {
            name: {
                "url": saved.url,
                "source_sha256": saved.source_sha256,
                "rendered_key": saved.rendered_key,
                "page": _page_json(saved.page),
            }
            for name, saved in sorted(pages.items())
        },
    }
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def save_pages(path: Path, payload: bytes) -> None:
    """Write `pages_payload` atomically (temp file + rename): a killed build never leaves half a
    state. The same pages as the file holds (a build where no page changed) are not written again."""
    if not cache_store.holds(path, _KIND, STATE_VERSION, payload):
        cache_store.write(path, _KIND, STATE_VERSION, payload)


def load_pages(path: Path, chunk_depth: int, warn: Callable[[str], None]) -> dict[str, SavedPage]:
    """The saved pages, or {} when there are none or they were made differently (another
    plugin version or chunk depth): callers then parse afresh. A damaged file is one warning
    naming it (the pages are parsed afresh too: nothing is lost)."""
    return load_state(path, chunk_depth, warn)[0]


def load_state(path: Path, chunk_depth: int, warn: Callable[[str], None]) -> tuple[dict[str, SavedPage], bytes]:
    """`load_pages`, and the payload they were read from (b"" with no pages): a build whose pages
    are all these takes it as its own `pages_payload` rather than serialize every page again."""
    try:
        raw = cache_store.read(path, _KIND, STATE_VERSION)
    except OSError as error:
        warn(f"cannot read the page state {path} ({error}); parsing every page again")
        return {}, b""
    except ValueError as error:
        warn(f"the page state {path} is damaged ({error}); parsing every page again")
        return {}, b""
    if raw is None:
        return {}, b""
    try:
        data = orjson.loads(raw)
        if data.get("generator") != __version__ or data.get("chunk_depth") != chunk_depth:
            return {}, b""
        pages = {
            name: SavedPage(entry["url"], entry["source_sha256"], _page_from_json(entry["page"]), entry["rendered_key"])
            for name, entry in data["pages"].items()
        }
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        warn(f"the page state {path} is damaged ({type(error).__name__}: {error}); parsing every page again")
        return {}, b""
    return pages, raw
