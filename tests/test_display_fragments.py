"""Display columns and graph edges in fragments (bundle/display.py, bundle/graph_shards.py):
what ranking reads stays in keyword.json, and answers never depend on what moved out."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest

from conftest import VECTORS
from mkdocs_graphsearch.bundle.display import DISPLAY_CHUNKS, DISPLAY_PAGES
from mkdocs_graphsearch.bundle.format import BundleError
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.bundle.schema import check_keyword
from mkdocs_graphsearch.engine.search import search

FROZEN = VECTORS / "engine" / "bundle"


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    return load_bundle(FROZEN)


def test_keyword_json_holds_no_display_column(bundle: Bundle) -> None:
    keyword = orjson.loads(bundle.files["keyword.json"])
    assert not set(keyword["chunks"]) & set(DISPLAY_CHUNKS)
    assert not set(keyword["pages"]) & set(DISPLAY_PAGES)
    assert set(orjson.loads(bundle.files["graph.json"])) == {"edge_types"}
    assert all(len(bundle.chunks[key]) == bundle.n_chunks for key in DISPLAY_CHUNKS)


QUERIES = [("retry policy", "keyword"), ("retry_policy", "hybrid"), ("kind:code", "keyword")]


@pytest.mark.parametrize("query, mode", QUERIES)
def test_ids_order_nothing(bundle: Bundle, query: str, mode: str) -> None:
    """Ties break by chunk and page index, never by id: reversed ids give the same answer, ids aside
    (so the JS runtime may rank before it has a chunk's id)."""
    renamed = copy.copy(bundle)
    renamed.chunks = {**bundle.chunks, "id": [f"{n:04d}" for n in range(bundle.n_chunks, 0, -1)]}
    renamed.pages = {**bundle.pages, "title": ["same"] * len(bundle.pages["path"])}

    def shape(answer: dict[str, Any]) -> list[Any]:
        return [(r["page"], r["score"], [(s["anchor"], s["score"]) for s in r["sections"]]) for r in answer["results"]]

    assert shape(search(renamed, query, mode=mode)) == shape(search(bundle, query, mode=mode))


def test_a_fragment_must_start_a_page(bundle: Bundle) -> None:
    keyword = orjson.loads(bundle.files["keyword.json"])
    manifest = copy.deepcopy(bundle.manifest)
    manifest["text_starts"] = [0, 1]  # chunk 1 is on chunk 0's page
    with pytest.raises(BundleError, match=r"keyword.json: chunks.page\[1\] must start a page \(text fragment 1"):
        check_keyword(keyword, manifest)
