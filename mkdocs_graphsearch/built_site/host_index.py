"""What the site's own search indexes: pages left out of it are left out of ours.

A generator honours its pages' search exclusions (`search: exclude: true` in front matter, for
MkDocs' and Material's search and for Zensical) by leaving them out of its own index, and Sphinx
lists only real documents in its (not genindex.html or search.html). So when the built site
carries one of these indexes, a page it does not list is one the host keeps out of search. An
index that lists nothing (Zensical's, with its search turned off) says nothing: it is ignored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from mkdocs_graphsearch.files.bounded import MAX_BUNDLE_PART, read_bounded
from mkdocs_graphsearch.parse.rendered import url_key

__all__ = ["HostIndex", "read_host_index"]


@dataclass
class HostIndex:
    file: str  # the index file, relative to the site ("search.json")
    urls: set[str]  # url_key of every page it lists


def _locations(data: object, key: str) -> set[str] | None:
    """url keys of `data[key][*].location` (MkDocs, Material, Zensical); None if not that shape."""
    items = data.get(key) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    return {url_key(item["location"].partition("#")[0]) for item in items
            if isinstance(item, dict) and isinstance(item.get("location"), str)}


def _sphinx_documents(text: str) -> set[str] | None:
    """url keys of the documents `searchindex.js` (`Search.setIndex({...})`) names: `usage.html`
    for the html builder, `usage/` for dirhtml."""
    start, end = text.find("{"), text.rfind("}")
    try:
        data = json.loads(text[start : end + 1])
    except ValueError:
        return None
    names = data.get("docnames") if isinstance(data, dict) else None
    if not isinstance(names, list):
        return None
    urls = set()
    for name in names:
        if isinstance(name, str):
            urls.add(url_key(f"{name}.html"))
            urls.add(url_key(name.removesuffix("index")))
    return urls


# The index files, by host: Zensical, then MkDocs' and Material's `search` plugin, then Sphinx.
_READERS = (
    ("search.json", lambda text: _locations(json.loads(text), "items")),
    ("search/search_index.json", lambda text: _locations(json.loads(text), "docs")),
    ("searchindex.js", _sphinx_documents),
)


def read_host_index(site_dir: Path) -> HostIndex | None:
    """The first of the known host indexes the site has and that reads as one; None otherwise."""
    for name, read in _READERS:
        path = site_dir / name
        if not path.is_file():
            continue
        try:
            urls = read(read_bounded(path, MAX_BUNDLE_PART, "search index").decode("utf-8", errors="replace"))
        except (OSError, ValueError):  # too big, special, or not JSON: someone else's file of that name
            continue
        if urls:
            return HostIndex(name, urls)
    return None
