"""The semantic part of a bundle: passage vectors (int8) and the site-fitted query encoder.

The model runs only where the cache lacks something (embed.py batches what it runs). Passage
vectors are cached per passage (embed_cache.py); the fitted encoder per corpus (fingerprint + every
passage text), so an unchanged site rebuilds without the model; the encoder's fit statistics per
set of passages (fit_cache.py), so after an edit `mkdocs build` runs the model over the changed
passages only (their new text, and their old one to take it out of the statistics) and refits
from the statistics: the same bytes as a clean build. `mkdocs serve` reuses the last encoder and
embeds only changed passages.

The cache is never trusted nor needed: new passage vectors and the fit statistics so far are
written every FLUSH_SECONDS while embedding (an interrupted build keeps them, and the next one
runs the model only over the rest); every cache file is framed, written and pruned by
files/cache_store.py, and a damaged one is a warning naming it, then recomputed; a cache folder
that cannot be written is one warning naming it, and the build goes on without it.
"""

from __future__ import annotations

import hashlib
import struct
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.encoder_shards import encoder_table, split_encoder
from mkdocs_graphsearch.bundle.format import VECTORS
from mkdocs_graphsearch.bundle.vector_shards import quantize_codes, table_bytes
from mkdocs_graphsearch.bundle.vocab_shards import split_vocab
from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.files.atomic import Chunk
from mkdocs_graphsearch.index import vocab_cache
from mkdocs_graphsearch.index.calibrate import vector_only_threshold
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.derived_cache import DerivedCache
from mkdocs_graphsearch.index.embed_cache import EmbeddingCache, cache_key
from mkdocs_graphsearch.index.encoder import fit_encoder, project
from mkdocs_graphsearch.index.fit_cache import FitEntry, FitState, choose_base, read_head, unpack_entry
from mkdocs_graphsearch.index.kmeans import BITS, cached_kmeans, clustered_layout
from mkdocs_graphsearch.index.passages import passage_text
from mkdocs_graphsearch.index.semantic_options import Progress, SemanticOptions
from mkdocs_graphsearch.index.word_cache import site_word_files
from mkdocs_graphsearch.text.unicode_table import CJK as CJK_CLASS
from mkdocs_graphsearch.text.unicode_table import table_file, unicode_table
from mkdocs_graphsearch.text.wordpiece import WordPiece

PROGRESS_SECONDS = 5.0
#: New passage vectors are written to the cache at least this often while embedding.
FLUSH_SECONDS = 30.0
#: Fitted encoders, and fit statistics, kept in one cache folder (newest first): sites sharing
#: it don't evict each other.
KEEP_ENCODERS = 4
#: In the key of a cached encoder and of cached fit statistics: a fit that computes anything
#: differently must not reuse one (3: token states of each passage's model input only).
FIT_VERSION = "encoder-fit-3"
#: The names of the fitted encoders' and fit statistics' entries in the cache folder.
_ENCODERS, _FIT_STATS = "encoder-*.cache", "fitstats-*.cache"
#: Written into the manifest's semantic entries, the one place both engines read them from
#: (a format-1 manifest lacks them: each engine keeps the values it had built in, the same).
#: The static encoder reads at most MAX_QUERY_PIECES WordPiece pieces of a query; the query
#: vector is quantized to integers in +-QUERY_LEVELS (int16: its dot products with the int8
#: passage rows are exact integers in both engines).
MAX_QUERY_PIECES = 64
QUERY_LEVELS = 32767


