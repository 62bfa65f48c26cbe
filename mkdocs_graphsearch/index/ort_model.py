"""The model as onnxruntime optimized it, kept in the cache folder: a later build's session
starts from that file with graph optimizations off.

Why: making a session optimizes the graph (constant folding, fusions) every time, and the
converted model is first read and checksummed whole from the cache (int8_graph.py); that was
most of what starting the model cost an edit build that embeds a passage or two. onnxruntime
writes the graph it optimized (`SessionOptions.optimized_model_filepath`); a session made from
that file with optimizations off runs the very same graph, so it gives the same output bits.

Level: every session runs the graph optimized at `ORT_ENABLE_EXTENDED`, the last level
onnxruntime documents as independent of the hardware (the layout passes `ORT_ENABLE_ALL` adds
depend on the CPU, and a cache folder moves between machines: a CI cache does). Kept or not,
a build runs the same graph.

Weights apart: the kept graph (a small file) names its weights in a file of their own, which
onnxruntime maps into memory instead of reading and copying them: a session started from one
file read the whole model into fresh memory and copied its weights again, most of what starting
it cost the system. Same graph, same weights: the same output bits.

Key: the model the session runs (its sha256, and the converter's GRAPH_VERSION when converted),
the onnxruntime version and the level. Files: `ort-weights-<key>-<sha256 of the weights>.bin` and
`ort-model-<key>-<that sha256>-<sha256 of the graph file>.onnx`. The graph is hashed on every use
(it is small), the weights through a stat stamp (model_stamp.py: hashed again only when the file
changed); a pair whose bytes are not those it was kept with is not used (optimized again). A kept
model onnxruntime cannot load is one info line naming it and the cause (`note`), not a warning:
the build optimizes the model again and keeps that, so nothing is lost and there is nothing for
the user to mend (a warning would fail `mkdocs build --strict` over a file the build itself heals).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.files.atomic import write_atomic
from mkdocs_graphsearch.index.model_stamp import stamped_sha256

if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType

    import onnxruntime

__all__ = ["LEVEL", "model_key", "start_session"]

#: The optimization level every session's graph gets (see the module docstring).
LEVEL = "ORT_ENABLE_EXTENDED"
PROVIDERS = ["CPUExecutionProvider"]
#: Optimized models kept in a cache folder (one per model and onnxruntime version seen).
_KEEP = 2
#: Initializers of at least this many bytes go to the weights file (the rest stay in the graph).
_EXTERNAL_MIN_BYTES = 1024


def model_key(model: str, onnxruntime_version: str) -> str:
    """The key of a kept optimized model: `model` names the graph the session is made from."""
    return hashlib.sha256(f"{model}\0{onnxruntime_version}\0{LEVEL}".encode()).hexdigest()[:16]


def start_session(
    ort: ModuleType,
    model: Callable[[], bytes],
    options: onnxruntime.SessionOptions,
    cache_dir: Path | None,
    key: str,
    note: Callable[[str], None],
) -> onnxruntime.InferenceSession:
    """A session of `model()` (called only when no optimized model is kept) optimized at LEVEL:
    from the optimized model kept in `cache_dir` under `key`, else optimized now and kept there
    (`note`, info level: a kept model that does not load, then optimized again)."""
    levels = ort.GraphOptimizationLevel
    if cache_dir is None:
        options.graph_optimization_level = getattr(levels, LEVEL)
        return ort.InferenceSession(model(), sess_options=options, providers=PROVIDERS)
    kept = _kept_file(cache_dir, key)
    if kept is not None:
        options.graph_optimization_level = levels.ORT_DISABLE_ALL
        try:
            return ort.InferenceSession(str(kept), sess_options=options, providers=PROVIDERS)
        except Exception as error:  # its hash matched, yet it does not load: optimized again below
            note(f"cannot load the optimized model {kept} kept in the cache folder ({error}); optimizing it again")
    options.graph_optimization_level = getattr(levels, LEVEL)
    # Named as files/atomic.py names its temporaries: a killed build's are removed by the next.
    token = f"{os.getpid()}.{secrets.token_hex(4)}"
    tmp = cache_dir / f".ort-model-{key}.onnx.{token}.tmp"
    weights = cache_dir / f".ort-weights-{key}.bin.{token}.tmp"
    options.optimized_model_filepath = str(tmp)
    options.add_session_config_entry("session.optimized_model_external_initializers_file_name", weights.name)
    options.add_session_config_entry(
        "session.optimized_model_external_initializers_min_size_in_bytes", str(_EXTERNAL_MIN_BYTES)
    )
    try:
        session = ort.InferenceSession(model(), sess_options=options, providers=PROVIDERS)
    except Exception:
        _remove(tmp, weights)
        options.optimized_model_filepath = ""  # a cache folder onnxruntime cannot write into
        return ort.InferenceSession(model(), sess_options=options, providers=PROVIDERS)
    with contextlib.suppress(OSError, ValueError):  # the kept model only saves time: the next build optimizes again
        _keep(cache_dir, key, tmp, weights)
    _remove(tmp, weights)
    return session


def _keep(cache_dir: Path, key: str, graph: Path, weights: Path) -> None:
    """Give the optimized pair its kept names: the weights first, then the graph that names them."""
    weights_sha = _sha256(weights)
    kept_weights = cache_dir / f"ort-weights-{key}-{weights_sha}.bin"
    os.replace(weights, kept_weights)
    stamped_sha256(kept_weights, cache_dir, lambda: weights_sha)  # stamped now: the next build does not hash it
    data = _relocated(graph.read_bytes(), kept_weights.name)
    path = cache_dir / f"ort-model-{key}-{weights_sha}-{hashlib.sha256(data).hexdigest()}.onnx"
    write_atomic(path, data)
    # this key's older graphs (a graph of one file, kept before the weights were apart): not used again
    cache_store.prune(cache_dir, f"ort-model-{key}-*.onnx", 1, spare=path)
    cache_store.prune(cache_dir, "ort-model-*.onnx", _KEEP, spare=path)
    cache_store.prune(cache_dir, "ort-weights-*.bin", _KEEP, spare=kept_weights)


def _relocated(graph: bytes, weights: str) -> bytes:
    """The graph onnxruntime wrote, its external initializers read from the file `weights`."""
    import onnx  # only when a model is optimized

    model = onnx.load_from_string(graph)  # the weights stay where they are: not read
    for tensor in model.graph.initializer:
        if tensor.data_location == onnx.TensorProto.EXTERNAL:
            for entry in tensor.external_data:
                if entry.key == "location":
                    entry.value = weights
    return model.SerializeToString()


def _kept_file(cache_dir: Path, key: str) -> Path | None:
    """The kept graph under `key` whose graph and weights hash to the sha256s in its name."""
    for path in cache_store.newest(cache_dir, f"ort-model-{key}-*-*.onnx"):
        _, weights_sha, graph_sha = path.name.removesuffix(".onnx").rsplit("-", 2)
        weights = cache_dir / f"ort-weights-{key}-{weights_sha}.bin"
        try:
            weights_kept = stamped_sha256(weights, cache_dir, partial(_sha256, weights)) == weights_sha
            if weights_kept and _sha256(path) == graph_sha:
                return path
        except OSError:
            continue
    return None


def _remove(*paths: Path) -> None:
    for path in paths:
        path.unlink(missing_ok=True)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
