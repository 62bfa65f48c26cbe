"""The `graphsearch` command's shapes (other tools call them)."""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from conftest import EXAMPLE_SITE, ROOT
from mkdocs_graphsearch import __version__
from mkdocs_graphsearch.commands.cli import build_parser
from mkdocs_graphsearch.common.terminal import clean, emphasis_for, format_results


def graphsearch(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_graphsearch.commands.cli", *args], input=stdin, capture_output=True
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
    assert orjson.loads(done.stdout) == [
        "httpexception", "http", "exception", "use_directory_urls", "use", "directory", "urls"
    ]


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
    js_run = graphsearch("query", str(bundle), "dead leter queue", "--json", "--explain", "--engine", "js")
    js = orjson.loads(js_run.stdout)
    assert python == js


def test_eval_reports_metrics_per_type(bundle: Path, tmp_path: Path) -> None:
    judged = tmp_path / "judged.jsonl"
    judged.write_bytes(orjson.dumps({
        "id": "t1", "query": "visibility_timeout", "type": "identifier",
        "relevant": [{"path": "reference/configuration.md", "anchor": "visibility_timeout", "grade": 2}],
    }) + b"\n")
    report = orjson.loads(graphsearch("eval", str(bundle), str(judged), "--json").stdout)
    assert report["overall"]["hit@5"] == 1.0
    assert report["overall"]["ndcg@10"] > 0.5
    assert set(report["by_type"]) == {"identifier"}


def test_query_text_is_never_an_error(bundle: Path) -> None:
    for query in [":", "--", '"', "(", "[x]", "+a -b *c ~d", "a", "ab", "日本", "\\"]:
        done = graphsearch("query", str(bundle), query, "--json")
        assert done.returncode == 0, (query, done.stderr)


def test_version() -> None:
    done = graphsearch("--version")
    assert done.returncode == 0
    assert done.stdout.decode() == f"graphsearch {__version__}\n"


@pytest.mark.parametrize("command", ["chunks", "tokenize", "index", "query", "eval", "mcp"])
def test_help_gives_every_option_a_default(command: str) -> None:
    text = graphsearch(command, "--help").stdout.decode()
    options = re.split(r"\n  (?=-)", text.split("options:")[1])[1:]
    assert len(options) >= 2
    for option in options:
        if not option.startswith("-h"):
            assert "default" in option or "required" in option, option


def test_help_shows_the_real_defaults() -> None:
    assert "(default: python)" in " ".join(graphsearch("query", "--help").stdout.decode().split())
    index_help = " ".join(graphsearch("index", "--help").stdout.decode().split())
    assert "(default: 6)" in index_help and "(default: .cache/graphsearch)" in index_help


def test_every_argument_has_help() -> None:
    subcommands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in subcommands.choices.items():
        for action in parser._actions:
            assert action.help, f"graphsearch {name}: {action.dest} has no help"


def test_check_help_documents_the_file_and_the_exit_codes() -> None:
    text = graphsearch("check", "--help").stdout.decode()
    for needed in ("- query:", "page:", "section:", "absent:", "within:", "mode:", "exit codes: 0", "1 a check failed",
                   "2 bad input"):
        assert needed in text, needed


def test_mcp_help_names_the_extra() -> None:
    assert "pip install 'mkdocs-graphsearch[mcp]'" in " ".join(graphsearch("mcp", "--help").stdout.decode().split())


def test_the_home_page_prints_as_the_site_root() -> None:
    """MkDocs gives the home page the URL `./`: a reader types `/`, not `/./`."""
    section = {"title": "Welcome", "url": "./#install", "score": 1.0, "via": ["keyword"], "snippet": ""}
    page = {"title": "Welcome", "page": "index.md", "url": "./", "score": 1.0, "sections": [section]}
    text = format_results({"query": "x", "mode": "keyword", "results": [page]}, lambda word: word, None)
    assert "  /#install\n" in text and "/./" not in text


def test_index_percent_encodes_urls_as_mkdocs_does(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    names = {
        "javascript:alert(1).md": "javascript%3Aalert%281%29/",
        "<img src=x onerror=alert(6)>.md": "%3Cimg%20src%3Dx%20onerror%3Dalert%286%29%3E/",
        "a b/README.md": "a%20b/",
    }
    for name in names:
        (docs / name).parent.mkdir(exist_ok=True)
        (docs / name).write_text("# Lighthouse\n\nlighthouse keeper\n", encoding="utf-8")
    done = graphsearch("index", str(docs), "--out", str(tmp_path / "bundle"), "--no-embeddings")
    assert done.returncode == 0, done.stderr
    output = orjson.loads(graphsearch("query", str(tmp_path / "bundle"), "lighthouse", "--json").stdout)
    assert {page["page"]: page["url"] for page in output["results"]} == names


def _page_blocks(text: str) -> list[str]:
    return re.split(r"\n\n(?=\d+\. )", text)[1:]


def test_query_text_shows_snippets_via_scores_and_plurals(bundle: Path) -> None:
    one = graphsearch("query", str(bundle), "visibility_timeout", "--limit", "1").stdout.decode()
    assert one.startswith('"visibility_timeout": 1 page (keyword search)\n')
    assert "/reference/configuration/#visibility_timeout" in one
    assert re.search(r"score \d+\.\d{4}, via keyword\n", one)
    assert "[visibility_timeout]" in one  # the marked word, readable without a terminal's bold
    two = graphsearch("query", str(bundle), "retry", "--limit", "2").stdout.decode()
    assert two.startswith('"retry": 2 pages (keyword search)\n')
    for block in _page_blocks(one) + _page_blocks(two):
        listed = block.count("\n   - ")
        assert f", {listed} section{'s' if listed != 1 else ''}\n" in block, block
    for text in (one, two):
        assert "<mark>" not in text and "&#39;" not in text and "&quot;" not in text


def test_explain_without_json_labels_each_part(bundle: Path) -> None:
    args = ("query", str(bundle), "visibility_timeout", "--limit", "1", "--explain")
    data = orjson.loads(graphsearch(*args, "--json").stdout)
    text = graphsearch(*args).stdout.decode()
    for section in data["results"][0]["sections"]:
        bm25 = section["explain"]["bm25"]
        assert f"keyword  rank {bm25['rank']}, BM25 {bm25['score']:.4f}\n" in text


def test_explain_lines_for_vector_and_graph() -> None:
    section = {
        "title": "Backoff", "url": "guide/#backoff", "score": 0.03, "snippet": "a <mark>b</mark> &amp; c",
        "via": ["vector", "graph"],
        "explain": {
            "vector": {"rank": 4, "cosine": 0.51234},
            "graph": {"from": "guide.md::Retry", "edge": "child", "depth": 1},
        },
    }
    output = {"query": "q", "mode": "hybrid", "results": [
        {"page": "guide.md", "title": "Guide", "score": 0.02, "sections": [section]},
    ]}
    text = format_results(output, lambda word: f"*{word}*", "hybrid")
    assert "     a *b* & c\n" in text
    assert "vector   rank 4, cosine 0.5123\n" in text
    assert text.endswith("graph    from guide.md::Retry (child edge, depth 1)")
    assert "via vector, graph" in text and "1 section\n" in text


def test_explain_line_for_the_fusion() -> None:
    """A hybrid answer's `fusion` (engine/fuse.py fusion_explain) is one line under the header."""
    output = {"query": "render fails", "mode": "hybrid", "results": [],
              "fusion": {"held": 1, "matched": 2, "words": 2, "gap": 0.5234, "sure": True, "keyword_share": 1.0}}
    text = format_results(output, lambda word: word, "hybrid")
    assert text.splitlines()[1] == ("keyword share 1.00: its best match holds 1 of 2 query words "
                                    "(2 with typo, stem and completion matches), leads the next by 0.52; "
                                    "every word matched: the keyword answer")
    output["fusion"] |= {"matched": 1, "sure": False, "keyword_share": 0.7}
    text = format_results(output, lambda word: word, "hybrid")
    assert text.splitlines()[1] == ("keyword share 0.70: its best match holds 1 of 2 query words "
                                    "(1 with typo, stem and completion matches), leads the next by 0.52")
    output["fusion"] |= {"slip": True, "sure": True, "keyword_share": 1.0}
    text = format_results(output, lambda word: word, "hybrid")
    assert text.splitlines()[1].endswith("leads the next by 0.52; a misspelt word corrected: the keyword answer")


def test_asked_mode_that_the_bundle_cannot_run_is_said(bundle: Path) -> None:
    text = graphsearch("query", str(bundle), "retry", "--mode", "vector", "--limit", "1").stdout.decode()
    assert text.startswith('"retry": 1 page (keyword search; vector needs vectors, the bundle has none)\n')


EVIL_TITLE = "Evil \x1b[2J\x1b]0;owned\x07 title \u202egnp.exe"


@pytest.fixture(scope="module")
def evil_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A page whose title and text carry escape sequences, controls and a bidi override."""
    root = tmp_path_factory.mktemp("evil")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text(
        f"# {EVIL_TITLE}\n\nAbout visibility \x1b[31mred\x1b[0m, a bell \x07 and a "
        "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\.\n"
        "\n## Sec \x1b[1mtwo\u2066\n\nvisibility again\n",
        encoding="utf-8",
    )
    done = graphsearch("index", str(root / "docs"), "--out", str(root / "bundle"), "--no-embeddings")
    assert done.returncode == 0, done.stderr
    return root / "bundle"


def test_terminal_output_has_no_escape_sequences(evil_bundle: Path) -> None:
    text = graphsearch("query", str(evil_bundle), "visibility", "--explain").stdout.decode()
    assert "Evil  title gnp.exe" in text and "Sec two" in text and "red, a bell  and a link" in text
    assert "[2J" not in text and "owned" not in text and "[31m" not in text
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text), repr(text)


def test_json_output_keeps_titles_exact(evil_bundle: Path) -> None:
    done = graphsearch("query", str(evil_bundle), "visibility", "--json")
    assert b"\x1b" not in done.stdout  # JSON escapes it
    assert orjson.loads(done.stdout)["results"][0]["title"] == EVIL_TITLE


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\x1b[2Jb", "ab"),
        ("a\x1b]0;title\x07b", "ab"),
        ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("a\x9b31mb", "ab"),
        ("a\x1bcb", "ab"),
        ("line\r\nbreak\ttab", "line break tab"),
        ("\u202eexe.txt\u2069\u200f", "exe.txt"),
        ("plain — ünïcode 日本", "plain — ünïcode 日本"),
    ],
)
def test_clean(text: str, shown: str) -> None:
    assert clean(text) == shown


def test_marked_words_are_bold_on_a_colour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert emphasis_for(Terminal())("x") == "\x1b[1mx\x1b[22m"
    monkeypatch.setenv("NO_COLOR", "1")
    assert emphasis_for(Terminal())("x") == "[x]"
    assert emphasis_for(io.StringIO())("x") == "[x]"


def test_eval_prints_a_table(bundle: Path, tmp_path: Path) -> None:
    judged = tmp_path / "judged.jsonl"
    rows = [
        {"id": "t1", "query": "visibility_timeout", "type": "identifier",
         "relevant": [{"path": "reference/configuration.md", "anchor": "visibility_timeout", "grade": 2}]},
        {"id": "t2", "query": "zzzzqqqq", "type": "natural",
         "relevant": [{"path": "index.md", "anchor": "", "grade": 1}]},
    ]
    judged.write_bytes(b"".join(orjson.dumps(row) + b"\n" for row in rows))
    done = graphsearch("eval", str(bundle), str(judged))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "mode: keyword"
    assert lines[2].split() == ["type", "nDCG@10", "MRR@10", "hit@5", "queries"]
    table = {line.split()[0]: line.split()[1:] for line in lines[4:7]}
    assert table["identifier"][2:] == ["1.0000", "1"]
    assert table["natural"] == ["0.0000", "0.0000", "0.0000", "1"]
    assert table["overall"][2:] == ["0.5000", "2"]
    assert lines[-1] == "1 query with no result"


def _lines(tmp_path: Path, *lines: bytes) -> str:
    path = tmp_path / "queries.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return str(path)


#: The bytes ED A0 80 (U+D800 encoded alone, not UTF-8) as an argument: Python's argv holds surrogates.
LONE_SURROGATE = "\udced\udca0\udc80"

BAD_INPUT = {
    "unknown mode": (lambda b, t: ["query", b, "x", "--mode", "fuzzy"], "invalid choice: 'fuzzy'"),
    "no bundle": (lambda b, t: ["query", str(t), "x"], "no search bundle at"),
    "no bundle, js": (lambda b, t: ["query", str(t), "x", "--engine", "js"], "no search bundle at"),
    "no site for eval": (lambda b, t: ["eval", str(t / "site"), _lines(t, b'{"query": "x", "relevant": []}')],
                         "no search bundle at"),
    "bad json line": (lambda b, t: ["query", b, "--queries", _lines(t, b'{"query": "a"}', b"{oops")],
                      "queries.jsonl:2: not valid JSON"),
    "no query": (lambda b, t: ["query", b, "--queries", _lines(t, b'{"id": 1}')], 'queries.jsonl:1: no "query" string'),
    "no query, js": (lambda b, t: ["query", b, "--engine", "js", "--queries", _lines(t, b"", b'{"q": "x"}')],
                     'queries.jsonl:2: no "query" string'),
    "query not a string": (lambda b, t: ["query", b, "--queries", _lines(t, b'{"query": 5}')], 'no "query" string'),
    "not an object": (lambda b, t: ["query", b, "--queries", _lines(t, b'["x"]')],
                      "queries.jsonl:1: expected a JSON object"),
    "no judgments": (lambda b, t: ["eval", b, _lines(t, b'{"query": "x"}')],
                     'queries.jsonl:1: "relevant" must be a list'),
    "empty file": (lambda b, t: ["eval", b, _lines(t, b"")], "holds no queries"),
    "missing file": (lambda b, t: ["query", b, "--queries", str(t / "absent.jsonl")], "cannot read"),
    "lone surrogate": (lambda b, t: ["query", b, LONE_SURROGATE], "the query is not valid UTF-8"),
    "lone surrogate, js": (lambda b, t: ["query", b, LONE_SURROGATE, "--engine", "js"],
                           "the query is not valid UTF-8"),
    "lone surrogate in a file": (lambda b, t: ["query", b, "--queries", _lines(t, b'{"query": "\\ud800"}')],
                                 "queries.jsonl:1: not valid JSON"),
    "query and file": (lambda b, t: ["query", b, "x", "--queries", _lines(t, b'{"query": "x"}')], "one of them"),
    "no query at all": (lambda b, t: ["query", b], "give a QUERY or --queries"),
    "limit 0": (lambda b, t: ["query", b, "x", "--limit", "0"], "'0' is not an integer from 1"),
    "chunk depth 9": (lambda b, t: ["index", str(t), "--out", str(t / "o"), "--chunk-depth", "9"],
                      "'9' is not an integer from 1 to 6"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
def test_bad_input_is_a_message_and_exit_code_2(bundle: Path, tmp_path: Path, case: str) -> None:
    if case.endswith(", js") and shutil.which("node") is None:
        pytest.skip("node is not installed")
    args, message = BAD_INPUT[case]
    done = graphsearch(*args(str(bundle), tmp_path))
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert message in stderr
    assert "Traceback" not in stderr and done.stdout == b""


@pytest.mark.parametrize(
    ("cache", "out", "message"),
    [
        ("shared", "shared", "is --out"),  # the cache's upkeep deleted the bundle's encoder-model.*.bin
        ("bundle/cache", "bundle", "is inside --out"),  # published with the bundle
        ("cache", "cache/bundle", "holds --out"),  # clearing the cache deletes the bundle
    ],
)
def test_index_refuses_a_cache_folder_that_holds_or_is_in_the_bundle(
    tmp_path: Path, cache: str, out: str, message: str
) -> None:
    (tmp_path / cache).mkdir(parents=True)
    kept = tmp_path / cache / "encoder-model.0badc0de.bin"
    kept.write_bytes(b"a bundle part an earlier build wrote")
    before = sorted(tmp_path.rglob("*"))
    docs = str(EXAMPLE_SITE / "docs")
    done = graphsearch("index", docs, "--out", str(tmp_path / out), "--cache-dir", str(tmp_path / cache))
    stderr = done.stderr.decode()
    assert done.returncode == 2 and f"--cache-dir {tmp_path / cache} {message} {tmp_path / out}" in stderr, stderr
    assert sorted(tmp_path.rglob("*")) == before and kept.read_bytes() == b"a bundle part an earlier build wrote"


def test_build_refuses_a_cache_folder_inside_the_site(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html><body><main><h1>Home</h1></main></body></html>")
    done = graphsearch("build", str(tmp_path), "--cache-dir", str(tmp_path / ".cache"))
    assert done.returncode == 2 and "is inside the site folder" in done.stderr.decode(), done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["index.html"]


def test_js_driver_rejects_an_item_without_a_query(bundle: Path, node: str) -> None:
    done = subprocess.run(
        [node, str(ROOT / "js" / "drivers" / "query.mjs"), str(bundle)],
        input=orjson.dumps([{"query": "retry"}, {"id": 2}]),
        capture_output=True,
    )
    assert done.returncode == 2
    assert done.stderr.decode() == 'error: item 2 of the input has no "query" string: {"id":2}\n'
    assert done.stdout == b""  # not a search for "undefined"


def test_related_lists_pages_and_with_explain_says_why(bundle: Path) -> None:
    plain = graphsearch("related", str(bundle), "user-guide/retries.md")
    assert plain.returncode == 0, plain.stderr
    lines = plain.stdout.decode().splitlines()
    assert lines[0] == "user-guide/retries.md: 5 related pages" and lines[1].startswith("1. ")
    assert "[how-to/dead-letter-queues.md]" in plain.stdout.decode()
    explained = graphsearch("related", str(bundle), "user-guide/retries.md", "--explain").stdout.decode()
    assert "one links the other" in explained or "they link each other" in explained
    data = json.loads(graphsearch("related", str(bundle), "user-guide/retries/", "--json").stdout)
    assert data["page"] == "user-guide/retries.md" and all("reason" in entry for entry in data["related"])
    missing = graphsearch("related", str(bundle), "no/such-page.md")
    assert missing.returncode == 2 and b"no page or section" in missing.stderr
