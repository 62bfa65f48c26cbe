"""The build cache (issue 11): damaged entries are warned about and rebuilt, an interrupted build
keeps its embeddings, an unusable cache folder is one warning and the build goes on without it.
Each build's bundle is compared with a clean build's: a bad cache never changes a byte."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLE_SITE, VECTORS, topic_docs
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.index.embed import Embedder
from mkdocs_graphsearch.index.embed_cache import EmbeddingCache
from mkdocs_graphsearch.index.semantic import SemanticOptions, unpack_encoder
from mkdocs_graphsearch.parse.folder import parse_folder

DOCS = VECTORS / "engine" / "docs"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture(scope="module")
def clean(embedder: Embedder) -> dict[str, bytes]:
    """The bundle of a build without any cache."""
    return build_files(parse_folder(DOCS), semantic=SemanticOptions(embedder, None), warn=_fail)


def _fail(message: str) -> None:
    raise AssertionError(message)


def _build(embedder: Embedder, cache: Path | None, docs: Path = DOCS, **options) -> tuple[dict[str, bytes], list[str]]:
    warnings: list[str] = []
    files = build_files(parse_folder(docs), semantic=SemanticOptions(embedder, cache, **options), warn=warnings.append)
    return files, warnings


def _damaged_records(cache: Path) -> int:
    """Records a fresh read of the cache ignores (it reads on first use: len() makes it)."""
    store = EmbeddingCache(cache)
    len(store)
    return store.corrupt_records


def _encoder_entry(cache: Path) -> Path:
    (entry,) = cache.glob("encoder-*.cache")
    return entry


@pytest.mark.parametrize("damage", ["bit flip", "truncated", "empty"])
def test_damaged_encoder_cache_is_warned_about_and_refitted(
    tmp_path: Path, embedder: Embedder, clean: dict[str, bytes], damage: str
) -> None:
    cache = tmp_path / "cache"
    assert _build(embedder, cache) == (clean, [])
    entry = _encoder_entry(cache)
    data = bytearray(entry.read_bytes())
    if damage == "bit flip":
        data[len(data) // 2] ^= 0x04
    else:
        del data[len(data) // 2 if damage == "truncated" else 0 :]
    entry.write_bytes(bytes(data))
    files, warnings = _build(embedder, cache)
    assert files == clean
    assert len(warnings) == 1 and str(entry) in warnings[0] and "damaged" in warnings[0], warnings
    unpack_encoder(_encoder_entry(cache).read_bytes())  # rewritten whole
    assert _build(embedder, cache) == (clean, [])


def test_damaged_encoder_cache_reused_by_serve_is_refitted(
    tmp_path: Path, embedder: Embedder, clean: dict[str, bytes]
) -> None:
    cache = tmp_path / "cache"
    _build(embedder, cache)
    entry = _encoder_entry(cache)
    entry.write_bytes(entry.read_bytes()[:-1])
    files, warnings = _build(embedder, cache, reuse_encoder=True)
    assert files == clean and len(warnings) == 1 and str(entry) in warnings[0]


def test_damaged_vector_records_are_warned_about_and_recomputed(
    tmp_path: Path, embedder: Embedder, clean: dict[str, bytes]
) -> None:
    cache = tmp_path / "cache"
    _build(embedder, cache)
    (vectors,) = cache.glob("vectors-f32-*.bin")
    data = bytearray(vectors.read_bytes())
    data[100] ^= 0x10
    vectors.write_bytes(bytes(data))
    files, warnings = _build(embedder, cache)
    assert files == clean
    assert len(warnings) == 1 and str(vectors) in warnings[0], warnings
    assert _damaged_records(cache) == 0  # the damaged record is gone: no warning again
    assert _build(embedder, cache) == (clean, [])


def test_a_file_where_the_cache_folder_should_be(tmp_path: Path, embedder: Embedder, clean: dict[str, bytes]) -> None:
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    files, warnings = _build(embedder, cache)
    assert files == clean
    assert len(warnings) == 1 and str(cache) in warnings[0] and "without it" in warnings[0], warnings
    assert cache.read_text() == "not a folder"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs file permissions that apply")
def test_a_read_only_cache_folder(tmp_path: Path, embedder: Embedder, clean: dict[str, bytes]) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o555)
    try:
        files, warnings = _build(embedder, cache)
    finally:
        cache.chmod(0o755)
    assert files == clean
    assert len(warnings) == 1 and str(cache) in warnings[0], warnings


def test_a_read_only_cache_folder_by_failing_writes(
    tmp_path: Path, embedder: Embedder, clean: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same as the test above wherever permissions don't apply (root): every write refused."""
    import mkdocs_graphsearch.index.embed_cache as ec

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    cache = tmp_path / "cache"
    cache.mkdir()
    from mkdocs_graphsearch.files import cache_store

    monkeypatch.setattr(ec, "write_atomic", refuse)
    monkeypatch.setattr(cache_store, "write_atomic", refuse)
    monkeypatch.setattr(EmbeddingCache, "_append", refuse)
    files, warnings = _build(embedder, cache)
    assert files == clean
    assert len(warnings) == 1 and str(cache) in warnings[0], warnings
    assert list(cache.iterdir()) == []


