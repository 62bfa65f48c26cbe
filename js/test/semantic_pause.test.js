// @ts-check
// The semantic half waits for typing to pause (worker.js SEMANTIC_PAUSE_MS): a query whose encoder
// rows, vocabulary, vector shards or graph edges are not in gets its keyword answer at once; the
// vector clusters and graph shards it lacks are fetched only for the text the reader stops at,
// the query encoder's files at once (a word's vocabulary follows from its first letter); the
// final answer is the fully loaded bundle's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileName } from "../src/engine/bundle/format.js";
import { search } from "../src/engine/engine.js";
import { createService, loadBundle } from "../src/engine/worker.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));
const TYPED = ["what hap", "what happens when a ren", "what happens when a render fa"];
const FINAL = "what happens when a render fails";
/** A question whose hybrid answer expands through the graph (js/test/graph.test.js). */
const EXPANDS = "configure retries for a task";
/** The semantic half's on-demand files (encoder rows, vocabulary shards). @param {string} name */
const semantic = (name) => /^(encoder|vocab)\.\d+\./.test(name);

/** Pages and sections with their scores (snippets come later, with their texts). @param {any[]} results */
const ranked = (results) => results.map((r) => [r.page, r.score, r.sections.map((s) => [s.id, s.score])]);

/**
 * A service on the frozen bundle with every part loaded, then `queries` sent one after another
 * on one channel; resolves with the files fetched after loading and every answer, once the last
 * query's complete hybrid answer is in.
 * @param {string[]} queries
 */
async function typed(queries) {
  /** @type {string[]} */
  const fetched = [];
  /** @type {any[]} */
  const answers = [];
  let ready = () => {};
  let finish = () => {};
  const loaded = new Promise((resolve) => { ready = () => resolve(undefined); });
  const finished = new Promise((resolve) => { finish = () => resolve(undefined); });
  const service = createService((message) => {
    if (message.type === "status" && message.done) ready();
    if (message.type !== "results") return;
    answers.push(message);
    if (message.id === queries.length && message.complete && message.mode === "hybrid") finish();
  }, { semanticPause: 150, fetcher: () => (name) => { fetched.push(name); return fetchFile(name); } });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await loaded;
  const atLoad = fetched.length;
  queries.forEach((query, i) => service.handle({ type: "query", channel: "box", id: i + 1, query, limit: 10 }));
  await finished;
  return { fetched: fetched.slice(atLoad), answers };
}

test("keys that come faster than answers fetch the semantic half's files of the last text only", async () => {
  const full = await loadBundle(fetchFile);
  const session = await typed([...TYPED, FINAL]);
  const alone = await typed([FINAL]);
  assert.ok(session.fetched.some(semantic), "the final query fetched no encoder or vocab shard");
  assert.deepEqual(session.fetched.filter(semantic).sort(), alone.fetched.filter(semantic).sort());
  const first = session.answers.find((answer) => answer.id === TYPED.length + 1);
  if (first.mode === "keyword") { // before its encoder rows were in (they may come before its display fragments)
    assert.equal(first.complete, false);
    assert.deepEqual(ranked(first.results), ranked(search(full, FINAL, { mode: "keyword", limit: 10 }).results));
  }
  const last = session.answers[session.answers.length - 1];
  assert.deepEqual(last.results, search(full, FINAL, { mode: "hybrid", limit: 10 }).results);
});

/**
 * A service on the frozen bundle with every part loaded and a typing pause that never ends
 * within the test: each of `prefixes` typed (sent, then its first answer awaited), then `last`
 * entered whole (settled); resolves with the files fetched after loading and every answer once
 * the last one's complete hybrid answer is in, and how many files were fetched when the last one
 * was sent and when its first keyword answer went out. `hold`: files whose fetch waits until the first
 * keyword answer to `last` is out.
 * @param {string[]} prefixes @param {string} last @param {RegExp} [hold]
 */
