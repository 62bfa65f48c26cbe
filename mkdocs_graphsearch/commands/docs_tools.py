"""The docs as tools for an AI agent: search, read, related, list_pages over one built bundle.

Plain functions of a loaded bundle returning JSON-ready dicts; mcp_server.py serves them over
MCP. Everything comes from the bundle, as the browser sees it: search is the reference engine
(the browser's answers), text is the bundle's copy of each section (text.json keeps the first
`snippet_source_chars` characters of each; `truncated` says when a section was longer), links
are the graph's link edges.

Ids are the bundle's chunk ids: `guide/install.md` (a page), `guide/install.md::Setup` (a section);
`read` also takes a page path with an anchor (`guide/install.md#setup`) or a result URL.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.bundle.related import read_related, read_top
from mkdocs_graphsearch.engine.search import search

_MARK = re.compile(r"</?mark>")


class UnknownDoc(ValueError):
    """An id, path or URL that names no page or section of the site."""


@dataclass
class DocsTools:
    """The tools over one bundle; `site_url` (optional) makes every URL absolute."""

    bundle: Bundle
    site_url: str = ""
    _by_id: dict[str, int] = field(init=False)
    _links_of: dict[int, list[int]] = field(init=False)
    _linked_from: dict[int, list[int]] = field(init=False)

    def __post_init__(self) -> None:
        chunks, pages = self.bundle.chunks, self.bundle.pages
        self._by_id = {}
        rows = zip(chunks["id"], chunks["page"], chunks["anchor"], strict=True)
        for index, (chunk_id, page, anchor) in enumerate(rows):
            path, url = pages["path"][page], pages["url"][page]
            names = [chunk_id, f"{path}#{anchor}", f"{url}#{anchor}"] if anchor else [chunk_id]
            if chunks["kind"][index] == "page":  # the page root: by its path and its URL too
                names += [path, url, url.rstrip("/"), "/" + url]
            for name in names:
                self._by_id.setdefault(name, index)
        self._by_id.pop("", None)
        graph = self.bundle.graph
        link = graph["edge_types"].index("link")
        offsets, targets, types = graph["offsets"], graph["targets"], graph["types"]
        self._links_of, self._linked_from = {}, {}
        for source in range(self.bundle.n_chunks):
            for edge in range(offsets[source], offsets[source + 1]):
                if types[edge] == link:
                    self._links_of.setdefault(source, []).append(targets[edge])
                    self._linked_from.setdefault(targets[edge], []).append(source)

    # ------------------------------------------------------------------ the tools

    def search(self, query: str, limit: int | None = None, mode: str | None = None,
               filters: Sequence[str] = ()) -> dict[str, Any]:
        """The browser's results for a query; `filters` (like `tags:deploy`) join the query text."""
        text = " ".join([query, *filters]).strip()
        output = search(self.bundle, text, mode=mode, limit=limit)
        return {
            "query": text,
            "mode": output["mode"],
            "results": [
                {
                    "page": page["page"],
                    "title": page["title"],
                    "url": self._url(page["url"]),
                    "score": round(page["score"], 6),
                    "sections": [
                        {
                            "id": section["id"],
                            "kind": section["kind"],
                            "title": section["title"],
                            "url": self._url(section["url"]),
                            "snippet": html.unescape(_MARK.sub("", section["snippet"])),
                        }
                        for section in page["sections"]
                    ],
                }
                for page in output["results"]
            ],
        }

    def read(self, id: str) -> dict[str, Any]:  # noqa: A002 - the tool's argument, as agents see it
        """A page or a section with everything under it: its text, the pages it links, and the
        pages that link to it."""
        start = self._chunk(id)
        chunks, texts = self.bundle.chunks, self.bundle.texts
        inside = [start]
        for index in range(start + 1, self.bundle.n_chunks):
            if chunks["parent"][index] not in inside:
                break
            inside.append(index)
        limit = int(self.bundle.settings["snippet_source_chars"])
        parts = [self._markdown(index) for index in inside]
        scope = set(inside)
        links = sorted({target for source in scope for target in self._links_of.get(source, [])} - scope)
        linked_from = sorted({source for target in scope for source in self._linked_from.get(target, [])} - scope)
        return {
            **self._describe(start),
            "text": "\n\n".join(part for part in parts if part),
            "truncated": any(len(texts[index]) >= limit for index in inside),
            "links": [self._describe(target) for target in links],
            "linked_from": [self._describe(source) for source in linked_from],
        }

    def related(self, page: str) -> dict[str, Any]:
        """The pages most related to a page (computed at build time; empty for older bundles)."""
        index = self.bundle.chunks["page"][self._chunk(page)]
        pages = self.bundle.pages
        rows = read_related(self.bundle)
        found = rows[index] if rows is not None else []
        return {
            "page": pages["path"][index],
            "related": [
                {"page": pages["path"][other], "title": pages["title"][other],
                 "url": self._url(pages["url"][other]), "score": score}
                for other, score in found
            ],
        }

    def list_pages(self) -> dict[str, Any]:
        """Every page of the site (path, title, URL), and the most connected ones to start from."""
        pages = self.bundle.pages
        return {
            "pages": [
                {"page": path, "title": title, "url": self._url(url)}
                for path, title, url in zip(pages["path"], pages["title"], pages["url"], strict=True)
            ],
            "start": [entry["path"] for entry in read_top(self.bundle.manifest)],
        }

    # ------------------------------------------------------------------ helpers

    def _chunk(self, id: str) -> int:  # noqa: A002
        name = id.strip()
        if self.site_url and name.startswith(self.site_url):
            name = name[len(self.site_url) :]
        index = self._by_id.get(name)
        if index is None:
            raise UnknownDoc(f"no page or section {id!r} in this site (list_pages gives the pages)")
        return index

    def _describe(self, index: int) -> dict[str, Any]:
        chunks, pages = self.bundle.chunks, self.bundle.pages
        page = chunks["page"][index]
        anchor = chunks["anchor"][index]
        url = pages["url"][page]
        return {
            "id": chunks["id"][index],
            "kind": chunks["kind"][index],
            "title": chunks["title"][index],
            "page": pages["path"][page],
            "url": self._url(f"{url}#{anchor}" if anchor else url),
        }

    def _markdown(self, index: int) -> str:
        """A chunk as markdown: a section's heading and text, a code block fenced."""
        chunks = self.bundle.chunks
        text = self.bundle.texts[index].strip()
        kind = chunks["kind"][index]
        if kind == "code":
            return f"```{chunks['language'][index]}\n{text}\n```"
        level = max(1, int(chunks["level"][index]) or 1)
        heading = f"{'#' * min(level, 6)} {chunks['title'][index]}"
        return f"{heading}\n\n{text}" if text else heading

    def _url(self, url: str) -> str:
        return f"{self.site_url}{url}" if self.site_url else url
