"""The plugin's garbage-collection hold (mkdocs_plugin/gc_hold.py): objects frozen in its phase
only, nothing left frozen after a build, and another freezer's objects never released by it."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from conftest import EXAMPLE_SITE
from mkdocs_graphsearch.mkdocs_plugin.gc_hold import YOUNG_THRESHOLD, GcHold
from mkdocs_graphsearch.plugin import GraphSearchPlugin


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_held_objects_are_frozen_until_released() -> None:
    hold = GcHold()
    hold.hold()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    made_since: list[list[int]] = [[] for _ in range(100)]
    hold.hold()  # a second hold adds what was made since
    assert gc.get_freeze_count() > frozen
    hold.release()
    hold.release()
    assert gc.get_freeze_count() == 0
    assert made_since


def test_collections_are_rarer_while_held_then_as_before() -> None:
    before = gc.get_threshold()
    hold = GcHold()
    hold.hold()
    hold.hold()
    assert gc.get_threshold()[0] >= YOUNG_THRESHOLD and gc.get_threshold()[1:] == before[1:]
    hold.release()
    assert gc.get_threshold() == before


def test_another_freezers_objects_stay_frozen() -> None:
    gc.freeze()
    theirs = gc.get_freeze_count()
    hold = GcHold()
    hold.hold()
    hold.release()
    assert gc.get_freeze_count() == theirs


def test_a_build_leaves_nothing_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(EXAMPLE_SITE, tmp_path / "site", ignore=shutil.ignore_patterns(".cache", "site"))
    project = tmp_path / "site"
    frozen_in_post_build: list[int] = []
    post_build = GraphSearchPlugin._post_build

    def spy(self: GraphSearchPlugin, config: object) -> None:
        frozen_in_post_build.append(gc.get_freeze_count())
        post_build(self, config)  # type: ignore[arg-type]

    monkeypatch.setattr(GraphSearchPlugin, "_post_build", spy)
    options = {"cache_dir": str(project / "cache"), "embeddings": False}
    config = load_config(
        config_file=str(project / "mkdocs.yml"), site_dir=str(project / "site"), plugins=[{"graphsearch": options}]
    )
    thresholds = gc.get_threshold()
    build(config)
    assert frozen_in_post_build and frozen_in_post_build[0] > 0
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds


def test_a_failed_build_leaves_nothing_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(EXAMPLE_SITE, tmp_path / "site", ignore=shutil.ignore_patterns(".cache", "site"))
    project = tmp_path / "site"

    def fail(self: GraphSearchPlugin, config: object) -> None:
        raise RuntimeError("a failing build")

    monkeypatch.setattr(GraphSearchPlugin, "_post_build", fail)
    options = {"cache_dir": str(project / "cache"), "embeddings": False}
    config = load_config(
        config_file=str(project / "mkdocs.yml"), site_dir=str(project / "site"), plugins=[{"graphsearch": options}]
    )
    thresholds = gc.get_threshold()
    with pytest.raises(RuntimeError):
        build(config)
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds
