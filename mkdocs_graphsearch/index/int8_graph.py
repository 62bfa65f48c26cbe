"""The default model with integer matmuls: its int8 weights stay int8 when onnxruntime runs it.

Why: the packaged model stores each weight matrix as int8 with a float scale per column, and
dequantizes it in the graph (`Mul(Cast(Wq), scale)`); onnxruntime folds that into a float matrix
and runs float MatMuls, most of the model's time. Here each such `MatMul(x, W)` becomes an integer
matmul of the same int8 weights (`MatMulInteger`, which uses the CPU's int8 dot products):

- `x` is quantized per token (per row of its last axis) to 7 bits in a uint8: `x ~ lo + s * xq`
  with `lo` and `hi` the row's min and max and `s = (hi - lo) / LEVELS`. Seven bits, not eight:
  x86 CPUs without VNNI multiply uint8 by int8 with an instruction that adds products in pairs
  into 16 bits and saturates (255 x 128 x 2 overflows, 127 x 128 x 2 does not), so with 8 bits
  vectors built on those CPUs would be wrong and differ from others' (onnxruntime's
  `reduce_range` advice);
- `x @ W ~ (s * (xq @ Wq) + lo * colsum(Wq)) * scale`, with `xq @ Wq` exact in int32.

Each token's row is quantized from its own values only, so a passage's output bits do not depend
on what it is batched or padded with (embed.py's rule); a per-tensor (per-batch) activation scale,
as onnxruntime's dynamic quantization computes it, would break that. Inputs shared by several
matmuls (query, key, value) are quantized once.

The conversion also drops two passes over every attention weight in each layer, keeping every
output bit of an input run alone (the way embed.py runs a graph without a mask):
- the guard after each attention softmax, `Where(IsNaN(p), 0, p)`: the scores are finite (the
  mask, where it is kept, adds the lowest finite float, never -inf), so the softmax is never NaN
  and the guard passes `p` through;
- the attention mask (its input, and its Add to the scores): unpadded, it adds exactly 0 to
  every score. Batching with padding saved this graph no time (benchmarks/results/build-*.json).

The converted model is a pure function of the model's bytes and `GRAPH_VERSION`: it is kept
in the build's cache folder under the model's sha256 (files/cache_store.py frames it), and
rebuilt when missing or damaged. The embedding fingerprint names the converter's arithmetic,
`CONVERTER_VERSION` (embed.py), so vectors of the float graph are never mixed with these, and a
graph change that keeps every output bit keeps the cached vectors.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.files.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np
else:  # loaded on first use (files/lazy.py)
    np = lazy_module("numpy")


__all__ = ["CONVERTER_VERSION", "GRAPH_VERSION", "cached_integer_model", "integer_model"]

#: Bump when the converted model's outputs change: embedding fingerprints (and cached
#: conversions) of another version are not used.
CONVERTER_VERSION = 2
#: Bump when the converted graph changes, outputs or not: cached conversions of another
#: version are converted again. 4: the embedding tables' rows gathered before they are dequantized.
GRAPH_VERSION = 4
#: Activation levels: 7 bits (see the module docstring: no saturation without VNNI).
LEVELS = 127
_KIND = "int8-model"
#: Conversions kept in a cache folder (one per model file seen).
_KEEP = 2


def cache_file(cache_dir: Path, model_sha256: str) -> Path:
    return cache_dir / f"int8-model-{model_sha256[:16]}.cache"


def cached_integer_model(model: Callable[[], bytes], model_sha256: str, cache_dir: Path | None) -> bytes:
    """`integer_model(model())`, read from `cache_dir` when it was converted before (keyed by the
    model's sha256 and `GRAPH_VERSION`), else converted and kept there; `model` gives the model
    file's bytes, read only to convert them."""
    if cache_dir is None:
        return integer_model(model())
    path = cache_file(cache_dir, model_sha256)
    with contextlib.suppress(OSError, ValueError):  # unreadable or damaged: converted again
        cached = cache_store.read(path, _KIND, GRAPH_VERSION)
        if cached is not None:
            return cached
    converted = integer_model(model())
    with contextlib.suppress(OSError):  # the cache only saves time: the next build converts again
        cache_store.write(path, _KIND, GRAPH_VERSION, converted)
        cache_store.prune(cache_dir, "int8-model-*.cache", _KEEP, spare=path)
    return converted


def integer_model(model: bytes) -> bytes:
    """The ONNX model with every `MatMul(x, Mul(Cast(int8 initializer), per-column scale))` run
    as a per-token 7-bit uint8 x int8 `MatMulInteger`; the same bytes for the same input."""
    import onnx
    from onnx import helper, numpy_helper

    m = onnx.load_from_string(model)
    graph = m.graph
    inits = {i.name: i for i in graph.initializer}
    producer = {out: node for node in graph.node for out in node.output}
    added = [
        numpy_helper.from_array(np.array(float(LEVELS), np.float32), "gs_q_levels"),
        numpy_helper.from_array(np.array(1.0 / LEVELS, np.float32), "gs_q_inv_levels"),
        numpy_helper.from_array(np.array(1e-30, np.float32), "gs_q_tiny"),  # a constant row: no 0/0
    ]
    quantized: dict[str, str] = {}  # input -> prefix of its quantized names
    nodes: list[Any] = []
    for node in graph.node:
        weight = _int8_weight(node, producer, inits)
        if weight is None:
            nodes.append(node)
            continue
        wq, scale = weight
        x, y = node.input[0], node.output[0]
        if x not in quantized:
            p = quantized[x] = f"gs_q{len(quantized)}_"
            nodes += [
                helper.make_node("ReduceMax", [x], [p + "hi"], axes=[-1], keepdims=1),
                helper.make_node("ReduceMin", [x], [p + "lo"], axes=[-1], keepdims=1),
                helper.make_node("Sub", [p + "hi", p + "lo"], [p + "range"]),
                helper.make_node("Max", [p + "range", "gs_q_tiny"], [p + "span"]),
                helper.make_node("Div", ["gs_q_levels", p + "span"], [p + "inv"]),
                helper.make_node("Mul", [p + "span", "gs_q_inv_levels"], [p + "step"]),
                helper.make_node("Sub", [x, p + "lo"], [p + "shifted"]),
                helper.make_node("Mul", [p + "shifted", p + "inv"], [p + "scaled"]),
                helper.make_node("Round", [p + "scaled"], [p + "rounded"]),
                helper.make_node("Cast", [p + "rounded"], [p + "xq"], to=onnx.TensorProto.UINT8),
            ]
        p, o = quantized[x], f"gs_{y}_"
        colsum = numpy_helper.to_array(inits[wq]).astype(np.int64).sum(axis=0).astype(np.float32)
        added.append(numpy_helper.from_array(colsum, o + "colsum"))
        nodes += [
            helper.make_node("MatMulInteger", [p + "xq", wq], [o + "acc"]),
            helper.make_node("Cast", [o + "acc"], [o + "accf"], to=onnx.TensorProto.FLOAT),
            helper.make_node("Mul", [o + "accf", p + "step"], [o + "dot"]),
            helper.make_node("Mul", [p + "lo", o + "colsum"], [o + "offset"]),
            helper.make_node("Add", [o + "dot", o + "offset"], [o + "sum"]),
            helper.make_node("Mul", [o + "sum", scale], [y]),
        ]
    graph.initializer.extend(added)
    nodes = _gathered_rows(nodes, producer, inits)
    nodes = _without_nan_guards(nodes, {out.name for out in graph.output})
    _keep_used(graph, _without_attention_mask(graph, nodes))
    return bytes(m.SerializeToString())


def _int8_weight(node: Any, producer: dict[str, Any], inits: dict[str, Any]) -> tuple[str, str] | None:
    """(int8 weight, per-column scale) initializer names when `node` is `MatMul(x, Mul(Cast(Wq), scale))`."""
    if node.op_type != "MatMul":
        return None
    found = _dequantized(node.input[1], producer, inits)
    if found is None:
        return None
    wq, scale, _ = found
    if list(scale.dims) not in ([1, wq.dims[1]], [wq.dims[1]]):
        return None
    return wq.name, scale.name


def _dequantized(name: str, producer: dict[str, Any], inits: dict[str, Any]) -> tuple[Any, Any, Any] | None:
    """(int8 initializer Wq, scale initializer, the Cast node) when `name` is the output of
    `Mul(Cast(Wq), scale)` with Wq a 2-D int8 initializer."""
    import onnx

    mul = producer.get(name)
    if mul is None or mul.op_type != "Mul":
        return None
    cast = producer.get(mul.input[0])
    if cast is None or cast.op_type != "Cast" or cast.input[0] not in inits or mul.input[1] not in inits:
        return None
    wq = inits[cast.input[0]]
    if wq.data_type != onnx.TensorProto.INT8 or len(wq.dims) != 2:
        return None
    return wq, inits[mul.input[1]], cast


def _gathered_rows(nodes: list[Any], producer: dict[str, Any], inits: dict[str, Any]) -> list[Any]:
    """`nodes` with each `Gather(Mul(Cast(Wq), row scale), ids)` (the embedding tables) run as
    `Mul(Cast(Gather(Wq, ids)), Gather(row scale, ids))`: the same float products of the same
    operands, for the rows a passage reads only. Why: onnxruntime folds the table's dequantization
    into a float copy of the whole table each time a session starts (four times the int8 table's
    bytes; most of a session's start-up)."""
    from onnx import helper

    kept = []
    for node in nodes:
        weight = _int8_table(node, producer, inits)
        if weight is None:
            kept.append(node)
            continue
        (wq, scale, to), ids, y = weight, node.input[1], node.output[0]
        o = f"gs_{y}_"
        kept += [
            helper.make_node("Gather", [wq, ids], [o + "rows_q"], axis=0),
            helper.make_node("Cast", [o + "rows_q"], [o + "rows_f"], to=to),
            helper.make_node("Gather", [scale, ids], [o + "row_scales"], axis=0),
            helper.make_node("Mul", [o + "rows_f", o + "row_scales"], [y]),
        ]
    return kept


def _int8_table(node: Any, producer: dict[str, Any], inits: dict[str, Any]) -> tuple[str, str, int] | None:
    """(int8 table, per-row scale, the Cast's type) initializer names when `node` is
    `Gather(Mul(Cast(Wq), scale), ids)` along axis 0 with one scale per row of Wq."""
    if node.op_type != "Gather" or any(a.name == "axis" and a.i != 0 for a in node.attribute):
        return None
    found = _dequantized(node.input[0], producer, inits)
    if found is None:
        return None
    wq, scale, cast = found
    if list(scale.dims) != [wq.dims[0], 1]:
        return None
    return wq.name, scale.name, next(a.i for a in cast.attribute if a.name == "to")


def _without_nan_guards(nodes: list[Any], outputs: set[str]) -> list[Any]:
    """`nodes` with each `Where(IsNaN(p), c, p)` of a Softmax output `p` gone (unless it is one of
    the graph's `outputs`), its readers reading `p` (the module docstring says why that is the
    same function); the unread IsNaN goes in `_keep_used`."""
    softmax = {out for node in nodes if node.op_type == "Softmax" for out in node.output}
    isnan = {node.output[0]: node.input[0] for node in nodes if node.op_type == "IsNaN"}
    passed: dict[str, str] = {}  # a guard's output -> the softmax output it passes through
    for node in nodes:
        guard = node.op_type == "Where" and node.output[0] not in outputs
        if guard and node.input[2] in softmax and isnan.get(node.input[0]) == node.input[2]:
            passed[node.output[0]] = node.input[2]
    kept = []
    for node in nodes:
        if node.op_type == "Where" and node.output[0] in passed:
            continue
        for at, name in enumerate(node.input):
            if name in passed:
                node.input[at] = passed[name]
        kept.append(node)
    return kept


def _without_attention_mask(graph: Any, nodes: list[Any]) -> list[Any]:
    """`nodes` without the attention mask: each Add of the mask to attention scores reads the
    scores alone, and the graph loses its `attention_mask` input (so embed.py runs every input
    alone, unpadded, where the mask adds exactly 0). `nodes` as they are when an output depends
    on the mask otherwise."""
    masked = {"attention_mask"}  # what the mask flows into, up to the Adds that apply it
    passed: dict[str, str] = {}  # a masking Add's output -> the scores it masked
    for node in nodes:
        reads = [name in masked for name in node.input]
        if node.op_type == "Add" and sorted(reads) == [False, True]:
            passed[node.output[0]] = node.input[reads.index(False)]
        elif any(reads):
            masked.update(node.output)
    if not passed or any(out.name in masked for out in graph.output):
        return nodes
    kept = [node for node in nodes if node.output[0] not in passed]
    for node in kept:
        for at, name in enumerate(node.input):
            node.input[at] = passed.get(name, name)
    inputs = [graph_input for graph_input in graph.input if graph_input.name != "attention_mask"]
    del graph.input[:]
    graph.input.extend(inputs)
    return kept


def _keep_used(graph: Any, nodes: list[Any]) -> None:
    """Set the graph's nodes, dropping those and the initializers no output depends on (the
    dequantized float weights)."""
    used = {out.name for out in graph.output}
    kept = []
    for node in reversed(nodes):
        if any(out in used for out in node.output):
            kept.append(node)
            used.update(node.input)
    del graph.node[:]
    graph.node.extend(reversed(kept))
    inits = [init for init in graph.initializer if init.name in used]
    del graph.initializer[:]
    graph.initializer.extend(inits)