class _Interrupt(Exception):
    pass


def test_an_interrupted_build_keeps_its_embeddings(
    tmp_path: Path, embedder: Embedder, flush_each_passage: None
) -> None:
    docs = topic_docs(tmp_path / "docs", "first")
    cache = tmp_path / "cache"
    _build(embedder, cache, docs)  # the site's encoder is fitted and cached
    topic_docs(docs, "second")  # every passage changed: `mkdocs serve` embeds them all
    untouched = tmp_path / "untouched"
    shutil.copytree(cache, untouched)

    def stop_midway(done: int, total: int, rate: float) -> None:
        if done == 5:
            raise _Interrupt

    with pytest.raises(_Interrupt):
        _build(embedder, cache, docs, reuse_encoder=True, progress=stop_midway)
    totals: list[int] = []
    resumed, warnings = _build(embedder, cache, docs, reuse_encoder=True, progress=lambda d, t, r: totals.append(t))
    clean_totals: list[int] = []
    clean, _ = _build(embedder, untouched, docs, reuse_encoder=True, progress=lambda d, t, r: clean_totals.append(t))
    assert warnings == []
    assert clean_totals[-1] >= 12 and totals[-1] == clean_totals[-1] - 5  # the 5 flushed are reused
    assert resumed == clean


def test_an_interrupted_first_build_flushes_what_it_embedded(
    tmp_path: Path, embedder: Embedder, flush_each_passage: None
) -> None:
    docs = topic_docs(tmp_path / "docs", "first")
    cache = tmp_path / "cache"

    def stop_midway(done: int, total: int, rate: float) -> None:
        if done == 4:
            raise _Interrupt

    with pytest.raises(_Interrupt):
        _build(embedder, cache, docs, progress=stop_midway)
    assert len(EmbeddingCache(cache)) == 4 and not list(cache.glob("encoder-*"))
    clean, _ = _build(embedder, None, docs)
    assert _build(embedder, cache, docs) == (clean, [])


