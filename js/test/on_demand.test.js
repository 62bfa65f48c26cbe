// @ts-check
// Display columns and graph edges come in fragments (bundle/display.py, bundle/graph_shards.py):
// the search service fetches the display fragments of the pages it shows and the graph shards of
// the chunks it expands from, only those, and answers exactly as the whole bundle does. A graph
// shard that fails is a warning and the answer still goes out; a display fragment or a term shard
// that fails ends search with an error, never an answer without it (worker.js wantDisplays,
// wantShards, wantGraphs). A small site reads the display fragment and graph it prefetched, and
// fetches its most connected pages' texts, before any query (worker.js readPrefetched).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileName } from "../src/engine/bundle/format.js";
import { displayOf } from "../src/engine/bundle/read.js";
import { createService, loadBundle, topFragments } from "../src/engine/worker.js";
import { search } from "../src/engine/engine.js";
import { askService } from "./service.js";
import { sealedManifest } from "./sealed-manifest.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));

/**
 * The service's final answer to one query (or its error status), the files it fetched and its
 * last status; `fails` names the files that cannot be fetched, `damage` changes a file's bytes.
 * @param {string} query @param {string} mode @param {(name: string) => boolean} [fails]
 * @param {(name: string, bytes: Uint8Array) => Uint8Array} [damage]
 */
async function ask(query, mode, fails = () => false, damage = (_, bytes) => bytes) {
  /** @type {string[]} */
  const fetched = [];
  const fetching = async (/** @type {string} */ name) => {
    fetched.push(name);
    if (fails(name)) throw new Error(`no ${name}`);
    return damage(name, new Uint8Array(await fetchFile(name)));
  };
  /** @param {any} message */
  const ends = (message) => message.type === "status" ? message.state === "error" : message.complete;
  const { answers, status } = await askService(fetching, { query, mode }, ends);
  return { last: answers.length ? answers[answers.length - 1] : null, fetched, status };
}

/** The file names of these parts. @param {any} full @param {string} kind @param {Iterable<number>} indexes */
const names = (full, kind, indexes) => new Set([...indexes].map((i) => fileName(full.manifest, `${kind}.${i}.json`)));
/** @param {string[]} fetched @param {RegExp} pattern */
const only = (fetched, pattern) => new Set(fetched.filter((name) => pattern.test(name)));

test("an answer fetches the display fragments of the pages it shows, and answers as the whole bundle", async () => {
  const full = await loadBundle(fetchFile);
  const { last, fetched } = await ask("retry policy", "keyword");
  assert.deepEqual(last.results, search(full, "retry policy", { mode: "keyword" }).results);
  const pages = last.results.map((/** @type {any} */ r) => full.pages.path.indexOf(r.page));
  const wanted = pages.map((/** @type {number} */ page) => displayOf(full, full.chunks.page.indexOf(page)));
  assert.deepEqual(only(fetched, /^display\./), names(full, "display", wanted));
  assert.ok(new Set(wanted).size < full.displayStarts.length, "the query shows every fragment's pages");
});

test("a damaged display fragment or term shard: search is unavailable, never an answer without it", async () => {
  const flipped = (/** @type {Uint8Array} */ bytes) => Uint8Array.of(bytes[0] ^ 1, ...bytes.subarray(1));
  for (const kind of ["display", "postings"]) {
    const { last, status } = await ask("retry policy", "keyword", () => false,
                                       (name, bytes) => (name.startsWith(`${kind}.`) ? flipped(bytes) : bytes));
    assert.equal(last, null, `${kind}: an answer went out`);
    assert.equal(status.state, "error");
    assert.ok(status.done);
    assert.match(status.message, new RegExp(`^${kind}\\.\\d+\\.(json|bin) is corrupted \\(CRC-32 differs from the manifest\\): rebuild the site$`));
  }
});

test("a display fragment that cannot be fetched: search is unavailable, naming it (no advice to rebuild)", async () => {
  const { last, status } = await ask("retry policy", "keyword", (name) => name.startsWith("display."));
  assert.equal(last, null);
  assert.equal(status.state, "error");
  assert.match(status.message, /^cannot read display\.\d+\.json: no display\.\d+\.[0-9a-f]{8}\.json$/);
});

test("a hybrid answer fetches the graph shards of its seeds only and expands as the whole bundle", async () => {
  const full = await loadBundle(fetchFile);
  // A question: the keyword side is not sure of it, so the graph adds neighbours (fuse.py).
  const expected = search(full, "how do I put this on a server", { mode: "hybrid" });
  assert.ok(expected.results.some((/** @type {any} */ r) => r.sections.some((/** @type {any} */ s) => s.via.includes("graph"))));
  const { last, fetched } = await ask("how do I put this on a server", "hybrid");
  assert.deepEqual(last.results, expected.results);
  const graphs = only(fetched, /^graph\.\d+\./);
  assert.ok(graphs.size >= 1 && graphs.size < full.textStarts.length, [...graphs].join());
});

