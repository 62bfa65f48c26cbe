"""mkdocs-graphsearch: hybrid keyword + semantic + link-graph search for MkDocs, offline in the browser."""

from mkdocs_graphsearch.text.tokenize import tokenize

__all__ = ["tokenize", "__version__"]

__version__ = "0.1.0"
