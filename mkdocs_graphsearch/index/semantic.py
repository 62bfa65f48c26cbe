"""The semantic part of a bundle: passage vectors (int8) and the site-fitted query encoder.

A cold build runs the model once per passage window and gets both the passage vector and the
token states the encoder is fitted on. Passage vectors are cached per passage
(embed_cache.py); the fitted encoder is cached per corpus (fingerprint + every passage text),
so an unchanged site rebuilds without the model. After an edit, `mkdocs build` refits the
encoder with one model pass over all passages (its table is a mean over every token
occurrence), while `mkdocs serve` reuses the last encoder and embeds only changed passages.

The cache is never trusted nor needed: passage vectors are flushed every FLUSH_SECONDS while
embedding (an interrupted build keeps them); an encoder entry is one file written atomically
with a sha256 of its payload, and a damaged one is a warning naming it, then refitted; a cache
folder that cannot be written is one warning naming it, and the build goes on without it.
"""

from __future__ import annotations

import hashlib
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mkdocs_graphsearch.atomic import write_atomic
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
#: New passage vectors are written to the cache at least this often while embedding.
FLUSH_SECONDS = 30.0
#: Fitted encoders kept in one cache folder (newest first): sites sharing it don't evict each other.
KEEP_ENCODERS = 4
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


def semantic_files(
    corpus: Corpus, options: SemanticOptions, warn: Callable[[str], None] = print
) -> tuple[dict[str, bytes], dict[str, object]]:
    """vectors.bin, encoder.json, encoder.bin and vocab.txt, plus their manifest entries."""
    embedder = options.embedder
    fingerprint = embedder.fingerprint
    texts = [passage_text(chunk) for chunk in corpus.chunks]
    keys = [cache_key(fingerprint, text) for text in texts]
    store = _CacheStore(options.cache_dir, warn)
    corpus_key = hashlib.sha256("\n".join([fingerprint, *keys]).encode()).hexdigest()
    encoder_files = store.encoder(corpus_key, options.reuse_encoder)

    known = store.vectors(keys)
    vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    if encoder_files is None:
        # The encoder is fitted on every passage's token states: one model pass over all of them
        # (that pass gives the passage vectors too).
        ticker = _Ticker(len(texts), options.progress)
        runs = []
        for i, text in enumerate(texts):
            vector, ids, states = embedder.passage_and_states(text)
            vectors[i] = known.get(keys[i], vector)
            store.add(keys[i], vector)
            runs.append((np.asarray(ids, dtype=np.int64), states))
            ticker.tick(i + 1)
        special = {embedder.wordpiece.cls_id, embedder.wordpiece.sep_id, embedder.wordpiece.unk_id}
        table = fit_encoder(runs, special)
        encoder_files = table.files() if table is not None else None
        store.save_encoder(corpus_key, encoder_files)
    else:
        missing = [i for i, key in enumerate(keys) if key not in known]
        ticker = _Ticker(len(missing), options.progress)
        for i, key in enumerate(keys):
            if key in known:
                vectors[i] = known[key]
        for done, i in enumerate(missing, 1):
            vectors[i] = embedder.embed_passages([texts[i]])[0]
            store.add(keys[i], vectors[i])
            ticker.tick(done)
    store.finish()

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


_ENCODER_MAGIC = b"GSENCC1\n"
#: magic, sha256 of the payload (encoder.json then encoder.bin), length of encoder.json
_ENCODER_HEADER = struct.Struct("<8s32sI")


def pack_encoder(files: tuple[bytes, bytes]) -> bytes:
    """One encoder cache entry: header, then encoder.json and encoder.bin."""
    meta, binary = files
    return _ENCODER_HEADER.pack(_ENCODER_MAGIC, hashlib.sha256(meta + binary).digest(), len(meta)) + meta + binary


def unpack_encoder(data: bytes) -> tuple[bytes, bytes]:
    """(encoder.json, encoder.bin) of an entry; ValueError saying what is wrong with it."""
    if len(data) < _ENCODER_HEADER.size:
        raise ValueError(f"{len(data)} bytes, shorter than its header")
    magic, digest, meta_len = _ENCODER_HEADER.unpack_from(data)
    if magic != _ENCODER_MAGIC:
        raise ValueError("not an encoder cache file")
    payload = data[_ENCODER_HEADER.size :]
    if meta_len > len(payload) or hashlib.sha256(payload).digest() != digest:
        raise ValueError("checksum mismatch (truncated or changed)")
    return payload[:meta_len], payload[meta_len:]


class _CacheStore:
    """The cache folder as one build uses it; after a write fails, one warning and no more cache."""

    def __init__(self, cache_dir: Path | None, warn: Callable[[str], None]) -> None:
        self.dir, self.warn = cache_dir, warn
        self.cache = EmbeddingCache(cache_dir) if cache_dir else None
        self.last_flush = time.monotonic()

    def _encoder_path(self, corpus_key: str) -> Path:
        assert self.dir is not None
        return self.dir / f"encoder-{corpus_key}.cache"

    def _fitted(self) -> list[Path]:
        """Encoder entries, newest first (name breaks ties: the same order on every run)."""
        assert self.dir is not None
        entries = []
        for path in self.dir.glob("encoder-*.cache"):
            try:
                entries.append((-path.stat().st_mtime_ns, path.name, path))
            except OSError:
                continue
        return [path for _, _, path in sorted(entries)]

    def encoder(self, corpus_key: str, reuse_any: bool) -> tuple[bytes, bytes] | None:
        """The cached fit of this corpus (with `reuse_any`, else the newest fit); None: refit."""
        if self.dir is None:
            return None
        path = self._encoder_path(corpus_key)
        if reuse_any and not path.exists():
            path = next(iter(self._fitted()), path)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            return unpack_encoder(data)
        except ValueError as error:
            self.warn(f"the query encoder cache {path} is damaged ({error}); refitting it")
            return None

    def vectors(self, keys: list[str]) -> dict[str, np.ndarray]:
        if self.cache is None:
            return {}
        known = self.cache.get_many(keys)
        for path in sorted(self.cache.damaged):
            self.warn(f"the embedding cache {path} has damaged records; recomputing them")
        return known

    def add(self, key: str, vector: np.ndarray) -> None:
        """Remember a passage vector; flushed every FLUSH_SECONDS, so a killed build keeps it."""
        if self.cache is None:
            return
        self.cache.put_many({key: vector})
        if time.monotonic() - self.last_flush >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.cache is not None:
            self._write(self.cache.flush)
        self.last_flush = time.monotonic()

    def finish(self) -> None:
        """The last flush; damaged records (warned about, recomputed) are dropped from the files,
        so the next build does not warn again."""
        self.flush()
        if self.cache is not None and self.cache.damaged:
            self._write(self.cache.compact)

    def save_encoder(self, corpus_key: str, files: tuple[bytes, bytes] | None) -> None:
        if self.dir is None or files is None:
            return
        path = self._encoder_path(corpus_key)

        def save() -> None:
            assert self.dir is not None
            self.dir.mkdir(parents=True, exist_ok=True)
            write_atomic(path, pack_encoder(files))
            legacy = [*self.dir.glob("encoder-*.json"), *self.dir.glob("encoder-*.bin")]  # unchecked format
            for stale in self._fitted()[KEEP_ENCODERS:] + legacy:
                stale.unlink(missing_ok=True)

        self._write(save)

    def _write(self, action: Callable[[], None]) -> None:
        try:
            action()
        except OSError as error:
            self.warn(f"cannot write the cache folder {self.dir} ({error}); building without it")
            self.dir = self.cache = None