def quantize_vectors(vectors: np.ndarray) -> bytes:
    """int8 rows (per-vector scale max|v| / 127), then the float32 scales: the rows the stored
    codes are quantized from (bundle/vector_shards.py quantize_codes)."""
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
    corpus: Corpus,
    options: SemanticOptions,
    warn: Callable[[str], None] = print,
    stop_words: Sequence[str] = (),
    derived: DerivedCache | None = None,
) -> tuple[dict[str, bytes], dict[str, object], list[int] | None]:
    """vectors.bin, the encoder parts (bundle/encoder_shards.py) and the vocab shards
    (bundle/vocab_shards.py), plus their manifest entries and, when clustered, each chunk's
    cluster; `stop_words`: the search settings'
    query_stop_words (their pieces make no query vector alone: `stop_pieces`); `derived`: the
    build's cache of pure steps' results (k-means here), off with the rest of the cache folder if
    it cannot be written."""
    embedder = options.embedder
    fingerprint = embedder.fingerprint
    texts = [passage_text(chunk) for chunk in corpus.chunks]
    keys = [cache_key(fingerprint, text) for text in texts]
    text_of = dict(zip(keys, texts, strict=True))
    store = _CacheStore(options.cache_dir, warn, derived)
    corpus_key = hashlib.sha256("\n".join([FIT_VERSION, fingerprint, *keys]).encode()).hexdigest()
    # Fit statistics of the same model under another fit rule are not these statistics.
    fit_key = hashlib.sha256(f"{FIT_VERSION}\n{fingerprint}".encode()).hexdigest()
    encoder_files = store.encoder(corpus_key, options.reuse_encoder)
    known = store.vectors(keys)

    special = {embedder.wordpiece.cls_id, embedder.wordpiece.sep_id, embedder.wordpiece.unk_id}
    fit, delta, old_texts = None, {}, {}
    if encoder_files is None:  # refit: from the cached statistics nearest to these passages
        target = Counter(keys)
        fit = store.fit_state(fit_key, target, text_of, embedder.dim, special)
        delta = {key: target[key] - fit.passages[key] for key in target.keys() | fit.passages.keys()}
        delta = {key: times for key, times in delta.items() if times}
        old_texts = fit.texts
    # The model runs over passages whose vector is missing, and those the statistics lack or
    # must lose (their token states too); passages taken out come last, in key order.
    todo = [key for key in text_of if key not in known or key in delta]
    todo += sorted(key for key in delta if key not in text_of)
    todo_texts = [text_of[key] if key in text_of else old_texts[key] for key in todo]
    ticker = _Ticker(len(todo), options.progress)
    embedded = embedder.embed_many(todo_texts, [key in delta for key in todo])
    for done, (key, text, passage) in enumerate(zip(todo, todo_texts, embedded, strict=True), 1):
        if key not in known and key in text_of:
            known[key] = passage.vector
            store.add(key, passage.vector)
        if fit is not None and key in delta:
            assert passage.pieces is not None and passage.states is not None
            fit.change(key, text, passage.pieces, passage.states, delta[key])
        if store.due():
            store.flush(fit, fit_key)
        ticker.tick(done)
    store.finish()
    if fit is not None:
        table = fit_encoder(fit.stats)
        encoder_files = table.files() if table is not None else None
        store.save_encoder(corpus_key, encoder_files)
        store.save_fit(fit, fit_key)
    vectors = np.stack([known[key] for key in keys]).astype(np.float32, copy=False)

    if encoder_files is None:  # no token at all: nothing to search by meaning
        return {}, {}, None
    projected = project(vectors, encoder_files)
    quantized = quantize_vectors(projected)
    rows = np.frombuffer(quantized, dtype=np.int8, count=projected.size).reshape(projected.shape)
    scales = np.frombuffer(quantized, dtype="<f4", offset=projected.size).astype(np.float64)
    # What both engines score: the int8 rows as `bits`-bit codes (bundle/vector_shards.py).
    bits = options.vector_bits or BITS
    codes, code_scales = quantize_codes(rows.astype(np.float64) * scales[:, None], bits)
    stops = stop_pieces(encoder_files, embedder.wordpiece, stop_words, store.derived)
    encoder_parts, encoder_shards = split_encoder(*encoder_files)
    vocab_parts, vocab = store.vocab_shards(embedder.wordpiece)
    word_parts, words = site_word_files(texts, embedder.wordpiece, encoder_table(*encoder_files), store.dir, warn)
    files = {
        VECTORS: table_bytes(codes, code_scales, bits),
        **vocab_parts,
        **encoder_parts,
        **word_parts,
    }
    manifest: dict[str, object] = {
        "vectors": {
            "dim": int(projected.shape[1]),
            "space": "encoder-pca",
            "model": fingerprint,
            "query_levels": QUERY_LEVELS,
            "bits": bits,
            # calibrate.py; the builder writes it into the search settings both engines read
            "vector_only_threshold": vector_only_threshold(
                codes, code_scales, encoder_files, embedder.wordpiece, MAX_QUERY_PIECES, QUERY_LEVELS, stops
            ),
        },
        "encoder": {
            "kind": "static",
            "max_query_pieces": MAX_QUERY_PIECES,
            "shards": encoder_shards,
            "stop_pieces": stops,
            "vocab": vocab,
            "words": words,
        },
    }
    clustered = clustered_layout(
        rows, scales, options.vector_clusters, options.vector_probe, options.vector_bits, options.vector_cells,
        cached_kmeans(store.derived),
    )
    if clustered is not None:  # a query reads a few clusters' vectors (bundle/vector_shards.py)
        del files[VECTORS]
        del manifest["vectors"]["bits"]  # type: ignore[attr-defined]
        files.update(clustered[0])
        manifest["vectors"]["clusters"] = clustered[1]  # type: ignore[index]
    return files, manifest, clustered[2] if clustered is not None else None


