// @ts-check
// js/src/engine/text/wordpiece.js against tests/vectors/wordpiece.json (ids produced by `tokenizers`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createWordPiece, normalize, preTokenize } from "../src/engine/text/wordpiece.js";

const vocabText = readFileSync(
  new URL("../../mkdocs_graphsearch/text/vocab.txt", import.meta.url),
  "utf8",
);
const vectors = JSON.parse(
  readFileSync(new URL("../../tests/vectors/wordpiece.json", import.meta.url), "utf8"),
);
const wp = createWordPiece(vocabText);

test("vectors: every case gives the ids tokenizers gave", () => {
  assert.ok(vectors.cases.length >= 200);
  const failures = [];
  for (const c of vectors.cases) {
    const got = wp.encode(c.text, c.max_tokens);
    if (JSON.stringify(got) !== JSON.stringify(c.ids)) failures.push({ text: c.text, got, want: c.ids });
  }
  assert.deepEqual(failures, []);
});

test("vocabulary forms: lines, map and text agree", () => {
  const lines = vocabText.split("\n").slice(0, -1);
  const fromLines = createWordPiece(lines);
  const fromMap = createWordPiece(new Map(lines.map((t, i) => [t, i])));
  for (const text of ["use_directory_urls", "HTTPException", "Crème Brûlée 中文"]) {
    assert.deepEqual(fromLines.encode(text), wp.encode(text));
    assert.deepEqual(fromMap.encode(text), wp.encode(text));
  }
  assert.equal(wp.vocabSize, 30522);
  assert.deepEqual([wp.clsId, wp.sepId, wp.unkId], [101, 102, 100]);
});

test("encode: truncation counts [CLS] and [SEP]", () => {
  const long = "word ".repeat(600);
  assert.equal(wp.encode(long).length, 602);
  assert.equal(wp.encode(long, 256).length, 256);
  assert.deepEqual(wp.encode(long, 2), [101, 102]);
  assert.deepEqual(wp.encode(""), [101, 102]);
  assert.throws(() => wp.encode("x", 1), RangeError);
});

test("pieces and steps", () => {
  assert.deepEqual(wp.tokenize("use_directory_urls"), ["use", "_", "directory", "_", "ur", "##ls"]);
  assert.deepEqual(wp.tokenize("a".repeat(101)), ["[UNK]"]);
  assert.equal(normalize("Crème\u00adBrûlée\tİ"), "cremebrulee i");
  assert.equal(normalize("中文"), " 中  文 ");
  assert.deepEqual(preTokenize("hello, world!"), ["hello", ",", "world", "!"]);
});
