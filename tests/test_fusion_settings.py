"""The fusion constants (engine/fuse.py: the keyword side's confidence base + span x coverage +
gap span x gap) are search settings: a new bundle carries them in its manifest, a manifest
without them (the frozen bundle's) fuses with bundle/settings.py FUSION_DEFAULTS, and the engine
reads them (js/test/fusion_settings.test.js checks the JS runtime the same way; both engines'
fuse() answers on them are pinned in tests/vectors/fuse.json)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from conftest import FROZEN_ENGINE, VECTORS, build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.bundle.settings import FUSION_DEFAULTS, SearchSettings
from mkdocs_graphsearch.engine.search import search

#: A lookup the keyword side is not sure of (its best match holds 2 of its 5 words).
QUERY = "RetryPolicy.delay_for"


def test_a_new_bundle_carries_them(tmp_path: Path) -> None:
    manifest = load_bundle(build_bundle_dir(tmp_path, FROZEN_ENGINE / "docs", embeddings=False)).manifest
    assert {key: manifest["search"][key] for key in FUSION_DEFAULTS} == FUSION_DEFAULTS
    assert {key: SearchSettings().to_json()[key] for key in FUSION_DEFAULTS} == FUSION_DEFAULTS


def test_a_manifest_without_them_fuses_with_the_defaults(frozen: Bundle) -> None:
    assert not FUSION_DEFAULTS.keys() & frozen.settings.keys()
    before = search(frozen, QUERY, mode="hybrid", explain=True)
    frozen.manifest["search"].update(FUSION_DEFAULTS)
    assert search(frozen, QUERY, mode="hybrid", explain=True) == before
    cases = {case["name"]: case["expected"] for case in orjson.loads((VECTORS / "fuse.json").read_bytes())["fuse"]}
    assert cases["the defaults written out: as a manifest without them"] == cases[
        "two of three held: 0.4 + 0.4 x 2/3 + 0.2 x gap"]


def test_the_engine_reads_them(frozen: Bundle) -> None:
    before = search(frozen, QUERY, mode="hybrid", explain=True)["fusion"]
    assert not before["sure"]
    frozen.manifest["search"].update(fusion_coverage_base=0.1, fusion_coverage_span=0.1, fusion_gap_span=0.1)
    after = search(frozen, QUERY, mode="hybrid", explain=True)["fusion"]
    gap = before["gap"]
    assert after["keyword_share"] == pytest.approx(0.1 + 0.1 * 2 / 5 + 0.1 * gap)  # equal weights: share = a
    assert after["keyword_share"] < before["keyword_share"]
