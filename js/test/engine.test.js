// @ts-check
// The frozen bundle in tests/vectors/engine/ gives the pinned answers in the JS runtime
// (tests/test_engine_vectors.py checks the Python engine against the same cases); the frozen
// format-1 bundle (bundle-format-1/) is refused, naming its version.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { BundleError, FORMAT_VERSION, MIN_FORMAT_VERSION, crc32, fileName } from "../src/engine/bundle/format.js";
import { loadBundle } from "../src/engine/worker.js";
import { search } from "../src/engine/engine.js";
import { sealedManifest } from "./sealed-manifest.js";

const ENGINE = new URL("../../tests/vectors/engine/", import.meta.url);
const cases = JSON.parse(readFileSync(new URL("cases.json", ENGINE), "utf8"));
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(`bundle/${name}`, ENGINE));
/** The frozen manifest, as an object without its checksum (an edited copy is sealed again, or refused). */
const editableManifest = async () => {
  const manifest = JSON.parse(new TextDecoder().decode(await fetchFile("manifest.json")));
  delete manifest.checksum;
  return manifest;
};
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

test("frozen bundle loads with its semantic part and its texts in fragments", () => {
  assert.equal(bundle.manifest.format, 3); // frozen in format 3, still read
  assert.ok(bundle.vectors && bundle.encoder);
  assert.deepEqual(bundle.textStarts, [0, 4, 6]);
  assert.ok(bundle.texts.every((text) => typeof text === "string"));
});

test("older formats are refused, naming their version", async () => {
  const old = (name) => readFile(new URL(`bundle-format-1/${name}`, ENGINE));
  const refused = (version) => (error) => error instanceof BundleError && error.message ===
    `manifest.json is bundle format ${version}, no longer supported (this reader reads format ${MIN_FORMAT_VERSION}): rebuild the site`;
  await assert.rejects(loadBundle(old), refused(1));
  const manifest = await editableManifest();
  manifest.format = 2;
  const format2 = async (name) => (name === "manifest.json" ? new TextEncoder().encode(JSON.stringify(manifest)) : fetchFile(name));
  await assert.rejects(loadBundle(format2), refused(2));
});

test("a manifest of this format without its checksum is refused, whatever its keys say", async () => {
  const text = new TextDecoder().decode(await fetchFile("manifest.json"));
  const corrupted = (/** @type {any} */ error) => error instanceof BundleError &&
    error.message === "manifest.json is corrupted (its checksum is not at its start)";
  const damaged = text.replace('"checksum"', '"checksuM"').replace('"rrf_k":60', '"rrf_k":90');
  const unsealed = JSON.stringify(await editableManifest());
  for (const manifest of [damaged, unsealed]) {
    const files = async (/** @type {string} */ name) => (name === "manifest.json" ? new TextEncoder().encode(manifest) : fetchFile(name));
    await assert.rejects(loadBundle(files), corrupted);
  }
  const sealed = async (/** @type {string} */ name) => (name === "manifest.json" ? sealedManifest(await editableManifest()) : fetchFile(name));
  assert.equal((await loadBundle(sealed)).settings.rrf_k, 60); // the same object sealed again loads
});

for (const { query, mode, expected } of cases) {
  test(`pinned answer ${mode}: ${JSON.stringify(query)}`, () => {
    assertClose(expected, search(bundle, query, { mode, explain: true }));
  });
}

test("a query without a query vector (no word pieces) answers nothing in every mode, without throwing", () => {
  for (const query of ["", "!!!", "?"]) {
    for (const mode of ["keyword", "vector", "hybrid"]) {
      assert.deepEqual(search(bundle, query, { mode, explain: true }).results, [], `${mode} ${JSON.stringify(query)}`);
    }
  }
});

test("a newer bundle format is refused with a clear message", async () => {
  const manifest = await editableManifest();
  manifest.format = FORMAT_VERSION + 1;
  const newer = async (/** @type {string} */ name) =>
    name === "manifest.json" ? sealedManifest(manifest) : fetchFile(name);
  await assert.rejects(loadBundle(newer), (error) => error instanceof BundleError && /newer/.test(error.message));
});

test("a corrupted file is refused with a clear message", async () => {
  const corrupt = async (/** @type {string} */ name) => {
    const bytes = new Uint8Array(await fetchFile(name));
    if (name.startsWith("vectors.")) bytes[10] ^= 0xff;
    return bytes;
  };
  await assert.rejects(loadBundle(corrupt), (error) => error instanceof BundleError && /vectors.bin is corrupted/.test(error.message));
});

test("parts are read under the names their CRC-32 gives, never a path", async () => {
  /** @type {string[]} */
  const asked = [];
  const manifest = await editableManifest();
  const loaded = await loadBundle(async (/** @type {string} */ name) => { asked.push(name); return fetchFile(name); });
  assert.ok(loaded.vectors && loaded.encoder);
  const keyword = fileName(manifest, "keyword.json");
  assert.match(keyword, /^keyword\.[0-9a-f]{8}\.json$/);
  assert.equal(keyword, `keyword.${crc32(new Uint8Array(await fetchFile(keyword))).toString(16).padStart(8, "0")}.json`);
  for (const name of asked.slice(1)) assert.match(name, /^[a-z-]+(\.\d+)?\.[0-9a-f]{8}\.(json|bin)$/);
  assert.ok(asked.includes(fileName(manifest, "vocab.0.json")) && !asked.includes("keyword.json"));
});
