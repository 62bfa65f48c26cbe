"""Any query is bounded work: both engines read its first `max_query_chars` code points (the
manifest's, or the format-1 fallback), so a 200 KB query answers the same in both, without error
(js/test/long_query.test.js checks the JS side alone)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.bundle.write import sealed_manifest
from mkdocs_graphsearch.engine.search import MAX_QUERY_CHARS_IF_ABSENT, bounded_query, search
from parity import assert_parity
from test_cli import graphsearch

FROZEN = ROOT / "tests" / "vectors" / "engine" / "bundle"
#: 995 astral code points (1990 UTF-16 units) then words: a cut in UTF-16 units keeps no word.
LONG = "\U0001f600" * 995 + " retry" + " timeout" * 30000
LONG_QUERIES = [LONG, "\u6f22\u5b57" * 100000, "a_b" * 70000, "dead letter queue " * 12000]


@pytest.fixture(scope="module")
def example_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("long-query"), EXAMPLE_SITE / "docs", embeddings=False)


def test_the_limit_is_in_the_manifest(example_bundle: Path) -> None:
    bundle = load_bundle(example_bundle)
    assert bundle.settings["max_query_chars"] == SearchSettings().max_query_chars
    assert "max_query_chars" not in load_bundle(FROZEN).settings  # format 1: the fallback
    assert SearchSettings().max_query_chars == MAX_QUERY_CHARS_IF_ABSENT


def test_a_long_query_answers_as_its_cut() -> None:
    bundle = load_bundle(FROZEN)
    cut = bounded_query(bundle, LONG)
    assert len(cut) == MAX_QUERY_CHARS_IF_ABSENT and cut.endswith(" retr")
    for mode in ("keyword", "vector", "hybrid"):
        long = search(bundle, LONG, mode=mode)
        assert long["results"], mode
        assert long["results"] == search(bundle, cut, mode=mode)["results"], mode


@pytest.mark.parametrize("name", ["frozen", "example"])
def test_long_queries_answer_the_same_in_both_engines(node: str, example_bundle: Path, name: str) -> None:
    folder = FROZEN if name == "frozen" else example_bundle
    modes: list[str | None] = ["keyword", "vector", "hybrid"] if name == "frozen" else ["keyword"]
    assert assert_parity(folder, LONG_QUERIES, modes) == len(LONG_QUERIES) * len(modes)


def test_a_queries_batch_with_a_200_kb_query_runs_in_js(node: str, example_bundle: Path, tmp_path: Path) -> None:
    queries = tmp_path / "queries.jsonl"
    items = [{"id": 1, "query": "retry"}, *({"id": i, "query": q} for i, q in enumerate(LONG_QUERIES, 2))]
    queries.write_bytes(b"".join(orjson.dumps(item) + b"\n" for item in items))
    done = graphsearch("query", str(example_bundle), "--engine", "js", "--queries", str(queries))
    assert done.returncode == 0, done.stderr.decode()[:500]
    lines = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert [line["id"] for line in lines] == [item["id"] for item in items] and lines[1]["results"]


def test_a_js_error_is_prefixed_once(example_bundle: Path, tmp_path: Path, node: str) -> None:
    broken = tmp_path / "bundle"
    broken.mkdir()
    for file in example_bundle.iterdir():
        (broken / file.name).write_bytes(file.read_bytes())
    manifest = orjson.loads((broken / "manifest.json").read_bytes())
    manifest["format"] = 99
    (broken / "manifest.json").write_bytes(sealed_manifest(manifest))
    done = graphsearch("query", str(broken), "retry", "--engine", "js")
    stderr = done.stderr.decode()
    assert done.returncode == 1, stderr
    assert stderr.startswith("error: manifest.json is bundle format 99, newer than this search runtime"), stderr
