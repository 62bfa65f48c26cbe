"""The plugin indexes what MkDocs rendered: a site with includes, API pages, macros, generated
pages, toc_depth and wiki links (tests/sites/harbor), built for real; plus --dirty builds."""

from __future__ import annotations

import logging
import os
import re
import shutil
import time
from pathlib import Path
from urllib.parse import unquote

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from conftest import ROOT
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search

HARBOR = ROOT / "tests" / "sites" / "harbor"


def copy_site(target: Path) -> Path:
    shutil.copytree(HARBOR, target, ignore=shutil.ignore_patterns(".cache", "site"))
    return target


def build_harbor(project: Path, *, dirty: bool = False, **options: object) -> Path:
    """Build the copy in `project` (its own cache under project/.cache) into project/site."""
    config = load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    config.plugins["graphsearch"].config.update(options)
    build(config, dirty=dirty)
    return project / "site"


@pytest.fixture(scope="module")
def harbor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_site(tmp_path_factory.mktemp("harbor") / "harbor")
    return build_harbor(project)


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def _html_of(site: Path, url: str) -> str:
    page = site / url / "index.html" if url.endswith("/") or not url else site / url
    return page.read_text("utf-8")


def top_section(site: Path, query: str) -> tuple[str, str]:
    """(page path, section anchor) of the first result, checking that the anchor is a real id."""
    bundle = load_bundle(site)
    results = search(bundle, query, mode="keyword")["results"]
    assert results, f"no result for {query!r}"
    first = results[0]
    anchor = first["sections"][0]["anchor"] if first["sections"] else ""
    if anchor:
        assert anchor in _ids(_html_of(site, first["url"])), f"#{anchor} is not an id on {first['url']}"
    return first["page"], anchor


@pytest.mark.parametrize(
    ("query", "path", "anchor"),
    [
        ("quayside", "guide/tides.md", "tide-tables"),  # only in the included snippet
        ("marigraph", "guide/tides.md", "spring-tides"),  # an h3 below toc_depth keeps its own id
        ("Skerryvoe", "index.md", ""),  # a macro's rendered value
        ("gangway clearance", "reference/api.md", "harbor.MooringPlanner.assign_berth"),  # docstring
        ("assign_berth", "reference/api.md", "harbor.MooringPlanner.assign_berth"),  # API name
        ("tide_window", "reference/api.md", "harbor.tide_window"),
        ("tugboatfleet", "generated/fleet.md", "tugboats"),  # a page mkdocs-gen-files made
    ],
)
def test_rendered_content_is_found_under_its_real_id(harbor: Path, query: str, path: str, anchor: str) -> None:
    assert top_section(harbor, query) == (path, anchor)


def test_api_entries_are_their_own_kind(harbor: Path) -> None:
    """mkdocstrings objects are `kind:api` results, which define their names (issue 12)."""
    bundle = load_bundle(harbor)
    assert {"value": "api", "label": "api", "count": 4} in bundle.manifest["facets"]["kind"]
    listed = [s for page in search(bundle, "kind:api")["results"] for s in page["sections"]]
    assert {s["kind"] for s in listed} == {"api"} and listed[0]["via"] == ["filter"]
    berth = search(bundle, "kind:api berth")["results"][0]["sections"][0]
    assert (berth["kind"], berth["anchor"]) == ("api", "harbor.MooringPlanner.assign_berth")
    prose = [s for page in search(bundle, "kind:prose berth")["results"] for s in page["sections"]]
    assert prose and "api" not in {s["kind"] for s in prose}
    # `MooringPlanner.assign_berth` names the entry by its dotted suffix: it defines it.
    top = search(bundle, "MooringPlanner.assign_berth")["results"][0]["sections"][0]
    assert top["anchor"] == "harbor.MooringPlanner.assign_berth"


def test_no_raw_template_or_include_syntax_is_indexed(harbor: Path) -> None:
    texts = "\n".join(load_bundle(harbor).texts)
    assert "{{" not in texts and "--8<--" not in texts and ":::" not in texts


def test_wiki_links_render_as_links_and_feed_the_graph(harbor: Path) -> None:
    html = _html_of(harbor, "")
    assert '<a href="guide/tides/">tides</a>' in html
    assert '<a href="guide/mooring/#bollards">how bollards work</a>' in html
    assert "[[anchorage]]" not in html and "anchorage" in html  # unresolved: its text, no brackets
    assert "<code>[[tides]]</code>" in html and "[[mooring]] in a code block" in html  # code untouched
    bundle = load_bundle(harbor)
    root = bundle.chunks["id"].index("index.md")
    graph = bundle.graph
    targets = {bundle.chunks["id"][t] for t in graph["targets"][graph["offsets"][root] : graph["offsets"][root + 1]]}
    assert {"guide/tides.md", "guide/mooring.md::Bollards"} <= targets


def _graph_targets(site: Path, chunk_id: str) -> set[str]:
    bundle = load_bundle(site)
    chunk, graph = bundle.chunks["id"].index(chunk_id), bundle.graph
    return {bundle.chunks["id"][t] for t in graph["targets"][graph["offsets"][chunk] : graph["offsets"][chunk + 1]]}


def test_autorefs_cross_references_feed_the_graph(tmp_path: Path) -> None:
    """mkdocstrings' `[title][identifier]` references reach page.content as `<autoref>` elements;
    autorefs resolves them to the page and anchor that define the object, and so does the graph."""
    project = copy_site(tmp_path / "harbor")
    page = project / "docs" / "guide" / "mooring.md"
    page.write_text(
        page.read_text(encoding="utf-8") + "\n## Planning\n\nBerths come from [the planner]"
        "[harbor.MooringPlanner.assign_berth], tides from [harbor.tide_window][].\n",
        encoding="utf-8",
    )
    site = build_harbor(project)
    assert 'href="../../reference/api/#harbor.tide_window"' in _html_of(site, "guide/mooring/")
    api = {"reference/api.md::assign_berth(ship, length_m)", "reference/api.md::tide_window(port)"}
    assert api <= _graph_targets(site, "guide/mooring.md::Planning")


