"""The docs as tools for an AI agent: search, read, related, list_pages over one built bundle.

Plain functions of a loaded bundle returning JSON-ready dicts; mcp_server.py serves them over
MCP. Everything comes from the bundle, as the browser sees it: search is the reference engine
(the browser's answers), text is the bundle's copy of each section (text.json keeps the first
`snippet_source_chars` characters of each; `truncated` says when a section was longer), links
are the graph's link edges.

Ids are the bundle's chunk ids: `guide/install.md` (a page), `guide/install.md::Setup` (a section);
`read` also takes a page path with an anchor (`guide/install.md#setup`) or any URL form the CLI,
the site and a browser give: `user-guide/retries/#backoff`, `/user-guide/retries/#backoff`, `/`
(the home page), the absolute URL under `site_url`, with or without `index.html` or a `?h=`.

With `docs_dir` (the site's markdown), `read` gives a page or section's own source lines: tables,
code in place, links and admonitions as written. Without it, or when the source no longer has
that section, it gives the bundle's text (each section's plain text, its code blocks after it).

Every argument is checked here, in plain words (ToolProblem): the MCP layer only forwards them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.bundle.related import describe, read_reasons, read_related, read_top
from mkdocs_graphsearch.bundle.settings import MODES
from mkdocs_graphsearch.engine.filters import parse_filter
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.files.bounded import MAX_CONFIG, MAX_PAGE, read_bounded
from mkdocs_graphsearch.parse.frontmatter import parse_front_matter
from mkdocs_graphsearch.parse.markdown import parse_page
from mkdocs_graphsearch.parse.model import Chunk
from mkdocs_graphsearch.text.cells import CELL

_MARK = re.compile(r"</?mark>")
#: Most result pages one search returns (the tool's schema says the same).
MAX_LIMIT = 100


class ToolProblem(ValueError):
    """An argument the agent can correct: the message says what is wrong and what is expected."""


class UnknownDoc(ToolProblem):
    """An id, path or URL that names no page or section of the site."""


def checked_string(value: object, name: str, *, required: bool = True) -> str:
    """`value` as the text argument name: a string of real Unicode (JSON can carry lone
    surrogates, which no text holds), not blank when required."""
    if not isinstance(value, str):
        raise ToolProblem(f"{name} must be a string")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolProblem(f"{name} is not valid Unicode text (it holds a lone surrogate)") from None
    if required and not value.strip():
        raise ToolProblem(f"{name} is empty")
    return value


class _AnyTagLoader(yaml.SafeLoader):
    """Safe YAML that reads a tagged value (`!!python/name:...`, `!ENV`) as null, not an error:
    mkdocs.yml files use such tags, and only docs_dir and site_dir are wanted here."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def docs_dir_of(site: Path) -> Path | None:
    """The markdown a built site was made from, when its mkdocs.yml sits beside it (the usual
    layout: mkdocs.yml, docs/, site/) and names that site: its docs_dir. None otherwise."""
    parent = site.resolve().parent
    for name in ("mkdocs.yml", "mkdocs.yaml"):
        try:
            config = yaml.load(read_bounded(parent / name, MAX_CONFIG, "config"), Loader=_AnyTagLoader)  # noqa: S506
        except (OSError, ValueError, yaml.YAMLError):
            continue
        if not isinstance(config, dict) or (parent / str(config.get("site_dir") or "site")).resolve() != site.resolve():
            return None
        docs = parent / str(config.get("docs_dir") or "docs")
        return docs if docs.is_dir() else None
    return None


def checked_limit(limit: object) -> None:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT):
        raise ToolProblem(f"limit must be a whole number from 1 to {MAX_LIMIT} (got {str(limit)[:40]})")


def checked_mode(mode: object) -> None:
    if mode is not None and mode not in MODES:
        raise ToolProblem(f"mode must be one of {', '.join(MODES)} (got {str(mode)[:40]!r})")


def checked_filters(filters: object) -> None:
    if filters is None:
        return
    if isinstance(filters, str) or not isinstance(filters, Sequence):
        raise ToolProblem('filters must be a list of FACET:VALUE strings, like ["tags:deploy"]')
    for argument in filters:
        checked_string(argument, "a filter")


