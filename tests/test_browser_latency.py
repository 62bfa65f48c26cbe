"""What the first search waits for (issue 23's latency), in a real browser on the example site: a
test of which requests and messages a search makes, never of how fast (that is
benchmarks/material_latency.py).

- A query entered whole (pasted, or given to the dialog) is sent to the search service as
  `settled`: its semantic half starts without the typing pause (engine/worker.js
  SEMANTIC_PAUSE_MS; js/test/semantic_pause.test.js shows the service honours it); a typed key
  is not.
- The chunk graph is fetched only for an answer that expands through it (engine.js GRAPH): an
  identifier the keyword side is sure of fetches no graph file, a question its seeds' shards.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser_support import DIALOG, expect, open_search, wait_complete  # noqa: E402 (after the skip)

pytestmark = pytest.mark.browser

# The query messages the page sends to the search worker, as they leave it.
RECORD_QUERIES = """
(() => {
  window.__queries = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === "query") window.__queries.push([message.query, message.settled]);
    return post.call(this, message, ...rest);
  };
})();
"""


def _paste(page, text: str) -> None:
    """Ctrl+V of `text` into the focused field (a real paste: inputType insertFromPaste)."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.keyboard.press("Control+V")


def _graph_requests(page, start: int) -> list[str]:
    return [url for url in page.requests[start:] if "/search/graph." in url]


def _hybrid(page) -> None:
    wait_complete(page)
    expect(page.locator(f"{DIALOG} .gs-box")).to_have_attribute("data-gs-mode", "hybrid")


def test_a_pasted_query_is_settled_and_a_typed_key_is_not(page, sites):
    page.add_init_script(RECORD_QUERIES)
    page.goto(sites.url("mkdocs", "user-guide/jobs/"))
    open_search(page)
    _paste(page, "retry failed jobs")
    _hybrid(page)
    page.keyboard.type("s")
    page.keyboard.press("Escape")
    page.evaluate("window.graphsearchUI.open('visibility_timeout')")  # as a theme's field or a link gives it
    assert page.evaluate("window.__queries") == [
        ["retry failed jobs", True], ["retry failed jobss", False], ["visibility_timeout", True]]


def test_a_one_fragment_sites_graph_comes_with_the_manifest_once(page, sites):
    """The example site's texts are one fragment: its one graph shard downloads when the manifest
    is read (worker.js init), whatever the query, once, and an answer that expands needs no other
    graph file (graph.json is in the manifest: format 9). (On a larger site the graph comes only
    for an answer that expands: js/test/semantic_pause.test.js.)"""
    for query in ("visibility_timeout", "what happens to a job that keeps failing"):
        page.goto(sites.url("mkdocs", "user-guide/jobs/"))
        start = len(page.requests)  # the runtime starts on the reader's intent, after this
        open_search(page)
        _paste(page, query)
        _hybrid(page)
        fetched = _graph_requests(page, start)
        assert len(fetched) == 1, fetched
        assert re.search(r"/search/graph\.0\.[0-9a-f]+\.json$", fetched[0]), fetched
