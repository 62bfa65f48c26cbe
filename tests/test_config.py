"""Plugin options are validated when mkdocs.yml loads: a bad value is a clear configuration
error, never a strange build (or files written outside the site)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from conftest import EXAMPLE_SITE


def load(tmp_path: Path, **options: object):  # noqa: ANN201 - MkDocsConfig
    return load_config(
        config_file=str(EXAMPLE_SITE / "mkdocs.yml"),
        site_dir=str(tmp_path / "site"),
        plugins=[{"graphsearch": {"embeddings": False, **options}}],
    )


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("bundle_dir", ".", "subfolder of site_dir"),
        ("bundle_dir", "", "relative folder inside site_dir"),
        ("bundle_dir", "..", "subfolder of site_dir"),
        ("bundle_dir", "../outside", "subfolder of site_dir"),
        ("bundle_dir", "a/../../outside", "subfolder of site_dir"),
        ("bundle_dir", "/var/www/search", "relative folder inside site_dir"),
        ("bundle_dir", "assets/graphsearch", "runtime's folder"),
        ("bundle_dir", "assets", "runtime's folder"),
        ("limit", -3, "from 1 to 1000"),
        ("limit", 0, "from 1 to 1000"),
        ("chunk_depth", 0, "from 1 to 6"),
        ("chunk_depth", 7, "from 1 to 6"),
        ("sections_per_page", 0, "from 1 to 100"),
        ("limit", True, "whole number"),
    ],
)
def test_bad_option_is_a_configuration_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, option: str, value: object, message: str
) -> None:
    with pytest.raises(Abort):
        load(tmp_path, **{option: value})
    assert any(option in r.getMessage() and message in r.getMessage() for r in caplog.records), [
        r.getMessage() for r in caplog.records
    ]


def test_model_max_tokens_is_bounded(tmp_path: Path) -> None:
    with pytest.raises(Abort):
        load(tmp_path, model={"max_tokens": 0})


def test_bundle_dir_is_normalised(tmp_path: Path) -> None:
    assert load(tmp_path, bundle_dir="./assets/../index/")["plugins"]["graphsearch"].config.bundle_dir == "index"


def test_bundle_dir_that_a_page_uses_is_refused(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # example-site has reference/*.md: their pages are written under reference/.
    with pytest.raises(Abort):
        build(load(tmp_path, bundle_dir="reference"))
    assert any("bundle_dir 'reference' is used by reference/" in r.getMessage() for r in caplog.records)
    assert not (tmp_path / "site" / "reference" / "manifest.json").exists()


def test_bundle_dir_shared_with_the_builtin_search_is_fine(tmp_path: Path) -> None:
    config = load_config(
        config_file=str(EXAMPLE_SITE / "mkdocs.yml"),
        site_dir=str(tmp_path / "site"),
        plugins=["search", {"graphsearch": {"embeddings": False}}],
    )
    build(config)
    assert (tmp_path / "site" / "search" / "search_index.json").is_file()
    assert (tmp_path / "site" / "search" / "manifest.json").is_file()


@pytest.mark.parametrize(
    ("inside", "message"),
    [
        ("site/.cache", "is inside site_dir"),  # emptied by every build, and published
        ("site", "is inside site_dir"),
        ("docs/.cache/graphsearch", "is inside docs_dir"),  # published with the pages
    ],
)
def test_cache_dir_inside_the_site_or_the_docs_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, inside: str, message: str
) -> None:
    shutil.copytree(EXAMPLE_SITE / "docs", tmp_path / "docs")
    config = load(tmp_path, cache_dir=str(tmp_path / inside))
    config["docs_dir"] = str(tmp_path / "docs")
    with pytest.raises(Abort):
        build(config)
    assert any("cache_dir" in r.getMessage() and message in r.getMessage() for r in caplog.records), [
        r.getMessage() for r in caplog.records
    ]
    assert not (tmp_path / inside).exists() or inside == "site"
    assert not (tmp_path / "site" / "search").exists()


def test_cache_dir_beside_the_site_is_fine(tmp_path: Path) -> None:
    """A name that starts like site_dir's is no folder inside it."""
    build(load(tmp_path, cache_dir=str(tmp_path / "site-cache")))
    assert (tmp_path / "site" / "search" / "manifest.json").is_file()
    assert (tmp_path / "site-cache").is_dir()
