"""The docs as tools for AI agents: docs_tools.py directly, and `graphsearch mcp` over a real stdio
session with the MCP SDK's own client (skipped, with the reason, when the `mcp` extra is absent)."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.commands.docs_tools import DocsTools, UnknownDoc
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


def test_read_a_section_by_id_anchor_or_url(bundle: Bundle) -> None:
    tools = DocsTools(bundle, SITE_URL)
    by_id = tools.read("user-guide/retries.md::Jitter")
    assert tools.read("user-guide/retries.md#jitter") == by_id
    assert tools.read(f"{SITE_URL}user-guide/retries/#jitter") == by_id
    assert by_id["text"].startswith("### Jitter\n\n") and "random factor" in by_id["text"]
    assert by_id["kind"] == "section" and by_id["page"] == "user-guide/retries.md"


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
