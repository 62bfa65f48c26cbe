"""The searchable corpus: parsed pages in a fixed order, flattened into one chunk table.

The chunk index (position in `chunks`) is the id both engines use internally; the order is
pages sorted by path, then chunks in document order, so the same docs give the same bundle.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import quote

from mkdocs_graphsearch.parse.model import Chunk, Page


def directory_url(path: str) -> str:
    """MkDocs' default page URL (use_directory_urls: true) for a docs-relative .md path,
    percent-encoded as MkDocs encodes it (`a b.md` -> `a%20b/`): a file named
    `javascript:alert(1).md` gets a relative URL, never a scheme. The home page is ``."""
    folder, name = posixpath.split(path)
    stem = name[: -len(".md")] if name.endswith(".md") else name
    url = f"{folder}/" if folder else ""
    if stem not in ("index", "README"):  # MkDocs' rule: README.md is its folder's index (exact case)
        url += stem + "/"
    return quote(url)


@dataclass
class Corpus:
    """Pages (excluded ones already removed) and their chunks, in bundle order."""

    pages: list[Page]
    urls: list[str]
    chunks: list[Chunk]
    chunk_page: list[int]

    @classmethod
    def from_pages(
        cls, pages: Iterable[Page], url_for: Callable[[str], str] = directory_url
    ) -> Corpus:
        kept = sorted((page for page in pages if not page.exclude), key=lambda page: page.path)
        chunks: list[Chunk] = []
        chunk_page: list[int] = []
        for page_index, page in enumerate(kept):
            chunks.extend(page.chunks)
            chunk_page.extend([page_index] * len(page.chunks))
        return cls(kept, [url_for(page.path) for page in kept], chunks, chunk_page)

    def index_of(self) -> dict[str, int]:
        """Chunk id -> chunk index."""
        return {chunk.id: i for i, chunk in enumerate(self.chunks)}
