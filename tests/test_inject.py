"""The tags the plugin puts into every page: URLs relative to the page, absolute on 404.html."""

from __future__ import annotations

import pytest

from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.site_output.assets import runtime_version
from mkdocs_graphsearch.site_output.inject import error_page_tags, inject, runtime_tags

#: The runtime's versioned folder (a hash of its files: see inject.py for why a folder).
RUNTIME = f"assets/graphsearch/{runtime_version()}"


@pytest.mark.parametrize(
    ("page_url", "prefix", "root"),
    [("", "", "./"), ("guide/install/", "../../", "../../"), ("guide/install.html", "../", "../")],
)
def test_runtime_tags_are_relative_to_the_page(page_url, prefix, root):
    tags = runtime_tags(page_url, "assets/graphsearch", "search")
    assert f'href="{prefix}{RUNTIME}/ui/ui.css"' in tags
    assert f'<script type="module" src="{prefix}{RUNTIME}/ui/ui.js"' in tags
    assert f'data-graphsearch-bundle="{prefix}search/"' in tags
    assert f'data-graphsearch-root="{root}"' in tags


@pytest.mark.parametrize(
    ("site_url", "base"),
    [(None, "/"), ("", "/"), ("https://example.org/docs", "/docs/"), ("https://example.org/docs/", "/docs/")],
)
def test_error_page_tags_are_absolute(site_url, base):
    tags = error_page_tags(site_url, "assets/graphsearch", "search")
    assert f'src="{base}{RUNTIME}/ui/ui.js"' in tags
    assert f'data-graphsearch-bundle="{base}search/"' in tags
    assert f'data-graphsearch-root="{base}"' in tags


def test_inject_before_head_end():
    assert inject("<html><head></head><body></body></html>", "<x>") == "<html><head><x></head><body></body></html>"
    assert inject("<p>fragment</p>", "<x>") == "<p>fragment</p><x>"


def test_runtime_version_follows_the_runtime_files(tmp_path, monkeypatch):
    """A changed runtime file gives a new folder (so no browser mixes two runtimes); the same
    files give the same one (so a rebuild keeps the browser's cache)."""
    import shutil

    from mkdocs_graphsearch.site_output import assets as module

    js = tmp_path / "js"
    shutil.copytree(module.js_dir() / "src", js / "src")
    monkeypatch.setattr(module, "js_dir", lambda: js)
    first = runtime_version()
    assert first == runtime_version() and len(first) == module.VERSION_CHARS
    worker = js / "src" / "engine" / "worker.js"
    worker.write_text(worker.read_text() + "\n// changed\n")
    assert runtime_version() != first
    (js / "src" / "notes.txt").write_text("not shipped")
    changed = runtime_version()
    (js / "src" / "notes.txt").write_text("still not shipped")
    assert runtime_version() == changed


def test_copy_runtime_replaces_older_versions_only(tmp_path):
    from mkdocs_graphsearch.site_output.assets import copy_runtime

    old = tmp_path / "assets" / "graphsearch" / "0123456789ab"
    old.mkdir(parents=True)
    (old / "ui.js").write_text("old")
    mine = tmp_path / "assets" / "graphsearch" / "custom"
    mine.mkdir()
    copy_runtime(tmp_path, "assets/graphsearch")
    assert not old.exists() and mine.is_dir()
    shipped = sorted(path.relative_to(tmp_path / RUNTIME).as_posix() for path in (tmp_path / RUNTIME).rglob("*"))
    assert shipped == ["engine", "engine/worker.js", "ui", "ui/ui.css", "ui/ui.js"]  # one file per entry


def test_copy_runtime_keeps_the_shipped_files_in_the_cache_folder(tmp_path, monkeypatch):
    from mkdocs_graphsearch.site_output import assets

    cache = tmp_path / "cache"
    cache.mkdir()
    assets.copy_runtime(tmp_path / "a", "assets/graphsearch", cache)
    (kept,) = cache.glob("runtime-*.cache")
    assert kept.name == f"runtime-{assets.runtime_version()}.cache"

    def unused() -> dict[str, str]:
        raise AssertionError("made again though the cache folder has them")

    monkeypatch.setattr(assets, "shipped_files", unused)
    assets.copy_runtime(tmp_path / "b", "assets/graphsearch", cache)
    shipped = sorted(path.relative_to(tmp_path / "a").as_posix() for path in (tmp_path / "a").rglob("*.*"))
    assert shipped == sorted(path.relative_to(tmp_path / "b").as_posix() for path in (tmp_path / "b").rglob("*.*"))
    for name in shipped:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()

    monkeypatch.undo()
    kept.write_bytes(kept.read_bytes()[:-10])  # damaged: made again, and kept again
    assets.copy_runtime(tmp_path / "c", "assets/graphsearch", cache)
    worker = f"{RUNTIME}/engine/worker.js"
    assert (tmp_path / "c" / worker).read_bytes() == (tmp_path / "a" / worker).read_bytes()
    cache_store.unframe(kept.read_bytes(), assets._KIND, assets._VERSION)