def test_warnings_name_file_and_line_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    project = copy_site(tmp_path / "harbor")
    with caplog.at_level(logging.WARNING):
        build_harbor(project)
    ours = [r.getMessage().removeprefix("mkdocs_graphsearch: ") for r in caplog.records if "graphsearch" in r.name]
    assert ours == ["index.md:5: wiki link [[anchorage]] matches no page; shown as text"], ours
    # MkDocs reports the broken markdown link; we do not report it a second time.
    everything = [r.getMessage() for r in caplog.records]
    assert sum("missing.md" in m for m in everything) == 1, everything


def _answers(site: Path, queries: list[str]) -> list[list[tuple[str, list[str]]]]:
    bundle = load_bundle(site)
    return [
        [(r["page"], [s["id"] for s in r["sections"]]) for r in search(bundle, q, mode="keyword")["results"]]
        for q in queries
    ]


QUERIES = ["quayside", "bollards", "assign_berth", "tugboatfleet", "Harbormaster", "tides", "pilot boat"]


def _touch_later(path: Path) -> None:
    """Make a source newer than its built page (mtime granularity), so --dirty rebuilds it."""
    later = time.time() + 5
    os.utime(path, (later, later))


def test_dirty_build_keeps_unchanged_pages(tmp_path: Path) -> None:
    project = copy_site(tmp_path / "harbor")
    build_harbor(project)
    mooring = project / "docs" / "guide" / "mooring.md"
    mooring.write_text(mooring.read_text("utf-8") + "\n## Pilot boats\n\nA pilot boat meets every ship.\n", "utf-8")
    _touch_later(mooring)
    dirty_site = build_harbor(project, dirty=True)
    dirty = _answers(dirty_site, QUERIES)
    dirty_pages = load_bundle(dirty_site).pages["path"]

    full_site = build_harbor(copy_site(tmp_path / "full"))
    (tmp_path / "full" / "docs" / "guide" / "mooring.md").write_text(mooring.read_text("utf-8"), "utf-8")
    full_site = build_harbor(tmp_path / "full")
    assert dirty_pages == load_bundle(full_site).pages["path"]
    assert dirty == _answers(full_site, QUERIES)
    assert dirty[QUERIES.index("pilot boat")][0][0] == "guide/mooring.md"


def test_dirty_build_without_saved_state_indexes_every_page(tmp_path: Path) -> None:
    project = copy_site(tmp_path / "harbor")
    build_harbor(project)
    shutil.rmtree(project / ".cache")
    site = build_harbor(project, dirty=True)
    assert len(load_bundle(site).pages["path"]) == 5


def test_deleted_page_disappears_from_results(tmp_path: Path) -> None:
    project = copy_site(tmp_path / "harbor")
    build_harbor(project)
    (project / "docs" / "guide" / "tides.md").unlink()
    site = build_harbor(project, dirty=True)
    bundle = load_bundle(site)
    assert "guide/tides.md" not in bundle.pages["path"]
    assert search(bundle, "quayside")["results"] == []


@pytest.mark.parametrize(
    "toc",
    [
        "  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n"
        "      separator: _\n",
        "  - markdown.extensions.toc:\n      separator: .\n",
    ],
    ids=["pymdownx-slugs", "separator"],
)
def test_wiki_link_anchors_follow_the_sites_toc_slugify(tmp_path: Path, toc: str) -> None:
    """`[[page#Heading]]` lands on the id the site's own toc settings give the heading."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [[quay#Über die Straße]].\n", encoding="utf-8")
    (docs / "quay.md").write_text("# Quay\n\n## Über die Straße\n\nCobbles.\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Quay\ntheme:\n  name: mkdocs\n  highlightjs: false\n"
        f"plugins:\n  - graphsearch:\n      embeddings: false\n      cache_dir: ''\nmarkdown_extensions:\n{toc}",
        encoding="utf-8",
    )
    build(load_config(config_file=str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site")))
    href = re.search(r'<a href="quay/#([^"]+)">', _html_of(tmp_path / "site", ""))
    assert href, "the wiki link is not a link to quay/"
    assert unquote(href.group(1)) in _ids(_html_of(tmp_path / "site", "quay/"))


def test_hooks_run_after_autorefs_and_before_default_priority_plugins(tmp_path: Path) -> None:
    """Pages are read once autorefs has resolved its references (on_env), and the runtime's
    tags go in before a minifier of default priority rewrites the page, whatever the order of
    `plugins:`. A `hooks:` file stands in for the minifier."""
    project = copy_site(tmp_path / "harbor")
    (project / "minify.py").write_text("def on_post_page(output, **kwargs):\n    return output\n", encoding="utf-8")
    with (project / "mkdocs.yml").open("a", encoding="utf-8") as file:
        file.write("hooks:\n  - minify.py\n")
    config = load_config(config_file=str(project / "mkdocs.yml"))
    config = config.plugins.on_config(config)  # where mkdocstrings adds autorefs

    def order(event: str) -> list[str]:
        return [type(hook.__self__).__name__ if hasattr(hook, "__self__") else hook.__module__
                for hook in config.plugins.events[event]]

    env = order("env")
    assert env.index("AutorefsPlugin") < env.index("GraphSearchPlugin"), env
    assert order("post_page")[0] == "GraphSearchPlugin" and len(order("post_page")) == 2, order("post_page")
