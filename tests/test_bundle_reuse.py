"""A build whose every input is the last build's writes the last build's bundle again without
building it (mkdocs_plugin/bundle_reuse.py): the same bytes as a cold build; any changed input
(a page, an option, the code) builds it again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

import mkdocs_graphsearch.index.builder as builder
import mkdocs_graphsearch.mkdocs_plugin.bundle_reuse as bundle_reuse
from conftest import EXAMPLE_SITE
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search

EDIT = "\n\nA closing paragraph about the quetzalcoatl migration.\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLE_SITE, tmp_path / "site", ignore=shutil.ignore_patterns(".cache", "site"))
    return tmp_path / "site"


@pytest.fixture
def bundles_built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many bundles the builds from now on built (site_index.py imports build_files when it builds)."""
    calls: list[int] = []
    build_files = builder.build_files

    def spy(*args, **kwargs):
        calls.append(1)
        return build_files(*args, **kwargs)

    monkeypatch.setattr(builder, "build_files", spy)
    return calls


def _build(project: Path, site: str, cache: str, **options: object) -> dict[str, bytes]:
    """Build project into project/site with the cache folder project/cache; its search files."""
    plugin = {"graphsearch": {"cache_dir": str(project / cache), **options}}
    config = load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(project / site), plugins=[plugin])
    build(config)
    folder = project / site / "search"
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def test_a_warm_build_writes_the_cold_builds_bundle_without_building_it(
    project: Path, bundles_built: list[int]
) -> None:
    cold = _build(project, "site", "cache")
    assert bundles_built == [1] and list((project / "cache").glob("bundle-*.cache"))
    warm = _build(project, "site", "cache")
    assert bundles_built == [1]  # restored, not built
    assert warm == cold
    fresh = _build(project, "fresh-site", "fresh-cache")
    assert bundles_built == [1, 1]
    assert fresh == warm


