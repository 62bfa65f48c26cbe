// @ts-check
// The chunk graph is fetched for answers that expand only (worker.js, engine.js GRAPH): the first
// answer (keyword: nothing expands) goes out without graph.json; a vector or hybrid answer that
// expands waits for it; one the keyword side is sure of never fetches it; one that fails is a
// warning and the answers stay direct matches only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { search } from "../src/engine/engine.js";
import { createService, loadBundle } from "../src/engine/worker.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));

/** @param {any} answer */
const viaGraph = (answer) => answer.results.flatMap((/** @type {any} */ page) => page.sections)
  .filter((/** @type {any} */ section) => section.via.includes("graph"));

/**
 * Run "retry_policy" (hybrid: cases.json expands it) with graph.json held until `graph()` settles;
 * each answer notes the files received before it.
 * @param {() => Promise<unknown>} graph @param {() => void} [answered] called at each answer
 * @param {string} [query]
 */
async function run(graph, answered = () => {}, query = "configure retries for a task") {
  /** @type {string[]} */
  const fetched = [];
  /** @type {any[]} */
  const answers = [];
  /** @type {any} */
  let status = null;
  let finish = () => {};
  const finished = new Promise((resolve) => { finish = () => resolve(undefined); });
  const service = createService((message) => {
    if (message.type === "status") status = message;
    if (message.type !== "results") return;
    answers.push({ ...message, fetched: [...fetched] });
    answered();
    if (message.complete) finish();
  }, {
    fetcher: () => async (name) => {
      if (name.startsWith("graph.")) await graph();
      fetched.push(name);
      return fetchFile(name);
    },
  });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  // (the default query is a question: the keyword side is not sure of it, the graph adds neighbours: fuse.py)
  service.handle({ type: "query", channel: "box", id: 1, query, mode: "hybrid" });
  await finished;
  return { answers, status, fetched };
}

// The timeout turns a hang (a first answer that waits for the held graph.json) into a failure.
test("the first answer needs no graph.json; a later answer expands through it", { timeout: 120_000 }, async () => {
  // graph.json is held until the first answer is out (it never comes if that answer waits for it).
  /** @type {() => void} */
  let release = () => {};
  const held = new Promise((resolve) => { release = () => resolve(undefined); });
  const { answers, status } = await run(() => held, release);
  const first = answers[0];
  assert.ok(first.results.length, "the first answer has results");
  assert.ok(!first.fetched.some((/** @type {string} */ name) => name.startsWith("graph.")), first.fetched.join());
  assert.equal(first.complete, false);
  assert.deepEqual(viaGraph(first), []);
  const last = answers[answers.length - 1];
  assert.equal(last.mode, "hybrid");
  assert.ok(viaGraph(last).length, "the complete answer expands through the graph");
  assert.deepEqual(status.warnings, []);
});

test("a graph that fails is a warning: the answers go out without expansion", async () => {
  const { answers, status } = await run(() => Promise.reject(new Error("stalled")));
  const last = answers[answers.length - 1];
  assert.equal(last.complete, true);
  assert.equal(last.mode, "hybrid"); // the semantic part still loads
  assert.deepEqual(viaGraph(last), []);
  assert.ok(last.results.length);
  assert.equal(status.warnings.length, 1);
  assert.match(status.warnings[0], /^graph: .*stalled/);
});

test("an answer the keyword side is sure of never fetches the graph, and is the whole bundle's", async () => {
  const full = await loadBundle(fetchFile);
  const query = "retry_policy"; // an identifier spelled out whole: keyword-sure (fuse.py), nothing expands
  const expected = search(full, query, { mode: "hybrid" });
  let graphs = 0;
  const { answers, status } = await run(() => Promise.reject(new Error(`graph fetched (${++graphs})`)), () => {}, query);
  const last = answers[answers.length - 1];
  assert.equal(last.mode, "hybrid");
  assert.deepEqual(last.results, expected.results);
  assert.equal(graphs, 0);
  assert.deepEqual(status.warnings, []);
});

// The timeout turns a hang (graph shards that wait for graph.json before they are fetched) into a failure.
test("an answer that expands fetches graph.json and its seeds' shards side by side", { timeout: 120_000 }, async () => {
  /** @type {string[]} */
  const requested = [];
  let release = () => {};
  const held = new Promise((resolve) => { release = () => resolve(undefined); });
  // graph.json is held until a shard has been asked for too: a hang if the shards wait for it.
  const { answers } = await run(() => {
    requested.push("graph");
    if (requested.length > 1) release();
    return held;
  });
  assert.ok(requested.length > 1);
  assert.ok(viaGraph(answers[answers.length - 1]).length);
});
