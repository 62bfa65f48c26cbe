"""Issue 23's typed budget on a site of many term shards and display files: a question typed key
by key fetches only what its words need, not every prefix's files (js/src/engine/worker.js
TYPED_NEW_FILES: a prefix that needs more waits for the typing pause). A count, never a time.

The service runs under node on a keyword-only bundle of ../shared's k8s-docs (over a hundred term
shards; its display files made smaller, so that there are more of them than a site of few fetches
while typing: TYPED_ALL_DISPLAYS), with a fetcher that records each file. Typed: each prefix sent
once the files the previous one asked for are in, the typing pause never ending (the most a typed
question fetches, on a machine of any speed), then the whole question as if the reader paused.
That session may fetch at most TYPED_EXTRA files more than the question entered whole, and both
give the reference engine's answer. (The browser test of the example site's typed budget, a
small site of one display file: tests/test_browser_budget.py.)
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import CORPORA, ROOT, build_bundle_dir, require_shared
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search

pytestmark = pytest.mark.corpus

#: Files a typed question may fetch beyond the same question entered whole: a typed word's prefix
#: range of a shard or two (before TYPED_NEW_FILES, every prefix's term shards and display files
#: were fetched)
TYPED_EXTRA = 4
#: worker.js TYPED_ALL_DISPLAYS: a site of at most this many display files fetches a prefix's at once
TYPED_ALL_DISPLAYS = 20
#: A fifth of bundle/format.py DISPLAY_FRAGMENT_BYTES: k8s-docs' display in some eighty files, not sixteen
DISPLAY_BYTES = 24 * 1024 // 5
#: Questions a reader would type (not from a judged set: this is no relevance test)
QUESTIONS = ["how do I retry a failed job later", "configure a liveness probe"]

SCRIPT = r"""
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [worker, folder, query, how] = process.argv.slice(1);
const { createService } = await import(pathToFileURL(worker).href);
const fetched = [];
let loading = 0;
let ready = () => {};
const loaded = new Promise((resolve) => { ready = () => resolve(undefined); });
const texts = how === "typed" ? [...query].map((_, i) => query.slice(0, i + 1)) : [query];
let service;
const answer = await new Promise((done) => {
  service = createService((message) => {
    if (message.type === "status" && message.state === "error") throw new Error(message.message);
    if (message.type === "status" && message.done) ready();
    if (message.type === "results" && message.id === texts.length && message.complete) done(message);
  }, {
    semanticPause: 3_600_000, // an hour: it never ends while typing
    fetcher: () => async (name) => {
      loading++;
      fetched.push(name);
      const bytes = await readFile(join(folder, name));
      loading--;
      return new Uint8Array(bytes);
    },
  });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  const ask = (i) => service.handle({ type: "query", channel: "box", id: i + 1, query: texts[i], mode: "keyword",
                                      limit: 10, settled: i === texts.length - 1 });
  // each prefix once nothing is loading for a few timer turns (its files, if it fetched any, are in)
  const settle = async () => {
    for (let quiet = 0; quiet < 3; quiet = loading ? 0 : quiet + 1) await new Promise((r) => setTimeout(r, 5));
  };
  loaded.then(async () => {
    for (let i = 0; i < texts.length - 1; i++) {
      ask(i);
      await settle();
    }
    ask(texts.length - 1);
  });
});
service.handle({ type: "clear", channel: "box" }); // its pause timer goes too
console.log(JSON.stringify({ fetched, results: answer.results.map((r) => r.sections.map((s) => [s.id, s.snippet])) }));
process.exit(0);
"""


@pytest.fixture(scope="module")
def many_shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = require_shared(CORPORA / "k8s-docs")
    # display files of DISPLAY_BYTES: more than TYPED_ALL_DISPLAYS of them, as on a larger site
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("mkdocs_graphsearch.bundle.display.DISPLAY_FRAGMENT_BYTES", DISPLAY_BYTES)
        folder = build_bundle_dir(tmp_path_factory.mktemp("k8s-keyword"), docs, embeddings=False)
    manifest = json.loads((folder / "manifest.json").read_text())
    # the premise: a typed prefix's range spans several term shards, its pages several display files
    assert len(manifest["term_shards"]["first"]) > 100 and len(manifest["display_starts"]) > TYPED_ALL_DISPLAYS
    return folder


def _session(node: str, folder: Path, question: str, how: str) -> dict:
    done = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT, str(ROOT / "js/src/engine/worker.js"), str(folder), question, how],
        capture_output=True, text=True, timeout=120, check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_typed_question_fetches_little_more_than_the_question_entered_whole(
    many_shards: Path, node: str, question: str
) -> None:
    typed = _session(node, many_shards, question, "typed")
    whole = _session(node, many_shards, question, "whole")
    assert len(typed["fetched"]) == len(set(typed["fetched"])), "a file was fetched twice"
    assert len(typed["fetched"]) <= len(whole["fetched"]) + TYPED_EXTRA, (len(typed["fetched"]), len(whole["fetched"]))
    results = search(load_bundle(many_shards), question, mode="keyword")["results"]
    expected = [[[s["id"], s["snippet"]] for s in r["sections"]] for r in results]
    assert typed["results"] == expected
    assert whole["results"] == expected
