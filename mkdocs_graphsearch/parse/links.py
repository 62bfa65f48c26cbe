"""Resolve links found in a page to docs-relative `.md` paths (markdown links and `[[wiki]]`).

Why here and not in the graph: a link's target must be checked against the docs root while
the page's own path is at hand, so broken links are reported with their page and line.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from urllib.parse import unquote

from .anchors import slugify

__all__ = [
    "MARKDOWN_EXTENSIONS",
    "Resolution",
    "WikiIndex",
    "WikiMatch",
    "find_wiki_links",
    "resolve_markdown_link",
]

# MkDocs' `utils.markdown_extensions`: these files are pages, every other extension is an asset.
MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")
# Pages that stand for their folder: MkDocs (index, README) and Hugo (_index) conventions.
_DIR_INDEXES = ("index.md", "README.md", "_index.md")
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


@dataclass(frozen=True)
class Resolution:
    """A link's outcome: `target` set when it resolved; else `missing` names what was sought."""

    target: str | None
    anchor: str
    missing: str | None = None
    reason: str = "no such page"


def _is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_EXTENSIONS)


def _normalise(path: str) -> str | None:
    """Posix-normalise a docs-relative path; None when it climbs out of the docs root."""
    norm = posixpath.normpath(path) if path else "."
    if norm == ".." or norm.startswith("../") or norm.startswith("/"):
        return None
    return "" if norm == "." else norm


def _page_candidates(path: str) -> list[str]:
    """Pages a folder-ish or extension-less target may mean: `dir/` -> `dir/index.md`, `x` -> `x.md`."""
    base = path.rstrip("/")
    found = [posixpath.join(base, name) if base else name for name in _DIR_INDEXES]
    if base:
        # `x/` is also the URL of `x.md` under use_directory_urls; `x` is first of all `x.md`.
        found.insert(len(found) if path.endswith("/") else 0, base + ".md")
    return found


def _outside(path: str, anchor: str) -> Resolution:
    return Resolution(None, anchor, path, "outside the docs folder")


def resolve_markdown_link(href: str, page_path: str, known_pages: Collection[str]) -> Resolution | None:
    """Resolve `href` (as written in `page_path`) to a page; None for links that are not to pages.

    External (`https:`, `mailto:`, any `scheme:`, `//host`) and asset links (images, css...) are
    None. `#frag` alone targets the page itself. `.md` links resolve relative to the page file,
    as MkDocs does; `dir/` and extension-less links (URL style) are tried relative to the file,
    then relative to the page's URL under `use_directory_urls`. A site-absolute `/path` that
    matches no page is None (MkDocs does not check those either).
    """
    href = href.strip()
    if not href or href.startswith("//") or _SCHEME_RE.match(href):
        return None
    path, _, anchor = href.partition("#")
    path = path.partition("?")[0]
    path, anchor = unquote(path), unquote(anchor)
    if not path:
        return Resolution(page_path, anchor) if anchor else None

    if path.endswith("/") and _is_markdown(path.rstrip("/")):
        path = path.rstrip("/")  # `page.md/#x`: a stray slash, the page is still meant
    absolute = path.startswith("/")
    base_dir = "" if absolute else posixpath.dirname(page_path)
    joined = _normalise(posixpath.join(base_dir, path.lstrip("/")))
    ext = posixpath.splitext(path.rstrip("/"))[1]
    if _is_markdown(path):
        if joined is not None and joined in known_pages:
            return Resolution(joined, anchor)
        if absolute:
            return None
        return Resolution(None, anchor, joined, "no such page") if joined else _outside(path, anchor)
    if ext and not path.endswith("/"):
        return None  # an asset: image, stylesheet, download...

    # Folder or extension-less: a URL-style link to a page.
    bases: list[str | None] = [joined]
    if not absolute:
        stem = posixpath.splitext(page_path)[0]
        page_url_dir = posixpath.dirname(stem) if posixpath.basename(stem) in ("index", "README") else stem
        bases.append(_normalise(posixpath.join(page_url_dir, path)))
    for base in bases:
        if base is None:
            continue
        for candidate in _page_candidates(base + ("/" if path.endswith("/") else "")):
            if candidate in known_pages:
                return Resolution(candidate, anchor)
    if absolute:
        return None
    if joined is None:
        return _outside(path, anchor)
    return Resolution(None, anchor, joined + "/" if path.endswith("/") and joined else joined or path)


