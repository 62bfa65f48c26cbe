"""Other languages (issue 11): the example site's Japanese and Chinese pages are in its nav, and
queries in Japanese, in Chinese, and mixing either with Latin identifiers find them, in both
engines (CJK text is searched by overlapping bigrams: text/tokenize.py rule 5)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from mkdocs.config import load_config

from conftest import EXAMPLE_SITE, build_bundle_dir, bundle_part, rewrite_bundle_file
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.write import dumps
from mkdocs_graphsearch.commands.js_engine import run_js_queries
from mkdocs_graphsearch.engine.search import search
from parity import first_difference

JA, ZH = "ja/quickstart-ja.md", "zh/retries-zh.md"
#: Queries in one language: (query, page, the section that answers it).
NATIVE = [
    ("ワーカーを起動する", JA, "start-a-worker"),
    ("ジョブを登録する", JA, "enqueue-a-job"),
    ("タスクを定義", JA, "define-a-task"),
    ("サーバーを起動", JA, "start-the-server"),
    ("死信队列", ZH, "dead-letter-queue"),
    ("随机抖动", ZH, "jitter"),
    ("稍后重试", ZH, "retry-later"),
    ("任务超时", ZH, "timeouts"),
    ("立即放弃", ZH, "give-up"),
]
#: A Latin identifier and CJK words: (query, page). The English pages answer the identifier too.
MIXED = [
    ("tidewaterd 起動", JA),
    ("--concurrency 同時に実行", JA),
    ("TidewaterClient ジョブを登録", JA),
    ("resize_image タスク", JA),
    ("RetryLater 怎么用", ZH),
    ("PermanentFailure 立即放弃", ZH),
    ("dead_letter_queue 死信队列", ZH),
    ("max_attempts 重试次数", ZH),
]
MODES = ["keyword", "hybrid"]


@pytest.fixture(scope="module")
def example_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("languages"), EXAMPLE_SITE / "docs", embeddings=True)


def _answers(path: Path, queries: list[str], modes: list[str]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(query, mode) -> the results of each engine, after checking that they agree."""
    bundle = load_bundle(path)
    found: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for mode in modes:
        js = run_js_queries(path, [{"id": i, "query": q} for i, q in enumerate(queries)], mode=mode)
        for query, js_out in zip(queries, js, strict=True):
            python = search(bundle, query, mode=mode)
            assert first_difference(python, js_out) is None, (query, mode, first_difference(python, js_out))
            found[(query, mode)] = python["results"]
    return found


@pytest.fixture(scope="module")
def answers(node: str, example_bundle: Path) -> dict[tuple[str, str], list[dict[str, Any]]]:
    return _answers(example_bundle, [query for query, *_ in NATIVE + MIXED], MODES)


def _rank(results: list[dict[str, Any]], page: str) -> int | None:
    return next((i for i, result in enumerate(results, 1) if result["page"] == page), None)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("query", "page", "anchor"), NATIVE)
def test_a_query_in_the_page_language_finds_it_first(
    answers: dict, query: str, page: str, anchor: str, mode: str
) -> None:
    results = answers[(query, mode)]
    assert results and results[0]["page"] == page, [r["page"] for r in results]
    if mode == "keyword":
        # The answering section first. Hybrid orders the page's sections with the semantic
        # model's help, and that model reads English: no promise there.
        assert results[0]["sections"][0]["anchor"] == anchor, [s["anchor"] for s in results[0]["sections"]]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("query", "page"), MIXED)
def test_a_mixed_script_query_finds_the_page(answers: dict, query: str, page: str, mode: str) -> None:
    rank = _rank(answers[(query, mode)], page)
    limit = 3 if mode == "keyword" else 10
    assert rank is not None and rank <= limit, (rank, [r["page"] for r in answers[(query, mode)]])


#: Graph expansion (issue 22): a Japanese query whose page links English pages (with the English
#: word it is about: a query in CJK alone is not read by meaning, test_cjk_meaning.py, and its
#: keyword answer alone expands to nothing), and an English query whose answer expands to other pages.
JA_EXPANDED, EN_EXPANDED = "キューを一時停止する queue", "how do I put this on a server"
EXPANDING = ["hybrid", "vector"]


def _expanded(results: list[dict[str, Any]]) -> set[str]:
    """The pages of the sections graph expansion brought."""
    return {result["page"] for result in results for section in result["sections"] if "graph" in section["via"]}


@pytest.mark.parametrize("mode", EXPANDING)
def test_expansion_brings_no_page_in_another_language(node: str, example_bundle: Path, mode: str) -> None:
    found = _answers(example_bundle, [JA_EXPANDED, EN_EXPANDED], [mode])
    japanese = found[(JA_EXPANDED, mode)]
    assert japanese and japanese[0]["page"] == JA, [r["page"] for r in japanese]
    assert _expanded(japanese) <= {JA}, _expanded(japanese)
    if mode == "hybrid":  # an English answer still expands to other English pages
        assert _expanded(found[(EN_EXPANDED, mode)]) - {JA, ZH}, found[(EN_EXPANDED, mode)]


def test_a_bundle_without_page_languages_expands_across_them(
    node: str, example_bundle: Path, tmp_path: Path
) -> None:
    """An older bundle (no keyword.json pages.language) counts every page as one language: the
    Japanese page's links bring English pages again, in both engines."""
    older = tmp_path / "older"
    shutil.copytree(example_bundle, older)
    keyword = orjson.loads(bundle_part(older, "keyword.json").read_bytes())
    assert keyword["pages"].pop("language")[keyword["pages"]["path"].index(JA)] == "ja"
    rewrite_bundle_file(older, "keyword.json", dumps(keyword))
    japanese = _answers(older, [JA_EXPANDED], ["hybrid"])[(JA_EXPANDED, "hybrid")]
    assert _expanded(japanese) - {JA}, [r["page"] for r in japanese]


@pytest.mark.parametrize("config", ["mkdocs.yml", "mkdocs-material.yml"])
def test_both_pages_are_in_the_example_site_nav(config: str) -> None:
    def pages(items: list[Any]) -> list[str]:
        found: list[str] = []
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            found.extend(pages(value) if isinstance(value, list) else [value])
        return found

    nav = pages(load_config(config_file=str(EXAMPLE_SITE / config))["nav"])
    assert JA in nav and ZH in nav, nav
