// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { stem, isProseWord, proseWords } from "../src/engine/text/stem.js";

/** @type {Record<string, string>} word -> stem, from snowballstemmer (scripts/make_stem_vectors.py) */
const vectors = JSON.parse(readFileSync(new URL("../../tests/vectors/stem.json", import.meta.url), "utf8"));

test("every stem vector agrees with the reference", () => {
  const words = Object.keys(vectors);
  assert.ok(words.length > 10000);
  const wrong = words.filter((word) => stem(word) !== vectors[word]);
  assert.deepEqual(wrong.slice(0, 20).map((w) => [w, stem(w), vectors[w]]), []);
});

test("plural and -ing forms share a stem", () => {
  assert.equal(stem("admonitions"), stem("admonition"));
  assert.equal(stem("deploying"), stem("deployment"));
});

test("only whole lowercase a-z words are prose words", () => {
  assert.deepEqual(proseWords("Deploying TimeoutStopSec use_directory_urls v2 naïve is"), ["deploying", "is"]);
  assert.ok(isProseWord("admonitions"));
  assert.ok(!isProseWord("naïve"));
});
