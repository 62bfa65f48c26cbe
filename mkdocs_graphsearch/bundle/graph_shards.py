"""Graph shards (`graph.<i>.json`): the chunk graph's edges by chunk range, fetched for the
expansion's seeds only.

graph.json keeps the edge types ({"edge_types": [...]}); shard i holds the edges from the chunks
display fragment i covers (graph_starts: page-aligned, so a section's edges to its page's other
sections are in its own shard; before format 6, text fragment i's) in CSR form: {"offsets": n + 1 rising numbers from 0
to its edge count, "targets": chunk numbers over the whole bundle, "types": indexes into
edge_types}. js/src/engine/expand.js asks for the shards of the chunks it expands from (the seeds, then
each depth's frontier) and worker.js fetches only those (a shard is a small share of the whole
graph). The readers here and in node merge them into one CSR graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from mkdocs_graphsearch.bundle.display import display_starts
from mkdocs_graphsearch.bundle.format import COMPACT_DISPLAY_FORMAT, GRAPH, graph_shard


def graph_starts(manifest: Mapping[str, Any]) -> list[int]:
    """Each graph shard's first chunk: since format 6 the display fragments' (an answer's seeds
    are among the chunks it shows, so their edges come in as few files as its titles; the
    coarser ranges also cost an expansion fewer requests), before it the text fragments'."""
    if manifest["format"] >= COMPACT_DISPLAY_FORMAT:
        return display_starts(manifest)
    starts: list[int] = manifest["text_starts"]
    return starts


def graph_part(graph: Mapping[str, Any], text_starts: Sequence[int]) -> dict[str, bytes]:
    """graph.json (the edge types) and the graph shards' bytes, shard i from chunk text_starts[i]
    (graph_starts)."""
    offsets, targets, types = graph["offsets"], graph["targets"], graph["types"]
    n_chunks = len(offsets) - 1
    parts = {GRAPH: orjson.dumps({"edge_types": list(graph["edge_types"])})}
    for index, start in enumerate(text_starts):
        end = text_starts[index + 1] if index + 1 < len(text_starts) else n_chunks
        first, last = offsets[start], offsets[end]
        shard = {
            "offsets": [offset - first for offset in offsets[start : end + 1]],
            "targets": list(targets[first:last]),
            "types": list(types[first:last]),
        }
        parts[graph_shard(index)] = orjson.dumps(shard, option=orjson.OPT_SORT_KEYS)
    return parts


def merge_graph_shard(graph: dict[str, Any], shard: Mapping[str, Any]) -> None:
    """Append a checked shard's edges to the CSR graph (shards in order; offsets starts [0])."""
    base = graph["offsets"][-1]
    graph["offsets"].extend(base + offset for offset in shard["offsets"][1:])
    graph["targets"].extend(shard["targets"])
    graph["types"].extend(shard["types"])
