// @ts-check
// The query encoder's piece limit and the query quantisation levels come from the manifest's
// semantic entries; a manifest without them (the frozen bundle's, first made in format 1) lacks them and the runtime falls back to the values it
// had built in (tests/test_manifest_constants.py checks the Python engine the same way).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { encodeQuery, loadAllEncoderParts, loadEncoder } from "../src/engine/encoder.js";
import { cosines, queryLevels } from "../src/engine/vector.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
const QUERY = "what happens when a render fails and the retry policy gives up";
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));
const manifest = () => JSON.parse(readFileSync(new URL("manifest.json", BUNDLE), "utf8"));

test("a manifest without them falls back to the built-in values", async () => {
  const frozen = manifest();
  assert.ok(!Object.hasOwn(frozen.encoder, "max_query_pieces") && !Object.hasOwn(frozen.vectors, "query_levels"));
  const encoder = await loadEncoder(/** @type {any} */ ({ manifest: frozen }), fetchFile);
  assert.equal(encoder.maxPieces, 64);
  assert.equal(queryLevels(frozen), 32767);
});

/** The encoder with every shard in. @param {any} manifest */
async function wholeEncoder(manifest) {
  const bundle = /** @type {any} */ ({ manifest });
  bundle.encoder = await loadEncoder(bundle, fetchFile);
  await loadAllEncoderParts(bundle, fetchFile);
  return bundle.encoder;
}

test("the runtime reads them from the manifest", async () => {
  const full = await wholeEncoder(manifest());
  const limited = manifest();
  limited.encoder.max_query_pieces = 2;
  limited.vectors.query_levels = 3;
  const short = await wholeEncoder(limited);
  assert.equal(short.maxPieces, 2);
  const pieces = full.wordpiece.pieces(QUERY);
  const vector = /** @type {number[]} */ (encodeQuery(full, pieces));
  assert.notDeepEqual(encodeQuery(short, pieces), vector);
  const rows = new Int8Array([5, -3, 2, 1]), scales = new Float64Array([0.01]);
  const unit = [0.6, -0.5, 0.5, 0.3741657386773941];
  const [coarse] = cosines(rows, scales, 4, unit, queryLevels(limited));
  const [fine] = cosines(rows, scales, 4, unit, 32767);
  assert.notEqual(coarse, fine);
  assert.equal(queryLevels(limited), 3);
  assert.ok(vector.length > 0);
});

test("stop words alone make no query vector when the manifest lists their pieces", async () => {
  const before = await wholeEncoder(manifest());
  assert.equal(before.stopPieces.size, 0); // the frozen bundle predates the rule
  const stopOnly = before.wordpiece.pieces("the a to");
  assert.ok(encodeQuery(before, stopOnly) !== null);
  const listed = manifest();
  listed.encoder.stop_pieces = [...new Set(stopOnly)].sort((a, b) => a - b);
  const after = await wholeEncoder(listed);
  assert.equal(encodeQuery(after, stopOnly), null);
  const pieces = before.wordpiece.pieces(QUERY); // a content word: the same vector as before
  assert.deepEqual(encodeQuery(after, pieces), encodeQuery(before, pieces));
});
