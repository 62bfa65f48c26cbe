"""A half-typed identifier is a lookup of what it completes to (engine/fuse.py, keyword.py
`typed_tokens`): `dead_let` answers as `dead_letter_queue` does, in both modes, where before it
fell back to plain fusion and sections found by meaning came first."""

from __future__ import annotations

import pytest

from conftest import EXAMPLE_SITE, build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.engine.search import search


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    return load_bundle(build_bundle_dir(tmp_path_factory.mktemp("typed"), EXAMPLE_SITE / "docs", embeddings=True))


def first(bundle: Bundle, query: str, mode: str) -> str:
    return str(search(bundle, query, mode=mode)["results"][0]["sections"][0]["id"])


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
@pytest.mark.parametrize(
    ("typed", "whole"),
    [("dead_let", "dead_letter_queue"), ("visibility_ti", "visibility_timeout"), ("TimeoutSto", "TimeoutStopSec")],
)
def test_a_half_typed_identifier_answers_as_the_whole(bundle: Bundle, mode: str, typed: str, whole: str) -> None:
    assert first(bundle, typed, mode) == first(bundle, whole, mode)


def test_the_whole_compound_being_typed_is_matched_as_a_prefix(bundle: Bundle) -> None:
    # `dead_let` matches `dead_letter_queue` whole (as a prefix), not only its parts `dead` and `let*`.
    output = search(bundle, "dead_let", mode="keyword", explain=True)
    assert output["results"][0]["sections"][0]["id"] == "reference/configuration.md::dead_letter_queue"


def test_a_finished_word_is_not_completed(bundle: Bundle) -> None:
    # `jitter` is a term: it covers by itself only, never by `jitter_*` completions.
    assert first(bundle, "jitter", "hybrid") == first(bundle, "jitter ", "hybrid")
