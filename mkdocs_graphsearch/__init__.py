"""mkdocs-graphsearch: hybrid keyword + semantic + link-graph search for MkDocs, offline in the browser.

Public API (the MkDocs plugin is `mkdocs_graphsearch.plugin.GraphSearchPlugin`, entry point
`graphsearch`):
    tokenize(text)                      the shared search tokenizer
    parse_page(source, path, known)     markdown -> chunks and links
    load_bundle(path)                   read a built site's or a folder's search bundle
    search(bundle, query, mode=...)     the reference engine (same answers as the browser)
"""

from importlib.metadata import version
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs_graphsearch.bundle.read import load_bundle
    from mkdocs_graphsearch.engine.search import search
    from mkdocs_graphsearch.parse.markdown import parse_page
    from mkdocs_graphsearch.text.tokenize import tokenize

__all__ = ["__version__", "load_bundle", "parse_page", "search", "tokenize"]

#: One version source: pyproject.toml's, as installed.
__version__ = version("mkdocs-graphsearch")

#: The public functions, imported on first use: every `mkdocs build` imports this package for
#: the plugin, which never needs the search engine.
_PUBLIC = {
    "load_bundle": "mkdocs_graphsearch.bundle.read",
    "search": "mkdocs_graphsearch.engine.search",
    "parse_page": "mkdocs_graphsearch.parse.markdown",
    "tokenize": "mkdocs_graphsearch.text.tokenize",
}


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_PUBLIC[name]), name)
    globals()[name] = value
    return value