def stop_pieces(
    encoder_files: tuple[bytes, bytes], wordpiece: WordPiece, stop_words: Sequence[str], derived: DerivedCache
) -> list[int]:
    """The encoder's tokens that are a stop word whole (one piece) or written in CJK (`cjk_pieces`),
    ascending: a query whose known pieces are all among them gets no vector (engine/encoder.py)."""
    tokens = set(orjson.loads(encoder_files[0])["tokens"])
    stops = {pieces[0] for pieces in map(wordpiece.pieces, stop_words) if len(pieces) == 1}
    return sorted((stops | cached_cjk_pieces(wordpiece, derived)) & tokens)


def cached_cjk_pieces(wordpiece: WordPiece, derived: DerivedCache) -> set[int]:
    """cjk_pieces, kept in the cache folder (derived_cache.py) by the vocabulary and the Unicode
    table: it scans the whole vocabulary on every build, yet depends on nothing else."""
    inputs = [wordpiece.sha256.encode(), table_file().read_bytes()]
    modules = (sys.modules[__name__], sys.modules[unicode_table.__module__])
    ids = derived.get_or_make(
        "cjk-pieces", inputs, modules, lambda: sorted(cjk_pieces(wordpiece)), orjson.dumps, _unpack_ids
    )
    return set(ids)


def _unpack_ids(payload: bytes) -> list[int]:
    ids = orjson.loads(payload)
    if not (isinstance(ids, list) and all(type(i) is int for i in ids)):
        raise ValueError("not a list of token ids")
    return ids


def cjk_pieces(wordpiece: WordPiece) -> set[int]:
    """The vocabulary's pieces made of CJK characters only (the tokenizer's table, text/tokenize.py).
    The model reads English: its states for a Chinese or Japanese character (one piece each) mean
    nothing to search by, and a query written in CJK found sections in other languages by them, below
    the keyword side's answer; the keyword side matches such a query as written (its bigrams)."""
    classes = unicode_table().classes
    found = set()
    for token, piece in wordpiece.tokenizer.get_vocab().items():
        text = token.removeprefix("##")
        if text and all(classes[ord(ch)] == CJK_CLASS for ch in text):
            found.add(piece)
    return found


#: An encoder cache entry: framed by cache_store.py; payload: the length of encoder.json (uint32),
#: encoder.json, encoder.bin. 2: cache_store's frame (1: its own).
_ENCODER_KIND, _ENCODER_VERSION = "encoder", 2
_META_LEN = struct.Struct("<I")


