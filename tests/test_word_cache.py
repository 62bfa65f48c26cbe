"""The passages' words kept between builds (index/word_cache.py) and the vocabulary's CJK pieces
(index/semantic.py cached_cjk_pieces): the same word files and stop pieces with the cache, without
it, after an edit and from a damaged file; only the passages an edit changed are cut again."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from mkdocs_graphsearch.bundle import word_rows
from mkdocs_graphsearch.bundle.word_rows import passage_words, split_words
from mkdocs_graphsearch.index import word_cache
from mkdocs_graphsearch.index.derived_cache import DerivedCache
from mkdocs_graphsearch.index.semantic import cached_cjk_pieces, cjk_pieces
from mkdocs_graphsearch.index.word_cache import site_word_files
from mkdocs_graphsearch.text.wordpiece import MAX_INPUT_CHARS_PER_WORD, WordPiece, default_wordpiece

TEXTS = [
    "Install MkDocs with pip, then run mkdocs serve.",
    "The configuration file is mkdocs.yml; its nav lists the pages.",
    "Install MkDocs with pip, then run mkdocs serve.",  # a passage said twice counts twice
    "Ünïcode wörds and a " + "x" * (MAX_INPUT_CHARS_PER_WORD + 1) + " too long to look up.",
]


def _table(wordpiece: WordPiece) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Rows for a few pieces of the texts (a real table's shape, made-up values)."""
    tokens = sorted({p for text in TEXTS for p in wordpiece.pieces(text)})[::3]
    weights = np.linspace(0.5, 1.5, len(tokens)).astype("<f4")
    rows = (np.arange(len(tokens) * 4) % 200 - 100).astype(np.int8).reshape(len(tokens), 4)
    return tokens, weights, rows


def _uncached(texts: list[str], wordpiece: WordPiece) -> tuple[dict[str, bytes], dict[str, int]]:
    """The word files as a build without any cache makes them."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(passage_words(text, wordpiece))
    return split_words(counts, wordpiece.pieces_batch, _table(wordpiece))


class CountedWords:
    """passage_words, counting the passages it cuts (what word_cache calls)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        monkeypatch.setattr(word_cache, "passage_words", self)

    def __call__(self, text: str, wordpiece: WordPiece) -> Counter[str]:
        self.texts.append(text)
        return word_rows.passage_words(text, wordpiece)


def test_the_cache_gives_the_files_a_build_without_it_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wordpiece = default_wordpiece()
    table, warnings = _table(wordpiece), []
    assert site_word_files(TEXTS, wordpiece, table, None, warnings.append) == _uncached(TEXTS, wordpiece)
    first = site_word_files(TEXTS, wordpiece, table, tmp_path, warnings.append)
    assert first == _uncached(TEXTS, wordpiece)
    assert len(list(tmp_path.glob(word_cache.PATTERN))) == 1
    counted = CountedWords(monkeypatch)
    assert site_word_files(TEXTS, wordpiece, table, tmp_path, warnings.append) == first
    assert counted.texts == []  # every passage from the cache
    edited = [*TEXTS[:1], TEXTS[1] + " A paragraph about themes.", *TEXTS[2:]]
    assert site_word_files(edited, wordpiece, table, tmp_path, warnings.append) == _uncached(edited, wordpiece)
    assert counted.texts == [edited[1]]  # only the edited passage is cut again
    assert warnings == []


def test_a_damaged_cache_is_one_warning_then_the_same_files(tmp_path: Path) -> None:
    wordpiece = default_wordpiece()
    table, warnings = _table(wordpiece), []
    site_word_files(TEXTS, wordpiece, table, tmp_path, warnings.append)
    (path,) = tmp_path.glob(word_cache.PATTERN)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    assert site_word_files(TEXTS, wordpiece, table, tmp_path, warnings.append) == _uncached(TEXTS, wordpiece)
    assert len(warnings) == 1 and str(path) in warnings[0]
    assert site_word_files(TEXTS, wordpiece, table, tmp_path, warnings.append) == _uncached(TEXTS, wordpiece)
    assert len(warnings) == 1  # the file was replaced


def test_cjk_pieces_come_back_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wordpiece, warnings = default_wordpiece(), []
    expected = cjk_pieces(wordpiece)
    assert expected  # the shipped vocabulary has CJK pieces
    assert cached_cjk_pieces(wordpiece, DerivedCache(None, warnings.append)) == expected
    assert cached_cjk_pieces(wordpiece, DerivedCache(tmp_path, warnings.append)) == expected
    from mkdocs_graphsearch.index import semantic

    monkeypatch.setattr(semantic, "cjk_pieces", lambda wordpiece: pytest.fail("scanned the vocabulary again"))
    assert cached_cjk_pieces(wordpiece, DerivedCache(tmp_path, warnings.append)) == expected
    assert warnings == []
