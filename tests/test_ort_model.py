"""The model as onnxruntime optimized it, kept in the cache folder (index/ort_model.py): a session
from the kept file gives the bits of one optimized afresh, and of the graph optimized at every
level (the vectors cached before it stay valid); a kept file changed since is not run."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from mkdocs_graphsearch.index import ort_model
from mkdocs_graphsearch.index.embed import Embedder, ModelSpec
from mkdocs_graphsearch.mkdocs_plugin.site_index import semantic_options
from test_embed import _assert_same_bits, _example_passages


@pytest.fixture(scope="module")
def fresh() -> Embedder:
    """Optimized here, no cache folder."""
    return Embedder(ModelSpec(), threads=1)


def _kept(cache: Path) -> list[Path]:
    return sorted(cache.glob("ort-model-*.onnx"))


def _weights(cache: Path) -> list[Path]:
    return sorted(cache.glob("ort-weights-*.bin"))


def test_a_kept_optimized_model_is_run_with_the_same_bits(
    fresh: Embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Embedder(ModelSpec(stamp_dir=tmp_path), threads=1)
    (kept,) = _kept(tmp_path)
    (weights,) = _weights(tmp_path)
    # the weights in a file of their own, which the graph names: onnxruntime maps them
    assert kept.stat().st_size * 10 < weights.stat().st_size and weights.name.encode() in kept.read_bytes()
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.endswith(".tmp")) == []
    _assert_same_bits(first, fresh, _example_passages()[:8])

    def refuse() -> bytes:
        raise AssertionError("the model was optimized again")

    monkeypatch.setattr(ModelSpec, "runtime_model", lambda self: refuse())
    again = Embedder(ModelSpec(stamp_dir=tmp_path), threads=1)
    assert _kept(tmp_path) == [kept] and _weights(tmp_path) == [weights]
    _assert_same_bits(again, fresh, _example_passages()[:8])


@pytest.mark.parametrize("part", [_kept, _weights], ids=["graph", "weights"])
def test_a_changed_kept_model_is_optimized_again(fresh: Embedder, tmp_path: Path, part) -> None:
    Embedder(ModelSpec(stamp_dir=tmp_path), threads=1)
    (kept,) = part(tmp_path)
    data = bytearray(kept.read_bytes())
    data[len(data) // 2] ^= 1  # a weight's or the graph's bit: still a model onnxruntime may load
    kept.write_bytes(bytes(data))
    again = Embedder(ModelSpec(stamp_dir=tmp_path), threads=1)
    _assert_same_bits(again, fresh, _example_passages()[:8])
    assert any(path.read_bytes() != bytes(data) for path in part(tmp_path))


def test_the_kept_level_gives_the_bits_of_every_optimization(fresh: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cached vectors were made by sessions optimized at ORT_ENABLE_ALL: LEVEL changes no bit."""
    assert ort_model.LEVEL != "ORT_ENABLE_ALL"
    monkeypatch.setattr(ort_model, "LEVEL", "ORT_ENABLE_ALL")
    everything = Embedder(ModelSpec(), threads=1)
    _assert_same_bits(everything, fresh, _example_passages())


def test_the_key_names_the_model_and_the_runtime() -> None:
    keys = {ort_model.model_key(model, version) for model in ("a", "b") for version in ("1.0", "1.1")}
    assert len(keys) == 4


def test_a_kept_model_that_does_not_load_is_noted_then_optimized_again(fresh: Embedder, tmp_path: Path) -> None:
    Embedder(ModelSpec(stamp_dir=tmp_path), threads=1)
    (kept,) = _kept(tmp_path)
    # Bytes that hash to the sha256 in their name (so the file is taken) yet are no model.
    garbage = b"not an onnx model"
    broken = kept.with_name(f"{kept.name.rsplit('-', 1)[0]}-{hashlib.sha256(garbage).hexdigest()}.onnx")
    kept.unlink()
    broken.write_bytes(garbage)
    messages: list[str] = []
    again = Embedder(ModelSpec(stamp_dir=tmp_path), threads=1, note=messages.append)
    assert len(messages) == 1 and str(broken) in messages[0] and "optimizing it again" in messages[0]
    _assert_same_bits(again, fresh, _example_passages()[:8])
    assert any(path.read_bytes() != garbage for path in _kept(tmp_path))  # kept again, loadable


def test_the_plugin_s_notes_are_the_model_s(tmp_path: Path) -> None:
    warnings: list[str] = []
    notes: list[str] = []
    options = semantic_options({}, tmp_path, warnings.append, lambda done, total, rate: None, note=notes.append)
    assert options is not None
    options.embedder.note("a kept model does not load")
    assert notes == ["a kept model does not load"] and warnings == []


def test_a_model_kept_whole_before_the_weights_were_apart_is_removed(tmp_path: Path) -> None:
    Embedder(ModelSpec(stamp_dir=tmp_path), threads=1)
    (kept,) = _kept(tmp_path)
    whole = kept.with_name(f"{kept.name.split('-')[0]}-model-{kept.name.split('-')[2]}-{'0' * 64}.onnx")
    whole.write_bytes(b"a model as the previous release kept it")
    kept.unlink()  # optimized again: the pair is kept, the old file goes
    Embedder(ModelSpec(stamp_dir=tmp_path), threads=1)
    assert not whole.exists() and len(_kept(tmp_path)) == 1
