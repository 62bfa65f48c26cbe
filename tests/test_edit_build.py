"""`mkdocs build` after a one-page edit (issue 10): the plugin redoes only the edited page's work
from its cache folder, and its bundle is the bundle of a fresh build of the same docs, byte for byte."""

from __future__ import annotations

import logging
import shutil
from fnmatch import fnmatch
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

import mkdocs_graphsearch.index.bm25 as bm25
import mkdocs_graphsearch.parse.rendered as rendered
from conftest import EXAMPLE_SITE
from mkdocs_graphsearch.files import cache_store

EDIT = "\n\nA closing paragraph about upgrading the scheduler.\n"


def _build(project: Path, site: str, cache: str, embeddings: bool = True) -> dict[str, bytes]:
    """Build the project into project/site with the cache folder project/cache; its search files."""
    options = {"cache_dir": str(project / cache), "related_pages": True, "embeddings": embeddings}
    config = load_config(
        config_file=str(project / "mkdocs.yml"), site_dir=str(project / site), plugins=[{"graphsearch": options}]
    )
    build(config)
    files = {}
    for folder in ("search", "assets/graphsearch"):
        for path in sorted((project / site / folder).rglob("*")):
            if path.is_file():
                files[path.relative_to(project / site).as_posix()] = path.read_bytes()
    return files


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLE_SITE, tmp_path / "site", ignore=shutil.ignore_patterns(".cache", "site"))
    return tmp_path / "site"


def _spy_tokenizing(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, str]]:
    """The chunks (their fields) the keyword index tokenizes from now on."""
    seen: list[dict[str, str]] = []
    tokens = bm25.chunk_tokens

    def spy(fields: dict[str, str]):
        seen.append(fields)
        return tokens(fields)

    monkeypatch.setattr(bm25, "chunk_tokens", spy)
    return seen


def test_an_edit_build_is_a_fresh_build_byte_for_byte(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _build(project, "site", "cache")
    page = project / "docs" / "user-guide" / "scheduling.md"
    page.write_text(page.read_text(encoding="utf-8") + EDIT, encoding="utf-8")
    tokenized = _spy_tokenizing(monkeypatch)
    parsed: list[str] = []
    parse = rendered.parse_rendered_page

    def spy(html: str, path: str, **options):
        parsed.append(path)
        return parse(html, path, **options)

    monkeypatch.setattr(rendered, "parse_rendered_page", spy)  # site_pages imports it when a page needs it
    edited = _build(project, "site", "cache")
    assert parsed == ["user-guide/scheduling.md"]  # the other pages' HTML is unchanged: their saved chunks
    assert tokenized and all("upgrading the scheduler" in " ".join(fields.values()) for fields in tokenized)
    tokenized.clear()
    fresh = _build(project, "fresh-site", "fresh-cache")
    assert len(tokenized) > 50  # a fresh cache: every chunk
    assert edited.keys() == fresh.keys()
    assert [name for name in edited if edited[name] != fresh[name]] == []
    # every file the builds keep in the cache folder is one files/cache_store.py knows
    known = (*cache_store._CACHE_NAMES, *cache_store._UNFRAMED_NAMES)
    kept = sorted(path.name for path in (project / "cache").iterdir())
    assert [name for name in kept if not any(fnmatch(name, pattern) for pattern in known)] == []


def test_a_damaged_keyword_tokens_cache_is_one_warning(
    project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    first = _build(project, "site", "cache", embeddings=False)
    (entry,) = (project / "cache").glob("keyword-tokens-*.cache")
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0x20
    entry.write_bytes(bytes(data))
    for record in (project / "cache").glob("bundle-*.cache"):  # else the unchanged site's bundle is reused
        record.unlink()
    tokenized = _spy_tokenizing(monkeypatch)
    with caplog.at_level(logging.WARNING):
        assert _build(project, "site", "cache", embeddings=False) == first
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "tokens" in r.getMessage()]
    assert len(warnings) == 1 and str(entry) in warnings[0] and "damaged" in warnings[0], warnings
    assert len(tokenized) > 50  # every chunk again
    caplog.clear()
    tokenized.clear()
    with caplog.at_level(logging.WARNING):
        assert _build(project, "site", "cache", embeddings=False) == first
    assert tokenized == [] and not [r for r in caplog.records if "tokens" in r.getMessage()]
