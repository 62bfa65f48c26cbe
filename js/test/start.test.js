// @ts-check
// The start list's data: the manifest's `top` reaches the UI in the service's status as soon as
// the manifest is read (no other part needed), and bundles with related.json or without `top`
// load as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createService, loadBundle, topPages } from "../src/engine/worker.js";
import { sealedManifest } from "./sealed-manifest.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
const TOP = [
  { path: "guide/install.md", title: "Install <b>it</b>", url: "guide/install/" },
  { path: "index.md", title: "Home", url: "" },
];

/** The frozen bundle's files, its manifest with a `top` and a related.json part (as new bundles have). */
async function withTop() {
  const manifest = JSON.parse(new TextDecoder().decode(await readFile(new URL("manifest.json", BUNDLE))));
  const related = new TextEncoder().encode('{"related":[],"scores":[]}');
  manifest.top = TOP;
  manifest.files["related.json"] = 0; // never fetched by the runtime
  /** @param {string} name */
  return async (name) => {
    if (name === "manifest.json") return sealedManifest(manifest); // edited: sealed again
    if (name === "related.json") throw new Error("the runtime must not fetch related.json");
    return readFile(new URL(name, BUNDLE));
  };
}

test("topPages keeps the three fields of at most 20 entries (bundle/schema.js checks their shape)", () => {
  assert.deepEqual(topPages({ top: TOP }), TOP);
  assert.deepEqual(topPages({}), []);
  assert.deepEqual(topPages({ top: [{ path: "b.md", title: "B", url: "b/", extra: 1 }] }), [{ path: "b.md", title: "B", url: "b/" }]);
  assert.equal(topPages({ top: Array(50).fill(TOP[0]) }).length, 20);
});

test("a bundle with related.json and a top list loads as before", async () => {
  const bundle = await loadBundle(await withTop());
  assert.deepEqual(bundle.manifest.top, TOP);
  assert.ok(bundle.vectors && bundle.texts.every((text) => typeof text === "string"));
});

test("the status carries the top pages once the manifest is read, before any other part", async () => {
  const files = await withTop();
  /** @type {any[]} */
  const posted = [];
  let seen = () => {};
  const arrived = new Promise((resolve) => { seen = () => resolve(undefined); });
  // keyword.json never arrives: the start list must not wait for it.
  const fetcher = () => async (/** @type {string} */ name) => {
    if (name.startsWith("keyword")) return new Promise(() => {});
    return files(name);
  };
  const service = createService((message) => {
    posted.push(message);
    if (message.top && message.top.length) seen();
  }, { fetcher });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await arrived;
  const status = posted.find((message) => message.top.length);
  assert.equal(status.state, "loading");
  assert.deepEqual(status.top, TOP);
});

test("a bundle without a top list gives an empty one", async () => {
  /** @type {any[]} */
  const posted = [];
  let done = () => {};
  const finished = new Promise((resolve) => { done = () => resolve(undefined); });
  const service = createService((message) => {
    posted.push(message);
    if (message.type === "status" && message.done) done();
  }, { fetcher: () => (name) => readFile(new URL(name, BUNDLE)) });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await finished;
  assert.ok(posted.every((message) => Array.isArray(message.top) && message.top.length === 0));
});
