"""The `graphsearch` command's shapes (other tools call them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from conftest import EXAMPLE_SITE


def graphsearch(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_graphsearch.cli", *args], input=stdin, capture_output=True
    )


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli-bundle")
    done = graphsearch("index", str(EXAMPLE_SITE / "docs"), "--out", str(out), "--no-embeddings")
    assert done.returncode == 0, done.stderr
    assert b"about/contributing.md:44: broken link" in done.stderr
    return out


def test_chunks_json_shape() -> None:
    docs = EXAMPLE_SITE / "docs"
    done = graphsearch("chunks", str(docs / "reference" / "configuration.md"), "--root", str(docs), "--json")
    assert done.returncode == 0, done.stderr
    page = orjson.loads(done.stdout)
    assert page["page"] == "reference/configuration.md"
    assert set(page) == {"page", "chunks", "broken_links"}
    first = page["chunks"][0]
    assert set(first) == {"id", "title", "level", "kind", "parent", "anchor", "language", "symbols", "text", "links"}
    assert first["kind"] == "page" and first["parent"] is None
    assert any(c["kind"] == "code" and c["language"] == "yaml" for c in page["chunks"])
    assert any(c["anchor"] == "retry_policy" for c in page["chunks"])


def test_tokenize_json() -> None:
    done = graphsearch("tokenize", "HTTPException use_directory_urls", "--json")
    assert orjson.loads(done.stdout) == ["httpexception", "http", "exception", "use_directory_urls", "use", "directory", "urls"]


def test_query_json_shape(bundle: Path) -> None:
    done = graphsearch("query", str(bundle), "visibility_timeout", "--json", "--limit", "2")
    output = orjson.loads(done.stdout)
    assert output["query"] == "visibility_timeout" and output["mode"] == "keyword"
    assert len(output["results"]) <= 2
    top = output["results"][0]
    assert set(top) == {"page", "url", "title", "score", "sections"}
    assert top["sections"][0]["anchor"] == "visibility_timeout"
    assert {"id", "anchor", "title", "score", "snippet"} <= set(top["sections"][0])


def test_queries_file_gives_one_line_per_query_with_its_id(bundle: Path, tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_bytes(b'{"id": "a", "query": "retry"}\n{"id": 7, "query": "--concurrency"}\n')
    for engine in ("python", "js"):
        done = graphsearch("query", str(bundle), "--queries", str(queries), "--engine", engine)
        lines = [orjson.loads(line) for line in done.stdout.splitlines()]
        assert [line["id"] for line in lines] == ["a", 7], (engine, done.stderr)
        assert lines[1]["results"], engine


def test_js_engine_prints_the_same_json(bundle: Path) -> None:
    python = orjson.loads(graphsearch("query", str(bundle), "dead leter queue", "--json", "--explain").stdout)
    js = orjson.loads(graphsearch("query", str(bundle), "dead leter queue", "--json", "--explain", "--engine", "js").stdout)
    assert python == js


def test_eval_reports_metrics_per_type(bundle: Path, tmp_path: Path) -> None:
    judged = tmp_path / "judged.jsonl"
    judged.write_bytes(orjson.dumps({
        "id": "t1", "query": "visibility_timeout", "type": "identifier",
        "relevant": [{"path": "reference/configuration.md", "anchor": "visibility_timeout", "grade": 2}],
    }) + b"\n")
    report = orjson.loads(graphsearch("eval", str(bundle), str(judged)).stdout)
    assert report["overall"]["hit@5"] == 1.0
    assert report["overall"]["ndcg@10"] > 0.5
    assert set(report["by_type"]) == {"identifier"}


def test_query_text_is_never_an_error(bundle: Path) -> None:
    for query in [":", "--", '"', "(", "[x]", "+a -b *c ~d", "a", "ab", "日本", "\\"]:
        done = graphsearch("query", str(bundle), query, "--json")
        assert done.returncode == 0, (query, done.stderr)