async function stepped(prefixes, last, hold) {
  /** @type {string[]} */
  const fetched = [];
  /** @type {any[]} */
  const answers = [];
  /** @type {Map<number, () => void>} */
  const waiters = new Map();
  let ready = () => {};
  const loaded = new Promise((resolve) => { ready = () => resolve(undefined); });
  let release = () => {};
  const held = new Promise((resolve) => { release = () => resolve(undefined); });
  let loading = true;
  /** The files fetched when the last query was sent, and when its first keyword answer went out. */
  const at = { sent: -1, keyword: -1 };
  const service = createService((message) => {
    if (message.type === "status" && message.done) ready();
    if (message.type !== "results") return;
    answers.push(message);
    if (message.id > prefixes.length && message.mode === "keyword" && at.keyword < 0) {
      at.keyword = fetched.length;
      release();
    }
    waiters.get(message.id)?.();
    if (message.id > prefixes.length && message.complete && message.mode === "hybrid") waiters.get(-1)?.();
  }, {
    semanticPause: 3_600_000,
    fetcher: () => async (name) => {
      if (!loading) fetched.push(name);
      if (!loading && hold?.test(name)) await held;
      return fetchFile(name);
    },
  });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await loaded;
  loading = false;
  const asked = (/** @type {number} */ id, /** @type {string} */ query, /** @type {boolean} */ settled) => {
    const answered = new Promise((resolve) => waiters.set(settled ? -1 : id, () => resolve(undefined)));
    service.handle({ type: "query", channel: "box", id, query, limit: 10, settled });
    return answered;
  };
  for (const [i, prefix] of prefixes.entries()) await asked(i + 1, prefix, false);
  at.sent = fetched.length;
  await asked(prefixes.length + 1, last, true);
  service.handle({ type: "clear", channel: "box" }); // its pause timer goes too
  return { fetched, answers, at };
}

/** @param {string[]} names */
const texts = (names) => names.filter((name) => name.startsWith("text.")).sort();

test("typed prefixes fetch no snippet texts: only the text the reader stops at does", { timeout: 120_000 }, async () => {
  const session = await stepped(TYPED, FINAL);
  assert.ok(session.answers.filter((answer) => answer.id <= TYPED.length).every((answer) => !answer.complete));
  assert.deepEqual(texts(session.fetched.slice(0, session.at.sent)), []);
  const alone = await stepped([], FINAL);
  assert.ok(texts(alone.fetched).length, "the final query fetched no text fragment");
  assert.deepEqual(texts(session.fetched), texts(alone.fetched));
  const full = await loadBundle(fetchFile);
  const last = session.answers[session.answers.length - 1];
  assert.deepEqual(last.results, search(full, FINAL, { mode: "hybrid", limit: 10 }).results);
});

test("a keyword answer the semantic half will re-rank fetches no snippet texts", { timeout: 120_000 }, async () => {
  // its encoder rows wait until the keyword answer is out: texts asked for meanwhile show here
  const { fetched, answers, at } = await stepped([], FINAL, /^encoder\.\d+\./);
  assert.ok(at.keyword >= 0, "no keyword answer came first");
  assert.deepEqual(texts(fetched.slice(0, at.keyword)), []);
  assert.ok(texts(fetched).length);
  const full = await loadBundle(fetchFile);
  assert.deepEqual(answers[answers.length - 1].results, search(full, FINAL, { mode: "hybrid", limit: 10 }).results);
});

/**
 * One query on a service whose typing pause never ends within the test; resolves with its
 * answers and the files fetched once one is hybrid and complete, or once every part is tried
 * and `settleMs` passed.
 * @param {boolean} settled @param {number} settleMs @param {string} [query]
 */
async function asked(settled, settleMs, query = FINAL) {
  /** @type {any[]} */
  const answers = [];
  /** @type {string[]} */
  const fetched = [];
  let finish = () => {};
  const finished = new Promise((resolve) => { finish = () => resolve(undefined); });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const service = createService((message) => {
    if (message.type === "status" && message.done) timer = setTimeout(finish, settleMs);
    if (message.type !== "results") return;
    answers.push(message);
    if (message.complete && message.mode === "hybrid") finish();
  }, { semanticPause: 3_600_000, fetcher: () => (name) => { fetched.push(name); return fetchFile(name); } });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  service.handle({ type: "query", channel: "box", id: 1, query, limit: 10, settled });
  await finished;
  clearTimeout(timer);
  service.handle({ type: "clear", channel: "box" }); // its pause timer goes too
  return { answers, fetched };
}