def test_a_warm_build_takes_the_saved_pages_as_they_were_written(
    project: Path, bundles_built: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No page changed: the page state's payload is the saved one (site_pages.py), not every page
    serialized again, and the bundle is still restored by it; an edit serializes the pages."""
    import mkdocs_graphsearch.mkdocs_plugin.site_pages as site_pages

    cold = _build(project, "site", "cache", embeddings=False)
    serialized: list[int] = []
    payload = site_pages.pages_payload
    monkeypatch.setattr(site_pages, "pages_payload", lambda *args: serialized.append(1) or payload(*args))
    assert _build(project, "site", "cache", embeddings=False) == cold
    assert serialized == [] and bundles_built == [1]
    page = project / "docs" / "user-guide" / "scheduling.md"
    page.write_text(page.read_text(encoding="utf-8") + EDIT, encoding="utf-8")
    _build(project, "site", "cache", embeddings=False)
    assert serialized == [1] and bundles_built == [1, 1]


def test_an_edit_builds_again_and_its_new_text_is_searchable(project: Path, bundles_built: list[int]) -> None:
    _build(project, "site", "cache", embeddings=False)
    page = project / "docs" / "user-guide" / "scheduling.md"
    page.write_text(page.read_text(encoding="utf-8") + EDIT, encoding="utf-8")
    edited = _build(project, "site", "cache", embeddings=False)
    assert bundles_built == [1, 1]
    results = search(load_bundle(project / "site"), "quetzalcoatl", mode="keyword")["results"]
    assert [result["page"] for result in results] == ["user-guide/scheduling.md"]
    assert _build(project, "site", "cache", embeddings=False) == edited  # and that bundle is reused
    assert bundles_built == [1, 1]
    assert _build(project, "fresh-site", "fresh-cache", embeddings=False) == edited


def test_an_edit_starts_the_model_while_pages_render_and_writes_a_cold_builds_bundle(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page changed since the last build starts the model in the background (embed.py); the
    bundle is a cold build's. A build where no page changed starts nothing."""
    from mkdocs_graphsearch.index.embed import Embedder

    starts: list[str] = []
    start = Embedder.start_in_background

    def spy(self: Embedder) -> None:
        starts.append("start")
        start(self)

    monkeypatch.setattr(Embedder, "start_in_background", spy)
    _build(project, "site", "cache")
    assert starts == []  # no last build to compare with
    _build(project, "site", "cache")
    assert starts == []
    page = project / "docs" / "user-guide" / "scheduling.md"
    page.write_text(page.read_text(encoding="utf-8") + EDIT, encoding="utf-8")
    edited = _build(project, "site", "cache")
    assert starts == ["start"]
    assert _build(project, "fresh-site", "fresh-cache") == edited


@pytest.mark.parametrize(
    ("option", "value"),
    [("limit", 7), ("related_count", 3), ("sections_per_page", 2), ("embeddings", True)],
)
def test_a_changed_option_builds_again(
    project: Path, bundles_built: list[int], option: str, value: object
) -> None:
    first = _build(project, "site", "cache", embeddings=False)
    changed = _build(project, "site", "cache", **{"embeddings": False, option: value})
    assert bundles_built == [1, 1]
    assert changed != first
    assert _build(project, "fresh-site", "fresh-cache", **{"embeddings": False, option: value}) == changed


def test_another_code_version_builds_again(
    project: Path, bundles_built: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _build(project, "site", "cache", embeddings=False)
    monkeypatch.setattr(bundle_reuse, "package_digest", lambda stamp_dir=None: "another plugin's code")
    assert _build(project, "site", "cache", embeddings=False) == first
    assert bundles_built == [1, 1]


def test_a_ci_build_keeping_only_the_cache_folder_writes_the_bundle(project: Path, bundles_built: list[int]) -> None:
    """A CI job keeps the cache folder between runs and starts without a site: the bundle is kept
    whole in the cache folder, not only set aside from the last site."""
    cold = _build(project, "site", "cache")
    shutil.rmtree(project / "site")
    assert _build(project, "site", "cache") == cold
    assert bundles_built == [1]


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_a_damaged_record_builds_again(project: Path, bundles_built: list[int], damage: str) -> None:
    first = _build(project, "site", "cache", embeddings=False)
    (record,) = (project / "cache").glob("bundle-*.cache")
    data = bytearray(record.read_bytes())
    if damage == "flip":
        data[-3] ^= 0x20
    else:
        del data[-3:]
    record.write_bytes(bytes(data))
    assert _build(project, "site", "cache", embeddings=False) == first
    assert bundles_built == [1, 1]


def test_a_bundle_built_with_a_warning_is_not_recorded(project: Path, bundles_built: list[int]) -> None:
    """A warning while building (a damaged cache, a model that cannot run) is met again by the
    next build, not inherited as a bundle to reuse."""
    _build(project, "site", "cache", embeddings=False)
    (entry,) = (project / "cache").glob("keyword-tokens-*.cache")
    for record in (project / "cache").glob("bundle-*.cache"):
        record.unlink()
    entry.write_bytes(entry.read_bytes()[:-5])
    _build(project, "site", "cache", embeddings=False)
    assert not list((project / "cache").glob("bundle-*.cache"))
    _build(project, "site", "cache", embeddings=False)
    assert bundles_built == [1, 1, 1]


def test_the_code_digest_is_stamped_while_the_files_are_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package, cache = tmp_path / "package", tmp_path / "cache"
    (package / "sub").mkdir(parents=True)
    cache.mkdir()
    (package / "a.py").write_text("A = 1\n")
    (package / "sub" / "words.txt").write_text("word\n")
    monkeypatch.setattr(bundle_reuse.mkdocs_graphsearch, "__path__", [str(package)])
    hashed: list[int] = []
    digest = bundle_reuse._package_digest

    def counted(files: list[tuple[str, str]]) -> str:
        hashed.append(len(files))
        return digest(files)

    monkeypatch.setattr(bundle_reuse, "_package_digest", counted)

    def fresh(stamp_dir: Path | None) -> str:
        bundle_reuse.package_digest.cache_clear()  # as a new build process
        return bundle_reuse.package_digest(stamp_dir)

    first = fresh(cache)
    assert fresh(cache) == first == fresh(None)
    assert hashed == [2, 2]  # the second build read the stamp; no stamp folder: hashed
    (package / "a.py").write_text("A = 2\n")
    changed = fresh(cache)
    assert changed != first and changed == fresh(None)
    (cache / "code-stamp.cache").write_bytes(b"damaged")
    assert fresh(cache) == changed
    bundle_reuse.package_digest.cache_clear()
