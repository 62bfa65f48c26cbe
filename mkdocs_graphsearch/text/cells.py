"""Table rows in chunk text: one line a row, its cells separated by CELL (mirrored by
js/src/engine/snippet.js).

Parsing (parse/markdown.py, parse/html_tree.py) writes each table row as one line with CELL
between its cells, empty cells kept, so a snippet can show a row with its headers
(engine/snippet.py). CELL is a control character: the tokenizer reads it as a break between
words, as it read the space that stood there before, and no page writes it. The embedding model
reads rows as before (`plain_cells`), so passage texts and their cached vectors are unchanged.
"""

from __future__ import annotations

#: Between two cells of a table row (U+001F, the unit separator).
CELL = "\x1f"


def plain_cells(text: str) -> str:
    """The text with each row's cells joined by one space, empty ones left out."""
    if CELL not in text:
        return text
    return "\n".join(
        " ".join(cell for cell in line.split(CELL) if cell) if CELL in line else line for line in text.split("\n")
    )