// The timeout turns a settled query that waits for the pause (an hour here) into a failure.
test("a query entered whole (settled) gets its hybrid answer without the typing pause", { timeout: 120_000 }, async () => {
  const full = await loadBundle(fetchFile);
  const { answers } = await asked(true, 60_000, EXPANDS);
  const last = answers[answers.length - 1];
  assert.equal(last.mode, "hybrid");
  assert.equal(last.complete, true);
  assert.deepEqual(last.results, search(full, EXPANDS, { mode: "hybrid", limit: 10 }).results);
  // while typing, the same query waits for the pause: keyword answers only, no graph file fetched
  const typing = await asked(false, 1000, EXPANDS);
  assert.ok(typing.answers.length && typing.answers.every((answer) => answer.mode === "keyword"),
            typing.answers.map((a) => a.mode).join());
  assert.ok(!typing.fetched.some((name) => name.startsWith("graph.")), typing.fetched.join());
  assert.ok(typing.fetched.some(semantic), "no encoder or vocab shard was fetched while typing");
});

// The pause is an hour: a typed query whose encoder files waited for it would stay keyword.
test("while typing, the query encoder's files come at once: without graph edges to wait for, the hybrid ranking needs no pause (its snippet texts do)", { timeout: 120_000 }, async () => {
  const full = await loadBundle(fetchFile);
  const { answers } = await asked(false, 1000);
  const last = answers[answers.length - 1];
  assert.equal(last.mode, "hybrid");
  assert.equal(last.complete, false); // the texts of a typed prefix's snippets wait for the pause
  /** @param {any[]} results */
  const ranking = (results) => results.map((result) => [result.page, result.sections.map((s) => s.url)]);
  assert.deepEqual(ranking(last.results), ranking(search(full, FINAL, { mode: "hybrid", limit: 10 }).results));
});

// The timeout turns a hang (semantic files fetched only after the keyword part) into a failure.
test("the semantic part's files download beside the keyword part, as soon as the manifest is read", { timeout: 120_000 }, async () => {
  /** @type {string[]} */
  const requested = [];
  let release = () => {};
  const held = new Promise((resolve) => { release = () => resolve(undefined); });
  let finish = () => {};
  const finished = new Promise((resolve) => { finish = () => resolve(undefined); });
  const service = createService((message) => { if (message.type === "status" && message.done) finish(); }, {
    fetcher: () => async (name) => {
      requested.push(name);
      if (/^(encoder|vectors)\.[0-9a-f]+\./.test(name)) release();
      if (name.startsWith("keyword.")) await held; // keyword.json comes only once they were asked for
      return fetchFile(name);
    },
  });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await finished;
  // (the hold above is the test: keyword.json is answered only once one of them was asked for)
  assert.ok(requested.some((name) => name.startsWith("vectors.")), requested.join());
  assert.ok(requested.some((name) => /^encoder\.[0-9a-f]+\.json$/.test(name)), requested.join());
});

/**
 * A query entered whole (settled) on a service with every part loaded, whose files that `holds`
 * names come only once a file that `opens` names was asked for (a hang otherwise: the tests'
 * timeouts make it a failure); resolves with its complete hybrid answer.
 * @param {string} query @param {RegExp} opens @param {(name: string) => boolean} holds
 */
async function heldUntil(query, opens, holds) {
  let loading = true;
  let release = () => {};
  const held = new Promise((resolve) => { release = () => resolve(undefined); });
  let ready = () => {};
  const loaded = new Promise((resolve) => { ready = () => resolve(undefined); });
  let finish = () => {};
  const finished = new Promise((resolve) => { finish = () => resolve(undefined); });
  /** @type {any} */
  let last = null;
  const service = createService((message) => {
    if (message.type === "status" && message.done) ready();
    if (message.type !== "results") return;
    last = message;
    if (message.complete && message.mode === "hybrid") finish();
  }, {
    fetcher: () => async (name) => {
      if (!loading && opens.test(name)) release();
      if (!loading && holds(name)) await held;
      return fetchFile(name);
    },
  });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await loaded;
  loading = false;
  service.handle({ type: "query", channel: "box", id: 1, query, limit: 10, settled: true });
  await finished;
  return last;
}

// The timeout turns a hang (vocabulary fetched only once the term shards are in) into a failure.
test("a settled query's vocabulary downloads beside its term shards", { timeout: 120_000 }, async () => {
  // the terms come only once a vocab shard was asked for
  const last = await heldUntil(FINAL, /^vocab\.\d+\./, (name) => name.startsWith("postings."));
  const full = await loadBundle(fetchFile);
  assert.deepEqual(last.results, search(full, FINAL, { mode: "hybrid", limit: 10 }).results);
});