#: Each argument of the tools -> its check (the MCP layer runs them before the SDK's own schema).
ARGUMENT_CHECKS = {
    "query": lambda value: checked_string(value, "query"),
    "id": lambda value: checked_string(value, "id"),
    "page": lambda value: checked_string(value, "page"),
    "limit": checked_limit,
    "mode": checked_mode,
    "filters": checked_filters,
}


@dataclass
class DocsTools:
    """The tools over one bundle; `site_url` (optional) makes every URL absolute."""

    bundle: Bundle
    site_url: str = ""
    docs_dir: Path | None = None
    _by_id: dict[str, int] = field(init=False)
    _links_of: dict[int, list[int]] = field(init=False)
    _linked_from: dict[int, list[int]] = field(init=False)

    def __post_init__(self) -> None:
        chunks, pages = self.bundle.chunks, self.bundle.pages
        self._by_id = {}
        rows = zip(chunks["id"], chunks["page"], chunks["anchor"], strict=True)
        for index, (chunk_id, page, anchor) in enumerate(rows):
            path, url = pages["path"][page], pages["url"][page]
            names = [chunk_id, f"{path}#{anchor}", self._url_key(f"{url}#{anchor}")] if anchor else [chunk_id]
            if chunks["kind"][index] == "page":  # the page root: by its path and its URL too
                names += [path, self._url_key(url)]
            for name in names:
                self._by_id.setdefault(name, index)
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
        """The browser's results for a query; filters (like `tags:deploy`) apply as if typed
        into it (the answer's query shows them so)."""
        checked_string(query, "query")
        checked_limit(limit)
        checked_mode(mode)
        checked_filters(filters)
        for argument in filters:
            try:
                parse_filter(argument)
            except ValueError as error:
                known = self._facet_values()
                raise ToolProblem(f"{error}; this site has {known}" if known else str(error)) from None
        text = " ".join([query, *filters]).strip()
        output = search(self.bundle, query, mode=mode, limit=limit, filters=filters)
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
        """A page or a section with everything under it: its markdown (`source`: "docs" when it
        is the page's own source lines, "index" when it is the bundle's text), the pages it
        links, and the pages that link to it."""
        start = self._chunk(id)
        chunks, texts = self.bundle.chunks, self.bundle.texts
        inside = [start]
        for index in range(start + 1, self.bundle.n_chunks):
            if chunks["parent"][index] not in inside:
                break
            inside.append(index)
        limit = int(self.bundle.settings["snippet_source_chars"])
        scope = set(inside)
        links = sorted({target for source in scope for target in self._links_of.get(source, [])} - scope)
        linked_from = sorted({source for target in scope for source in self._linked_from.get(target, [])} - scope)
        written = self._source_markdown(start)
        if written is not None:
            text, truncated, origin = written, False, "docs"
        else:
            parts = [self._markdown(index) for index in inside]
            text = "\n\n".join(part for part in parts if part)
            truncated, origin = any(len(texts[index]) >= limit for index in inside), "index"
        return {
            **self._describe(start),
            "text": text,
            "source": origin,
            "truncated": truncated,
            "links": [self._describe(target) for target in links],
            "linked_from": [self._describe(source) for source in linked_from],
        }

    def related(self, page: str) -> dict[str, Any]:
        """The pages most related to a page (computed at build time; empty for older bundles),
        each with the reason it is there (`reason` in words, `why` its parts; not in bundles
        built before reasons were kept)."""
        index = self.bundle.chunks["page"][self._chunk(page)]
        pages = self.bundle.pages
        rows = read_related(self.bundle)
        found = rows[index] if rows is not None else []
        reasons = read_reasons(self.bundle)
        listed = []
        for i, (other, score) in enumerate(found):
            entry: dict[str, Any] = {"page": pages["path"][other], "title": pages["title"][other],
                                     "url": self._url(pages["url"][other]), "score": score}
            if reasons is not None:
                reason = reasons[index][i]
                entry["reason"] = describe(reason)
                entry["why"] = reason._asdict()
            listed.append(entry)
        return {"page": pages["path"][index], "related": listed}

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

    def _facet_values(self) -> str:
        """The site's filters an agent can use, for a refused one: `tags:ops, in:user-guide, ...`."""
        facets = self.bundle.manifest.get("facets") or {}
        words = [f"{facet}:{entry['value']}" for facet, entries in facets.items() for entry in entries[:20]]
        return ", ".join(words)

    def _url_key(self, url: str) -> str:
        """A URL as the CLI, the site or a browser writes it -> one spelling: relative to the
        site root, no leading or trailing slash, no `index.html`, no query, percent-decoded."""
        for prefix in (self.site_url, urlsplit(self.site_url).path):  # absolute, or rooted at the site's path
            if prefix and url.startswith(prefix):
                url = url[len(prefix) :]
                break
        url, _, anchor = url.partition("#")
        url = unquote(url.partition("?")[0]).strip("/")
        if url == "index.html" or url.endswith("/index.html"):
            url = url[: -len("index.html")].rstrip("/")
        return f"{url}#{anchor}" if anchor else url

    def _chunk(self, id: str) -> int:  # noqa: A002
        name = checked_string(id, "id").strip()
        index = self._by_id.get(name)
        if index is None:
            index = self._by_id.get(self._url_key(name))
        if index is None:
            raise UnknownDoc(f"no page or section {id!r} in this site (list_pages gives the pages)")
        return index

    def _source_markdown(self, index: int) -> str | None:
        """The source lines of chunk `index` and its subsections, from docs_dir; None without
        docs_dir, or when the page's source is unreadable or no longer has that chunk."""
        if self.docs_dir is None:
            return None
        chunks = self.bundle.chunks
        path = self.bundle.pages["path"][chunks["page"][index]]
        parts = PurePosixPath(path).parts
        if not parts or PurePosixPath(path).is_absolute() or ".." in parts or "\\" in path:
            return None  # a damaged or hostile bundle must not make read() serve files outside the docs
        try:
            source = read_bounded(self.docs_dir / path, MAX_PAGE, "page").decode("utf-8", errors="replace")
        except (OSError, ValueError):
            return None
        depth = max([level for level, kind in zip(chunks["level"], chunks["kind"], strict=True) if kind == "section"],
                    default=1)
        parsed = parse_page(source, path, self.bundle.pages["path"], chunk_depth=min(max(depth, 1), 6))
        by_id = {chunk.id: chunk for chunk in parsed.chunks}
        wanted = by_id.get(chunks["id"][index])
        if wanted is None:
            return None
        lines = source.splitlines()
        if wanted.kind == "page":  # the whole page but its front matter (which the root owns)
            first = wanted.line + parse_front_matter(lines).line_count
            return "\n".join(lines[first - 1 :]).strip()
        last = max(chunk.end_line for chunk in parsed.chunks if _within(chunk, wanted.id, by_id))
        return "\n".join(lines[wanted.line - 1 : last]).strip()

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
        """A chunk as markdown: a section's heading and text (a table row's cells apart: ` | `),
        a code block fenced."""
        chunks = self.bundle.chunks
        text = self.bundle.texts[index].strip()
        kind = chunks["kind"][index]
        if kind == "code":
            return f"```{chunks['language'][index]}\n{text}\n```"
        text = text.replace(CELL, " | ")
        level = max(1, int(chunks["level"][index]) or 1)
        heading = f"{'#' * min(level, 6)} {chunks['title'][index]}"
        return f"{heading}\n\n{text}" if text else heading

    def _url(self, url: str) -> str:
        return f"{self.site_url}{url}" if self.site_url else url


def _within(chunk: Chunk, ancestor: str, by_id: dict[str, Chunk]) -> bool:
    """Is `chunk` the chunk `ancestor` or below it?"""
    current: Chunk | None = chunk
    while current is not None:
        if current.id == ancestor:
            return True
        current = by_id.get(current.parent) if current.parent else None
    return False
