"""The parsed shape of a documentation page: chunks (page, sections, code blocks) and links.

Parsing knows nothing of MkDocs: the plugin and the CLI both build these from markdown text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

#: Headings up to this level start a chunk. 6 ranked best on the judged sets: MkDocs sites put
#: API entries under h5/h6.
DEFAULT_CHUNK_DEPTH = 6
#: `api`: a section for one documented object (an mkdocstrings heading, rendered front-end only).
ChunkKind = Literal["page", "section", "api", "code"]
LinkKind = Literal["markdown", "wiki"]


@dataclass
class Link:
    """A resolved internal link: `target` is a docs-relative `.md` path, `anchor` may be empty;
    `text` is what the reader sees of it (a markdown link's text, a wiki link's display text),
    whitespace collapsed: words the linking page uses for its target (index/anchor_text.py)."""

    target: str
    anchor: str
    kind: LinkKind
    line: int
    text: str = ""

    def to_json(self) -> dict[str, object]:
        return {"target": self.target, "anchor": self.anchor, "kind": self.kind, "text": self.text}


@dataclass
class BrokenLink:
    """A link whose target page does not exist (reported as a warning with file and line)."""

    target: str
    line: int
    kind: LinkKind
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"target": self.target, "line": self.line, "kind": self.kind, "reason": self.reason}


@dataclass
class Chunk:
    """One searchable unit: a page root, a heading section or a fenced code block.

    `text` is the chunk's own text (a section's text stops at the next heading that starts a
    chunk; deeper headings fold in). `heading_path` is the titles from the page root down.
    `definitions` are the names the chunk declares (a code block's functions, classes and types,
    parse/symbols.py; an API section's object names): a search for one ranks this chunk above
    the chunks that merely use it. `line`..`end_line` (1-based, inclusive) are the source lines
    the chunk owns: the root and sections tile the page (the root also owns the front matter), a code chunk's span lies
    inside its parent's. `end_line < line` when a chunk owns no line (a page that opens with a
    section heading leaves its root none).
    """

    id: str
    title: str
    level: int
    kind: ChunkKind
    parent: str | None
    anchor: str
    text: str
    line: int
    end_line: int = 0
    heading_path: list[str] = field(default_factory=list)
    language: str | None = None
    symbols: list[str] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    definitions: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "level": self.level,
            "kind": self.kind,
            "parent": self.parent,
            "anchor": self.anchor,
            "language": self.language,
            "symbols": list(self.symbols),
            "text": self.text,
            "links": [link.to_json() for link in self.links],
        }


#: Longest value a warning echoes: one link or front matter field can hold megabytes.
WARNING_VALUE_LIMIT = 80


def clip(value: str, limit: int = WARNING_VALUE_LIMIT) -> str:
    """`value` cut to `limit` characters, an ellipsis marking the cut: logs stay readable."""
    return value if len(value) <= limit else value[: limit - 1] + "\u2026"


@dataclass
class PageWarning:
    """A user-fixable problem in a page, with the file and 1-based line it concerns."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class Page:
    """A parsed page: its chunks in document order, its links and what was wrong with it."""

    path: str
    title: str
    chunks: list[Chunk]
    tags: list[str] = field(default_factory=list)
    boost: float = 1.0
    exclude: bool = False
    broken_links: list[BrokenLink] = field(default_factory=list)
    warnings: list[PageWarning] = field(default_factory=list)
    front_matter_lines: int = 0  # lines 1..n are YAML front matter (0: none)

    def to_json(self) -> dict[str, object]:
        return {
            "page": self.path,
            "chunks": [chunk.to_json() for chunk in self.chunks],
            "broken_links": [link.to_json() for link in self.broken_links],
        }
