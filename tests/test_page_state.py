"""The `--dirty` page state (page_state.py) is a cache: missing or made by another version is
silent, damaged is one warning naming the file, and every page is still indexed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.mkdocs_plugin.page_state import STATE_VERSION, load_pages


def test_a_missing_state_is_silent(tmp_path: Path) -> None:
    warnings: list[str] = []
    assert load_pages(tmp_path / "pages.cache", 3, warnings.append) == {}
    assert warnings == []


def test_a_state_from_another_version_is_silent(tmp_path: Path) -> None:
    state = tmp_path / "pages.cache"
    payload = orjson.dumps({"generator": "0", "chunk_depth": 3, "pages": {}})
    state.write_bytes(cache_store.frame("pages", STATE_VERSION - 1, payload))
    warnings: list[str] = []
    assert load_pages(state, 3, warnings.append) == {}
    assert warnings == []


@pytest.mark.parametrize(
    "damage",
    [
        b"{not json",
        b"\x00\xff" * 8,
        cache_store.frame("pages", STATE_VERSION, b"[1, 2]"),  # checksum passes, shape does not
        cache_store.frame("pages", STATE_VERSION, b"{}")[:-1],  # cut
    ],
)
def test_a_damaged_state_is_one_warning_naming_it(tmp_path: Path, damage: bytes) -> None:
    state = tmp_path / "pages.cache"
    state.write_bytes(damage)
    warnings: list[str] = []
    assert load_pages(state, 3, warnings.append) == {}
    assert len(warnings) == 1 and str(state) in warnings[0] and "damaged" in warnings[0]


def test_saved_pages_load_as_they_were_less_their_reports(tmp_path: Path) -> None:
    from dataclasses import replace

    from mkdocs_graphsearch.mkdocs_plugin.page_state import SavedPage, pages_payload, save_pages
    from mkdocs_graphsearch.parse.markdown import parse_page

    source = b"---\ntags: [a]\n---\n# Title\n\nSee [gone](missing.md) and [x](b.md#y).\n\n## Part\n\n```py\ncode\n```\n"
    page = parse_page(source, "a.md", {"a.md", "b.md"})
    assert page.broken_links and page.chunks[0].links  # reports to drop, links to keep
    state = tmp_path / "pages.cache"
    save_pages(state, pages_payload(3, {"a.md": SavedPage("a/", "digest", page, "key")}))
    loaded = load_pages(state, 3, print)
    assert loaded == {"a.md": SavedPage("a/", "digest", replace(page, broken_links=[], warnings=[]), "key")}


def test_the_same_pages_are_not_written_again(tmp_path: Path) -> None:
    """A build where no page changed leaves the state file as it was (the same bytes, not rewritten)."""
    from mkdocs_graphsearch.mkdocs_plugin.page_state import SavedPage, pages_payload, save_pages
    from mkdocs_graphsearch.parse.markdown import parse_page

    state = tmp_path / "pages.cache"
    pages = {"a.md": SavedPage("a/", "digest", parse_page(b"# A\n\nText.\n", "a.md", {"a.md"}), "key")}
    save_pages(state, pages_payload(3, pages))
    first = state.stat()
    save_pages(state, pages_payload(3, pages))
    assert state.stat().st_ino == first.st_ino  # not replaced (write_atomic renames a new file over it)
    pages["a.md"] = SavedPage("a/", "other digest", pages["a.md"].page, "key")
    save_pages(state, pages_payload(3, pages))
    assert state.stat().st_ino != first.st_ino
    assert load_pages(state, 3, print)["a.md"].source_sha256 == "other digest"
