// @ts-check
// The frozen format-1 bundle in tests/vectors/engine/ gives the pinned answers in the JS runtime
// (tests/test_engine_vectors.py checks the Python engine against the same cases).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { loadBundle, BundleError } from "../src/bundle.js";
import { search } from "../src/engine.js";

const ENGINE = new URL("../../tests/vectors/engine/", import.meta.url);
const cases = JSON.parse(readFileSync(new URL("cases.json", ENGINE), "utf8"));
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(`bundle/${name}`, ENGINE));
const TOLERANCE = 1e-6;

/** Equal, with numbers within TOLERANCE. @param {any} a @param {any} b @param {string} path */
function assertClose(a, b, path = "") {
  if (typeof a === "number" && typeof b === "number") {
    assert.ok(Math.abs(a - b) <= TOLERANCE, `${path}: ${a} != ${b}`);
  } else if (Array.isArray(a)) {
    assert.ok(Array.isArray(b) && a.length === b.length, `${path}: length ${a.length} != ${b?.length}`);
    a.forEach((item, i) => assertClose(item, b[i], `${path}[${i}]`));
  } else if (a && typeof a === "object") {
    assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), `${path}: keys`);
    for (const key of Object.keys(a)) assertClose(a[key], b[key], `${path}.${key}`);
  } else {
    assert.equal(a, b, path);
  }
}

const bundle = await loadBundle(fetchFile);

test("frozen bundle loads with its semantic part", () => {
  assert.equal(bundle.manifest.format, 1);
  assert.ok(bundle.vectors && bundle.encoder);
});

for (const { query, mode, expected } of cases) {
  test(`pinned answer ${mode}: ${JSON.stringify(query)}`, () => {
    assertClose(expected, search(bundle, query, { mode, explain: true }));
  });
}

test("a newer bundle format is refused with a clear message", async () => {
  const newer = async (/** @type {string} */ name) => {
    const bytes = await fetchFile(name);
    if (name !== "manifest.json") return bytes;
    return new TextEncoder().encode(new TextDecoder().decode(bytes).replace('"format":1', '"format":2'));
  };
  await assert.rejects(loadBundle(newer), (error) => error instanceof BundleError && /newer/.test(error.message));
});

test("a corrupted file is refused with a clear message", async () => {
  const corrupt = async (/** @type {string} */ name) => {
    const bytes = new Uint8Array(await fetchFile(name));
    if (name === "vectors.bin") bytes[10] ^= 0xff;
    return bytes;
  };
  await assert.rejects(loadBundle(corrupt), (error) => error instanceof BundleError && /vectors.bin is corrupted/.test(error.message));
});
