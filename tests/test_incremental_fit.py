"""Incremental query encoder fits (issue 10): after an edit a build runs the model only over the
passages that changed and refits from cached statistics; a killed first build keeps its fit work;
a damaged statistics entry is a warning and is recomputed. Every bundle is compared, byte for
byte, with a clean build (no cache) of the same docs."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from conftest import EXAMPLE_SITE, VECTORS, topic_docs
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.embed import Embedded, Embedder
from mkdocs_graphsearch.index.encoder import TokenStats
from mkdocs_graphsearch.index.fit_cache import FitState, choose_base, unpack_entry
from mkdocs_graphsearch.index.passages import passage_text
from mkdocs_graphsearch.index.semantic import SemanticOptions
from mkdocs_graphsearch.parse.folder import parse_folder


class _Interrupt(Exception):
    pass


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture
def model_runs(embedder: Embedder, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Every passage the model runs over from now on: (text, token states asked for)."""
    runs: list[tuple[str, bool]] = []
    embed_many = embedder.embed_many

    def spy(texts: Sequence[str], states: bool | Sequence[bool] = False) -> Iterator[Embedded]:
        flags = [states] * len(texts) if isinstance(states, bool) else list(states)
        runs.extend(zip(texts, flags, strict=True))
        return embed_many(texts, states)

    monkeypatch.setattr(embedder, "embed_many", spy)
    return runs


def _build(embedder: Embedder, docs: Path, cache: Path | None, **options) -> tuple[dict[str, bytes], list[str]]:
    warnings: list[str] = []
    files = build_files(parse_folder(docs), semantic=SemanticOptions(embedder, cache, **options), warn=warnings.append)
    return files, warnings


def _passages(docs: Path) -> Counter[str]:
    return Counter(passage_text(chunk) for chunk in Corpus.from_pages(parse_folder(docs)).chunks)


def _forget_encoders(cache: Path) -> None:
    """Drop the fitted encoders: the next build must refit (from the statistics, if they serve)."""
    for entry in cache.glob("encoder-*.cache"):
        entry.unlink()


def test_an_edit_rebuilds_the_bytes_of_a_clean_build(
    tmp_path: Path, embedder: Embedder, model_runs: list[tuple[str, bool]]
) -> None:
    docs, cache = tmp_path / "docs", tmp_path / "cache"
    shutil.copytree(EXAMPLE_SITE / "docs", docs)
    _build(embedder, docs, cache)
    before = _passages(docs)
    page = docs / "getting-started" / "installation.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nA closing paragraph about upgrades.\n", encoding="utf-8")
    after = _passages(docs)
    model_runs.clear()
    incremental, warnings = _build(embedder, docs, cache)
    changed = (after - before) + (before - after)
    assert warnings == []
    assert 0 < len(model_runs) < 5, model_runs  # the edited section, new and old: not the site
    assert Counter(text for text, _ in model_runs) == Counter(set(changed))
    assert all(states for _, states in model_runs)
    clean, _ = _build(embedder, docs, None)
    assert incremental == clean


def _site(folder: Path, pages: dict[str, str]) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


CODE = "```python\ndef deploy(site):\n    return site.upload()\n```\n"
FIRST = {
    "index.md": "# Home\n\nWelcome to the marmoset docs.\n\n## Feeding\n\nMarmosets eat gum and insects.\n",
    "keeping.md": f"# Keeping\n\n## Enclosures\n\nA tall enclosure with branches.\n\n{CODE}\n{CODE}",
    "gone.md": "# Gone\n\nA page the second version removes.\n",
}
SECOND = {
    "index.md": FIRST["index.md"],
    "keeping.md": f"# Keeping\n\n## Enclosures\n\nA tall enclosure with branches.\n\n{CODE}\n{CODE}\n{CODE}",
    "new.md": "# New\n\nA page the second version adds, about tamarins.\n",
}


def test_pages_added_removed_and_repeated(
    tmp_path: Path, embedder: Embedder, model_runs: list[tuple[str, bool]]
) -> None:
    """Passages taken out (a removed page), put in (a new page), and a repeated code block
    repeated once more: the statistics count each chunk, as a clean build does."""
    docs, cache = tmp_path / "docs", tmp_path / "cache"
    first, _ = _build(embedder, _site(docs, FIRST), cache)
    before = _passages(docs)
    assert max(before.values()) == 2  # the repeated code block: one text, two chunks
    _site(docs, SECOND)
    after = _passages(docs)
    model_runs.clear()
    second, warnings = _build(embedder, docs, cache)
    assert warnings == []
    assert {text for text, _ in model_runs} == set((after - before) + (before - after))
    assert second == _build(embedder, docs, None)[0]
    # Back to the first version with no encoder cached: its statistics are still there, so the
    # refit runs no model at all.
    _site(docs, FIRST)
    _forget_encoders(cache)
    model_runs.clear()
    assert _build(embedder, docs, cache) == (first, [])
    assert model_runs == []


