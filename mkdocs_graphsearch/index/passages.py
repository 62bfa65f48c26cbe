"""The text the embedding model sees for each chunk (DESIGN section 5)."""

from __future__ import annotations

from mkdocs_graphsearch.parse.model import Chunk
from mkdocs_graphsearch.parse.plaintext import without_span_marks
from mkdocs_graphsearch.text.cells import plain_cells


def passage_text(chunk: Chunk) -> str:
    """Page title + heading path + the chunk's text (as shown: without the backticks a code span
    of stop words keeps for the tokenizer, parse/plaintext.py); code: path, language, symbols, code."""
    path = " > ".join(chunk.heading_path)
    if chunk.kind == "code":
        head = " ".join(filter(None, [chunk.language or "", " ".join(chunk.symbols)]))
        return f"{path}\n{head}\n{chunk.text}".strip()
    # Table rows and code spans read as before (text/cells.py, parse/plaintext.py).
    return f"{path}\n{plain_cells(without_span_marks(chunk.text))}".strip()
