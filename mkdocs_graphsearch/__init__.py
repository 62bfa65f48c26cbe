"""mkdocs-graphsearch: hybrid keyword + semantic + link-graph search for MkDocs, offline in the browser.

Public API (the MkDocs plugin is `mkdocs_graphsearch.plugin.GraphSearchPlugin`, entry point
`graphsearch`):
    tokenize(text)                      the shared search tokenizer
    parse_page(source, path, known)     markdown -> chunks and links
    load_bundle(path)                   read a built site's or a folder's search bundle
    search(bundle, query, mode=...)     the reference engine (same answers as the browser)
"""

from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.parse.markdown import parse_page
from mkdocs_graphsearch.text.tokenize import tokenize

__all__ = ["__version__", "load_bundle", "parse_page", "search", "tokenize"]

__version__ = "0.1.0"
