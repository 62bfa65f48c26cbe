"""Results of pure build steps kept between builds (index/derived_cache.py): the vectors' k-means
and the known-word list are reused by a build with the same inputs, recomputed for other inputs,
and a damaged entry is one warning, then recomputed: never a different bundle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mkdocs_graphsearch.index import kmeans as kmeans_module
from mkdocs_graphsearch.index.derived_cache import DerivedCache
from mkdocs_graphsearch.index.kmeans import cached_kmeans, spherical_kmeans
from mkdocs_graphsearch.index.known_words import cached_known_words, known_words, known_words_since

SETTINGS = {"fuzzy_min_length": 4, "fuzzy_long_length": 8, "default_limit": 10}
TERMS = sorted(["reed", "paste", "servr", "configuration"])


def _points(seed: int, n: int = 60, dim: int = 8) -> np.ndarray:
    points = np.random.default_rng(seed).normal(size=(n, dim))
    unit: np.ndarray = points / np.linalg.norm(points, axis=1)[:, None]
    return unit


class Counted:
    """spherical_kmeans, counting its calls through the module (what cached_kmeans calls)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        monkeypatch.setattr(kmeans_module, "spherical_kmeans", self)

    def __call__(self, points: np.ndarray, clusters: int) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        return spherical_kmeans(points, clusters)


def _same(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> bool:
    return a[0].tobytes() == b[0].tobytes() and a[1].tobytes() == b[1].tobytes() and a[1].dtype == b[1].dtype


def test_kmeans_is_reused_for_the_same_points_and_recomputed_for_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected, other = spherical_kmeans(_points(1), 6), spherical_kmeans(_points(2), 6)
    counted = Counted(monkeypatch)
    warnings: list[str] = []
    run = cached_kmeans(DerivedCache(tmp_path, warnings.append))
    assert _same(run(_points(1), 6), expected) and counted.calls == 1
    assert _same(run(_points(1), 6), expected) and counted.calls == 1  # kept: not run again
    assert _same(run(_points(2), 6), other) and counted.calls == 2  # other points
    assert _same(run(_points(1), 5), spherical_kmeans(_points(1), 5)) and counted.calls == 3  # other k
    assert warnings == []


def test_a_damaged_entry_is_warned_about_and_recomputed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = spherical_kmeans(_points(1), 6)
    counted = Counted(monkeypatch)
    warnings: list[str] = []
    cached_kmeans(DerivedCache(tmp_path, warnings.append))(_points(1), 6)
    (entry,) = tmp_path.glob("derived-kmeans-*.cache")
    data = bytearray(entry.read_bytes())
    data[-3] ^= 0x40
    entry.write_bytes(bytes(data))
    assert _same(cached_kmeans(DerivedCache(tmp_path, warnings.append))(_points(1), 6), expected)
    assert counted.calls == 2
    assert len(warnings) == 1 and str(entry) in warnings[0], warnings
    assert _same(cached_kmeans(DerivedCache(tmp_path, warnings.append))(_points(1), 6), expected)
    assert counted.calls == 2 and len(warnings) == 1  # the entry was replaced


def test_known_words_are_reused_for_the_same_terms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_graphsearch.index import known_words as module

    expected = known_words(TERMS, SETTINGS)
    assert "read" in expected  # `reed` is one edit from the English word
    calls: list[list[str]] = []
    monkeypatch.setattr(module, "known_words", lambda terms, settings: calls.append(terms) or expected)
    derived = DerivedCache(tmp_path, print)
    assert cached_known_words(TERMS, SETTINGS, derived) == expected and len(calls) == 1
    assert cached_known_words(TERMS, SETTINGS, derived) == expected and len(calls) == 1
    assert cached_known_words(TERMS, {**SETTINGS, "default_limit": 5}, derived) == expected and len(calls) == 1
    assert cached_known_words(TERMS, {**SETTINGS, "fuzzy_min_length": 5}, derived) == expected and len(calls) == 2


def test_no_cache_folder_always_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)
    run = cached_kmeans(DerivedCache(None, print))
    run(_points(1), 6)
    run(_points(1), 6)
    assert counted.calls == 2


def _site_terms() -> list[str]:
    from conftest import EXAMPLE_SITE
    from mkdocs_graphsearch.index.bm25 import build_keyword_index
    from mkdocs_graphsearch.index.corpus import Corpus
    from mkdocs_graphsearch.parse.folder import parse_folder

    return build_keyword_index(Corpus.from_pages(parse_folder(EXAMPLE_SITE / "docs"))).terms


def test_known_words_since_an_edit_are_known_words() -> None:
    """Updating the last answer for a few terms more or fewer gives known_words' answer exactly."""
    from mkdocs_graphsearch.bundle.settings import SearchSettings

    settings = SearchSettings().to_json()
    terms = _site_terms()
    before = known_words(terms, settings)
    rng = np.random.default_rng(7)
    gone = {str(t) for t in rng.choice(terms, size=8, replace=False)} | {"read", "paste"}
    came = ["reed", "bred", "servr", "colour", "tabel", "pasta", "deploy", "xylophone"]
    for after in (sorted(set(terms) - gone), sorted(set(terms) | set(came)), sorted((set(terms) - gone) | set(came))):
        assert known_words_since(terms, before, after, settings) == known_words(after, settings)
        assert known_words_since(after, known_words(after, settings), terms, settings) == before
    assert known_words_since(terms, before, came, settings) is None  # too much changed: recomputed


def test_an_edit_updates_the_kept_known_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_graphsearch.bundle.settings import SearchSettings
    from mkdocs_graphsearch.index import known_words as module

    settings = SearchSettings().to_json()
    terms = _site_terms()
    edited = sorted({*terms, "reed"} - {terms[3]})
    derived = DerivedCache(tmp_path, print)
    assert cached_known_words(terms, settings, derived) == known_words(terms, settings)
    monkeypatch.setattr(module, "known_words", lambda *args: pytest.fail("recomputed from scratch"))
    assert cached_known_words(edited, settings, derived) == known_words(edited, settings)
