"""The `--dirty` page state (page_state.py) is a cache: missing or made by another version is
silent, damaged is one warning naming the file, and every page is still indexed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from mkdocs_graphsearch.page_state import load_pages


def test_a_missing_state_is_silent(tmp_path: Path) -> None:
    warnings: list[str] = []
    assert load_pages(tmp_path / "pages.json", 3, warnings.append) == {}
    assert warnings == []


def test_a_state_from_another_version_is_silent(tmp_path: Path) -> None:
    state = tmp_path / "pages.json"
    state.write_bytes(orjson.dumps({"version": -1, "generator": "0", "chunk_depth": 3, "pages": {}}))
    warnings: list[str] = []
    assert load_pages(state, 3, warnings.append) == {}
    assert warnings == []


@pytest.mark.parametrize("damage", [b"{not json", b"[1, 2]", b"\x00\xff" * 8])
def test_a_damaged_state_is_one_warning_naming_it(tmp_path: Path, damage: bytes) -> None:
    state = tmp_path / "pages.json"
    state.write_bytes(damage)
    warnings: list[str] = []
    assert load_pages(state, 3, warnings.append) == {}
    assert len(warnings) == 1 and str(state) in warnings[0] and "damaged" in warnings[0]
