// @ts-check
// The page fetches manifest.json beside worker.js (ui/client.js) and hands its bytes to the
// service: the service then reads those (no second fetch), and fetches it itself when the page
// could not (null), with the same answers either way. Before any query, the warm-up search
// (worker.js warmUp) fetches nothing and changes no answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createService } from "../src/engine/worker.js";
import { MANIFEST } from "../src/engine/bundle/format.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);

/**
 * One query's complete answer, the manifest handed as `handed` (undefined: init does not say it
 * comes), and the names the service fetched itself.
 * @param {Uint8Array | null | undefined} handed
 */
function ask(handed) {
  /** @type {string[]} */
  const fetched = [];
  const fetcher = () => async (/** @type {string} */ name) => {
    fetched.push(name);
    return readFile(new URL(name, BUNDLE));
  };
  return new Promise((resolve) => {
    const service = createService((message) => {
      if (message.type === "results" && message.complete) resolve({ results: message.results, fetched });
    }, { fetcher });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/", manifest: handed !== undefined });
    service.handle({ type: "query", channel: "box", id: 1, query: "install", settled: true });
    if (handed !== undefined) setTimeout(() => service.handle({ type: "manifest", bytes: handed }), 5);
  });
}

test("a manifest handed by the page is not fetched again, and answers as one fetched", async () => {
  const bytes = new Uint8Array(await readFile(new URL(MANIFEST, BUNDLE)));
  const own = /** @type {any} */ (await ask(undefined));
  const handed = /** @type {any} */ (await ask(bytes));
  assert.ok(own.fetched.includes(MANIFEST));
  assert.ok(!handed.fetched.includes(MANIFEST));
  assert.ok(own.results.length > 0);
  assert.deepEqual(handed.results, own.results);
});

test("without the page's bytes (its fetch failed) the service fetches the manifest itself", async () => {
  const own = /** @type {any} */ (await ask(undefined));
  const fallback = /** @type {any} */ (await ask(null));
  assert.ok(fallback.fetched.includes(MANIFEST));
  assert.deepEqual(fallback.results, own.results);
});

test("the warm-up search before any query fetches nothing and leaves the answers as they were", async () => {
  const fresh = /** @type {any} */ (await ask(undefined));
  /** @type {string[]} */
  const fetched = [];
  const answer = await new Promise((resolve) => {
    let asked = false;
    const service = createService((message) => {
      if (message.type === "status" && message.done && !asked) {
        asked = true; // every part in, the warm-up run: what did it fetch?
        setTimeout(() => {
          // (vocab shards: the special tokens' ones, prefetched at init)
          assert.ok(!fetched.some((name) => /^(postings|terms|words|encoder\.\d|text)\./.test(name)), fetched.join());
          service.handle({ type: "query", channel: "box", id: 1, query: "install", settled: true });
        }, 20);
      }
      if (message.type === "results" && message.complete) resolve(message.results);
    }, { fetcher: () => async (/** @type {string} */ name) => { fetched.push(name); return readFile(new URL(name, BUNDLE)); } });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  });
  assert.deepEqual(answer, fresh.results);
});

test("the files every query needs, fetched by the page beside the manifest, are not fetched again; one it could not fetch is", async () => {
  const { warmFilesOf } = await import("../src/engine/bundle/warm.js");
  const bytes = new Uint8Array(await readFile(new URL(MANIFEST, BUNDLE)));
  const warm = warmFilesOf(bytes);
  assert.ok(warm.some((name) => name.startsWith("keyword.")), warm.join());
  const [failed, ...got] = warm;
  const own = /** @type {any} */ (await ask(undefined));
  /** @type {string[]} */
  const fetched = [];
  const results = await new Promise((resolve) => {
    const service = createService((message) => {
      if (message.type === "results" && message.complete) resolve(message.results);
    }, { fetcher: () => async (/** @type {string} */ name) => { fetched.push(name); return readFile(new URL(name, BUNDLE)); } });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/", manifest: true });
    service.handle({ type: "query", channel: "box", id: 1, query: "install", settled: true });
    setTimeout(async () => {
      service.handle({ type: "manifest", bytes, tried: 1, warm });
      service.handle({ type: "file", name: failed, bytes: null, tried: 1 });
      for (const name of got) service.handle({ type: "file", name, bytes: new Uint8Array(await readFile(new URL(name, BUNDLE))), tried: 1 });
    }, 5);
  });
  assert.deepEqual(results, own.results);
  assert.ok(fetched.includes(failed));
  for (const name of [MANIFEST, ...got]) assert.ok(!fetched.includes(name), `${name} fetched again`);
});

test("a manifest the page cannot parse names no files to fetch", async () => {
  const { warmFilesOf } = await import("../src/engine/bundle/warm.js");
  assert.deepEqual(warmFilesOf(new TextEncoder().encode("{not json")), []);
  assert.deepEqual(warmFilesOf(new TextEncoder().encode("null")), []);
});

test("the page fetches no part the manifest holds (format 9: graph.json, encoder.json)", async () => {
  const { warmFiles } = await import("../src/engine/bundle/warm.js");
  const { fileName, INLINE_PARTS } = await import("../src/engine/bundle/format.js");
  const manifest = JSON.parse(await readFile(new URL(MANIFEST, BUNDLE), "utf8"));
  const held = INLINE_PARTS.filter((name) => warmFiles(manifest).includes(fileName(manifest, name)));
  assert.ok(held.length, "the page would fetch some of them as files");
  // The same manifest as format 9 writes it: those parts' texts in its `inline`.
  manifest.inline = Object.fromEntries(await Promise.all(
    held.map(async (name) => [name, await readFile(new URL(fileName(manifest, name), BUNDLE), "utf8")])));
  const warm = warmFiles(manifest);
  for (const name of held) assert.ok(!warm.includes(fileName(manifest, name)), `${name} fetched`);
  assert.ok(warm.some((name) => name.startsWith("keyword.")), warm.join());
});
