// @ts-check
// The chunk graph is an optional part (worker.js): the first answer (keyword: nothing expands)
// goes out without graph.json; once it is in, vector and hybrid answers expand through it; one
// that fails is a warning and the answers stay direct matches only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createService, loadGraphPart } from "../src/engine/worker.js";

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
 */
async function run(graph, answered = () => {}) {
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
  service.handle({ type: "query", channel: "box", id: 1, query: "configure retries for a task", mode: "hybrid" }); // a question: the keyword side is not sure of it, the graph adds neighbours (fuse.py)
  await finished;
  return { answers, status };
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

test("a bundle without vectors never fetches its graph (keyword answers do not expand)", async () => {
  const refuse = async () => { throw new Error("fetched"); };
  const bundle = /** @type {any} */ ({ manifest: {}, graph: null });
  assert.equal(await loadGraphPart(bundle, refuse), false);
  assert.equal(bundle.graph, null);
});
