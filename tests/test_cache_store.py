"""The one framing of the cache folder (files/cache_store.py): frames, their checks, pruning, and
the files of older cache formats, ignored by every reader and removed with one info line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.files.atomic import write_atomic
from mkdocs_graphsearch.index import vocab_cache
from mkdocs_graphsearch.index.embed_cache import EmbeddingCache, cache_key
from mkdocs_graphsearch.index.token_cache import TokenCache
from mkdocs_graphsearch.mkdocs_plugin.page_state import load_pages
from mkdocs_graphsearch.mkdocs_plugin.source_facts import load_facts

#: One file of each cache as the plugin wrote it before cache_store.py (name, first bytes).
OLD_FILES = {
    "vectors-f32-4.bin": b"GSEMBC1\n\x04\x00\x00\x00\x00\x00\x00\x00",
    "fitstats-ab.cache": b"GSFITS2\n" + b"\x00" * 40,
    "encoder-ab.cache": b"GSENCC1\n" + b"\x00" * 40,
    "vocab-shards-ab.cache": b"GSVOCAB1\n" + b"0" * 64 + b"\n{}",
    "keyword-tokens-ab.cache": b"GSKWTK1\n" + b"0" * 64 + b"\n{}",
    "source-facts-ab.cache": b"GSSRCF1\n" + b"0" * 64 + b"\n{}",
    "pages-ab.json": b'{"version": 4, "pages": {}}',
    "model-stamp-ab.json": b'{"version": 1}',
    "encoder-cd.json": b"{}",
    "runtime-ab.cache": b"GSRUNTIME1\n" + b"0" * 64 + b"\n{}",
}


def _fail(message: str) -> None:
    raise AssertionError(message)


def test_a_frame_written_in_pieces_is_the_frame_of_their_bytes(tmp_path: Path) -> None:
    pieces = [b"pay", memoryview(b"lo"), bytearray(b"ad")]
    cache_store.write_framed(tmp_path / "a.cache", cache_store.frame_parts("pages", 3, pieces))
    assert (tmp_path / "a.cache").read_bytes() == cache_store.frame("pages", 3, b"payload")
    assert bytes(cache_store.unframe_view((tmp_path / "a.cache").read_bytes(), "pages", 3)) == b"payload"
    for data in (bytearray(b"whole"), memoryview(b"whole"), b"whole"):
        write_atomic(tmp_path / "b.bin", data)
        assert (tmp_path / "b.bin").read_bytes() == b"whole"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.cache", "b.bin"]  # no temporaries left


def test_a_frame_gives_back_its_payload_and_refuses_damage() -> None:
    data = cache_store.frame("pages", 3, b"payload")
    assert cache_store.unframe(data, "pages", 3) == b"payload"
    with pytest.raises(ValueError, match="checksum"):
        cache_store.unframe(data[:-1], "pages", 3)
    assert cache_store.unframe(data[:-1], "pages", 3, checked=False) == b"payloa"
    with pytest.raises(cache_store.OldFormat):
        cache_store.unframe(data, "pages", 4)
    cut_in_identity = data[: cache_store.IDENTITY_SIZE - 1]
    for damaged in (b"", b"garbage", cache_store.frame("fitstats", 3, b"payload"), cut_in_identity):
        with pytest.raises(ValueError) as error:
            cache_store.unframe(damaged, "pages", 3)
        assert not isinstance(error.value, cache_store.OldFormat)


@pytest.mark.parametrize("name", sorted(name for name, data in OLD_FILES.items() if data.startswith(b"GS")))
def test_a_file_of_an_older_framing_is_old_not_damaged(name: str) -> None:
    with pytest.raises(cache_store.OldFormat):
        cache_store.check_identity(OLD_FILES[name], "pages", 3)


def test_old_cache_files_are_removed_with_one_info_line(tmp_path: Path) -> None:
    for name, data in OLD_FILES.items():
        (tmp_path / name).write_bytes(data)
    current = tmp_path / "pages-cd.cache"
    current.write_bytes(cache_store.frame("pages", 5, b"{}"))
    foreign = tmp_path / "notes.txt"  # not a cache file: not ours to judge
    foreign.write_bytes(b"GSEMBC1\n")
    lines: list[str] = []
    assert cache_store.usable_folder(tmp_path, _fail, lines.append) == tmp_path
    assert len(lines) == 1 and str(tmp_path) in lines[0] and f"{len(OLD_FILES)} cache file" in lines[0], lines
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt", "pages-cd.cache"]
    assert cache_store.usable_folder(tmp_path, _fail, lines.append) == tmp_path
    assert len(lines) == 1  # nothing old left: no second line


def test_every_reader_skips_an_old_file_without_a_warning(tmp_path: Path) -> None:
    """Where the folder was not swept (a file older than this build): silent, recomputed."""
    tokens = tmp_path / "keyword-tokens-ab.cache"
    tokens.write_bytes(OLD_FILES["keyword-tokens-ab.cache"])
    TokenCache(tokens, _fail)
    facts = tmp_path / "source-facts-ab.cache"
    facts.write_bytes(OLD_FILES["source-facts-ab.cache"])
    assert load_facts(facts, _fail) == {}
    vocab = tmp_path / "vocab-shards-ab.cache"
    vocab.write_bytes(OLD_FILES["vocab-shards-ab.cache"])
    assert vocab_cache.load(vocab, _fail) is None
    pages = tmp_path / "pages-ab.cache"
    pages.write_bytes(cache_store.frame("pages", 1, b"{}"))
    assert load_pages(pages, 3, _fail) == {}
    (tmp_path / "vectors-f32-4.bin").write_bytes(OLD_FILES["vectors-f32-4.bin"] + b"\x00" * 52)
    vectors = EmbeddingCache(tmp_path)
    assert vectors.get_many([cache_key("m", "a")]) == {} and vectors.corrupt_records == 0


def test_prune_keeps_the_newest_and_the_spared(tmp_path: Path) -> None:
    paths = [tmp_path / f"fitstats-{i}.cache" for i in range(5)]
    for age, path in enumerate(paths):
        path.write_bytes(b"x")
        os.utime(path, ns=(0, 10**9 * (100 - age)))  # fitstats-0 is the newest
    assert cache_store.newest(tmp_path, "fitstats-*.cache") == paths
    cache_store.prune(tmp_path, "fitstats-*.cache", 2, spare=paths[4])
    assert sorted(tmp_path.iterdir()) == [paths[0], paths[1], paths[4]]


def test_a_build_over_an_old_cache_folder_logs_one_line_and_builds_the_same_bundle(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The plugin opens its cache folder once per build: the old files go with one info line, no
    warning, and the bundle is the bundle of a build without them."""
    import logging
    import shutil

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from conftest import EXAMPLE_SITE

    project = tmp_path / "site"
    shutil.copytree(EXAMPLE_SITE, project, ignore=shutil.ignore_patterns(".cache", "site"))

    def built(cache: Path) -> dict[str, bytes]:
        options = {"cache_dir": str(cache), "embeddings": False}
        site = tmp_path / f"out-{cache.name}"
        config = load_config(
            config_file=str(project / "mkdocs.yml"), site_dir=str(site), plugins=[{"graphsearch": options}]
        )
        build(config)
        parts = sorted((site / "search").rglob("*"))
        return {path.relative_to(site).as_posix(): path.read_bytes() for path in parts if path.is_file()}

    old = tmp_path / "old"
    old.mkdir()
    for name, data in OLD_FILES.items():
        (old / name).write_bytes(data)
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        files = built(old)
    ours = [r for r in caplog.records if "graphsearch" in r.name and r.levelno >= logging.INFO]
    assert [r for r in ours if r.levelno >= logging.WARNING] == []
    assert len([r for r in ours if "older format" in r.getMessage()]) == 1
    assert files == built(tmp_path / "fresh")
    assert not any((old / name).exists() for name in OLD_FILES)
