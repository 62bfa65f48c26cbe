"""API sites (issue 22): mkdocstrings parameter entries (`parameter_headings: true`) fold into
their object's row and are titled `object › name`, never bare rows, in both engines, on the
harbor site built for real (engine/results.py parameter_of)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.commands.js_engine import run_js_queries
from mkdocs_graphsearch.engine.search import search
from test_plugin_rendered import build_harbor, copy_site

#: Two functions with a parameter of the same name (`loader kind:api` once showed two rows
#: titled `loader`, one after the other).
LOADERS = '''

def load(package: str, loader: str = "static") -> None:
    """Load a package's berths.

    Args:
        package: The package to load.
        loader: The loader that reads the berths.
    """


def load_git(repo: str, ref: str = "main", loader: str = "static") -> None:
    """Load berths from a git repository.

    Args:
        repo: The repository to clone.
        ref: The ref to check out.
        loader: The loader that reads the berths.
    """
'''
QUERIES = ["loader kind:api", "ship", "repo", "length_m", "berths", "load_git"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_site(tmp_path_factory.mktemp("api") / "harbor")
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("heading_level: 2", "heading_level: 2\n            parameter_headings: true"),
                      encoding="utf-8")
    with (project / "src" / "harbor" / "__init__.py").open("a", encoding="utf-8") as source:
        source.write(LOADERS)
    return build_harbor(project)


def _rows(output: dict[str, Any]) -> list[tuple[str, str]]:
    return [(section["title"], section["anchor"]) for page in output["results"] for section in page["sections"]]


def test_parameters_are_titled_by_their_object_in_both_engines(site: Path) -> None:
    bundle = load_bundle(site)
    anchors = set(bundle.chunks["anchor"])
    assert "harbor.load_git(repo)" in anchors, "parameter headings are chunks"
    python = [search(bundle, query, mode="keyword") for query in QUERIES]
    js = run_js_queries(site, [{"id": str(i), "query": query} for i, query in enumerate(QUERIES)], mode="keyword")
    assert [answer["results"] for answer in js] == [answer["results"] for answer in python]
    by_query = dict(zip(QUERIES, python, strict=True))
    loaders = [title for title, _ in _rows(by_query["loader kind:api"])]
    assert "load › loader" in loaders and "load_git › loader" in loaders, loaders
    assert "loader" not in loaders
    assert ("load_git › repo", "harbor.load_git(repo)") in _rows(by_query["repo"])
    for output in python:
        for title, anchor in _rows(output):
            if anchor.endswith(")"):  # a parameter entry (or a code block in one): never a bare name
                assert " › " in title, (output["query"], title, anchor)


def test_one_row_per_object(site: Path) -> None:
    """An object and its parameters share one row: whichever ranks first stands for them."""
    bundle = load_bundle(site)
    for query in QUERIES:
        for page in search(bundle, query, mode="keyword")["results"]:
            objects = [section["anchor"].split("(")[0] for section in page["sections"] if section["kind"] == "api"]
            assert len(objects) == len(set(objects)), (query, objects)
            titles = [section["title"] for section in page["sections"]]
            assert all(a != b for a, b in itertools.pairwise(titles)), (query, titles)
