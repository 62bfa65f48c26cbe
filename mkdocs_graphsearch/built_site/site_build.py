"""`graphsearch build`: a built site's pages -> the bundle, the runtime and the tags, in the site.

The pages are parsed by the plugin's own front-end (`parse.rendered`) from their content
(regions.py) and written by the plugin's own pipeline (`index.builder`, `bundle.write`,
`site_output`), so a site gets the same search whichever way it was built. Ids are the sources'
paths when the site's config is given (sources.py), else the pages' paths in the site.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs_graphsearch.built_site.host_index import read_host_index
from mkdocs_graphsearch.built_site.html_files import SiteFile, site_files
from mkdocs_graphsearch.built_site.page_tags import retag, tags_for
from mkdocs_graphsearch.built_site.regions import find_region
from mkdocs_graphsearch.built_site.selectors import Selector
from mkdocs_graphsearch.built_site.sources import SiteSources
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.files.atomic import write_atomic
from mkdocs_graphsearch.files.bounded import MAX_PAGE_HTML, RefusedInput, read_bounded
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.parse.markdown import DEFAULT_CHUNK_DEPTH, decode_source
from mkdocs_graphsearch.parse.model import Page
from mkdocs_graphsearch.parse.rendered import parse_rendered_page, url_key
from mkdocs_graphsearch.site_output.assets import ASSETS_DIR, bundle_folder, copy_runtime

if TYPE_CHECKING:  # semantic.py imports onnxruntime: only when embeddings are asked for
    from mkdocs_graphsearch.index.semantic import SemanticOptions

__all__ = ["BuildOptions", "BuildReport", "build_search"]

#: How many file names a warning about many pages lists.
_NAMED = 5
# `Page - Site`, `Page — Project documentation`, `Page | Site`: the site's part of a <title> follows
# the last of these.
_TITLE_SEPARATOR_RE = re.compile(r"\s+[-\u2013\u2014|\u00b7]\s+")
_H1_RE = re.compile(r"<h1[\s>]", re.I)


@dataclass
class BuildOptions:
    site_dir: Path
    bundle_dir: str = "search"
    selector: Selector | None = None  # --content-selector
    sources: SiteSources | None = None  # --config
    site_url: str = ""  # where the site is served: the error page's absolute URLs
    inject: bool = True
    chunk_depth: int = DEFAULT_CHUNK_DEPTH
    semantic: SemanticOptions | None = None

    def __post_init__(self) -> None:
        self.bundle_dir = bundle_folder(self.bundle_dir)  # ValueError for one outside the site


@dataclass
class BuildReport:
    pages: int = 0  # pages indexed
    chunks: int = 0
    left_out: dict[str, list[str]] = field(default_factory=dict)  # reason -> site paths
    bundle_bytes: int = 0
    tagged: int = 0  # pages whose tags this run wrote or changed


def _title_from_head(title: str) -> str:
    separators = list(_TITLE_SEPARATOR_RE.finditer(title))
    return title[: separators[-1].start()] if separators and separators[-1].start() > 0 else title


def _names(paths: list[str]) -> str:
    more = f" and {len(paths) - _NAMED} more" if len(paths) > _NAMED else ""
    return ", ".join(paths[:_NAMED]) + more


class _Reader:
    """Reads each page of the site once, into a `Page`."""

    def __init__(self, options: BuildOptions, files: list[SiteFile], warn: Callable[[str], None]) -> None:
        self.options, self.warn = options, warn
        sources = options.sources.by_url if options.sources else {}
        self.ids = {file.path: (sources[url_key(file.url)].path if url_key(file.url) in sources else file.path)
                    for file in files}
        self.pages_by_url = {file.url: self.ids[file.path] for file in files}
        self.without_marker: list[str] = []

    def read(self, file: SiteFile) -> Page | None:
        """The page, or None for a redirect page (it only sends the reader elsewhere) or one refused
        for its size or kind (with a warning)."""
        options = self.options
        shown = (options.site_dir / file.path).as_posix()
        try:
            data = read_bounded(options.site_dir / file.path, MAX_PAGE_HTML, "page")
        except RefusedInput as refused:
            self.warn(f"{refused}: not indexed")
            return None
        text, notes = decode_source(data)
        for line, message in notes:
            self.warn(f"{shown}:{line}: {message}")
        region = find_region(text, options.selector)
        if region.redirect:
            return None
        if options.selector is not None and not region.marker:
            self.warn(f"{shown}: --content-selector {options.selector.text!r} matches nothing; "
                      "its content is found by the theme's markers")
            region = find_region(text)
        if region.marker in ("body", ""):
            self.without_marker.append(shown)
        content = region.content if region.marker else text
        page_id = self.ids[file.path]
        source = options.sources.by_url.get(url_key(file.url)) if options.sources else None
        title = source.title if source is not None else ""
        if not title and not _H1_RE.search(content):
            folder = file.url.rstrip("/")  # `guide/` -> `guide`; the home page (`./`) by its file
            title = _title_from_head(region.title) or (folder if folder not in ("", ".") else file.path)
        return parse_rendered_page(
            content, page_id, title=title, page_url=file.url, pages_by_url=self.pages_by_url,
            chunk_depth=options.chunk_depth,
            tags=source.tags if source is not None else region.tags,
            boost=source.boost if source is not None else 1.0,
            exclude=source.exclude if source is not None else False,
        )


def build_search(options: BuildOptions, warn: Callable[[str], None]) -> BuildReport:
    """Index the site's pages, write the bundle and the runtime into it and (unless
    `options.inject` is off) the tags into every page; what was done, for the command to print."""
    site = options.site_dir
    files = site_files(site, (ASSETS_DIR, options.bundle_dir))
    report = BuildReport()
    if not files:
        warn(f"{site.as_posix()}: no .html page in it (is it the built site's folder?)")
    if options.sources is not None:
        for warning in options.sources.warnings:
            warn(str(warning))
    host = read_host_index(site)
    reader = _Reader(options, files, warn)
    pages: list[Page] = []
    urls: dict[str, str] = {}
    for file in files:
        if file.error_page:
            report.left_out.setdefault("the error page", []).append(file.path)
            continue
        if host is not None and url_key(file.url) not in host.urls:
            report.left_out.setdefault(f"not in the site's own search index ({host.file})", []).append(file.path)
            continue
        try:
            page = reader.read(file)
        except OSError as error:  # unreadable (permissions): named, never silently missing
            warn(f"{(site / file.path).as_posix()}: cannot read it ({error.strerror or error}); left out of search")
            continue
        if page is None:
            report.left_out.setdefault("a redirect page", []).append(file.path)
            continue
        for warning in page.warnings:
            warn(str(warning))
        if page.exclude:
            report.left_out.setdefault("`search: exclude` in front matter", []).append(file.path)
            continue
        pages.append(page)
        urls[page.path] = file.url
    if reader.without_marker:
        warn(f"{len(reader.without_marker)} page(s) have no content marker, so all of their <body> is indexed "
             f"(navigation included): {_names(reader.without_marker)}; mark the content with a "
             "data-graphsearch-body attribute or give --content-selector")
    bundle = build_files(pages, url_for=urls.__getitem__, semantic=options.semantic, warn=warn)
    write_bundle(site / options.bundle_dir, bundle)
    copy_runtime(site, ASSETS_DIR)
    report.pages = len(pages)
    report.chunks = sum(len(page.chunks) for page in pages)
    report.bundle_bytes = sum(len(data) for data in bundle.values())
    for file in files:
        tags = tags_for(file.url, file.error_page, ASSETS_DIR, options.bundle_dir, options.site_url)
        report.tagged += _retag_file(site / file.path, tags if options.inject else None)
    return report


def _retag_file(path: Path, tags: str | None) -> int:
    """Rewrite a page with its tags; 1 if its bytes changed. Undecodable bytes pass through."""
    data = path.read_bytes()
    html = data.decode("utf-8", errors="surrogateescape")
    new = retag(html, tags).encode("utf-8", errors="surrogateescape")
    if new == data:
        return 0
    write_atomic(path, new)
    return 1


def snippet(options: BuildOptions) -> str:
    """The tags for a template that every page shares (`--no-inject`): site-absolute URLs."""
    return tags_for("", True, ASSETS_DIR, options.bundle_dir, options.site_url)
