"""A typed prefix's snippet texts (js/src/engine/worker.js `oneGraphShard`): on a small site (texts
of at most WHOLE_TEXT_BYTES, one graph shard), every prefix shows most of its pages, so a typed
query's hybrid answer is complete, snippets in, without the typing pause; on a larger site they
wait for the pause (their fragments differ from prefix to prefix: js/test/semantic_pause.test.js)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search

#: The pause is an hour: an answer that waited for it never comes (subprocess timeout: a failure).
SCRIPT = r"""
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [worker, folder, query] = process.argv.slice(1);
const { createService } = await import(pathToFileURL(worker).href);
const answer = await new Promise((done) => {
  const service = createService((message) => {
    if (message.type === "results" && message.mode === "hybrid" && message.complete) done(message);
  }, { semanticPause: 3_600_000, fetcher: () => async (name) => new Uint8Array(await readFile(join(folder, name))) });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  service.handle({ type: "query", channel: "box", id: 1, query, limit: 10, settled: false });
});
console.log(JSON.stringify(answer.results.map((r) => r.sections.map((s) => [s.id, s.snippet]))));
process.exit(0);
"""


def test_a_typed_query_on_a_small_site_is_complete_without_the_pause(
    tmp_path_factory: pytest.TempPathFactory, node: str
) -> None:
    folder: Path = build_bundle_dir(tmp_path_factory.mktemp("one-text"), EXAMPLE_SITE / "docs", embeddings=True)
    bundle = load_bundle(folder)
    assert bundle.manifest["graph_starts"] == [0]  # the premise: a small site
    assert len(bundle.manifest["text_starts"]) > 1  # its texts in several files (format 7)
    query = "what happens when a job keeps failing"
    done = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT, str(ROOT / "js/src/engine/worker.js"), str(folder), query],
        capture_output=True, text=True, timeout=60, check=True,
    )
    results = search(bundle, query, mode="hybrid")["results"]
    expected = [[[s["id"], s["snippet"]] for s in r["sections"]] for r in results]
    assert json.loads(done.stdout) == expected
