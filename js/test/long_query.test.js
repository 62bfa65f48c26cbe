// @ts-check
// Any query is bounded work: search() reads its first `max_query_chars` code points (without one in
// the manifest: the built-in 1000), so a 200 KB query neither overflows the stack nor answers differently
// from its cut (tests/test_long_query.py checks the Python engine and parity).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { loadBundle } from "../src/engine/worker.js";
import { boundedQuery, search } from "../src/engine/engine.js";
import { tokenize } from "../src/engine/text/tokenize.js";
import { askService } from "./service.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));
/** 995 astral code points (1990 UTF-16 units) then words: a cut in UTF-16 units keeps no word. */
const LONG = "\u{1F600}".repeat(995) + " retry" + " timeout".repeat(30000);

test("the tokenizer takes a 200 KB run of CJK or of compounds (no spread overflows the stack)", () => {
  assert.equal(tokenize("\u6f22\u5b57".repeat(100000)).length, 199999);
  assert.equal(tokenize("a_b".repeat(70000)).length, 70000);
});

test("a 200 KB query answers as its first max_query_chars code points", async () => {
  const bundle = await loadBundle(fetchFile);
  assert.equal(bundle.settings.max_query_chars, undefined); // the frozen bundle has none
  const cut = boundedQuery(bundle, LONG);
  assert.equal([...cut].length, 1000);
  assert.ok(cut.endsWith(" retr"));
  for (const mode of ["keyword", "vector", "hybrid"]) {
    const long = search(bundle, LONG, { mode });
    assert.ok(long.results.length > 0, mode);
    assert.deepEqual(long.results, search(bundle, cut, { mode }).results, mode);
  }
});

test("the limit is the manifest's max_query_chars", async () => {
  const bundle = await loadBundle(fetchFile);
  bundle.settings.max_query_chars = 3;
  assert.equal(boundedQuery(bundle, "\u{1F600}ab retry"), "\u{1F600}ab");
  assert.equal(boundedQuery(bundle, "ab"), "ab");
});

test("the service echoes a long query as the engine read it (the UI's announced status line shows that)", async () => {
  const huge = "zqxjv ".repeat(200000); // 1.2 MB, no result
  const { answers } = await askService(fetchFile, { query: huge, mode: "keyword" });
  const bundle = await loadBundle(fetchFile);
  for (const answer of answers) {
    assert.equal(answer.results.length, 0);
    assert.equal(answer.query, boundedQuery(bundle, huge));
  }
  assert.equal([...answers[0].query].length, 1000);
});
