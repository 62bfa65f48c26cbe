"""Markdown pages -> chunks (page root, heading sections, code blocks) and links.

Parsing knows nothing of MkDocs: anchors and settings come in as data, so the plugin and the
CLI share it.
"""

from typing import TYPE_CHECKING, Any

from .anchors import slugify
from .model import BrokenLink, Chunk, Link, Page, PageWarning

if TYPE_CHECKING:
    from .markdown import parse_page
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

#: Imported on first use: they load markdown-it, which a build whose pages are cached never needs.
_LATER = {"parse_page": ".markdown", "extract_symbols": ".symbols"}


def __getattr__(name: str) -> Any:
    if name not in _LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_LATER[name], __name__), name)
    globals()[name] = value
    return value
