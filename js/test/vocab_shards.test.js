// @ts-check
// The vocabulary in shards (bundle/vocab_shards.py): a text tokenized with only the shards its
// words need gives exactly the ids of the whole vocabulary (tests/vectors/wordpiece.json, made
// by `tokenizers`), and only those shards (plus the special tokens') are fetched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { fileName, listedParts } from "../src/engine/bundle/format.js";
import { loadManifest } from "../src/engine/bundle/read.js";
import { loadEncoder, loadVocabShard } from "../src/engine/encoder.js";
import { keyShard, specialShards, vocabKey, wordShards } from "../src/engine/bundle/vocab-shards.js";
import { createWordPiece, normalize, preTokenize } from "../src/engine/text/wordpiece.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
const vectors = JSON.parse(readFileSync(new URL("../../tests/vectors/wordpiece.json", import.meta.url), "utf8"));
const full = createWordPiece(readFileSync(new URL("../../mkdocs_graphsearch/text/vocab.txt", import.meta.url), "utf8"));
// Pieces longer than any entry of the special tokens' shards (which are in first).
const LONG = ["internationalization responsibilities", "Kubernetes administrators' troubleshooting"];
const cases = [...vectors.cases, ...LONG.map((text) => ({ text, max_tokens: null, ids: full.encode(text) }))];

test("a text's own vocab shards give the ids of the whole vocabulary, and only they are fetched", async () => {
  const manifest = await loadManifest((name) => readFile(new URL(name, BUNDLE)));
  const nameOf = new Map(listedParts(manifest).map((part) => [fileName(manifest, part), part]));
  const failures = [];
  let fewer = 0;
  for (const c of cases) {
    /** @type {Set<string>} */
    const fetched = new Set();
    /** @param {string} name */
    const fetchFile = (name) => { fetched.add(/** @type {string} */ (nameOf.get(name))); return readFile(new URL(name, BUNDLE)); };
    const bundle = /** @type {any} */ ({ manifest, encoder: null });
    bundle.encoder = await loadEncoder(bundle, fetchFile);
    const special = new Set([...fetched].filter((part) => part.startsWith("vocab.")));
    /** @type {Set<number>} */
    const wanted = new Set();
    for (let more = bundle.encoder.vocabShardsOf(c.text); more.some((i) => !wanted.has(i));) { // as queryVector asks again
      for (const index of more) wanted.add(index), await loadVocabShard(bundle, index);
      more = bundle.encoder.vocabShardsOf(c.text);
    }
    const got = bundle.encoder.wordpiece.encode(c.text, c.max_tokens);
    if (JSON.stringify(got) !== JSON.stringify(c.ids)) failures.push({ text: c.text, got, want: c.ids });
    const expected = new Set([...special, ...[...wanted].map((i) => `vocab.${i}.json`)]);
    assert.deepEqual(new Set([...fetched].filter((part) => part.startsWith("vocab."))), expected, c.text);
    if (expected.size < manifest.encoder.vocab.shards) fewer++;
  }
  assert.deepEqual(failures, []);
  assert.ok(fewer > cases.length / 2, `only ${fewer} texts fetched fewer than every shard`);
});

// The key rule for each key length (bundle/vocab_shards.py: 1 for new bundles, 2 for the frozen
// one above): the entries of the shards wordShards names for a text's words (and the special
// tokens'), asked again as shards come in, give that text exactly the ids of the whole vocabulary.
for (const [keyChars, n] of [[1, 32], [2, 256], [3, 64]]) {
  test(`key length ${keyChars}, ${n} shards: a word's shards hold every piece it can be cut into`, () => {
    const lines = readFileSync(new URL("../../mkdocs_graphsearch/text/vocab.txt", import.meta.url), "utf8").split("\n");
    lines.pop();
    /** @type {Map<string, number>[]} */
    const shards = Array.from({ length: n }, () => new Map());
    lines.forEach((entry, id) => shards[keyShard(vocabKey(entry, keyChars), n)].set(entry, id));
    const failures = [];
    let fewer = 0;
    for (const c of cases) {
      const wanted = new Set(["[CLS]", "[SEP]", "[UNK]"].map((token) => keyShard(vocabKey(token, keyChars), n)));
      /** @type {Map<string, number>} */
      let map = new Map();
      for (let size = -1; size !== wanted.size;) { // until the words' pieces need no more shards
        size = wanted.size;
        map = new Map([...wanted].flatMap((index) => [...shards[index]]));
        const words = preTokenize(normalize(c.text));
        for (const word of words) {
          for (const index of wordShards(word, n, keyChars, (i) => wanted.has(i), (entry) => map.has(entry))) wanted.add(index);
        }
      }
      const got = createWordPiece(map, true).encode(c.text, c.max_tokens);
      if (JSON.stringify(got) !== JSON.stringify(c.ids)) failures.push({ text: c.text, got, want: c.ids });
      if (wanted.size < n) fewer++;
    }
    assert.deepEqual(failures, []);
    assert.ok(fewer > cases.length / 2, `only ${fewer} texts took fewer than every shard`);
  });
}

test("a word the vocabulary holds whole never needs the continuation pieces' shard", () => {
  const lines = readFileSync(new URL("../../mkdocs_graphsearch/text/vocab.txt", import.meta.url), "utf8").split("\n");
  const vocab = new Set(lines);
  const continuation = keyShard("##", 32);
  const shardsOf = (/** @type {string} */ word) => wordShards(word, 32, 1, () => true, (entry) => vocab.has(entry));
  for (const word of ["how", "change", "theme"]) assert.ok(!shardsOf(word).includes(continuation), word);
  assert.ok(shardsOf("mkdocs").includes(continuation)); // mk ##doc ##s
  // Before its first letter's shard is in, nothing after the start is known.
  assert.deepEqual(wordShards("mkdocs", 32, 1, () => false, () => false), [keyShard("m", 32)]);
});

test("a manifest that gives the special tokens' ids: the encoder fetches no vocab shard for them", async () => {
  const frozen = await loadManifest((name) => readFile(new URL(name, BUNDLE)));
  const ids = { "[CLS]": full.encode("")[0], "[SEP]": full.encode("").at(-1), "[UNK]": full.encode("\u{1F600}".repeat(101), null)[1] };
  const manifest = { ...frozen, encoder: { ...frozen.encoder, vocab: { ...frozen.encoder.vocab, specials: ids } } };
  assert.deepEqual(specialShards(manifest), []);
  const nameOf = new Map(listedParts(manifest).map((part) => [fileName(manifest, part), part]));
  for (const c of cases.slice(0, 20)) {
    /** @type {Set<string>} */
    const fetched = new Set();
    /** @param {string} name */
    const fetchFile = (name) => { fetched.add(/** @type {string} */ (nameOf.get(name))); return readFile(new URL(name, BUNDLE)); };
    const bundle = /** @type {any} */ ({ manifest, encoder: null });
    bundle.encoder = await loadEncoder(bundle, fetchFile);
    assert.deepEqual([...fetched].filter((part) => part.startsWith("vocab.")), []);
    for (let more = bundle.encoder.vocabShardsOf(c.text); more.some((i) => !bundle.encoder.vocabLoaded[i]);) {
      for (const index of more) await loadVocabShard(bundle, index);
      more = bundle.encoder.vocabShardsOf(c.text);
    }
    assert.deepEqual(bundle.encoder.wordpiece.encode(c.text, c.max_tokens), c.ids, c.text);
  }
});
