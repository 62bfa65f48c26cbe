"""Rendered page HTML (MkDocs' `page.content`) -> `Page`: the plugin's front-end.

Why a second front-end: what readers see is what MkDocs rendered, including content the
markdown never shows (snippet includes, mkdocstrings API pages, macros, raw HTML) and the ids
the built headings really carry. `html_tree` reads the HTML; chunks are built by the same
`ChunkTree` the markdown front-end uses, so nothing downstream knows which one ran.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from urllib.parse import unquote

from .chunks import ChunkTree
from .html_tree import HtmlCode, HtmlHeading, HtmlLink, HtmlSymbols, HtmlText, read_html
from .markdown import DEFAULT_CHUNK_DEPTH
from .model import Chunk, Link, Page, PageWarning, clip
from .plaintext import html_text

__all__ = ["parse_rendered_page", "url_key"]

_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def url_key(url: str) -> str:
    """One spelling per page URL: `a/b/`, `a/b`, `a/b/index.html` -> `a/b`; the home page -> ``."""
    url = unquote(url).strip("/")
    if url == "index.html" or url.endswith("/index.html"):
        url = url[: -len("index.html")].rstrip("/")
    return "" if url == "." else url


class _LinkResolver:
    """Resolves a page's hrefs to (src path, anchor) through the site's URL -> page map."""

    def __init__(self, path: str, page_url: str, pages_by_url: Mapping[str, str]) -> None:
        self.path = path
        # `guide/install/` and `guide/install.html` both resolve hrefs against `guide/install/`
        # resp. `guide/`, as a browser does.
        self.base = page_url if page_url.endswith("/") or not page_url else posixpath.dirname(page_url) + "/"
        self.base = self.base.lstrip("/")
        self.pages = {url_key(url): src for url, src in pages_by_url.items()}
        self.cache: dict[str, tuple[str, str] | None] = {}

    def resolve(self, href: str) -> tuple[str, str] | None:
        if href not in self.cache:
            self.cache[href] = self._resolve(href.strip())
        return self.cache[href]

    def _resolve(self, href: str) -> tuple[str, str] | None:
        if not href or href.startswith("//") or _SCHEME_RE.match(href):
            return None  # external, mailto:, javascript:...
        url, _, anchor = href.partition("#")
        url = url.partition("?")[0]
        anchor = unquote(anchor)
        if not url:
            return (self.path, anchor) if anchor else None
        # A site-absolute URL is right as it is when the site is served at the domain root.
        joined = url if url.startswith("/") else posixpath.normpath(posixpath.join("/" + self.base, url))
        if joined.startswith("/.."):
            return None  # climbs out of the site
        target = self.pages.get(url_key(joined))
        return (target, anchor) if target is not None else None  # None: an asset or not a page


def _stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0] or path


def _parse(
    html: str, path: str, title: str, resolver: _LinkResolver, chunk_depth: int,
    tags: Sequence[str], boost: float, exclude: bool,
) -> Page:
    items = read_html(html)
    headings = [item for item in items if isinstance(item, HtmlHeading)]
    first_h1 = next((h for h in headings if h.level == 1), None)
    title = title or (first_h1.title if first_h1 is not None and first_h1.title else "") or _stem(path)
    # The page's own h1 opens the page: it is the root, not a section of it (as in markdown).
    root_h1 = headings[0] if headings and headings[0].level == 1 else None

    tree = ChunkTree(path, title)
    tree.chunks[0].line = 0  # no source lines in HTML

    def add_links(position: int, links: list[HtmlLink]) -> None:
        for link in links:
            resolved = resolver.resolve(link.href)
            if resolved is not None:
                tree.chunks[position].links.append(Link(resolved[0], resolved[1], "markdown", 0, link.text))

    for item in items:
        current = tree.current
        if isinstance(item, HtmlHeading):
            if item is root_h1 or item.level > chunk_depth:
                # The root h1 when the title came from elsewhere (front matter), and headings
                # deeper than chunk_depth: shown on the page, so their section keeps the text.
                if item is not root_h1 or (item.title and item.title != title):
                    tree.add_text(current, item.title)
                tree.add_symbols(current, item.symbols)
                add_links(current, item.links)
                continue
            section = tree.open_section(item.title, item.level, item.anchor, 0, "api" if item.doc else "section")
            tree.add_symbols(section, item.symbols)
            add_links(section, item.links)
        elif isinstance(item, HtmlCode):
            tree.add_code(item.language, item.code, 0, 0)
        elif isinstance(item, HtmlSymbols):
            tree.add_symbols(current, item.names)
        elif isinstance(item, HtmlText):
            tree.add_text(current, item.text)
            add_links(current, item.links)
    return Page(path=path, title=title, chunks=tree.finish_texts(), tags=list(tags), boost=boost, exclude=exclude)


def parse_rendered_page(
    html: str,
    path: str,
    *,
    title: str,
    page_url: str,
    pages_by_url: Mapping[str, str],
    chunk_depth: int = DEFAULT_CHUNK_DEPTH,
    tags: Sequence[str] = (),
    boost: float = 1.0,
    exclude: bool = False,
) -> Page:
    """Parse one page's rendered body HTML into the same chunks `parse_page` makes. Never raises.

    `path` is the page's docs-relative src path (the root chunk's id); `title` the title MkDocs
    decided; `page_url` its URL as MkDocs gives it (`guide/install/`, `guide/install.html`, ``)
    and `pages_by_url` every page's URL (same form) -> src path, to resolve `<a href>`s. Sections
    are the `<h1>`..`<h{chunk_depth}>` elements under their real `id`s; mkdocstrings headings
    also carry their object's names as `symbols`. `tags`, `boost` and `exclude` are the
    source's front matter facts, passed through.

    HTML has no source lines: every chunk's and link's `line`/`end_line` is 0 (nothing
    downstream reads them; they only describe markdown sources). Broken links are MkDocs'
    to report, so `broken_links` stays empty.
    """
    resolver = _LinkResolver(path, page_url, pages_by_url)
    try:
        return _parse(str(html), path, title, resolver, chunk_depth, tags, boost, exclude)
    except Exception as exc:  # noqa: BLE001 - last resort: a page must never stop a build
        try:
            text = html_text(str(html))
        except Exception:  # noqa: BLE001
            text = ""
        name = title or _stem(path)
        root = Chunk(id=path, title=name, level=1, kind="page", parent=None, anchor="", text=text, line=0,
                     heading_path=[name])
        message = f"internal HTML parser error ({type(exc).__name__}: {clip(str(exc))}); page indexed as plain text"
        return Page(path=path, title=name, chunks=[root], tags=list(tags), boost=boost, exclude=exclude,
                    warnings=[PageWarning(path, 0, message)])
