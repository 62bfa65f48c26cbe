"""The last bundle's parts kept in the cache folder as hard links (bundle/kept.py), through MkDocs'
clean of site_dir or a CI job's removal of it: parts with the same bytes are linked back (not
written), others written; the bundle is the same bytes as a build without them, whatever happened
to the kept files."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from conftest import EXAMPLE_SITE, VECTORS
from mkdocs_graphsearch.bundle import kept as kept_module
from mkdocs_graphsearch.bundle import write as write_module
from mkdocs_graphsearch.bundle.format import MANIFEST
from mkdocs_graphsearch.bundle.kept import set_aside
from mkdocs_graphsearch.bundle.write import previous_files, write_bundle
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.mkdocs_plugin.site_index import keep_bundle
from mkdocs_graphsearch.parse.folder import parse_folder

DOCS = VECTORS / "engine" / "docs"


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    return build_files(parse_folder(DOCS))


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the bundle files written from now on (not moved back)."""
    names: list[str] = []
    write = write_module.write_atomic

    def spy(path: str, data: bytes) -> None:
        names.append(os.path.basename(path))
        write(path, data)

    monkeypatch.setattr(write_module, "write_atomic", spy)
    return names


def _contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def _clean(site: Path) -> None:
    """What MkDocs does to site_dir before a build."""
    shutil.rmtree(site)
    site.mkdir()


def _parts(files: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in files.items() if name != MANIFEST}


def _linked(out: Path, kept: Path) -> bool:
    """Every kept file is a second name of the bundle's part of that name."""
    return all((out / path.name).stat().st_ino == path.stat().st_ino for path in kept.iterdir())


def test_kept_parts_are_linked_back(tmp_path: Path, files: dict[str, bytes], written: list[str]) -> None:
    site, out, kept = tmp_path / "site", tmp_path / "site" / "search", tmp_path / "cache" / "kept"
    write_bundle(out, files)
    written.clear()
    (out / "search_index.json").write_text("{}")  # MkDocs' own search: not ours to keep
    set_aside(out, kept, previous_files(out))
    assert sorted(path.name for path in kept.iterdir()) == sorted(set(files) - {MANIFEST})
    assert sorted(path.name for path in out.iterdir()) == ["manifest.json", "search_index.json"]
    _clean(site)
    write_bundle(out, files, kept)
    assert _contents(out) == files
    assert written == [MANIFEST]
    assert _contents(kept) == _parts(files) and _linked(out, kept)


def test_a_removed_site_gets_every_part_linked(tmp_path: Path, files: dict[str, bytes], written: list[str]) -> None:
    site, out, kept = tmp_path / "site", tmp_path / "site" / "search", tmp_path / "cache" / "kept"
    write_bundle(out, files, kept)
    assert sorted(written) == sorted(files)
    assert _contents(kept) == _parts(files) and _linked(out, kept)
    shutil.rmtree(site)  # a CI job keeps the cache folder only
    written.clear()
    write_bundle(out, files, kept)
    assert _contents(out) == files
    assert written == [MANIFEST]


def test_a_part_changed_in_the_site_is_written_again(
    tmp_path: Path, files: dict[str, bytes], written: list[str]
) -> None:
    site, out, kept = tmp_path / "site", tmp_path / "site" / "search", tmp_path / "cache" / "kept"
    write_bundle(out, files, kept)
    changed = sorted(_parts(files))[0]
    with (out / changed).open("r+b") as part:  # in place: the kept name sees it too
        part.write(b"#")
    _clean(site)
    written.clear()
    write_bundle(out, files, kept)
    assert _contents(out) == files
    assert sorted(written) == [changed, MANIFEST]
    assert _contents(kept) == _parts(files) and _linked(out, kept)


