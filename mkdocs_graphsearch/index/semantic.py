"""The semantic part of a bundle: passage vectors (int8) and the site-fitted query encoder.

A cold build runs the model once per passage window and gets both the passage vector and the
token states the encoder is fitted on. Passage vectors are cached per passage
(embed_cache.py); the fitted encoder is cached per corpus (fingerprint + every passage text),
so an unchanged site rebuilds without the model. After an edit, `mkdocs build` refits the
encoder with one model pass over all passages (its table is a mean over every token
occurrence), while `mkdocs serve` reuses the last encoder and embeds only changed passages.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mkdocs_graphsearch.bundle.format import ENCODER, ENCODER_BIN, VECTORS, VOCAB
from mkdocs_graphsearch.index.calibrate import vector_only_threshold
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.embed import Embedder
from mkdocs_graphsearch.index.embed_cache import EmbeddingCache, cache_key
from mkdocs_graphsearch.index.encoder import fit_encoder, project
from mkdocs_graphsearch.index.passages import passage_text

#: (done, total, chunks per second) -> None; called at most every PROGRESS_SECONDS.
Progress = Callable[[int, int, float], None]
PROGRESS_SECONDS = 5.0
#: Written into the manifest's semantic entries, the one place both engines read them from
#: (a format-1 manifest lacks them: each engine keeps the values it had built in, the same).
#: The static encoder reads at most MAX_QUERY_PIECES WordPiece pieces of a query; the query
#: vector is quantized to integers in +-QUERY_LEVELS (int16: its dot products with the int8
#: passage rows are exact integers in both engines).
MAX_QUERY_PIECES = 64
QUERY_LEVELS = 32767


@dataclass
class SemanticOptions:
    embedder: Embedder
    cache_dir: Path | None
    progress: Progress | None = None
    #: Reuse the last fitted encoder even if passages changed (`mkdocs serve`: an edit must not
    #: cost a model pass over the whole site; `mkdocs build` always refits).
    reuse_encoder: bool = False


def quantize_vectors(vectors: np.ndarray) -> bytes:
    """int8 rows (per-vector scale max|v| / 127), then the float32 scales: vectors.bin."""
    vectors = np.asarray(vectors, dtype=np.float64)
    peak = np.abs(vectors).max(axis=1)
    peak[peak == 0] = 1.0
    scales = (peak / 127.0).astype("<f4")
    rows = np.clip(np.rint(vectors / scales.astype(np.float64)[:, None]), -127, 127).astype(np.int8)
    return rows.tobytes() + scales.tobytes()


class _Ticker:
    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total, self.progress = total, progress
        self.start = self.last = time.monotonic()

    def tick(self, done: int) -> None:
        now = time.monotonic()
        if self.progress and (now - self.last >= PROGRESS_SECONDS or done == self.total):
            self.last = now
            self.progress(done, self.total, done / max(now - self.start, 1e-9))


def semantic_files(corpus: Corpus, options: SemanticOptions) -> tuple[dict[str, bytes], dict[str, object]]:
    """vectors.bin, encoder.json, encoder.bin and vocab.txt, plus their manifest entries."""
    embedder = options.embedder
    fingerprint = embedder.fingerprint
    texts = [passage_text(chunk) for chunk in corpus.chunks]
    keys = [cache_key(fingerprint, text) for text in texts]
    cache = EmbeddingCache(options.cache_dir) if options.cache_dir else None
    corpus_key = hashlib.sha256("\n".join([fingerprint, *keys]).encode()).hexdigest()
    encoder_files = _cached_encoder(options.cache_dir, corpus_key, options.reuse_encoder)

    known = cache.get_many(keys) if cache else {}
    vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    fresh: dict[str, np.ndarray] = {}
    if encoder_files is None:
        # The encoder is fitted on every passage's token states: one model pass over all of them
        # (that pass gives the passage vectors too).
        ticker = _Ticker(len(texts), options.progress)
        runs = []
        for i, text in enumerate(texts):
            vector, ids, states = embedder.passage_and_states(text)
            vectors[i] = known.get(keys[i], vector)
            fresh[keys[i]] = vector
            runs.append((np.asarray(ids, dtype=np.int64), states))
            ticker.tick(i + 1)
        special = {embedder.wordpiece.cls_id, embedder.wordpiece.sep_id, embedder.wordpiece.unk_id}
        table = fit_encoder(runs, special)
        encoder_files = table.files() if table is not None else None
        _store_encoder(options.cache_dir, corpus_key, encoder_files)
    else:
        missing = [i for i, key in enumerate(keys) if key not in known]
        ticker = _Ticker(len(missing), options.progress)
        for i, key in enumerate(keys):
            if key in known:
                vectors[i] = known[key]
        for done, i in enumerate(missing, 1):
            vectors[i] = fresh[keys[i]] = embedder.embed_passages([texts[i]])[0]
            ticker.tick(done)
    if cache is not None and fresh:
        cache.put_many(fresh)
        cache.flush()

    if encoder_files is None:  # no token at all: nothing to search by meaning
        return {}, {}
    projected = project(vectors, encoder_files)
    quantized = quantize_vectors(projected)
    rows = np.frombuffer(quantized, dtype=np.int8, count=projected.size).reshape(projected.shape)
    scales = np.frombuffer(quantized, dtype="<f4", offset=projected.size).astype(np.float64)
    files = {
        VECTORS: quantized,
        VOCAB: embedder.wordpiece.vocab_text(),
        ENCODER: encoder_files[0],
        ENCODER_BIN: encoder_files[1],
    }
    manifest: dict[str, object] = {
        "vectors": {
            "dim": int(projected.shape[1]),
            "space": "encoder-pca",
            "model": fingerprint,
            "query_levels": QUERY_LEVELS,
            # calibrate.py; the builder writes it into the search settings both engines read
            "vector_only_threshold": vector_only_threshold(
                rows, scales, encoder_files, embedder.wordpiece, MAX_QUERY_PIECES, QUERY_LEVELS
            ),
        },
        "encoder": {"kind": "static", "max_query_pieces": MAX_QUERY_PIECES},
    }
    return files, manifest


def _encoder_paths(cache_dir: Path, corpus_key: str) -> tuple[Path, Path]:
    return cache_dir / f"encoder-{corpus_key}.json", cache_dir / f"encoder-{corpus_key}.bin"


def _cached_encoder(cache_dir: Path | None, corpus_key: str, reuse_any: bool) -> tuple[bytes, bytes] | None:
    if cache_dir is None:
        return None
    meta, binary = _encoder_paths(cache_dir, corpus_key)
    if reuse_any and not meta.exists():
        fitted = sorted(cache_dir.glob("encoder-*.json"))
        if fitted:
            meta, binary = fitted[0], fitted[0].with_suffix(".bin")
    try:
        return meta.read_bytes(), binary.read_bytes()
    except OSError:
        return None


def _store_encoder(cache_dir: Path | None, corpus_key: str, files: tuple[bytes, bytes] | None) -> None:
    if cache_dir is None or files is None:
        return
    cache_dir.mkdir(parents=True, exist_ok=True)
    for stale in cache_dir.glob("encoder-*"):
        stale.unlink()  # one site, one encoder: older fits are dead weight
    for path, data in zip(_encoder_paths(cache_dir, corpus_key), files, strict=True):
        path.write_bytes(data)
