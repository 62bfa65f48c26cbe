// @ts-check
// Format 3 keeps the chunks' texts in fragments: the search service fetches only the fragments
// holding the snippets of the results it shows, answers first without those snippets, then
// again with them (spec: bundle/format.py; worker.js wantTexts); `whole` (engine.js search) leaves
// every snippet out of an answer that lacks one of its texts.
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

test("`whole`: with a shown snippet's text missing every snippet is \"\" (the same chunks missing); with all in, no change", async () => {
  const { search } = await import("../src/engine/engine.js");
  const full = await loadBundle(fetchFile);
  const query = "install the plugin";
  const expected = search(full, query, { mode: "hybrid" });
  assert.deepEqual(search(full, query, { mode: "hybrid", whole: true, missing: new Set() }), expected);
  // the fragment of the first shown section's text gone (as before it is fetched)
  const first = full.chunks.id.indexOf(expected.results[0].sections[0].id);
  const fragment = fragmentOf(full, first);
  const end = full.textStarts[fragment + 1] ?? full.nChunks;
  const partial = { ...full, texts: full.texts.map((text, chunk) => (chunk >= full.textStarts[fragment] && chunk < end ? undefined : text)) };
  const [some, none] = [new Set(), new Set()];
  const shown = search(partial, query, { mode: "hybrid", missing: some });
  const lazy = search(partial, query, { mode: "hybrid", missing: none, whole: true });
  assert.ok(some.size > 0);
  assert.deepEqual(none, some);
  assert.ok(shown.results.some((/** @type {any} */ r) => r.sections.some((/** @type {any} */ s) => s.snippet)));
  assert.ok(lazy.results.every((/** @type {any} */ r) => r.sections.every((/** @type {any} */ s) => s.snippet === "")));
  const ids = (/** @type {any} */ out) => out.results.map((/** @type {any} */ r) => r.sections.map((/** @type {any} */ s) => [s.id, s.score]));
  assert.deepEqual(ids(lazy), ids(shown));
});
