"""Release logs (index/release_log.py): a changelog's keyword impacts are halved, so a feature's
name finds the page that explains it before the changelog entry that mentions it."""

from __future__ import annotations

import pytest

from conftest import EXAMPLE_SITE, build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.release_log import is_release_log, keyword_boost
from mkdocs_graphsearch.parse import Page, parse_page

LOG = "# Changelog\n\n## Unreleased\n\n### Fixed\n\n- x\n\n## 2.4.0 — 2025-05-12\n\n- y\n\n## v1.2\n\n- z\n"


def _page(text: str, path: str = "p.md") -> Page:
    return parse_page(text, path, {path})


def test_a_page_whose_top_sections_are_mostly_versions_is_a_release_log() -> None:
    assert is_release_log(_page(LOG))  # 2 of 3 level-2 sections are versions
    assert not is_release_log(_page("# Guide\n\n## Install 2.0\n\n## Use\n\n## Upgrade\n"))  # 1 of 3
    assert not is_release_log(_page("# Short\n\n## 1.0\n\n## 2.0\n"))  # too few sections to tell
    assert not is_release_log(_page("# Deep\n\n## Notes\n\n### 1.0\n\n### 1.1\n\n### 1.2\n"))  # level 2 only


def test_the_weight_multiplies_the_front_matter_boost() -> None:
    page = _page("---\nsearch:\n  boost: 2\n---\n" + LOG)
    assert keyword_boost(page) == 1.0
    assert keyword_boost(_page("---\nsearch:\n  boost: 2\n---\n# Guide\n\ntext\n")) == 2.0


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    return load_bundle(build_bundle_dir(tmp_path_factory.mktemp("log"), EXAMPLE_SITE / "docs", embeddings=True))


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
@pytest.mark.parametrize(("query", "page"), [("SIGTERM", "user-guide/queues-and-workers.md"),
                                             ("Prometheus", "user-guide/monitoring.md")])
def test_a_feature_finds_its_page_before_the_changelog(bundle: Bundle, mode: str, query: str, page: str) -> None:
    pages = [result["page"] for result in search(bundle, query, mode=mode)["results"]]
    assert pages[0] == page and "about/changelog.md" in pages


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_a_version_finds_its_entry(bundle: Bundle, mode: str) -> None:
    # The section headed `2.4.0 — 2025-05-12` defines `2.4.0` (index/documents.py), so the
    # halved impacts do not lose it to sections where `2`, `4` and `0` are numbers in code.
    first = search(bundle, "2.4.0", mode=mode)["results"][0]
    assert (first["page"], first["sections"][0]["anchor"]) == ("about/changelog.md", "240-2025-05-12")


def test_version_names() -> None:
    from mkdocs_graphsearch.index.release_log import version_names

    assert version_names("2.4.0 — 2025-05-12") == ["2.4.0"]
    assert version_names("Version 1.6.1 (2024-08-30)") == ["1.6.1"]
    assert version_names("v0.13") == ["v0.13"]
    assert version_names("Unreleased") == version_names("2025-05-12") == version_names("x1.2") == []
