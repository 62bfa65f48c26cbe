"""The docs as tools for AI agents: docs_tools.py directly, and `graphsearch mcp` over a real stdio
session with the MCP SDK's own client (skipped, with the reason, when the `mcp` extra is absent)."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir, bundle_part
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.commands.docs_tools import DocsTools, ToolProblem, UnknownDoc
from mkdocs_graphsearch.engine.search import search

SITE_URL = "https://docs.example.com/"


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("mcp"), EXAMPLE_SITE / "docs", embeddings=False)


@pytest.fixture(scope="module")
def bundle(bundle_dir: Path) -> Bundle:
    return load_bundle(bundle_dir)


# ------------------------------------------------------------------------------ the tools


def test_search_gives_pages_sections_urls_and_plain_snippets(bundle: Bundle) -> None:
    output = DocsTools(bundle, SITE_URL).search("visibility_timeout", limit=2)
    assert output["mode"] == "keyword" and len(output["results"]) == 2
    top = output["results"][0]["sections"][0]
    assert top["id"] == "reference/configuration.md::visibility_timeout"
    assert top["url"] == f"{SITE_URL}reference/configuration/#visibility_timeout"
    marked = search(bundle, "visibility_timeout", limit=2)["results"][0]["sections"][0]["snippet"]
    assert "<mark>Visibility</mark>" in marked  # the engine's HTML snippet ...
    assert "See Visibility timeout" in top["snippet"] and "<" not in top["snippet"]  # ... as plain text


def test_search_filters_join_the_query_text(bundle: Bundle) -> None:
    output = DocsTools(bundle).search("jitter", filters=["tags:ops"])
    assert output["query"] == "jitter tags:ops"


def test_an_unknown_facet_is_refused_with_the_known_ones(bundle: Bundle) -> None:
    # It used to join the query text as two more words to search for.
    with pytest.raises(ToolProblem, match="FACET one of tags, in, kind, lang; this site has in:reference") as error:
        DocsTools(bundle).search("jitter", filters=["colour:red"])
    assert "tags:retries" in str(error.value) and "kind:code" in str(error.value)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": "\ud800abc"}, "query is not valid Unicode text"),  # a TypeError deep in the engine before
        ({"query": "  "}, "query is empty"),
        ({"query": "x", "limit": 0}, "limit must be a whole number from 1 to 100 (got 0)"),
        ({"query": "x", "limit": True}, "limit must be a whole number"),
        ({"query": "x", "mode": "fast"}, "mode must be one of"),
        ({"query": "x", "filters": "tags:ops"}, "filters must be a list"),
        ({"query": "x", "filters": ["tags:\udc80"]}, "a filter is not valid Unicode text"),
    ],
)
def test_bad_search_arguments_are_said_in_plain_words(bundle: Bundle, arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ToolProblem, match=message.replace("(", r"\(").replace(")", r"\)")):
        DocsTools(bundle).search(**arguments)


def test_read_a_section_by_id_anchor_or_url(bundle: Bundle) -> None:
    tools = DocsTools(bundle, SITE_URL)
    backoff = tools.read("user-guide/retries.md#backoff")["text"]
    assert "\n2 | 1 s\n" in backoff and "\x1f" not in backoff  # a table row's cells apart (text/cells.py)
    by_id = tools.read("user-guide/retries.md::Jitter")
    assert tools.read("user-guide/retries.md#jitter") == by_id
    assert tools.read(f"{SITE_URL}user-guide/retries/#jitter") == by_id
    assert by_id["text"].startswith("### Jitter\n\n") and "random factor" in by_id["text"]
    assert by_id["kind"] == "section" and by_id["page"] == "user-guide/retries.md"


@pytest.mark.parametrize(
    "url",
    [
        "user-guide/retries/#backoff",  # a result's url
        "/user-guide/retries/#backoff",  # as the CLI prints it
        "/user-guide/retries#backoff",
        f"{SITE_URL}user-guide/retries/#backoff",  # absolute, under site_url
        "/user-guide/retries/index.html?h=backoff#backoff",  # a browser's, with Material's highlight
        "https://docs.example.com/user-guide/retries/#backoff",
    ],
)
def test_read_takes_every_url_form_of_a_section(bundle: Bundle, url: str) -> None:
    assert DocsTools(bundle, SITE_URL).read(url)["id"] == "user-guide/retries.md::Backoff and retries"


@pytest.mark.parametrize("url", ["/", SITE_URL, "index.html", "/index.html"])
def test_read_takes_the_home_page_by_its_urls(bundle: Bundle, url: str) -> None:
    assert DocsTools(bundle, SITE_URL).read(url)["id"] == "index.md"


def test_read_from_the_docs_gives_the_section_as_written(bundle: Bundle) -> None:
    section = DocsTools(bundle, docs_dir=EXAMPLE_SITE / "docs").read("/user-guide/retries/#backoff")
    source = (EXAMPLE_SITE / "docs" / "user-guide" / "retries.md").read_text(encoding="utf-8")
    assert section["source"] == "docs" and not section["truncated"]
    text = section["text"]
    assert text.startswith("## Backoff and retries") and text in source  # the source's own lines
    assert "| Attempt | Delay before it |\n|---------|" in text  # the table as a table
    assert "[visibility timeout](queues-and-workers.md#leases)" in text  # links with their targets
    assert text.index("```\ndelay(n)") < text.index("| Attempt")  # code where it stands, not at the end
    assert text.index("### Jitter") < text.index("```python")  # subsections with their code
    assert "## Controlling retries" not in text  # the next section is not part of it
    page = DocsTools(bundle, docs_dir=EXAMPLE_SITE / "docs").read("user-guide/retries.md")
    assert page["text"].startswith("# ") and "\n---\n" not in page["text"][:4]  # no front matter


def test_read_never_serves_a_file_outside_the_docs(bundle: Bundle, tmp_path: Path) -> None:
    # A tampered bundle naming a page ../secret.md: its chunk id matches that file's root chunk.
    (tmp_path / "docs").mkdir()
    (tmp_path / "secret.md").write_text("# Secret\n\nhunter2-token\n", encoding="utf-8")
    tampered = copy.deepcopy(bundle)
    tampered.pages["path"][0] = "../secret.md"
    first = tampered.chunks["page"].index(0)
    tampered.chunks["id"][first] = "../secret.md"
    section = DocsTools(tampered, docs_dir=tmp_path / "docs").read("../secret.md")
    assert section["source"] == "index" and "hunter2-token" not in section["text"]


def test_read_under_a_site_url_with_a_path(bundle: Bundle) -> None:
    tools = DocsTools(bundle, "https://example.org/docs/")
    assert tools.read("/docs/user-guide/retries/#jitter")["id"] == "user-guide/retries.md::Jitter"
    assert tools.read("/docs/")["id"] == "index.md"
    assert tools.read("https://example.org/docs/user-guide/retries/")["url"] == "https://example.org/docs/user-guide/retries/"


def test_read_without_the_docs_says_it_gives_the_index_text(bundle: Bundle, tmp_path: Path) -> None:
    assert DocsTools(bundle).read("user-guide/retries.md::Jitter")["source"] == "index"
    # A source without that section any more: the bundle's text, never a wrong section.
    (tmp_path / "user-guide").mkdir()
    (tmp_path / "user-guide" / "retries.md").write_text("# Retries\n\nRewritten.\n", encoding="utf-8")
    assert DocsTools(bundle, docs_dir=tmp_path).read("user-guide/retries.md::Jitter")["source"] == "index"


def test_read_a_page_gives_its_text_code_and_links_both_ways(bundle: Bundle) -> None:
    page = DocsTools(bundle).read("user-guide/retries.md")
    assert page["id"] == "user-guide/retries.md" and page["url"] == "user-guide/retries/"
    for heading in ("## Backoff and retries", "### Jitter", "## Dead letter queue", "## Timeouts"):
        assert f"\n{heading}" in page["text"], heading
    assert "```" in page["text"]  # its code blocks, fenced
    assert {"reference/configuration.md", "reference/errors.md"} <= {link["page"] for link in page["links"]}
    assert "index.md" in {link["page"] for link in page["linked_from"]}
    assert all(link["page"] != "user-guide/retries.md" for link in page["links"] + page["linked_from"])


def test_related_and_list_pages(bundle: Bundle) -> None:
    tools = DocsTools(bundle)
    related = tools.related("user-guide/retries.md")["related"]
    assert "how-to/dead-letter-queues.md" in [entry["page"] for entry in related[:3]]
    listing = tools.list_pages()
    assert [page["page"] for page in listing["pages"]] == bundle.pages["path"]
    assert listing["start"][0] == "reference/configuration.md" and len(listing["start"]) == 8


def test_an_unknown_id_says_where_to_look(bundle: Bundle) -> None:
    with pytest.raises(UnknownDoc, match="list_pages"):
        DocsTools(bundle).read("nowhere.md")


# ------------------------------------------------------------------------------ over MCP


def _text(result: Any) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


def test_a_real_stdio_session_calls_every_tool(bundle_dir: Path) -> None:
    pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install 'mkdocs-graphsearch[mcp]')")
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mkdocs_graphsearch.commands.cli", "mcp", str(bundle_dir), "--site-url", SITE_URL],
        env={"PYTHONPATH": str(ROOT)},
        cwd=str(ROOT),
    )
    calls: dict[str, Any] = {}

    async def session() -> None:
        # A hung server fails the test instead of hanging the suite (a bound, not a measurement).
        with anyio.fail_after(120):
            await calls_every_tool()

    async def calls_every_tool() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            info = await client.initialize()
            calls["server"] = info.server_info.name
            calls["tools"] = {tool.name: tool for tool in (await client.list_tools()).tools}
            calls["search"] = await client.call_tool(
                "search", {"query": "SIGTERM", "limit": 3, "mode": "keyword", "filters": ["in:user-guide"]}
            )
            calls["bad mode"] = await client.call_tool("search", {"query": "SIGTERM", "mode": "fast"})
            first = calls["search"].structured_content["results"][0]["sections"][0]
            calls["read"] = await client.call_tool("read", {"id": first["id"]})
            calls["read url"] = await client.call_tool("read", {"id": first["url"]})
            calls["read missing"] = await client.call_tool("read", {"id": "nowhere.md"})
            calls["related"] = await client.call_tool("related", {"page": "how-to/dead-letter-queues.md"})
            calls["list_pages"] = await client.call_tool("list_pages", {})

    # In a thread of its own: Playwright's sync API (the browser tests' shared chromium) keeps an
    # event loop running in the main thread for the rest of the session.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(anyio.run, session).result()

    assert calls["server"] == "graphsearch"
    tools = calls["tools"]
    assert set(tools) == {"search", "read", "related", "list_pages"}
    assert set(tools["search"].input_schema["properties"]) == {"query", "limit", "mode", "filters"}
    assert tools["search"].input_schema["required"] == ["query"]
    assert all(tool.description for tool in tools.values())

    search = calls["search"]
    assert not search.is_error
    output = search.structured_content
    assert output["query"] == "SIGTERM in:user-guide" and output["mode"] == "keyword"
    assert 1 <= len(output["results"]) <= 3
    section = output["results"][0]["sections"][0]
    assert section["url"].startswith(SITE_URL) and section["snippet"]
    assert '"results"' in _text(search)  # the same JSON as text, for clients without structured content

    assert calls["bad mode"].is_error and "mode must be one of" in _text(calls["bad mode"])

    read = calls["read"].structured_content
    assert read["id"] == section["id"] and read["text"] and not calls["read"].is_error
    assert calls["read url"].structured_content == read
    assert calls["read missing"].is_error and "no page or section 'nowhere.md'" in _text(calls["read missing"])

    related = calls["related"].structured_content
    assert related["page"] == "how-to/dead-letter-queues.md"
    assert related["related"][0]["page"] == "user-guide/retries.md"
    assert related["related"][0]["url"] == f"{SITE_URL}user-guide/retries/"

    listing = calls["list_pages"].structured_content
    assert len(listing["pages"]) == 20 and len(listing["start"]) == 8


def test_without_the_sdk_the_command_says_how_to_get_it(bundle_dir: Path) -> None:
    code = (
        "import sys; sys.modules['mcp'] = None; from mkdocs_graphsearch.commands.cli import main; "
        f"sys.exit(main(['mcp', {str(bundle_dir)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr == "error: graphsearch mcp needs the MCP Python SDK: pip install 'mkdocs-graphsearch[mcp]'\n"


def test_a_missing_site_is_exit_2(tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install 'mkdocs-graphsearch[mcp]')")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_graphsearch.commands.cli", "mcp", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.startswith("error: no search bundle at")


# ------------------------------------------------------------------------------ raw lines over stdio

INITIALIZE = {
    "jsonrpc": "2.0", "id": "init", "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}


def _call(request_id: int, tool: str, arguments: object) -> bytes:
    params = {"name": tool, "arguments": arguments}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}).encode()


def _raw_session(bundle_dir: Path, lines: list[bytes], *options: str) -> list[dict[str, Any]]:
    """The answers of a real `graphsearch mcp` to `lines` (sent after the handshake; each must
    get one), in the order written; then stdin is closed, and the server must exit."""
    pytest.importorskip("mcp", reason="the mcp extra is not installed (pip install 'mkdocs-graphsearch[mcp]')")
    handshake = [json.dumps(INITIALIZE).encode(), b'{"jsonrpc": "2.0", "method": "notifications/initialized"}']
    with subprocess.Popen(
        [sys.executable, "-m", "mkdocs_graphsearch.commands.cli", "mcp", str(bundle_dir), *options],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as server:
        # A hung server fails the test instead of hanging the suite (a bound, not a measurement).
        watchdog = threading.Timer(300, server.kill)
        watchdog.start()
        try:
            assert server.stdin is not None and server.stdout is not None
            server.stdin.write(b"\n".join([*handshake, *lines]) + b"\n")
            server.stdin.flush()
            answers = []
            while len(answers) < 1 + len(lines) and (line := server.stdout.readline()):
                answers.append(json.loads(line))
            server.stdin.close()
            assert server.wait() == 0
        finally:
            watchdog.cancel()
    assert answers[0]["id"] == "init" and len(answers) == 1 + len(lines)
    return answers[1:]


#: Lines that are no request the SDK takes, and the JSON-RPC error each must get (id, code).
MALFORMED = {
    "truncated JSON": (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call"', None, -32700),
    "not JSON": (b"hello", None, -32700),
    "not UTF-8": (b'{"jsonrpc": "2.0", "id": 2, "method": "ping", "x": "\xff"}', None, -32700),
    "a NUL byte": (b'{"jsonrpc": "2.0", "id": 3, "method": "pi\x00ng"}', None, -32700),
    "a batch": (b'[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]', None, -32600),
    "a number": (b"42", None, -32600),
    "an object id": (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', None, -32600),
    "a boolean id": (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', None, -32600),
    "100k-deep nesting": (b"[" * 100_000 + b"]" * 100_000, None, -32700),
    "300-deep params": (b'{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": {"a": ' + b"[" * 300 + b"]" * 300
                        + b"}}", 5, -32600),
    "no method": (b'{"jsonrpc": "2.0", "id": 6}', 6, -32600),
    "a lone surrogate": (_call(7, "search", {"query": "\ud800abc"}), 7, -32602),
    "over the size bound": (b'"' + b"x" * (2 << 20) + b'"', None, -32600),
}


def test_every_malformed_line_gets_a_json_rpc_error(bundle_dir: Path) -> None:
    answers = _raw_session(bundle_dir, [line for line, _, _ in MALFORMED.values()])
    assert len(answers) == len(MALFORMED)  # one answer each: none dropped
    for (kind, (_, request_id, code)), answer in zip(MALFORMED.items(), answers, strict=True):
        assert answer["id"] == request_id and answer["error"]["code"] == code, kind
        assert answer["error"]["message"] and "pydantic" not in answer["error"]["message"], kind


def test_bad_arguments_and_a_damaged_part_are_tool_errors_in_plain_words(bundle_dir: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "bundle"
    shutil.copytree(bundle_dir, damaged)
    related = bundle_part(damaged, "related.json")
    related.write_bytes(related.read_bytes()[:-10])
    answers = _raw_session(damaged, [
        _call(1, "search", {"query": "x", "limit": 0}),
        _call(2, "search", {}),
        _call(3, "search", {"query": "x", "filters": ["colour:red"]}),
        _call(4, "search", {"query": "x", "colour": "red"}),
        _call(5, "read", {"id": "/user-guide/retries/#backoff"}),
        _call(6, "related", {"page": "index.md"}),
    ])
    texts = {answer["id"]: " ".join(block["text"] for block in answer["result"]["content"]) for answer in answers}
    errors = {answer["id"] for answer in answers if answer["result"].get("isError")}
    assert errors == {1, 2, 3, 4, 6}
    assert texts[1] == "search: limit must be a whole number from 1 to 100 (got 0)"
    assert texts[2] == "search needs query: what to look for, in words or as an identifier"
    assert "'colour:red' is not FACET:VALUE with FACET one of tags, in, kind, lang; this site has" in texts[3]
    assert texts[4] == "search takes query, limit, mode, filters; not colour"
    assert all("pydantic" not in texts[i] and "https:" not in texts[i] for i in errors)
    assert json.loads(texts[5])["id"] == "user-guide/retries.md::Backoff and retries"
    assert "related.json is corrupted" in texts[6] and "rebuild the site" in texts[6]


def test_read_over_mcp_gives_the_source_with_docs_dir(bundle_dir: Path) -> None:
    answers = _raw_session(bundle_dir, [_call(1, "read", {"id": "/"})], "--docs-dir", str(EXAMPLE_SITE / "docs"))
    read = json.loads(answers[0]["result"]["content"][0]["text"])
    assert read["id"] == "index.md" and read["source"] == "docs" and read["text"].startswith("# Tidewater")


def test_a_built_site_beside_its_mkdocs_yml_reads_from_its_docs(bundle_dir: Path, tmp_path: Path) -> None:
    from mkdocs_graphsearch.commands.docs_tools import docs_dir_of

    shutil.copytree(bundle_dir, tmp_path / "public" / "search")
    shutil.copytree(EXAMPLE_SITE / "docs", tmp_path / "pages")
    config = tmp_path / "mkdocs.yml"
    # Tags MkDocs configs use (Material's emoji, !ENV) must not stop the reading.
    config.write_text(
        "site_name: x\ndocs_dir: pages\nsite_dir: public\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\nextra:\n  key: !ENV KEY\n",
        encoding="utf-8",
    )
    assert docs_dir_of(tmp_path / "public") == tmp_path / "pages"
    assert docs_dir_of(tmp_path / "pages") is None  # not the site that file builds
    answers = _raw_session(tmp_path / "public", [_call(1, "read", {"id": "/user-guide/retries/#jitter"})])
    read = json.loads(answers[0]["result"]["content"][0]["text"])
    assert read["source"] == "docs" and read["text"].startswith("### Jitter")
    plain = _raw_session(tmp_path / "public", [_call(1, "read", {"id": "/"})], "--docs-dir", "")
    assert json.loads(plain[0]["result"]["content"][0]["text"])["source"] == "index"
