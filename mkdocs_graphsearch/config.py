"""The plugin's options (`plugins: - graphsearch: {...}` in mkdocs.yml)."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c

from mkdocs_graphsearch.parse.markdown import DEFAULT_CHUNK_DEPTH


class GraphSearchConfig(base.Config):
    """Options of the graphsearch plugin; defaults suit a typical MkDocs site."""

    chunk_depth = c.Type(int, default=DEFAULT_CHUNK_DEPTH)
    """Headings up to this level start their own search result; deeper ones fold into their parent."""

    mode = c.Choice(("hybrid", "keyword", "vector"), default="hybrid")
    """How the browser searches by default. Without embeddings, search is always keyword."""

    embeddings = c.Type(bool, default=True)
    """Compute sentence embeddings at build time (semantic search). `false` ships keyword search only."""

    limit = c.Type(int, default=10)
    """Pages shown for a query."""

    sections_per_page = c.Type(int, default=3)
    """Sections listed under each page in the results."""

    bundle_dir = c.Type(str, default="search")
    """Folder of the built site that receives the search bundle."""
