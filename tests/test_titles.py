"""A query equal to a page's title, or to the site's name, puts that page first (issue 22;
engine/titles.py, js/src/engine/titles.js), in both engines, when the keyword side found it
(the home page here says the site's name once, a guide page four times)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import build_bundle_dir
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.commands.js_engine import run_js_queries
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.bm25 import FIELD_WEIGHTS, chunk_tokens

PAGES = {
    "index.md": "# Welcome\n\nStart here to learn Acme Docs.\n",
    "guide/setup.md": "# Setting up Acme Docs\n\nAcme Docs builds Acme Docs sites; install Acme Docs first.\n",
    "guide/publish.md": "# Publishing\n\nPublish the site with `acme publish`. Publishing twice is safe.\n",
    "guide/deploy.md": "# Deploy to production\n\nA production deploy runs `acme publish` on the server.\n",
    "guide/notes.md": "# Notes\n\nDeploy to production after review: deploy, production, deploy to production.\n",
}
#: query -> the page it must put first
FIRST = {"acme docs": "index.md", "Acme Docs": "index.md", "deploy to production": "guide/deploy.md",
         "Publishing": "guide/publish.md"}


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = tmp_path_factory.mktemp("docs")
    for path, text in PAGES.items():
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        (docs / path).write_text(text, encoding="utf-8")
    return build_bundle_dir(tmp_path_factory.mktemp("bundle"), docs, embeddings=False, site_name="Acme Docs")


def test_the_site_name_reaches_the_manifest(bundle_dir: Path) -> None:
    assert load_bundle(bundle_dir).manifest["site_name"] == "Acme Docs"


def test_a_title_or_the_site_name_puts_its_page_first(bundle_dir: Path, node: str) -> None:
    bundle = load_bundle(bundle_dir)
    python = {query: search(bundle, query, mode="keyword")["results"][0]["page"] for query in FIRST}
    items = [{"id": i, "query": query} for i, query in enumerate(FIRST)]
    outputs = run_js_queries(bundle_dir, items, mode="keyword")
    js = {query: out["results"][0]["page"] for query, out in zip(FIRST, outputs, strict=True)}
    assert python == js == FIRST


def test_a_longer_query_is_no_title(bundle_dir: Path) -> None:
    """Only the whole title counts: `deploy to production servers` is an ordinary query."""
    first = search(load_bundle(bundle_dir), "deploy to production notes", mode="keyword")["results"][0]
    assert first["page"] == "guide/notes.md"


EMPTY_FIELDS = dict.fromkeys(FIELD_WEIGHTS, "")
#: Headings that are stop words alone (issue 22): an API page's sections `where` and `Or`.
API_PAGE = (
    "# Query API\n\nBuild a query.\n\n## where\n\nFilters rows by a condition.\n\n"
    "## Or\n\nJoins two conditions.\n\n## The where clause\n\nA clause of the query.\n\n"
    "## `select` and `from`\n\nPick columns of a table.\n"
)


def test_a_title_of_stop_words_alone_keeps_them_as_names() -> None:
    def title_terms(title: str) -> dict[str, int]:
        return chunk_tokens({**EMPTY_FIELDS, "title": title})[0][0]

    assert title_terms("where") == {"where": 1} and title_terms("Or") == {"or": 1}
    assert title_terms("The where clause") == {"clause": 1}  # prose: its stop words go


def test_a_stop_word_heading_is_found_by_its_word_in_both_engines(
    tmp_path_factory: pytest.TempPathFactory, node: str
) -> None:
    docs = tmp_path_factory.mktemp("api-docs")
    (docs / "index.md").write_text("# Home\n\nWelcome.\n", encoding="utf-8")
    (docs / "api.md").write_text(API_PAGE, encoding="utf-8")
    bundle_dir = build_bundle_dir(tmp_path_factory.mktemp("api-bundle"), docs, embeddings=False)
    bundle = load_bundle(bundle_dir)
    wanted = {"where": "api/#where", "Or": "api/#or", "or": "api/#or", "from": "api/#select-and-from"}
    python = {query: search(bundle, query, mode="keyword")["results"][0]["sections"][0]["url"] for query in wanted}
    outputs = run_js_queries(bundle_dir, [{"id": i, "query": query} for i, query in enumerate(wanted)], mode="keyword")
    js = {query: out["results"][0]["sections"][0]["url"] for query, out in zip(wanted, outputs, strict=True)}
    assert python == js == wanted
