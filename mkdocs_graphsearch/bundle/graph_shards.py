"""Graph shards (`graph.<i>.json`): the chunk graph's edges by chunk range, fetched for the
expansion's seeds only.

graph.json keeps the edge types ({"edge_types": [...]}); shard i holds the edges from chunks
graph_starts[i] .. graph_starts[i + 1] - 1 (the manifest's `graph_starts`, since format 6: each
shard ends at the first page boundary once it holds GRAPH_SHARD_BYTES, shard_starts, one shard
where the texts are one fragment, write.py; before, the
text fragments' ranges, `text_starts`; a section's edges to its page's other sections are in its
own shard) in CSR form: {"offsets": n + 1 rising numbers from 0
to its edge count, "targets": chunk numbers over the whole bundle, "types": indexes into
edge_types}. js/src/engine/expand.js asks for the shards of the chunks it expands from (the seeds, then
each depth's frontier) and worker.js fetches only those. Format 6 sizes them apart from the
text fragments: an answer's seeds are a few pages, mostly near one another, and shards of a
text fragment's few pages cost an expansion a request for nearly every seed. The readers here
and in node merge them into one CSR graph.

Since format 8 a shard stores its CSR form as numbers that repeat (graph_part; schema.py
check_graph_shard reads it back into the form above): {"degrees": each chunk's edge count,
"targets": each target less its source chunk, "types"}. Offsets rise and targets are chunk
numbers over the whole bundle, so neither repeated: they were most of a shard's gzip bytes, while
a section's edges mostly lead to its neighbours.

Since format 10 a clustered site's graph shards hold the edges of its display fragments' pages
(the manifest then has no `graph_starts`: graph_count): an answer's seeds are on the pages it
shows, which the grouped display fragments hold together (bundle/display_groups.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from mkdocs_graphsearch.bundle.format import GRAPH, GRAPH_SHARD_BYTES, graph_shard


def graph_starts(manifest: Mapping[str, Any]) -> list[int]:
    """Each graph shard's first chunk: the manifest's `graph_starts`, or before format 6 its
    `text_starts`."""
    starts: list[int] = manifest.get("graph_starts", manifest["text_starts"])
    return starts


def shard_starts(graph: Mapping[str, Any], chunk_pages: Sequence[int], target: int | None = None) -> list[int]:
    """The graph shards' first chunks: a shard ends at the first page boundary once its edges
    hold `target` (GRAPH_SHARD_BYTES) bytes of JSON in CSR form (format 6's, whose ranges format 8
    keeps; at least one shard: [0])."""
    target = GRAPH_SHARD_BYTES if target is None else target
    offsets, targets, types = graph["offsets"], graph["targets"], graph["types"]
    starts, size = [0], 0
    for chunk, page in enumerate(chunk_pages):
        if chunk and page != chunk_pages[chunk - 1] and size >= target:
            starts.append(chunk)
            size = 0
        edges = range(offsets[chunk], offsets[chunk + 1])
        size += len(str(offsets[chunk + 1])) + 1 + sum(len(str(targets[e])) + len(str(types[e])) + 2 for e in edges)
    return starts


def graph_part(
    graph: Mapping[str, Any], starts: Sequence[int], groups: Sequence[Sequence[int]] | None = None
) -> dict[str, bytes]:
    """graph.json (the edge types) and the graph shards' bytes, shard i from chunk starts[i];
    `groups`: each shard's chunks instead (format 10, those of a display fragment's pages,
    rising: bundle/display_groups.py)."""
    offsets, targets, types = graph["offsets"], graph["targets"], graph["types"]
    n_chunks = len(offsets) - 1
    if groups is None:
        ends = [*starts[1:], n_chunks]
        groups = [range(start, ends[index]) for index, start in enumerate(starts)]
    parts = {GRAPH: orjson.dumps({"edge_types": list(graph["edge_types"])})}
    for index, chunks in enumerate(groups):
        edges = [range(offsets[chunk], offsets[chunk + 1]) for chunk in chunks]
        shard = {
            "degrees": [len(each) for each in edges],
            "targets": [targets[e] - chunk for chunk, each in zip(chunks, edges, strict=True) for e in each],
            "types": [types[e] for each in edges for e in each],
        }
        parts[graph_shard(index)] = orjson.dumps(shard, option=orjson.OPT_SORT_KEYS)
    return parts


def graph_count(manifest: Mapping[str, Any]) -> int:
    """How many graph shards a bundle has: one per display fragment where they are grouped
    (format 10: `display_count` and no `graph_starts`), else one per graph_starts entry."""
    if "display_count" in manifest and "graph_starts" not in manifest:
        count: int = manifest["display_count"]
        return count
    return len(graph_starts(manifest))


def merge_grouped_shards(graph: dict[str, Any], shards: Sequence[tuple[Sequence[int], Mapping[str, Any]]]) -> None:
    """Set the CSR graph (offsets [0]) from every checked grouped shard, each with its chunks."""
    rows: dict[int, tuple[list[int], list[int]]] = {}
    for chunks, shard in shards:
        offsets = shard["offsets"]
        for i, chunk in enumerate(chunks):
            rows[chunk] = (shard["targets"][offsets[i] : offsets[i + 1]], shard["types"][offsets[i] : offsets[i + 1]])
    for chunk in sorted(rows):
        graph["targets"].extend(rows[chunk][0])
        graph["types"].extend(rows[chunk][1])
        graph["offsets"].append(len(graph["targets"]))


def merge_graph_shard(graph: dict[str, Any], shard: Mapping[str, Any]) -> None:
    """Append a checked shard's edges to the CSR graph (shards in order; offsets starts [0])."""
    base = graph["offsets"][-1]
    graph["offsets"].extend(base + offset for offset in shard["offsets"][1:])
    graph["targets"].extend(shard["targets"])
    graph["types"].extend(shard["types"])
