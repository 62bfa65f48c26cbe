"""The static query encoder: query text -> query vector without a model (mirrored by js/src/encoder.js)."""

from __future__ import annotations

from mkdocs_graphsearch.bundle.read import Bundle


def query_vector(bundle: Bundle, query: str) -> list[float] | None:
    """The unit query vector, or None when no query token is known to the encoder."""
    return None
