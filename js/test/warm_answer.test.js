// @ts-check
// engine.js answerWarmer: before any query the search service runs the code of an answer that a
// search cannot reach without its term shards (the vector side's scoring, snippets) on what is
// loaded (worker.js). It reads the bundle only: every answer after it is the one before it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { loadBundle } from "../src/engine/worker.js";
import { answerWarmer, search } from "../src/engine/engine.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));
const QUERIES = ["install the plugin", "configure", "how do I configure search_index"];

/** @param {any} bundle */
const answers = (bundle) => QUERIES.flatMap((query) =>
  ["keyword", "vector", "hybrid"].map((mode) => search(bundle, query, { mode, explain: true })));

test("answerWarmer changes no answer, whatever is loaded, and goes through every loaded text", async () => {
  const before = answers(await loadBundle(fetchFile));
  const bundle = await loadBundle(fetchFile);
  assert.ok(bundle.vectors && bundle.texts.every((text) => text !== undefined));
  const warm = answerWarmer(bundle, "how do I configure search_index");
  let calls = 1;
  while (warm(2)) calls++;
  assert.equal(calls, Math.ceil(bundle.nChunks / 2));
  assert.equal(warm(2), false);
  assert.deepEqual(answers(bundle), before);
  // texts not loaded yet (holes), no semantic part: nothing to warm, nothing thrown
  const bare = { ...bundle, vectors: null, texts: new Array(bundle.nChunks) };
  assert.equal(answerWarmer(/** @type {any} */ (bare), "how do I configure search_index")(2), false);
  assert.deepEqual(answers(bundle), before);
});
