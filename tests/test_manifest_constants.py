"""The numbers both engines use beyond the search settings (the query encoder's piece limit,
the query quantisation levels) come from the manifest's semantic entries, written once by
index/semantic.py; a format-1 manifest lacks them and each engine falls back to the value it
had built in (js/test/manifest_constants.test.js checks the JS side)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from conftest import FROZEN_ENGINE, build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.engine.encoder import (
    MAX_QUERY_PIECES_IF_ABSENT,
    STOP_PIECES_IF_ABSENT,
    load_encoder,
    query_vector,
)
from mkdocs_graphsearch.engine.vector import QUERY_LEVELS_IF_ABSENT, cosines, query_levels
from mkdocs_graphsearch.index.semantic import MAX_QUERY_PIECES, QUERY_LEVELS
from mkdocs_graphsearch.text.wordpiece import WordPiece

QUERY = "what happens when a render fails and the retry policy gives up"


def test_a_new_bundle_carries_them(tmp_path: Path) -> None:
    manifest = load_bundle(build_bundle_dir(tmp_path, FROZEN_ENGINE / "docs", embeddings=True)).manifest
    assert manifest["format"] >= 3
    assert manifest["encoder"]["max_query_pieces"] == MAX_QUERY_PIECES
    assert manifest["vectors"]["query_levels"] == QUERY_LEVELS


def test_a_manifest_without_them_falls_back(frozen: Bundle) -> None:
    """The frozen bundle (first made in format 1) has neither."""
    assert "max_query_pieces" not in frozen.manifest["encoder"]
    assert "query_levels" not in frozen.manifest["vectors"]
    assert load_encoder(frozen).max_pieces == MAX_QUERY_PIECES_IF_ABSENT
    assert query_levels(frozen.manifest) == QUERY_LEVELS_IF_ABSENT


def test_the_engine_reads_the_manifest(frozen: Bundle) -> None:
    full = query_vector(frozen, QUERY)
    frozen.manifest["encoder"]["max_query_pieces"] = 2
    frozen.encoder = None
    assert query_vector(frozen, QUERY) != full
    frozen.manifest["vectors"]["query_levels"] = 3
    assert full is not None and frozen.vectors is not None and frozen.vector_scales is not None
    coarse = cosines(frozen.vectors, frozen.vector_scales, full, query_levels(frozen.manifest))
    fine = cosines(frozen.vectors, frozen.vector_scales, full, QUERY_LEVELS_IF_ABSENT)
    assert not np.array_equal(coarse, fine)


STOP_ONLY = "the a to"


def test_stop_words_alone_make_no_query_vector(tmp_path: Path) -> None:
    """A query whose known pieces are all stop words gets no vector (engine/encoder.py): its rows
    point wherever the site says `the`; a query with one content word is encoded as before."""
    bundle = load_bundle(build_bundle_dir(tmp_path, FROZEN_ENGINE / "docs", embeddings=True))
    stops = bundle.manifest["encoder"]["stop_pieces"]
    assert stops == sorted(stops) and len(stops) >= 3
    assert query_vector(bundle, STOP_ONLY) is None
    assert query_vector(bundle, "knitting a wool scarf") is None  # only `a` known
    with_rule = query_vector(bundle, QUERY)
    bundle.manifest["encoder"]["stop_pieces"], bundle.encoder = [], None
    assert query_vector(bundle, STOP_ONLY) is not None
    assert query_vector(bundle, QUERY) == with_rule


def test_a_manifest_without_stop_pieces_encodes_stop_words(frozen: Bundle) -> None:
    """Before the rule (the frozen bundle): none, and stop words alone make a vector."""
    assert "stop_pieces" not in frozen.manifest["encoder"]
    assert load_encoder(frozen).stop_pieces == frozenset(STOP_PIECES_IF_ABSENT)
    assert query_vector(frozen, STOP_ONLY) is not None
    frozen.manifest["encoder"]["stop_pieces"] = sorted(_pieces(frozen, STOP_ONLY))
    frozen.encoder = None
    assert query_vector(frozen, STOP_ONLY) is None


def _pieces(bundle: Bundle, text: str) -> set[int]:
    return set(WordPiece(load_encoder(bundle).vocab_path).pieces(text))