def test_a_first_build_flushes_every_flush_seconds(
    tmp_path: Path, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real FLUSH_SECONDS (30 s), on a clock that moves 10 s a passage: the vectors reach the
    disk every 3 passages while embedding, not only at the end."""
    from types import SimpleNamespace

    import mkdocs_graphsearch.index.semantic as semantic

    clock = [0.0]
    monkeypatch.setattr(semantic, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    monkeypatch.setattr(semantic, "PROGRESS_SECONDS", 0.0)
    appended: list[int] = []
    append = EmbeddingCache._append

    def counted(self: EmbeddingCache, dim: int, keys: list[bytes]) -> None:
        appended.append(len(keys))
        append(self, dim, keys)

    monkeypatch.setattr(EmbeddingCache, "_append", counted)

    def tick(done: int, total: int, rate: float) -> None:
        clock[0] += 10.0

    docs = topic_docs(tmp_path / "docs", "first")
    _build(embedder, tmp_path / "cache", docs, progress=tick)
    assert semantic.FLUSH_SECONDS == 30.0
    # At 30 s the 4th passage is added and flushed with the 3 before it, then every 3rd, the rest at the end.
    assert appended[0] == 4 and set(appended[1:-1]) == {3} and 1 <= appended[-1] <= 3, appended
    assert sum(appended) == len(EmbeddingCache(tmp_path / "cache"))


def test_sites_sharing_a_cache_keep_their_encoders(tmp_path: Path, embedder: Embedder) -> None:
    cache = tmp_path / "cache"
    one, two = topic_docs(tmp_path / "one", "first"), topic_docs(tmp_path / "two", "second")
    first, _ = _build(embedder, cache, one)
    _build(embedder, cache, two)
    fits: list[int] = []
    again, _ = _build(embedder, cache, one, progress=lambda d, t, r: fits.append(t))
    assert again == first and fits == [], "the first site's encoder was refitted"
    assert len(list(cache.glob("encoder-*.cache"))) == 2


# --- the two front doors: `graphsearch index` and the MkDocs plugin ---------------------------


def test_cli_index_with_a_file_for_a_cache_folder(tmp_path: Path, clean: dict[str, bytes]) -> None:
    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    out = tmp_path / "bundle"
    command = ["index", str(DOCS), "--out", str(out), "--cache-dir", str(cache)]
    done = subprocess.run([sys.executable, "-m", "mkdocs_graphsearch.commands.cli", *command], capture_output=True)
    stderr = done.stderr.decode()
    assert done.returncode == 0, stderr
    assert stderr.count("warning:") == 1 and str(cache) in stderr and "Traceback" not in stderr, stderr
    assert {name: (out / name).read_bytes() for name in clean} == clean


def test_plugin_with_a_file_for_a_cache_folder(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    cache = tmp_path / "cache"
    cache.write_text("not a folder")
    plugin = {"graphsearch": {"embeddings": False, "cache_dir": str(cache)}}
    site = tmp_path / "site"
    config = load_config(config_file=str(EXAMPLE_SITE / "mkdocs.yml"), site_dir=str(site), plugins=[plugin])
    with caplog.at_level(logging.WARNING):
        build(config)
    ours = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "graphsearch" in r.name]
    assert len(ours) == 1 and str(cache) in ours[0], ours
    assert load_bundle(site).texts


def test_plugin_when_the_page_state_cannot_be_saved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk under the cache folder mid-build: one warning naming the state file, not an error."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    import mkdocs_graphsearch.mkdocs_plugin.site_pages as site_pages

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(site_pages, "save_pages", disk_full)
    plugin = {"graphsearch": {"embeddings": False, "cache_dir": str(tmp_path / "cache")}}
    site = tmp_path / "site"
    config = load_config(config_file=str(EXAMPLE_SITE / "mkdocs.yml"), site_dir=str(site), plugins=[plugin])
    with caplog.at_level(logging.WARNING):
        build(config)
    ours = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "graphsearch" in r.name]
    assert len(ours) == 1 and str(tmp_path / "cache") in ours[0] and "page state" in ours[0], ours
    assert load_bundle(site).texts


def test_two_builds_sharing_a_cache_at_once(tmp_path: Path, embedder: Embedder, clean: dict[str, bytes]) -> None:
    """Cold, then warm: each build sees a whole encoder entry or none, never a torn one."""
    from concurrent.futures import ThreadPoolExecutor

    cache = tmp_path / "cache"
    for _ in range(2):
        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda e: _build(e, cache), [embedder, Embedder(threads=1)]))
        assert results == [(clean, []), (clean, [])]
    assert len(list(cache.glob("encoder-*.cache"))) == 1 and not list(cache.glob(".tmp-*"))
    assert _damaged_records(cache) == 0
