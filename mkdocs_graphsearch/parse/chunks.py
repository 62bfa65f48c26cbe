"""The chunk tree of one page, shared by both front-ends (markdown source and rendered HTML).

Why one module: chunk ids (`path::Title`, `::2` for repeats, `::code-N`), parents, levels and
heading paths must come out the same whichever front-end read the page, so exactly one piece
of code allocates them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Chunk, ChunkKind
from .plaintext import clean_template_tags
from .symbols import extract_definitions, extract_symbols

__all__ = ["ChunkTree"]


class ChunkTree:
    """Builds a page's chunks in document order: the root, heading sections, code blocks.

    `current` is the position of the root or section that body text belongs to; `sections`
    the positions of the root and every section (the chunks that own source lines), in order.
    """

    def __init__(self, path: str, title: str) -> None:
        self.path = path
        self.chunks: list[Chunk] = []
        self.texts: dict[int, list[str]] = {}  # by chunk position in self.chunks
        self.used_ids: set[str] = {path}
        self.title_counts: dict[str, int] = {}
        self.code_counts: dict[str, int] = {}
        root = Chunk(id=path, title=title, level=1, kind="page", parent=None, anchor="", text="", line=1,
                     heading_path=[title])
        self.stack = [self.add(root)]  # open sections, root first
        self.current = self.stack[0]
        self.sections: list[int] = [self.current]

    def claim(self, chunk_id: str) -> str:
        """Ids are unique within a page even when a title looks like `Foo::2` or `code-1`."""
        if chunk_id in self.used_ids:
            n = 2
            while f"{chunk_id}::{n}" in self.used_ids:
                n += 1
            chunk_id = f"{chunk_id}::{n}"
        self.used_ids.add(chunk_id)
        return chunk_id

    def add(self, chunk: Chunk) -> int:
        self.chunks.append(chunk)
        self.texts[len(self.chunks) - 1] = []
        return len(self.chunks) - 1

    def add_text(self, position: int, text: str) -> None:
        text = clean_template_tags(text)
        if text.strip():
            self.texts[position].append(text)

    def add_symbols(self, position: int, names: Sequence[str]) -> None:
        """Names a chunk answers to as code (an API object's, a heading's `from`), each once."""
        symbols = self.chunks[position].symbols
        symbols.extend(name for name in dict.fromkeys(names) if name not in symbols)

    def open_section(self, title: str, level: int, anchor: str, line: int, kind: ChunkKind = "section") -> int:
        """A heading of depth <= chunk_depth: a section (or an `api` entry) under the nearest
        shallower open one."""
        while len(self.stack) > 1 and self.chunks[self.stack[-1]].level >= level:
            self.stack.pop()
        parent = self.chunks[self.stack[-1]]
        n = self.title_counts.get(title, 0) + 1
        self.title_counts[title] = n
        chunk_id = self.claim(f"{self.path}::{title}" if n == 1 else f"{self.path}::{title}::{n}")
        chunk = Chunk(
            id=chunk_id, title=title, level=level, kind=kind, parent=parent.id,
            anchor=anchor, text="", line=line, heading_path=[*parent.heading_path, title],
        )
        self.current = self.add(chunk)
        self.stack.append(self.current)
        self.sections.append(self.current)
        return self.current

    def add_code(self, language: str | None, code: str, line: int, end_line: int) -> int:
        """A code block: a child of the current section, symbols from its code."""
        parent = self.chunks[self.current]
        n = self.code_counts.get(parent.id, 0) + 1
        self.code_counts[parent.id] = n
        return self.add(Chunk(
            id=self.claim(f"{parent.id}::code-{n}"), title=parent.title, level=parent.level + 1,
            kind="code", parent=parent.id, anchor=parent.anchor, text=code, line=line,
            end_line=end_line, heading_path=list(parent.heading_path), language=language,
            symbols=extract_symbols(language, code), definitions=extract_definitions(language, code),
        ))

    def finish_texts(self) -> list[Chunk]:
        """Join each root's and section's text runs; code chunks keep their code. An API entry
        defines the names of its object (its symbols)."""
        for position, chunk in enumerate(self.chunks):
            if chunk.kind != "code":
                chunk.text = "\n".join(self.texts[position])
            if chunk.kind == "api":
                chunk.definitions = list(chunk.symbols)
        return self.chunks
