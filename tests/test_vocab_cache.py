"""The vocabulary shards kept in the cache folder (index/vocab_cache.py): a build with the cache
gives the bytes of a build without it, reads them instead of splitting the vocabulary again, and
a damaged file is one warning naming it, then made again."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import VECTORS
from mkdocs_graphsearch.bundle.vocab_shards import split_vocab
from mkdocs_graphsearch.index import vocab_cache
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.index.embed import Embedder
from mkdocs_graphsearch.index.semantic import SemanticOptions, _CacheStore
from mkdocs_graphsearch.parse.folder import parse_folder
from mkdocs_graphsearch.text.wordpiece import WordPiece, default_wordpiece

DOCS = VECTORS / "engine" / "docs"


def _fail(message: str) -> None:
    raise AssertionError(message)


def _spy_listing(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The vocabularies listed (WordPiece.vocab_text) from now on."""
    listed: list[Path] = []
    vocab_text = WordPiece.vocab_text

    def spy(self: WordPiece) -> bytes:
        listed.append(self.path)
        return vocab_text(self)

    monkeypatch.setattr(WordPiece, "vocab_text", spy)
    return listed


def test_kept_shards_are_the_shards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wordpiece = default_wordpiece()
    made = split_vocab(wordpiece.vocab_text())
    listed = _spy_listing(monkeypatch)
    assert _CacheStore(tmp_path, _fail).vocab_shards(wordpiece) == made
    assert listed == [wordpiece.path]
    (kept,) = tmp_path.glob("vocab-shards-*.cache")
    assert kept == vocab_cache.cache_file(tmp_path, wordpiece)
    shards = _CacheStore(tmp_path, _fail).vocab_shards(wordpiece)
    assert listed == [wordpiece.path]  # read back, not listed again
    assert shards == made and list(shards[0]) == list(made[0])  # the same parts in the same order


@pytest.mark.parametrize("damage", ["bit flip", "truncated", "empty", "a shard missing"])
def test_a_damaged_file_is_one_warning_and_made_again(tmp_path: Path, damage: str) -> None:
    wordpiece = default_wordpiece()
    made = _CacheStore(tmp_path, _fail).vocab_shards(wordpiece)
    path = vocab_cache.cache_file(tmp_path, wordpiece)
    data = path.read_bytes()
    if damage == "bit flip":
        data = data[:-10] + bytes([data[-10] ^ 1]) + data[-9:]
    elif damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "empty":
        data = b""
    else:  # checksummed, but not the shards' shape
        parts = dict(made[0])
        parts.popitem()
        vocab_cache.save(path, (parts, made[1]))
        data = path.read_bytes()
    path.write_bytes(data)
    warnings: list[str] = []
    assert _CacheStore(tmp_path, warnings.append).vocab_shards(wordpiece) == made
    assert len(warnings) == 1 and str(path) in warnings[0] and "damaged" in warnings[0]
    assert _CacheStore(tmp_path, _fail).vocab_shards(wordpiece) == made  # replaced


def test_another_vocabulary_is_another_file(tmp_path: Path) -> None:
    other = tmp_path / "vocab.txt"
    other.write_bytes(default_wordpiece().path.read_bytes() + b"zzzextra\n")
    folder = tmp_path / "cache"
    assert vocab_cache.cache_file(folder, WordPiece(other)) != vocab_cache.cache_file(folder, default_wordpiece())


def test_a_bundle_built_with_kept_shards_is_the_same(tmp_path: Path) -> None:
    embedder = Embedder()
    clean = build_files(parse_folder(DOCS), semantic=SemanticOptions(embedder, None), warn=_fail)
    for _ in range(2):  # the first build keeps the shards, the second reads them
        cached = build_files(parse_folder(DOCS), semantic=SemanticOptions(embedder, tmp_path), warn=_fail)
        assert cached == clean
    assert len(list(tmp_path.glob("vocab-shards-*.cache"))) == 1
