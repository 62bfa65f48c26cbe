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

Key: the model the session runs (its sha256, and the converter's GRAPH_VERSION when converted),
the onnxruntime version and the level. File: `ort-model-<key>-<sha256 of the file>.onnx`; its
hash is checked through a stat stamp (model_stamp.py: hashed again only when the file changed),
and a file whose bytes are not those it was kept with is not used (optimized again). A kept file
onnxruntime cannot load is one warning naming it and the cause (`warn`); the build optimizes the
model again and keeps that.
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


def model_key(model: str, onnxruntime_version: str) -> str:
    """The key of a kept optimized model: `model` names the graph the session is made from."""
    return hashlib.sha256(f"{model}\0{onnxruntime_version}\0{LEVEL}".encode()).hexdigest()[:16]


def start_session(
    ort: ModuleType,
    model: Callable[[], bytes],
    options: onnxruntime.SessionOptions,
    cache_dir: Path | None,
    key: str,
    warn: Callable[[str], None],
) -> onnxruntime.InferenceSession:
    """A session of `model()` (called only when no optimized model is kept) optimized at LEVEL:
    from the optimized model kept in `cache_dir` under `key`, else optimized now and kept there
    (`warn`: a kept model that does not load, then optimized again)."""
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
            warn(f"cannot load the optimized model {kept} kept in the cache folder ({error}); optimizing it again")
    options.graph_optimization_level = getattr(levels, LEVEL)
    # Named as files/atomic.py names its temporaries: a killed build's is removed by the next.
    tmp = cache_dir / f".ort-model-{key}.onnx.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    options.optimized_model_filepath = str(tmp)
    try:
        session = ort.InferenceSession(model(), sess_options=options, providers=PROVIDERS)
    except Exception:
        tmp.unlink(missing_ok=True)
        options.optimized_model_filepath = ""  # a cache folder onnxruntime cannot write into
        return ort.InferenceSession(model(), sess_options=options, providers=PROVIDERS)
    with contextlib.suppress(OSError):  # the kept model only saves time: the next build optimizes again
        _keep(cache_dir, key, tmp)
    tmp.unlink(missing_ok=True)
    return session


def _keep(cache_dir: Path, key: str, written: Path) -> None:
    digest = _sha256(written)
    path = cache_dir / f"ort-model-{key}-{digest}.onnx"
    os.replace(written, path)
    stamped_sha256(path, cache_dir, lambda: digest)  # stamped now: the next build does not hash it
    cache_store.prune(cache_dir, "ort-model-*.onnx", _KEEP, spare=path)


def _kept_file(cache_dir: Path, key: str) -> Path | None:
    """The optimized model kept under `key` whose bytes hash to the sha256 in its name."""
    for path in cache_store.newest(cache_dir, f"ort-model-{key}-*.onnx"):
        expected = path.name.removesuffix(".onnx").rsplit("-", 1)[-1]
        try:
            if stamped_sha256(path, cache_dir, partial(_sha256, path)) == expected:
                return path
        except OSError:
            continue
    return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
