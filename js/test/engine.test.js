// @ts-check
// The frozen format-1 bundle in tests/vectors/engine/ gives the pinned answers in the JS runtime
// (tests/test_engine_vectors.py checks the Python engine against the same cases).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { BundleError, FORMAT_VERSION } from "../src/bundle.js";
import { loadBundle } from "../src/worker.js";
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
    const format = `"format":${FORMAT_VERSION + 1}`;
    return new TextEncoder().encode(new TextDecoder().decode(bytes).replace('"format":1', format));
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

/** The frozen bundle as a format-2 folder: every part under another name the manifest gives. */
async function renamedBundle(/** @type {(part: string) => string} */ rename) {
  const manifest = JSON.parse(new TextDecoder().decode(await fetchFile("manifest.json")));
  /** @type {Map<string, Uint8Array>} */
  const files = new Map();
  for (const part of Object.keys(manifest.files)) {
    files.set(rename(part), new Uint8Array(await fetchFile(part)));
    manifest.files[part].name = rename(part);
  }
  manifest.format = 2;
  files.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifest)));
  /** @type {string[]} */
  const asked = [];
  const fetchRenamed = async (/** @type {string} */ name) => {
    asked.push(name);
    const bytes = files.get(name);
    if (!bytes) throw new Error(`HTTP 404 for ${name}`);
    return bytes;
  };
  return { fetchRenamed, asked };
}

test("format 2: parts are read under the file names the manifest gives", async () => {
  const { fetchRenamed, asked } = await renamedBundle((part) => part.replace(/\.(\w+)$/, ".0123abcd.$1"));
  const renamed = await loadBundle(fetchRenamed);
  assert.ok(renamed.vectors && renamed.encoder);
  const { query, mode, expected } = cases[0];
  assertClose(expected, search(renamed, query, { mode, explain: true }));
  assert.ok(asked.includes("keyword.0123abcd.json") && asked.includes("vocab.0123abcd.txt"));
  assert.ok(!asked.includes("keyword.json"), "a part was fetched by its logical name");
});

test("format 2: a part name that is a path or URL is refused", async () => {
  for (const bad of ["../secret.json", "https://evil.example/x.json", "sub/keyword.json", ".hidden"]) {
    const { fetchRenamed, asked } = await renamedBundle((part) => (part === "keyword.json" ? bad : part));
    await assert.rejects(loadBundle(fetchRenamed), (error) => error instanceof BundleError && /invalid file name/.test(error.message));
    assert.ok(!asked.includes(bad));
  }
});
