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

Since format 8 a shard stores its CSR form as numbers that repeat (compact_shard; schema.py
check_graph_shard reads it back into the form above): {"degrees": each chunk's edge count,
"targets": each target less its source chunk, "types"}. Offsets rise and targets are chunk
numbers over the whole bundle, so neither repeated: they were most of a shard's gzip bytes, while
a section's edges mostly lead to its neighbours.
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


def graph_part(graph: Mapping[str, Any], starts: Sequence[int]) -> dict[str, bytes]:
    """graph.json (the edge types) and the graph shards' bytes, shard i from chunk starts[i]."""
    offsets, targets, types = graph["offsets"], graph["targets"], graph["types"]
    n_chunks = len(offsets) - 1
    parts = {GRAPH: orjson.dumps({"edge_types": list(graph["edge_types"])})}
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else n_chunks
        first, last = offsets[start], offsets[end]
        shard = compact_shard(offsets[start : end + 1], targets[first:last], start)
        shard["types"] = list(types[first:last])
        parts[graph_shard(index)] = orjson.dumps(shard, option=orjson.OPT_SORT_KEYS)
    return parts


def compact_shard(offsets: Sequence[int], targets: Sequence[int], start: int) -> dict[str, list[int]]:
    """A shard's edges from chunks start, start + 1, ... as format 8 stores them: each chunk's
    edge count (of `offsets`, its CSR offsets over the whole graph) and each target less its
    source."""
    degrees = [offsets[i + 1] - offsets[i] for i in range(len(offsets) - 1)]
    sources = [start + i for i, degree in enumerate(degrees) for _ in range(degree)]
    return {"degrees": degrees, "targets": [target - source for target, source in zip(targets, sources, strict=True)]}


def merge_graph_shard(graph: dict[str, Any], shard: Mapping[str, Any]) -> None:
    """Append a checked shard's edges to the CSR graph (shards in order; offsets starts [0])."""
    base = graph["offsets"][-1]
    graph["offsets"].extend(base + offset for offset in shard["offsets"][1:])
    graph["targets"].extend(shard["targets"])
    graph["types"].extend(shard["types"])
