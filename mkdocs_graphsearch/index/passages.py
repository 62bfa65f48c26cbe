"""The text the embedding model sees for each chunk (DESIGN section 5)."""

from __future__ import annotations

from mkdocs_graphsearch.parse.model import Chunk
from mkdocs_graphsearch.text.cells import plain_cells


def passage_text(chunk: Chunk) -> str:
    """Page title + heading path + the chunk's text; code: path, language, symbols, code."""
    path = " > ".join(chunk.heading_path)
    if chunk.kind == "code":
        head = " ".join(filter(None, [chunk.language or "", " ".join(chunk.symbols)]))
        return f"{path}\n{head}\n{chunk.text}".strip()
    return f"{path}\n{plain_cells(chunk.text)}".strip()  # table rows read as before (text/cells.py)
