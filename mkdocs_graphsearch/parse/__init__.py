"""Markdown pages -> chunks (page root, heading sections, code blocks) and links.

Parsing knows nothing of MkDocs: anchors and settings come in as data, so the plugin and the
CLI share it.
"""

from .anchors import slugify
from .markdown import parse_page
from .model import BrokenLink, Chunk, Link, Page, PageWarning
from .symbols import extract_symbols

__all__ = [
    "BrokenLink",
    "Chunk",
    "Link",
    "Page",
    "PageWarning",
    "extract_symbols",
    "parse_page",
    "slugify",
]
