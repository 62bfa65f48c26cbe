"""Anchor text: the words other sections use for a section, a BM25F field of it (index/bm25.py).

Why: a link's text is how the linking author names its target, often in other words than the
target's own (`[graceful shutdown](workers.md#shutdown)` names a section headed "Stopping
workers"); classic web search has used it since the first engines. Every link that resolves to
another chunk (index/graph.py's `link_targets`: an anchored section, else the page root) gives
its text to the target; a link repeated gives its words again, as more authors naming a target
the same way should count more (BM25's saturation bounds it).
"""

from __future__ import annotations

from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.graph import link_targets


def incoming_anchor_text(corpus: Corpus) -> list[str]:
    """Per chunk, the texts of the links pointing at it, one a line, in link order."""
    texts: list[list[str]] = [[] for _ in corpus.chunks]
    for _source, target, link in link_targets(corpus):
        if link.text:
            texts[target].append(link.text)
    return ["\n".join(lines) for lines in texts]
