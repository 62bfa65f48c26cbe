// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { tokenize } from "../src/engine/text/tokenize.js";

const vectors = JSON.parse(
  readFileSync(new URL("../../tests/vectors/tokenizer.json", import.meta.url), "utf8"),
);

test("tokenizer vectors are not empty", () => {
  assert.ok(vectors.length >= 50);
});

for (const { input, code, tokens } of vectors) {
  test(`tokenize ${JSON.stringify(input).slice(0, 60)}${code ? " as code" : ""}`, () => {
    assert.deepEqual(tokenize(input, code ?? false), tokens);
  });
}
