"""Typo matching that knows when not to (issue 22): known words are never typos, short tokens
keep their first letter, a query of typos alone needs a strong one. The rules are pinned for
both engines by tests/vectors/fuzzy.json and the parity suite; this checks them end to end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.known_words import english_words, known_words
from mkdocs_graphsearch.text.wordpiece import DEFAULT_VOCAB

SETTINGS = SearchSettings().to_json()


def test_known_words_are_the_list_words_one_edit_from_a_term() -> None:
    words = known_words(["paste", "stores", "read", "relationship"], SETTINGS)
    assert {"pasta", "scores"} <= set(words)
    assert "bread" not in words  # no typo of `read`: a short token keeps its first letter
    assert "paste" not in words and "stores" not in words  # terms of the site are no typos
    assert words == sorted(words) and set(words) <= set(english_words(SETTINGS["fuzzy_min_length"]))


def test_the_word_list_is_the_vocabularys_lowercase_lines() -> None:
    lines = DEFAULT_VOCAB.read_text(encoding="utf-8").splitlines()
    for length in (1, SETTINGS["fuzzy_min_length"]):
        words = tuple(line for line in lines if len(line) >= length and re.fullmatch("[a-z]+", line))
        assert english_words(length) == words and len(words) > 10_000


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    docs = tmp_path_factory.mktemp("docs")
    (docs / "index.md").write_text(
        "# Clipboard\n\nCopy and paste rows. Each relationship between tables is read from stores.\n"
        "\n## Timeouts\n\nSet `visibility_timeout` to the longest a job may run.\n",
        encoding="utf-8",
    )
    return load_bundle(build_bundle_dir(tmp_path_factory.mktemp("bundle"), docs, embeddings=False))


def pages(bundle: Bundle, query: str) -> list[str]:
    return [result["page"] for result in search(bundle, query, mode="keyword")["results"]]


@pytest.mark.parametrize("query", ["pasta", "banana bread", "football scores", "imeout"])
def test_no_answer_through_a_word_that_is_no_typo(bundle: Bundle, query: str) -> None:
    assert pages(bundle, query) == []


@pytest.mark.parametrize("query", ["relatinship", "visiblity_timout", "timout", "copy pastte"])
def test_real_typos_still_land(bundle: Bundle, query: str) -> None:
    assert pages(bundle, query) == ["index.md"]


def test_a_weak_typo_counts_beside_a_sure_match(bundle: Bundle) -> None:
    """`visiblty` (8 letters, two edits from `visibility`) is no strong typo: alone it answers
    nothing, beside a word that matches it still adds its score."""
    assert pages(bundle, "visiblty") == []
    alone = search(bundle, "timeout", mode="keyword")["results"][0]["score"]
    assert search(bundle, "timeout visiblty", mode="keyword")["results"][0]["score"] > alone


def test_the_bundle_lists_its_known_words(bundle: Bundle) -> None:
    assert {"pasta", "scores"} <= bundle.known_words and "paste" not in bundle.known_words


def test_format_1_bundle_reads_without_known_words(tmp_path: Path) -> None:
    """terms.json without `words` (older bundles): no known words, typo matching as before."""
    frozen = load_bundle(Path(__file__).parent / "vectors" / "engine" / "bundle")
    assert frozen.known_words == frozenset()