// The timeout turns a hang (rows named only once every word's vocabulary is in) into a failure.
test("a word's encoder rows download as soon as its own vocabulary is in, beside another word's", { timeout: 120_000 }, async () => {
  const full = await loadBundle(fetchFile);
  const [first, second] = ["render", "fails"].map((word) => new Set(full.encoder.vocabShardsOf(word)));
  const late = new Set([...second].filter((index) => !first.has(index)).map((i) => fileName(full.manifest, `vocab.${i}.json`)));
  assert.ok(late.size, "the two words share every vocab shard");
  // the second word's vocabulary comes only once a row was asked for
  const last = await heldUntil("render fails", /^encoder\.\d+\./, (name) => late.has(name));
  assert.deepEqual(last.results, search(full, "render fails", { mode: "hybrid", limit: 10 }).results);
});

/**
 * `queries` sent at once on one channel, as keys typed faster than answers (only the last is
 * answered), on a service with every part loaded and a typing pause of `pause` ms; resolves
 * with the files fetched after loading and the answers to the last once one is hybrid and
 * complete, or `settleMs` after its first keyword answer (or after sending, when none comes).
 * @param {string[]} queries @param {number} pause @param {number} settleMs
 */
async function keyed(queries, pause, settleMs) {
  /** @type {string[]} */
  const fetched = [];
  /** @type {any[]} */
  const answers = [];
  let loading = true;
  let ready = () => {};
  const loaded = new Promise((resolve) => { ready = () => resolve(undefined); });
  let finish = () => {};
  const finished = new Promise((resolve) => { finish = () => resolve(undefined); });
  const service = createService((message) => {
    if (message.type === "status" && message.done) ready();
    if (message.type !== "results" || message.id !== queries.length) return;
    answers.push(message);
    if (message.complete && message.mode === "hybrid") finish();
    else setTimeout(finish, settleMs);
  }, { semanticPause: pause, fetcher: () => (name) => { if (!loading) fetched.push(name); return fetchFile(name); } });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  await loaded;
  loading = false;
  queries.forEach((query, i) => service.handle({ type: "query", channel: "box", id: i + 1, query, limit: 10 }));
  setTimeout(finish, settleMs);
  await finished;
  service.handle({ type: "clear", channel: "box" }); // its pause timer goes too
  return { fetched, answers };
}

test("a one-letter word being typed fetches its term shards once the reader pauses", { timeout: 120_000 }, async () => {
  const full = await loadBundle(fetchFile);
  const typing = await keyed(["f"], 3_600_000, 1000);
  assert.deepEqual(typing.answers, []);
  assert.ok(!typing.fetched.some((name) => name.startsWith("postings.")), typing.fetched.join());
  const paused = await keyed(["f"], 150, 60_000);
  assert.ok(paused.fetched.some((name) => name.startsWith("postings.")), paused.fetched.join());
  const last = paused.answers[paused.answers.length - 1];
  assert.deepEqual(last.results, search(full, "f", { mode: "hybrid", limit: 10 }).results);
});

test("while a word is typed, the encoder rows of the words before it come at once, its own and its completions' once the reader pauses", { timeout: 120_000 }, async () => {
  const full = await loadBundle(fetchFile);
  const { encoderShardOf } = await import("../src/engine/bundle/encoder-shards.js");
  /** @param {string} word */
  const shards = (word) => new Set(full.encoder.wordpiece.pieces(word).map((piece) => encoderShardOf(full.encoder.shards, piece)));
  const finished = shards("render");
  const later = [...shards("tim")].filter((index) => !finished.has(index));
  assert.ok(later.length, "the two words share every encoder shard");
  /** @param {string[]} names */
  const rows = (names) => names.filter((name) => /^encoder\.\d+\./.test(name)).map((name) => Number(name.split(".")[1]));
  // (a prefix whose term shards are few: one over worker.js TYPED_NEW_FILES waits for the pause too)
  const typing = await keyed(["render ti", "render tim"], 3_600_000, 1000);
  assert.ok(typing.answers.length && typing.answers.every((answer) => answer.mode === "keyword"));
  assert.ok(rows(typing.fetched).length && rows(typing.fetched).every((index) => finished.has(index)), typing.fetched.join());
  const paused = await keyed(["render ti", "render tim"], 150, 60_000);
  assert.ok(later.every((index) => rows(paused.fetched).includes(index)), paused.fetched.join());
  const last = paused.answers[paused.answers.length - 1];
  assert.deepEqual(last.results, search(full, "render tim", { mode: "hybrid", limit: 10 }).results);
});
