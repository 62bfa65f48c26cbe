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
from mkdocs_graphsearch.index.known_words import cached_known_words, known_words

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
    assert cached_known_words([*TERMS, "zebra"], SETTINGS, derived) == expected and len(calls) == 2
    assert cached_known_words(TERMS, {**SETTINGS, "fuzzy_min_length": 5}, derived) == expected and len(calls) == 3
    assert cached_known_words(TERMS, {**SETTINGS, "default_limit": 5}, derived) == expected and len(calls) == 3


def test_no_cache_folder_always_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)
    run = cached_kmeans(DerivedCache(None, print))
    run(_points(1), 6)
    run(_points(1), 6)
    assert counted.calls == 2
