// @ts-check
// The query encoder's rows are in shards by token (bundle/encoder_shards.py): the search service
// fetches only the shards of the query's word pieces, answers exactly as with every shard loaded,
// and goes on without a shard that fails (a warning). encoder-model.bin is never fetched.
import { test } from "node:test";
import { fileName } from "../src/engine/bundle/format.js";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { encoderShardOf } from "../src/engine/bundle/encoder-shards.js";
import { keyCharsOf, keyShard, vocabKey } from "../src/engine/bundle/vocab-shards.js";
import { search } from "../src/engine/engine.js";
import { completedQuery, keywordScores } from "../src/engine/keyword.js";
import { loadBundle } from "../src/engine/worker.js";
import { askService } from "./service.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
/** @param {string} name */
const fetchFile = (name) => readFile(new URL(name, BUNDLE));
const QUERIES = ["what happens when a render fails", "RetryPolicy.delay_for", "upgrade", "banana smoothie recipe"];

/**
 * Run one hybrid query through the service until its complete answer.
 * @param {string} query @param {(name: string) => boolean} [fails] file names whose fetch fails
 */
async function serve(query, fails = () => false) {
  /** @type {string[]} */
  const fetched = [];
  const fetching = (/** @type {string} */ name) => {
    fetched.push(name);
    return fails(name) ? Promise.reject(new Error(`no ${name}`)) : fetchFile(name);
  };
  const hybrid = (/** @type {any} */ message) => message.type === "results" && message.complete && message.mode === "hybrid";
  const { answers, status } = await askService(fetching, { query, mode: "hybrid", limit: 10 }, hybrid);
  return { fetched, last: answers[answers.length - 1], warnings: status?.warnings ?? [] };
}

/** The logical encoder shards a query's pieces fall in (as engine.js encodes it).
 * @param {any} full @param {string} query */
function shardsOf(full, query) {
  const text = completedQuery(full, query, keywordScores(full, query));
  const pieces = full.encoder.wordpiece.pieces(text).slice(0, full.encoder.maxPieces);
  return new Set(pieces.map((/** @type {number} */ piece) => encoderShardOf(full.encoder.shards, piece)));
}

/** @param {any} full @param {Set<number>} indexes */
const namesOf = (full, indexes) => new Set([...indexes].map((i) => fileName(full.manifest, `encoder.${i}.bin`)));

test("a hybrid query fetches only its pieces' encoder shards and answers as with all of them", async () => {
  const full = await loadBundle(fetchFile);
  for (const query of QUERIES) {
    const { fetched, last } = await serve(query);
    const wanted = shardsOf(full, query);
    assert.deepEqual(new Set(fetched.filter((name) => /^encoder\.\d+\.[0-9a-f]+\.bin$/.test(name))), namesOf(full, wanted), query);
    assert.ok(wanted.size < full.encoder.shards.length, `${query}: every shard was fetched`);
    const words = new Set(full.encoder.vocabShardsOf(completedQuery(full, query, keywordScores(full, query))));
    const special = ["[CLS]", "[SEP]", "[UNK]"].map((token) => keyShard(vocabKey(token, keyCharsOf(full.manifest)), full.manifest.encoder.vocab.shards));
    const vocab = new Set([...words, ...special].map((i) => fileName(full.manifest, `vocab.${i}.json`)));
    assert.deepEqual(new Set(fetched.filter((name) => name.startsWith("vocab."))), vocab, query);
    assert.ok(!fetched.some((name) => name.startsWith("encoder-model.")), "the browser fetched encoder-model.bin");
    assert.deepEqual(last.results, search(full, query, { mode: "hybrid", limit: 10 }).results, query);
  }
});

test("an encoder shard that fails is a warning: the answer goes out without its rows", async () => {
  const full = await loadBundle(fetchFile);
  const query = QUERIES[0];
  const wanted = [...shardsOf(full, query)].sort((a, b) => a - b);
  assert.ok(wanted.length >= 2, "the query should span several shards");
  const lost = fileName(full.manifest, `encoder.${wanted[0]}.bin`);
  const { last, warnings } = await serve(query, (name) => name === lost);
  assert.ok(warnings.some((warning) => warning.startsWith("encoder: ")), warnings.join("; "));
  // Expected: the full bundle with that shard's rows taken out.
  const first = full.encoder.shards[wanted[0]], next = full.encoder.shards[wanted[0] + 1] ?? Infinity;
  for (const token of [...full.encoder.rows.keys()]) if (token >= first && token < next) full.encoder.rows.delete(token);
  assert.deepEqual(last.results, search(full, query, { mode: "hybrid", limit: 10 }).results);
  assert.equal(last.complete, true);
});
