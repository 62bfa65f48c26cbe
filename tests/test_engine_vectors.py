"""The frozen bundle in tests/vectors/engine/ still loads and gives the pinned answers
(js/test/engine.test.js checks the JS runtime against the same cases); the frozen format-1 bundle
(bundle-format-1/) is refused, naming its version."""

from __future__ import annotations

import orjson
import pytest

from conftest import VECTORS
from mkdocs_graphsearch.bundle.format import FORMAT_VERSION, MIN_FORMAT_VERSION, BundleError
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search
from parity import first_difference

ENGINE = VECTORS / "engine"
CASES = orjson.loads((ENGINE / "cases.json").read_bytes())


@pytest.fixture(scope="module")
def bundle():  # type: ignore[no-untyped-def]
    return load_bundle(ENGINE / "bundle")


def test_frozen_bundle_has_every_part(bundle) -> None:  # type: ignore[no-untyped-def]
    assert bundle.manifest["format"] == 3 and FORMAT_VERSION == 10  # frozen in format 3, still read
    assert bundle.vectors is not None and "encoder" in bundle.manifest
    assert bundle.manifest["text_starts"] == [0, 4, 6]  # one fragment per page
    assert len(bundle.texts) == bundle.n_chunks


def test_the_frozen_format_1_bundle_is_refused() -> None:
    with pytest.raises(BundleError) as refused:
        load_bundle(ENGINE / "bundle-format-1")
    assert str(refused.value) == (
        f"manifest.json is bundle format 1, no longer supported (this reader reads format {MIN_FORMAT_VERSION}): "
        "rebuild the site"
    )


@pytest.mark.parametrize("case", CASES, ids=[f"{c['mode']}:{c['query']}" for c in CASES])
def test_pinned_answers(bundle, case) -> None:  # type: ignore[no-untyped-def]
    actual = search(bundle, case["query"], mode=case["mode"], explain=True)
    assert first_difference(case["expected"], actual) is None, first_difference(case["expected"], actual)


def test_nonsense_query_returns_nothing(bundle) -> None:  # type: ignore[no-untyped-def]
    assert search(bundle, "banana smoothie recipe")["results"] == []
