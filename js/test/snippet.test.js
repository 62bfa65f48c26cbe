// @ts-check
// Snippets: the shared vectors (tests/test_snippet.py checks the Python side against the same).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { highlight, snippet, sourceText } from "../src/engine/snippet.js";
import { tokenSpans } from "../src/engine/text/tokenize.js";

const vectors = JSON.parse(readFileSync(new URL("../../tests/vectors/snippets.json", import.meta.url), "utf8"));
const SAFE = /^(?:[^<>]|<mark>|<\/mark>)*$/;

for (const c of vectors.snippets) {
  test(`snippet: ${c.name}`, () => {
    const marks = highlight(c.query, new Map(Object.entries(c.matched)), c.stop_words);
    const html = snippet(c.text, marks, c.window);
    assert.equal(html, c.html);
    assert.match(html, SAFE);
  });
}

for (const c of vectors.token_spans) {
  test(`token spans: ${JSON.stringify(c.input)}`, () => {
    assert.deepEqual(tokenSpans(c.input), c.spans);
  });
}

for (const c of vectors.source_text) {
  test(`source text: ${c.name}`, () => {
    assert.equal(sourceText(c.texts, c.parents, c.titles, c.chunk), c.text);
  });
}
