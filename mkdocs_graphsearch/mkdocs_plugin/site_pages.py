"""Which pages a build indexes, and from which front-end.

In the plugin the truth is what MkDocs rendered: a page's chunks come from its rendered HTML
(`parse.rendered`), so includes, mkdocstrings objects, macros and generated pages are searchable
under the ids readers land on. Its source still gives what only the source knows: front matter
(tags, search boost/exclude) and source-level warnings (bad fences, bad front matter, invalid
UTF-8); those facts are kept per page (source_facts.py), so an unchanged page's source is not
parsed again. A page MkDocs did not render in this build (`--dirty`) comes from the last build's saved
state when its source is unchanged, else from the markdown front-end: never missing. A page it
did render comes from the saved state too when the HTML and everything its parse depends on are
those of the last build (`rendered_key`), so an edit parses the edited page's HTML only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from mkdocs_graphsearch.files.bounded import MAX_PAGE, MAX_PAGE_HTML, size_text
from mkdocs_graphsearch.mkdocs_plugin.page_state import SavedPage, load_state, pages_payload, save_pages, source_digest
from mkdocs_graphsearch.mkdocs_plugin.source_facts import (
    SourceFacts,
    code_digest,
    facts_key,
    load_facts,
    pages_digest,
    save_facts,
)
from mkdocs_graphsearch.parse.model import Page, PageWarning


@dataclass
class _Source:
    """What a build keeps of a page's source: its hash (for the saved state) and its front
    matter's search facts (the markdown front-end's chunks are not kept: the HTML gives them)."""

    digest: str
    tags: list[str]
    boost: float
    exclude: bool


@dataclass
class SitePages:
    """The documentation pages of one build, in MkDocs' file order."""

    order: list[str]  # src paths of the pages to index (MkDocs-excluded drafts left out)
    urls: dict[str, str]  # src path -> page URL, for every documentation page
    chunk_depth: int
    state_path: Path | None  # where the last build's pages are kept (None: no cache dir)
    warn: Callable[[str], None] = print  # the state is a cache: failing to save it is a warning
    facts_path: Path | None = None  # where the last build's source facts are kept (source_facts.py)
    sources: dict[str, _Source] = field(default_factory=dict)
    rendered: dict[str, Page] = field(default_factory=dict)
    pages_by_url: dict[str, str] = field(init=False)
    facts: dict[str, SourceFacts] = field(init=False)
    saved: dict[str, SavedPage] = field(init=False)  # the last build's pages (page_state.py)
    rendered_keys: dict[str, str] = field(default_factory=dict)
    #: sha256 of every page as `finish` saves them (bundle_reuse.py); "" until then.
    digest: str = ""

    def __post_init__(self) -> None:
        self.pages_by_url = {url: path for path, url in self.urls.items()}
        self.facts = load_facts(self.facts_path, self.warn) if self.facts_path else {}
        self._loaded_facts = dict(self.facts)
        self._pages_sha256 = pages_digest(self.urls.keys())
        self._urls_sha256 = pages_digest([f"{url}\0{path}" for url, path in self.pages_by_url.items()])
        self.saved, self._saved_payload = (
            load_state(self.state_path, self.chunk_depth, self.warn) if self.state_path else ({}, b"")
        )

    def read_source(self, path: str, source: bytes) -> list[PageWarning]:
        """Read a page's source; returns its source-level warnings. Broken markdown links are
        left to MkDocs (it reports them, and its `validation:` settings govern them), broken wiki
        links to the wiki-link rewrite (one warning each)."""
        digest = source_digest(source)
        key = facts_key(digest, path, self._pages_sha256, self.chunk_depth)
        known = self.facts.get(path)
        if known is None or known.key != key:
            from mkdocs_graphsearch.parse.markdown import page_facts  # only for a page not cached

            page = page_facts(source[:MAX_PAGE], path)
            kept = list(page.warnings)
            if len(source) > MAX_PAGE:
                kept.insert(0, PageWarning(path, 1, _cut_message("source", len(source), MAX_PAGE)))
            known = SourceFacts(key, page.tags, page.boost, page.exclude, [(w.line, w.message) for w in kept])
            self.facts[path] = known
        self.sources[path] = _Source(digest, known.tags, known.boost, known.exclude)
        return [PageWarning(path, line, message) for line, message in known.warnings]

    def changed(self, path: str) -> bool:
        """Whether the source `read_source` read for this page is not the one the last build saved
        (a page new to a site with saved state counts; no saved state at all does not: nothing to
        compare with)."""
        previous = self.saved.get(path)
        return bool(self.saved) and (previous is None or previous.source_sha256 != self.sources[path].digest)

    def add_rendered(self, path: str, html: str, front_title: object) -> None:
        """Chunk what MkDocs rendered for a page whose source was read. The title follows the
        markdown front-end's rule: front matter `title`, else the page's h1, else its file name
        (not a nav label, so both front-ends name a page alike)."""
        facts = self.sources[path]
        if len(html) > MAX_PAGE_HTML:
            self.warn(f"{path}: {_cut_message('rendered HTML', len(html), MAX_PAGE_HTML)}")
            html = html[:MAX_PAGE_HTML]
        title = front_title if isinstance(front_title, (str, int, float)) and not isinstance(front_title, bool) else ""
        title = " ".join(str(title).split())
        parts = [code_digest(), path, title, self.urls[path], self._urls_sha256, str(self.chunk_depth),
                 orjson.dumps([facts.tags, facts.boost, facts.exclude]).decode(), html]
        key = self.rendered_keys[path] = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
        previous = self.saved.get(path)
        if previous is not None and previous.rendered_key == key:
            self.rendered[path] = previous.page
            return
        from mkdocs_graphsearch.parse.rendered import parse_rendered_page  # only for a page not cached

        self.rendered[path] = parse_rendered_page(
            html, path, title=title, page_url=self.urls[path],
            pages_by_url=self.pages_by_url, chunk_depth=self.chunk_depth,
            tags=facts.tags, boost=facts.boost, exclude=facts.exclude,
        )

    def finish(self, read: Callable[[str], bytes], note: Callable[[str], None]) -> list[Page]:
        """Every page to index, in order; saves them for the next `--dirty` build.

        `read` gives a page's source bytes (for pages this build did not render); `note` is told
        which pages came from the markdown front-end because no saved state matched.
        """
        saved = self.saved
        pages: list[Page] = []
        keep: dict[str, SavedPage] = {}
        for path in self.order:
            if path in self.rendered:
                page, digest = self.rendered[path], self.sources[path].digest
            else:
                source = read(path)
                digest = source_digest(source)
                previous = saved.get(path)
                if previous is not None and previous.source_sha256 == digest and previous.url == self.urls[path]:
                    page = previous.page
                else:
                    note(path)
                    page = _parse_markdown(source, path, self.urls.keys(), self.chunk_depth)
            pages.append(page)
            keep[path] = SavedPage(self.urls[path], digest, page, self.rendered_keys.get(path, ""))
        # Every page the saved one (a warm build): the saved payload is what pages_payload gives.
        same = bool(self._saved_payload) and _same_pages(keep, saved)
        payload = self._saved_payload if same else pages_payload(self.chunk_depth, keep)
        self.digest = hashlib.sha256(payload).hexdigest()
        if self.state_path is not None:
            try:
                save_pages(self.state_path, payload)
            except OSError as error:  # a full disk, say: the site and its bundle are still built
                self.warn(f"cannot save the page state {self.state_path} ({error}); the next build reparses")
        facts = {path: self.facts[path] for path in self.order if path in self.facts}
        if self.facts_path is not None and facts != self._loaded_facts:  # else the file holds them already
            try:  # pages of the site only (a --dirty build keeps those it did not read)
                save_facts(self.facts_path, facts)
            except OSError as error:
                self.warn(f"cannot save the page facts cache {self.facts_path} ({error}); the next build reparses")
        return pages


def _same_pages(keep: dict[str, SavedPage], saved: dict[str, SavedPage]) -> bool:
    """Whether `keep` holds exactly the saved pages, each the very page read from the state."""
    return keep.keys() == saved.keys() and all(
        (page.page is old.page and page.url == old.url and page.source_sha256 == old.source_sha256
         and page.rendered_key == old.rendered_key)
        for page, old in ((keep[path], saved[path]) for path in keep)
    )


def _parse_markdown(source: bytes, path: str, known_pages: Collection[str], chunk_depth: int) -> Page:
    """The markdown front-end's page (its module loads markdown-it: only for a page not cached)."""
    from mkdocs_graphsearch.parse.markdown import parse_page

    return parse_page(source[:MAX_PAGE], path, known_pages, chunk_depth=chunk_depth)


def _cut_message(what: str, size: int, limit: int) -> str:
    return f"the page's {what} is {size_text(size)}: only its first {size_text(limit)} are indexed"
