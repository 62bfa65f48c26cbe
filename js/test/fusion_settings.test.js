// @ts-check
// The fusion constants are search settings: a manifest without them (the frozen bundle's) fuses
// with the defaults, and the runtime reads them (tests/test_fusion_settings.py checks the Python
// engine the same way; tests/vectors/fuse.json pins both engines' fuse() on them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { loadBundle } from "../src/engine/worker.js";
import { search } from "../src/engine/engine.js";

const ENGINE = new URL("../../tests/vectors/engine/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(`bundle/${name}`, ENGINE));
/** A lookup the keyword side is not sure of (its best match holds 2 of its 5 words). */
const QUERY = "RetryPolicy.delay_for";
const DEFAULTS = { fusion_coverage_base: 0.4, fusion_coverage_span: 0.4, fusion_gap_span: 0.2 };

test("a manifest without them fuses with the defaults", async () => {
  const bundle = await loadBundle(fetchFile);
  assert.ok(Object.keys(DEFAULTS).every((key) => !Object.hasOwn(bundle.settings, key)));
  const before = search(bundle, QUERY, { mode: "hybrid", explain: true });
  Object.assign(bundle.settings, DEFAULTS);
  assert.deepEqual(search(bundle, QUERY, { mode: "hybrid", explain: true }), before);
});

test("the runtime reads them from the manifest", async () => {
  const bundle = await loadBundle(fetchFile);
  const before = /** @type {any} */ (search(bundle, QUERY, { mode: "hybrid", explain: true })).fusion;
  assert.equal(before.sure, false);
  Object.assign(bundle.settings, { fusion_coverage_base: 0.1, fusion_coverage_span: 0.1, fusion_gap_span: 0.1 });
  const after = /** @type {any} */ (search(bundle, QUERY, { mode: "hybrid", explain: true })).fusion;
  assert.ok(Math.abs(after.keyword_share - (0.1 + 0.1 * 2 / 5 + 0.1 * before.gap)) < 1e-9);
  assert.ok(after.keyword_share < before.keyword_share);
});