def test_no_links_on_another_file_system(
    tmp_path: Path, files: dict[str, bytes], written: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    site, out, kept = tmp_path / "site", tmp_path / "site" / "search", tmp_path / "cache" / "kept"

    def cross_device(source: object, target: object) -> None:
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(kept_module.os, "link", cross_device)
    write_bundle(out, files, kept)
    shutil.rmtree(site)
    written.clear()
    write_bundle(out, files, kept)
    assert _contents(out) == files
    assert sorted(written) == sorted(files)


def test_kept_parts_the_bundle_no_longer_lists_go(tmp_path: Path, files: dict[str, bytes]) -> None:
    out, kept = tmp_path / "site" / "search", tmp_path / "cache" / "kept"
    write_bundle(out, files, kept)
    fewer = dict(files)
    del fewer[sorted(_parts(files))[0]]
    write_bundle(out, fewer, kept)
    assert _contents(kept) == _parts(fewer)


def test_a_changed_kept_part_is_written_again(tmp_path: Path, files: dict[str, bytes], written: list[str]) -> None:
    site, out, kept = tmp_path / "site", tmp_path / "site" / "search", tmp_path / "cache" / "kept"
    write_bundle(out, files)
    set_aside(out, kept, previous_files(out))
    changed, gone = sorted(set(files) - {MANIFEST})[:2]
    (kept / changed).write_bytes(b"changed after the last build")
    (kept / gone).unlink()
    _clean(site)
    written.clear()
    write_bundle(out, files, kept)
    assert _contents(out) == files
    assert sorted(written) == sorted([changed, gone, MANIFEST])
    assert _contents(kept) == _parts(files) and _linked(out, kept)


def test_parts_on_another_file_system_are_left_to_the_clean(
    tmp_path: Path, files: dict[str, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    site, out, kept = tmp_path / "site", tmp_path / "site" / "search", tmp_path / "cache" / "kept"
    write_bundle(out, files)

    def cross_device(source: object, target: object) -> None:
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(kept_module.os, "replace", cross_device)
    set_aside(out, kept, previous_files(out))
    monkeypatch.undo()
    assert _contents(out) == files  # nothing moved
    _clean(site)
    write_bundle(out, files, kept)
    assert _contents(out) == files


def _crafted_manifest(out: Path) -> None:
    """A graphsearch manifest that lists a part named `../index.json` (CRC 0: stored as
    `../index.00000000.json`, a file of out's parent folder)."""
    out.mkdir(parents=True)
    manifest = b'{"format":3,"generator":"mkdocs-graphsearch 0","files":{"../index.json":0,"keyword.json":0}}'
    (out / MANIFEST).write_bytes(manifest)
    (out.parent / "index.00000000.json").write_text("a page")


def test_only_the_bundle_folders_files_are_set_aside(tmp_path: Path) -> None:
    out = tmp_path / "site" / "search"
    _crafted_manifest(out)
    assert previous_files(out) == {"keyword.00000000.json"}
    set_aside(out, tmp_path / "kept", previous_files(out))
    assert (tmp_path / "site" / "index.00000000.json").read_text() == "a page"


def test_a_crafted_manifest_removes_nothing_outside_the_bundle_folder(tmp_path: Path, files: dict[str, bytes]) -> None:
    out = tmp_path / "site" / "search"
    _crafted_manifest(out)
    write_bundle(out, files)
    assert (tmp_path / "site" / "index.00000000.json").read_text() == "a page"


def _build(project: Path, dirty: bool = False) -> dict[str, bytes]:
    options = {"cache_dir": str(project / "cache"), "embeddings": False}
    config = load_config(
        config_file=str(project / "mkdocs.yml"), site_dir=str(project / "site"), plugins=[{"graphsearch": options}]
    )
    config.plugins["graphsearch"].dirty = dirty  # what on_startup sets from `mkdocs build --dirty`
    build(config, dirty=dirty)
    return _contents(project / "site" / "search")


def test_a_rebuild_links_its_unchanged_parts_back(tmp_path: Path, written: list[str]) -> None:
    shutil.copytree(EXAMPLE_SITE, tmp_path / "site", ignore=shutil.ignore_patterns(".cache", "site"))
    project = tmp_path / "site"
    first = _build(project)
    page = project / "docs" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n\nA closing paragraph about kept parts.\n", encoding="utf-8")
    written.clear()
    edited = _build(project)
    changed = sorted(name for name in edited if first.get(name) != edited[name])
    # The page's text and terms changed (the example site's texts are one fragment: format.py
    # WHOLE_TEXT_BYTES); its columns, titles and links did not.
    kept = {name.split(".")[0] for name in set(edited) - set(changed)}
    assert MANIFEST in changed and {"keyword", "display", "graph"} <= kept, changed
    assert sorted(written) == changed  # the others linked back
    (kept_folder,) = (project / "cache").glob("kept-parts-*")
    assert _contents(kept_folder) == _parts(edited) and _linked(project / "site" / "search", kept_folder)
    shutil.rmtree(project / "cache")
    shutil.rmtree(project / "site")
    assert _build(project) == edited  # the same bytes as a build from nothing


def test_a_dirty_build_sets_nothing_aside(tmp_path: Path) -> None:
    (tmp_path / "cache").mkdir()
    (tmp_path / "site" / "search").mkdir(parents=True)
    assert keep_bundle(tmp_path / "cache", tmp_path / "site", "search", dirty=True) is None
    assert keep_bundle(None, tmp_path / "site", "search", dirty=False) is None
    assert keep_bundle(tmp_path / "cache", tmp_path / "site", "search", dirty=False) is not None
