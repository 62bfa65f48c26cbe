"""A query written in Japanese or Chinese only is not searched by meaning (issue 22), in either
engine: the query encoder (an English model's static rows) reads CJK text as its characters, so a
likeness to any page, English or CJK, would be noise. The build lists every CJK piece of the
encoder among its `stop_pieces` (index/semantic.py cjk_pieces), so such a query gets no vector:
hybrid answers it by its keyword matches alone (on the example site the vector side had ranked the CJK
pages below the keyword order for `ジョブの結果はいつまで保存される`). A query that mixes in a
Latin word (`RetryLater 怎么用`) is still read by meaning, through that word."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_SITE, build_bundle_dir
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.commands.js_engine import run_js_queries
from mkdocs_graphsearch.engine.encoder import load_encoder, query_vector
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.semantic import cjk_pieces
from mkdocs_graphsearch.text.wordpiece import WordPiece

#: Katakana words, kana and kanji questions, Chinese questions; some the site answers, some not.
QUERIES = [
    "キュー", "ワーカーを起動する", "スケジュール", "ジョブの状態を確認する", "キューを一時停止する",
    "優先度", "ログを見る", "失败的任务怎么办", "死信队列是什么", "配置文件在哪里", "设置定时任务",
]  # fmt: skip
#: A Latin word the site uses, then Chinese.
MIXED = "RetryLater 怎么用"
MODES = ["vector", "hybrid"]


@pytest.fixture(scope="module")
def example_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("cjk-bundle"), EXAMPLE_SITE / "docs", embeddings=True)


@pytest.mark.parametrize("mode", MODES)
def test_a_cjk_query_is_not_searched_by_meaning(example_bundle: Path, node: str, mode: str) -> None:
    bundle = load_bundle(example_bundle)
    outputs = [search(bundle, query, mode=mode) for query in QUERIES]
    items = [{"id": i, "query": query} for i, query in enumerate(QUERIES)]
    js = run_js_queries(example_bundle, items, mode=mode)
    python = [by_meaning(output) for output in outputs]
    assert python == [by_meaning(output) for output in js]
    assert python == [[] for _ in QUERIES]
    assert all(query_vector(bundle, query) is None for query in QUERIES)


def test_a_latin_word_beside_cjk_is_read_by_meaning(example_bundle: Path) -> None:
    bundle = load_bundle(example_bundle)
    assert query_vector(bundle, MIXED) is not None
    assert any(by_meaning(search(bundle, MIXED, mode="vector")))


def test_every_cjk_piece_of_the_encoder_is_a_stop_piece(example_bundle: Path) -> None:
    bundle = load_bundle(example_bundle)
    stops = set(bundle.manifest["encoder"]["stop_pieces"])
    cjk = cjk_pieces(WordPiece(load_encoder(bundle).vocab_path)) & set(bundle.encoder_arrays.tokens)
    assert cjk and cjk <= stops
    assert not stops & set(WordPiece(load_encoder(bundle).vocab_path).pieces(MIXED.split()[0]))


def by_meaning(output: dict[str, Any]) -> list[str]:
    """The sections of an answer the vector side found."""
    return [
        section["anchor"] for result in output["results"] for section in result["sections"]
        if "vector" in section["via"]
    ]  # fmt: skip