def test_a_killed_first_build_keeps_its_fit_work(
    tmp_path: Path, embedder: Embedder, model_runs: list[tuple[str, bool]], flush_each_passage: None
) -> None:
    docs, cache = topic_docs(tmp_path / "docs", "first"), tmp_path / "cache"

    def stop_midway(done: int, total: int, rate: float) -> None:
        if done == 5:
            raise _Interrupt

    with pytest.raises(_Interrupt):
        _build(embedder, docs, cache, progress=stop_midway)
    first_five = [text for text, _ in model_runs[:5]]
    (partial,) = cache.glob("fitstats-*.cache")
    assert not unpack_entry(partial.read_bytes()).complete
    model_runs.clear()
    resumed, warnings = _build(embedder, docs, cache)
    assert warnings == []
    rest = set(_passages(docs)) - set(first_five)
    assert len(rest) >= 8 and sorted(text for text, _ in model_runs) == sorted(rest)  # not the first five again
    assert resumed == _build(embedder, docs, None)[0]
    (final,) = cache.glob("fitstats-*.cache")  # the partial statistics are superseded
    assert unpack_entry(final.read_bytes()).complete


@pytest.mark.parametrize("damage", ["bit flip", "truncated", "empty"])
def test_damaged_fit_statistics_are_warned_about_and_recomputed(
    tmp_path: Path, embedder: Embedder, model_runs: list[tuple[str, bool]], damage: str
) -> None:
    docs, cache = VECTORS / "engine" / "docs", tmp_path / "cache"
    clean, _ = _build(embedder, docs, None)
    _build(embedder, docs, cache)
    (entry,) = cache.glob("fitstats-*.cache")
    data = bytearray(entry.read_bytes())
    if damage == "bit flip":
        data[len(data) // 2] ^= 0x08
    else:
        del data[len(data) // 2 if damage == "truncated" else 0 :]
    entry.write_bytes(bytes(data))
    _forget_encoders(cache)
    model_runs.clear()
    files, warnings = _build(embedder, docs, cache)
    assert files == clean
    assert len(warnings) == 1 and str(entry) in warnings[0] and "damaged" in warnings[0], warnings
    assert len(model_runs) == len(_passages(docs))  # recomputed
    _forget_encoders(cache)
    model_runs.clear()
    assert _build(embedder, docs, cache) == (clean, [])  # rewritten whole: no warning, no model
    assert model_runs == []


# --- the parts, without the model -------------------------------------------------------------


def _random_passages(seed: int, count: int, dim: int = 8) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    passages = []
    for _ in range(count):
        n = int(rng.integers(0, 40))
        passages.append((rng.integers(0, 30, n), (rng.standard_normal((n, dim)) * 3).astype(np.float32)))
    return passages


def _arrays(stats: TokenStats) -> list[bytes]:
    return [array.tobytes() for array in stats.arrays()]


def test_token_statistics_do_not_depend_on_order_and_take_a_passage_out_exactly() -> None:
    passages = _random_passages(7, 50)
    forward, backward, churned = (TokenStats(8, {0, 1}) for _ in range(3))
    for ids, states in passages:
        forward.add(ids, states)
    for ids, states in reversed(passages):
        backward.add(ids, states)
    for ids, states in _random_passages(8, 20):  # in, then out again
        churned.add(ids, states, 2)
    for ids, states in passages:
        churned.add(ids, states)
    for ids, states in _random_passages(8, 20):
        churned.add(ids, states, -2)
    assert _arrays(forward) == _arrays(backward) == _arrays(churned)
    tokens, counts, _ = forward.arrays()
    assert 0 not in tokens and 1 not in tokens and counts.min() > 0


def test_fit_state_entries_round_trip_and_name_their_passages() -> None:
    special = {0}
    state = FitState.empty(8, special)
    for i, (ids, states) in enumerate(_random_passages(3, 6)):
        state.change(f"{i:064x}", f"passage {i} \u00e9", ids, states, 1 + i % 2)
    data = state.pack("ab" * 32, complete=True)
    entry = unpack_entry(data)
    assert entry.complete and entry.fingerprint == "ab" * 32 and entry.passages == dict(state.passages)
    again = FitState.load(entry, special)
    assert again.texts == state.texts and _arrays(again.stats) == _arrays(state.stats)
    assert again.pack("ab" * 32, complete=True) == data and again.name("ab" * 32) == state.name("ab" * 32)
    with pytest.raises(ValueError, match="checksum"):
        unpack_entry(data[:-1])


def test_a_site_repeating_another_starts_from_its_statistics_scaled(
    tmp_path: Path, embedder: Embedder, model_runs: list[tuple[str, bool]]
) -> None:
    """A site of three copies of another (benchmarks/make_big_site.py: k8s-docs x8) refits from
    the other's statistics times 3: no model run, and the bundle and the statistics it writes are
    a clean build's, byte for byte."""
    once, thrice = VECTORS / "engine" / "docs", tmp_path / "docs"
    for copy in range(3):
        shutil.copytree(once, thrice / f"copy-{copy}")
    assert _passages(thrice) == Counter({text: 3 * times for text, times in _passages(once).items()})
    clean, _ = _build(embedder, thrice, tmp_path / "clean-cache")
    (clean_entry,) = (tmp_path / "clean-cache").glob("fitstats-*.cache")
    cache = tmp_path / "cache"
    _build(embedder, once, cache)
    model_runs.clear()
    assert _build(embedder, thrice, cache) == (clean, [])
    assert model_runs == []
    assert (cache / clean_entry.name).read_bytes() == clean_entry.read_bytes()


def test_an_entry_of_an_older_version_is_recomputed_without_a_warning(
    tmp_path: Path, embedder: Embedder, model_runs: list[tuple[str, bool]]
) -> None:
    """A `GSFITS1` entry (zlib-compressed, before this version) is not damage: no warning; the
    statistics are recomputed and written in this version."""
    docs, cache = VECTORS / "engine" / "docs", tmp_path / "cache"
    clean, _ = _build(embedder, docs, cache)
    (entry,) = cache.glob("fitstats-*.cache")
    entry.write_bytes(b"GSFITS1\n" + entry.read_bytes()[8:])
    _forget_encoders(cache)
    model_runs.clear()
    assert _build(embedder, docs, cache) == (clean, [])
    assert len(model_runs) == len(_passages(docs))
    assert unpack_entry(entry.read_bytes()).complete  # rewritten (same passages: same name) in this version


def test_statistics_of_another_fit_rule_are_not_reused(
    tmp_path: Path, embedder: Embedder, model_runs: list[tuple[str, bool]]
) -> None:
    """Statistics are keyed by the model and the fit rule (FIT_VERSION): an entry keyed by the
    model alone (encoder-fit-2, whose token states covered every window of a long passage) is
    never a base; the model runs over every passage again and the bundle is a clean build's."""
    docs, cache = VECTORS / "engine" / "docs", tmp_path / "cache"
    clean, _ = _build(embedder, docs, cache)
    (entry,) = cache.glob("fitstats-*.cache")
    wp = embedder.wordpiece
    state = FitState.load(unpack_entry(entry.read_bytes()), {wp.cls_id, wp.sep_id, wp.unk_id})
    entry.unlink()
    (cache / state.name(embedder.fingerprint)).write_bytes(state.pack(embedder.fingerprint, complete=True))
    _forget_encoders(cache)
    model_runs.clear()
    assert _build(embedder, docs, cache) == (clean, [])
    assert len(model_runs) == len(_passages(docs))


def test_the_base_is_the_entry_least_model_work_away() -> None:
    def entry(passages: dict[str, int]):
        state = FitState.empty(2, set())
        for key, times in passages.items():
            state.change(key, key, [], np.zeros((0, 2), np.float32), times)
        return unpack_entry(state.pack("00" * 32, complete=True))

    a, b, c = ("a" * 64, "b" * 64, "c" * 64)
    sizes = {a: 10, b: 10, c: 1000}
    target = Counter({a: 1, b: 1, c: 1})
    near, far = entry({a: 1, c: 1}), entry({a: 1, b: 2})
    assert choose_base(target, sizes, [far, near]) == (near, 1)  # only b to add
    assert choose_base(Counter({a: 1}), {a: 10}, [entry({c: 1})]) is None  # starting empty is cheaper
    # Scaled by a whole factor: x3 spares a and c (b to change), x2 b alone; a tie goes to the smaller.
    once = entry({a: 1, b: 1, c: 1})
    assert choose_base(Counter({a: 3, b: 2, c: 3}), sizes, [once]) == (once, 3)
    assert choose_base(Counter({a: 2, b: 3, c: 1}), sizes, [once]) == (once, 1)
    pair = entry({a: 1, b: 1})
    assert choose_base(Counter({a: 2, b: 3}), sizes, [pair]) == (pair, 2)
    # Never a factor that takes a multiplicity (uint32 in the entry) past 2^32 - 1.
    many = entry({a: 2**31 - 1, b: 1})
    assert choose_base(Counter({b: 2}), {b: 1000}, [many]) == (many, 2)
    assert choose_base(Counter({b: 3}), {b: 1000}, [many]) is None
