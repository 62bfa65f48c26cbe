"""A small site's snippet texts (bundle/format.py WHOLE_TEXT_BYTES, SMALL_TEXT_FRAGMENT_BYTES): in
fragments that may end inside a page, after a text that is not blank, so no snippet needs two;
one graph shard still; the same answers in both engines; and the worker's first hybrid answer
to a pasted query has its snippets in (js/src/engine/worker.js oneGraphShard)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, build_bundle_dir
from mkdocs_graphsearch.bundle import write
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search
from parity import assert_parity, generated_queries

DOCS = ROOT / "tests" / "fixtures" / "parity-corpus" / "docs"
#: The first answer in hybrid mode the worker posts for a pasted query.
SCRIPT = r"""
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [worker, folder, query] = process.argv.slice(1);
const { createService } = await import(pathToFileURL(worker).href);
const answer = await new Promise((done) => {
  const service = createService((message) => {
    if (message.type === "results" && message.mode === "hybrid") done(message);
  }, { fetcher: () => async (name) => new Uint8Array(await readFile(join(folder, name))) });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  service.handle({ type: "query", channel: "box", id: 1, query, limit: 10, settled: true });
});
const results = answer.results.map((r) => r.sections.map((s) => [s.id, s.snippet]));
console.log(JSON.stringify({ complete: answer.complete, results }));
process.exit(0);
"""


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(write, "SMALL_TEXT_FRAGMENT_BYTES", 512)
        return build_bundle_dir(tmp_path_factory.mktemp("split"), DOCS, embeddings=True)


def test_fragments_end_after_a_text_and_answer_as_one(split: Path, tmp_path: Path, monkeypatch) -> None:
    bundle = load_bundle(split)
    monkeypatch.setattr(write, "SMALL_TEXT_FRAGMENT_BYTES", write.WHOLE_TEXT_BYTES)
    whole = load_bundle(build_bundle_dir(tmp_path / "whole", DOCS, embeddings=True))
    starts, texts, pages = bundle.manifest["text_starts"], bundle.texts, bundle.chunks["page"]
    assert whole.manifest["text_starts"] == [0] and len(starts) > 3
    assert bundle.manifest["graph_starts"] == [0]  # a small site: one graph shard
    assert any(pages[start] == pages[start - 1] for start in starts[1:])  # some end inside a page
    assert all(re.sub(r"[ \t\n\r\f\v]", "", texts[start - 1]) for start in starts[1:])
    assert texts == whole.texts
    queries = generated_queries(bundle, 20)
    assert [search(bundle, q, mode="hybrid") for q in queries] == [search(whole, q, mode="hybrid") for q in queries]
    assert assert_parity(split, queries, ["hybrid"]) == len(queries)


def test_a_pasted_querys_first_hybrid_answer_has_its_snippets(split: Path, node: str) -> None:
    bundle = load_bundle(split)
    for query in generated_queries(bundle, 4):
        results = search(bundle, query, mode="hybrid")["results"]
        if not results:
            continue
        done = subprocess.run(
            [node, "--input-type=module", "-e", SCRIPT, str(ROOT / "js/src/engine/worker.js"), str(split), query],
            capture_output=True, text=True, timeout=60, check=True,
        )
        answer = json.loads(done.stdout)
        assert answer["complete"], query
        assert answer["results"] == [[[s["id"], s["snippet"]] for s in r["sections"]] for r in results], query