test("a graph shard that fails: a warning, and the answer still goes out", async () => {
  const full = await loadBundle(fetchFile);
  const shards = Array.from(full.textStarts, (_, i) => fileName(full.manifest, `graph.${i}.json`));
  const { last, status } = await ask("how do I put this on a server", "hybrid", (name) => shards.includes(name));
  assert.ok(status.warnings.some((/** @type {string} */ w) => w.startsWith("graph: ")), status.warnings.join());
  assert.ok(last.results.length);
  assert.ok(last.results.every((/** @type {any} */ r) => r.sections.every((/** @type {any} */ s) => !s.via.includes("graph"))));
});

// The timeout turns a hang (the display fragment fetched only once a query needs it) into a failure.
test("a site whose texts are one fragment fetches its display fragment and graph as soon as the manifest is read", { timeout: 60_000 }, async () => {
  const manifest = JSON.parse(String(await fetchFile("manifest.json")));
  const display = fileName(manifest, "display.0.json");
  // the same manifest with one text fragment (so one display fragment and one graph shard)
  const files = { ...manifest.files };
  for (const kind of ["text.#.json", "display.#.json", "graph.#.json"]) files[kind] = files[kind].slice(0, 1);
  const whole = sealedManifest({ ...manifest, text_starts: [0], files });
  let release = () => {};
  const held = new Promise((resolve) => { release = () => resolve(undefined); });
  /** @type {string[]} */
  const requested = [];
  const service = createService(() => {}, {
    fetcher: () => async (name) => {
      requested.push(name);
      if (name === display) release();
      if (name === "manifest.json") return whole;
      if (name.startsWith("keyword.")) await held; // keyword.json comes only once it was asked for
      return fetchFile(name);
    },
  });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await held;
  for (const part of ["display.0.json", "graph.json", "graph.0.json"]) { // (a bundle with vectors: its answers expand)
    assert.ok(requested.includes(fileName(manifest, part)), `${part}: ${requested.join()}`);
  }
  // with three fragments, no display or graph file before a query: every part loaded, none fetched
  /** @type {string[]} */
  const three = [];
  await new Promise((resolve) => {
    const before = createService((message) => { if (message.type === "status" && message.done) resolve(undefined); },
                                 { fetcher: () => (name) => { three.push(name); return fetchFile(name); } });
    before.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  });
  assert.ok(!three.some((name) => /^(display|graph)\./.test(name)), three.join());
});

// The timeout turns a hang (nothing read before a query) into a failure.
test("a site whose texts are one fragment reads its prefetched display fragment and graph before any query", { timeout: 30_000 }, async () => {
  const manifest = JSON.parse(String(await fetchFile("manifest.json")));
  const files = { ...manifest.files };
  for (const kind of ["text.#.json", "display.#.json", "graph.#.json"]) files[kind] = files[kind].slice(0, 1);
  const whole = sealedManifest({ ...manifest, text_starts: [0], files });
  const graph = fileName(manifest, "graph.json");
  // graph.json damaged: reading it is a warning, seen with no query asked (it was read at start)
  const status = await new Promise((resolve) => {
    const service = createService((message) => {
      if (message.type === "status" && message.warnings.length) resolve(message);
    }, {
      fetcher: () => async (name) => {
        if (name === "manifest.json") return whole;
        if (name === graph) return new TextEncoder().encode("{");
        return fetchFile(name);
      },
    });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  });
  assert.ok(/** @type {any} */ (status).warnings.some((/** @type {string} */ w) => w.startsWith("graph: ")));
});

test("topFragments: the text fragments of the most connected pages, most connected first, at most `count`", () => {
  const bundle = /** @type {any} */ ({
    manifest: { top: [{ path: "b.md", title: "B", url: "b/" }, { path: "a.md", title: "A", url: "a/" }] },
    pages: { path: ["a.md", "b.md", "c.md"] },
    chunks: { page: [0, 0, 1, 1, 1, 2, 0] },
    nChunks: 7,
    textStarts: [0, 2, 4, 6],
  });
  assert.deepEqual(topFragments(bundle, 4), [1, 2, 0, 3]); // b.md: chunks 2-4; a.md: 0, 1 and 6
  assert.deepEqual(topFragments(bundle, 2), [1, 2]);
  assert.deepEqual(topFragments({ ...bundle, manifest: {} }, 4), []);
});