# `[[target]]`, `[[target|alias]]`, `[[target#heading]]`: no brackets or newlines inside. One
# followed by `(` is a markdown link whose text is in brackets (`[[1]](notes.md)`), as
# CommonMark reads it.
_WIKI_RE = re.compile(r"\[\[([^\[\]\n]{1,500})\]\](?!\()")


@dataclass(frozen=True)
class WikiMatch:
    """One `[[...]]` in a text run: its span, target text, heading and the text a reader sees."""

    start: int
    end: int
    target: str
    heading: str
    display: str


def find_wiki_links(text: str) -> Iterator[WikiMatch]:
    """Yield the wiki links in `text` (callers pass text that is not code)."""
    if "[[" not in text:
        return
    for m in _WIKI_RE.finditer(text):
        inner = m.group(1)
        target_part, bar, alias = inner.partition("|")
        target, _, heading = target_part.partition("#")
        target, heading = target.strip(), heading.strip()
        if not target and not heading:
            continue
        display = alias.strip() if bar and alias.strip() else target_part.strip()
        yield WikiMatch(m.start(), m.end(), target, heading, display)


class WikiIndex:
    """Pages by file name, for `[[name]]` resolution within the docs root.

    Built lazily, once per parse, only when a page really has a wiki link. `slugify` turns a
    `#Heading` into its anchor: the site's own toc slugify in the plugin, the default elsewhere.
    """

    def __init__(self, known_pages: Collection[str], slugify: Callable[[str], str] = slugify) -> None:
        self._known = known_pages
        self._slugify = slugify
        self._by_stem: dict[str, list[str]] | None = None
        self._by_stem_folded: dict[str, list[str]] | None = None

    def _build(self) -> None:
        by_stem: dict[str, list[str]] = {}
        folded: dict[str, list[str]] = {}
        for page in self._known:
            if not _is_markdown(page):
                continue
            stem = posixpath.splitext(posixpath.basename(page))[0]
            by_stem.setdefault(stem, []).append(page)
            folded.setdefault(stem.casefold(), []).append(page)
        self._by_stem, self._by_stem_folded = by_stem, folded

    @staticmethod
    def _best(candidates: list[str]) -> str:
        return min(candidates, key=lambda p: (len(p), p))  # ambiguous: shortest path, then sorted

    def resolve(self, target: str, heading: str, page_path: str) -> Resolution:
        """Resolve `[[target#heading]]`; the anchor is the heading slugified (toc style)."""
        anchor = self._slugify(heading) if heading else ""
        if not target:
            return Resolution(page_path, anchor)
        if self._by_stem is None:
            self._build()
        assert self._by_stem is not None and self._by_stem_folded is not None
        name = target.replace("\\", "/").strip("/")
        if _is_markdown(name):
            name = posixpath.splitext(name)[0]
        if "/" in name:
            # `[[folder/page]]`: a path suffix, matched on whole path segments.
            norm = _normalise(name)
            stem = posixpath.basename(name)
            matches = [
                p for p in self._by_stem.get(stem, [])
                if norm is not None
                and (posixpath.splitext(p)[0] == norm or posixpath.splitext(p)[0].endswith("/" + norm))
            ]
        else:
            matches = list(self._by_stem.get(name, []))
        if not matches:
            folded = self._by_stem_folded.get(posixpath.basename(name).casefold(), [])
            suffix = name.casefold()
            matches = [
                p for p in folded
                if (s := posixpath.splitext(p)[0].casefold()) == suffix or s.endswith("/" + suffix)
            ]
        if matches:
            return Resolution(self._best(matches), anchor)
        return Resolution(None, anchor, target)
