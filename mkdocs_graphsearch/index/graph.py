"""The link graph: typed, directed edges between chunks, written in CSR form.

Edge types (the engines' expansion decays are per type, from the manifest):
    child    parent chunk -> its sections and code blocks
    parent   chunk -> its parent (a code block -> its section, a section -> the one above)
    sibling  section -> the previous and next section under the same parent
    link     chunk -> the chunk a markdown or wiki link in it points at (an anchored section
             when the anchor is known, else the page root)
Incoming links are not edges: a hub page linked from everywhere must not join every result.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.parse.model import Link

EDGE_TYPES = ("child", "parent", "sibling", "link")


@dataclass
class Graph:
    """Edges of chunk i: targets/types[offsets[i]:offsets[i + 1]], sorted by (type, target)."""

    offsets: list[int]
    targets: list[int]
    types: list[int]

    def to_json(self) -> dict[str, object]:
        return {"edge_types": list(EDGE_TYPES), "offsets": self.offsets, "targets": self.targets, "types": self.types}


def link_targets(corpus: Corpus) -> Iterator[tuple[int, int, Link]]:
    """(source chunk, target chunk, link) for each link of a chunk to another chunk: an anchored
    section when the anchor is known, else the page root."""
    page_root: dict[str, int] = {}
    anchored: dict[tuple[str, str], int] = {}
    for i, chunk in enumerate(corpus.chunks):
        path = corpus.pages[corpus.chunk_page[i]].path
        if chunk.kind == "page":
            page_root[path] = i
        elif chunk.kind in ("section", "api"):
            anchored.setdefault((path, chunk.anchor), i)
    for i, chunk in enumerate(corpus.chunks):
        for ref in chunk.links:
            j = anchored.get((ref.target, ref.anchor)) if ref.anchor else None
            if j is None:
                j = page_root.get(ref.target)
            if j is not None and j != i:
                yield i, j, ref


def build_graph(corpus: Corpus) -> Graph:
    index_of = corpus.index_of()
    edges: list[set[tuple[int, int]]] = [set() for _ in corpus.chunks]
    child, parent, sibling, link = range(len(EDGE_TYPES))
    previous_child: dict[int, int] = {}
    for i, chunk in enumerate(corpus.chunks):
        up = index_of.get(chunk.parent) if chunk.parent else None
        if up is not None:
            edges[up].add((child, i))
            edges[i].add((parent, up))
            if chunk.kind in ("section", "api"):
                before = previous_child.get(up)
                if before is not None:
                    edges[before].add((sibling, i))
                    edges[i].add((sibling, before))
                previous_child[up] = i
    for i, j, _ in link_targets(corpus):
        edges[i].add((link, j))

    offsets = [0]
    targets: list[int] = []
    types: list[int] = []
    for chunk_edges in edges:
        for edge_type, target in sorted(chunk_edges):
            targets.append(target)
            types.append(edge_type)
        offsets.append(len(targets))
    return Graph(offsets, targets, types)
