// @ts-check
// Format 3 keeps the chunks' texts in fragments: the search service fetches only the fragments
// holding the snippets of the results it shows, answers first without those snippets, then
// again with them (spec: bundle/format.py; worker.js wantTexts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileName } from "../src/engine/bundle/format.js";
import { fragmentOf } from "../src/engine/bundle/read.js";
import { loadBundle } from "../src/engine/worker.js";
import { askService } from "./service.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));

test("a query fetches only the text fragments of the results shown", async () => {
  const full = await loadBundle(fetchFile);
  /** @type {string[]} */
  const fetched = [];
  const fetching = (/** @type {string} */ name) => { fetched.push(name); return fetchFile(name); };
  const { answers } = await askService(fetching, { query: "install", mode: "keyword", limit: 1 });
  const last = answers[answers.length - 1];
  assert.equal(last.results.length, 1);
  assert.ok(last.results[0].sections.every((/** @type {any} */ section) => section.snippet));
  const shown = last.results[0].sections.map((/** @type {any} */ section) => full.chunks.id.indexOf(section.id));
  const wanted = new Set(shown.map((/** @type {number} */ chunk) => fragmentOf(full, chunk)));
  const names = new Set([...wanted].map((index) => fileName(full.manifest, `text.${index}.json`)));
  assert.deepEqual(new Set(fetched.filter((name) => name.startsWith("text."))), names);
  assert.ok(names.size < full.textStarts.length, "every fragment was fetched");
  assert.ok(answers[0].results[0].sections.every((/** @type {any} */ section) => section.snippet === ""));
  assert.equal(answers[0].complete, false);
});
