"""Blank text, as both engines see it: only ASCII whitespace counts (the JS runtime's
`[ \\t\\n\\r\\f\\v]`), never Python's wider `str.isspace`, so a text is blank in both or in neither."""

from __future__ import annotations

ASCII_SPACE = " \t\n\r\f\v"


def has_text(text: str) -> bool:
    """Whether `text` holds anything but ASCII whitespace (a snippet shows it: engine/snippet.py
    source_text; a small site's text fragment may end after it: bundle/write.py text_part)."""
    return bool(text.strip(ASCII_SPACE))