def pack_encoder(files: tuple[bytes, bytes]) -> bytes:
    """One encoder cache entry: encoder.json and encoder.bin, framed."""
    meta, binary = files
    return cache_store.frame(_ENCODER_KIND, _ENCODER_VERSION, _META_LEN.pack(len(meta)) + meta + binary)


def unpack_encoder(data: bytes) -> tuple[bytes, bytes]:
    """(encoder.json, encoder.bin) of an entry; ValueError saying what is wrong with it
    (cache_store.OldFormat: an entry of another version)."""
    payload = cache_store.unframe(data, _ENCODER_KIND, _ENCODER_VERSION)
    if len(payload) < _META_LEN.size:
        raise ValueError(f"{len(payload)} bytes, shorter than its header")
    (meta_len,) = _META_LEN.unpack_from(payload)
    if meta_len > len(payload) - _META_LEN.size:
        raise ValueError("encoder.json longer than the entry")
    rest = payload[_META_LEN.size :]
    return rest[:meta_len], rest[meta_len:]


class _CacheStore:
    """The cache folder as one build uses it; after a write fails, one warning and no more cache."""

    def __init__(
        self, cache_dir: Path | None, warn: Callable[[str], None], derived: DerivedCache | None = None
    ) -> None:
        self.dir, self.warn = cache_dir, warn
        self.derived = derived if derived is not None else DerivedCache(cache_dir, warn)  # off with the folder
        self.cache = EmbeddingCache(cache_dir) if cache_dir else None
        self.last_flush = time.monotonic()
        self.partial: Path | None = None  # the partial fit statistics this build wrote last
        self.partial_base: Path | None = None  # a killed build's partial statistics this one goes on from

    def _encoder_path(self, corpus_key: str) -> Path:
        assert self.dir is not None
        return self.dir / f"encoder-{corpus_key}.cache"


    def encoder(self, corpus_key: str, reuse_any: bool) -> tuple[bytes, bytes] | None:
        """The cached fit of this corpus (with `reuse_any`, else the newest fit); None: refit."""
        if self.dir is None:
            return None
        path = self._encoder_path(corpus_key)
        if reuse_any and not path.exists():
            path = next(iter(cache_store.newest(self.dir, _ENCODERS)), path)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            return unpack_encoder(data)
        except cache_store.OldFormat:  # an older plugin's entry: refitted, nothing to warn about
            return None
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
        """Remember a passage vector (written by the next `flush`)."""
        if self.cache is not None:
            self.cache.put_many({key: vector})

    def due(self) -> bool:
        """Whether FLUSH_SECONDS have passed since the last flush."""
        return time.monotonic() - self.last_flush >= FLUSH_SECONDS

    def flush(self, fit: FitState | None = None, fingerprint: str = "") -> None:
        """Write the new vectors, and `fit` as partial statistics: a killed build keeps both."""
        if self.cache is not None:
            self._write(self.cache.flush)
        if fit is not None and self.dir is not None:
            name = fit.name(fingerprint)
            if self.partial is None or self.partial.name != name:
                self._save_fit_entry(name, fit.pack_parts(fingerprint, complete=False))
        self.last_flush = time.monotonic()

    def finish(self) -> None:
        """The last flush of vectors; damaged records (warned about, recomputed) are dropped from
        the files, so the next build does not warn again."""
        self.flush()
        if self.cache is not None and self.cache.damaged:
            self._write(self.cache.compact)

    def fit_state(
        self, fingerprint: str, target: Counter[str], text_of: dict[str, str], dim: int, special: set[int]
    ) -> FitState:
        """The cached fit statistics least model work away from `target` (empty if none), maybe
        scaled by a whole factor (fit_cache.py choose_base): chosen by the entries' heads, then
        the chosen one read whole and checked (if damaged: warned about, removed, and the next
        best chosen)."""
        entries = []
        for path in cache_store.newest(self.dir, _FIT_STATS) if self.dir is not None else []:
            head = self._read_fit_entry(path, read_head)
            if head is not None and head.fingerprint == fingerprint and head.dim == dim:
                entries.append((path, head))
        sizes = {key: len(text.encode("utf-8")) for key, text in text_of.items()}
        while True:
            base = choose_base(target, sizes, [head for _, head in entries])
            if base is None:
                return FitState.empty(dim, special)
            chosen, scale = base
            path = next(path for path, head in entries if head is chosen)
            entries = [(other, head) for other, head in entries if other != path]
            entry = self._read_fit_entry(path, lambda path: unpack_entry(path.read_bytes()))
            if entry is None:
                continue
            try:
                state = FitState.load(entry, special, scale=scale)
            except ValueError as error:
                self._damaged_fit(path, error)
                continue
            self.partial_base = None if entry.complete else path
            return state

    def _read_fit_entry(self, path: Path, read: Callable[[Path], FitEntry]) -> FitEntry | None:
        try:
            return read(path)
        except OSError:  # removed meanwhile by another build: not damaged
            return None
        except cache_store.OldFormat:  # an older plugin's entry: recomputed, nothing to warn about
            return None
        except ValueError as error:
            self._damaged_fit(path, error)
            return None

    def _damaged_fit(self, path: Path, error: ValueError) -> None:
        self.warn(f"the query encoder statistics cache {path} is damaged ({error}); recomputing them")
        self._write(lambda: path.unlink(missing_ok=True))

    def save_fit(self, fit: FitState, fingerprint: str) -> None:
        """The final statistics of this build; its partial ones, and a partial base (a killed
        build's), are superseded by them."""
        if self.dir is None:
            return
        name = fit.name(fingerprint)
        self._save_fit_entry(name, fit.pack_parts(fingerprint, complete=True))
        stale = self.partial_base
        if stale is not None and stale.name != name:
            self._write(lambda: stale.unlink(missing_ok=True))

    def _save_fit_entry(self, name: str, data: list[Chunk]) -> None:
        def save() -> None:
            assert self.dir is not None
            cache_store.write_framed(self.dir / name, data)
            if self.partial is not None and self.partial.name != name:
                self.partial.unlink(missing_ok=True)
            self.partial = self.dir / name
            cache_store.prune(self.dir, _FIT_STATS, KEEP_ENCODERS)

        self._write(save)

    def save_encoder(self, corpus_key: str, files: tuple[bytes, bytes] | None) -> None:
        if self.dir is None or files is None:
            return
        path = self._encoder_path(corpus_key)

        def save() -> None:
            assert self.dir is not None
            cache_store.write_framed(path, pack_encoder(files))
            cache_store.prune(self.dir, _ENCODERS, KEEP_ENCODERS)

        self._write(save)

    def vocab_shards(self, wordpiece: WordPiece) -> vocab_cache.Shards:
        """The vocabulary's shards and manifest entry (bundle/vocab_shards.py), kept in the cache
        folder between builds (index/vocab_cache.py)."""
        path = vocab_cache.cache_file(self.dir, wordpiece) if self.dir is not None else None
        shards = vocab_cache.load(path, self.warn) if path is not None else None
        if shards is None:
            shards = split_vocab(wordpiece.vocab_text())
            if path is not None:
                self._write(lambda: self._save_vocab_shards(path, shards))
        return shards

    def _save_vocab_shards(self, path: Path, shards: vocab_cache.Shards) -> None:
        vocab_cache.save(path, shards)
        cache_store.prune(path.parent, vocab_cache.PATTERN, vocab_cache.KEEP, spare=path)

    def _write(self, action: Callable[[], None]) -> None:
        try:
            action()
        except OSError as error:
            self.warn(f"cannot write the cache folder {self.dir} ({error}); building without it")
            self.dir = self.cache = self.derived.folder = None
