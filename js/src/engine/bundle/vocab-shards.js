// @ts-check
/**
 * The WordPiece vocabulary in shards fetched by the query's words (spec and layout:
 * bundle/vocab_shards.py): an entry's key is `##` + its third code point for a continuation
 * piece, else its first two code points; its shard is hash(key) mod n. A word c0 c1 ... needs
 * the shards of key(c0), key(c0 c1) and `##` + ci (i >= 1): every entry greedy longest-match
 * could look up for it, so its pieces are exactly those of the whole vocabulary.
 */
import { BundleError } from "./format.js";
import { fail, object, own, strings, wholes } from "./schema.js";
import { MAX_INPUT_CHARS_PER_WORD } from "../text/wordpiece.js";

const HASH_MODULUS = 1000003;

/** @param {number} index */
export const vocabShard = (index) => `vocab.${index}.json`;

/** @param {string} entry */
export function vocabKey(entry) {
  const chars = Array.from(entry);
  if (entry.startsWith("##") && chars.length > 2) return chars.slice(0, 3).join("");
  return chars.slice(0, 2).join("");
}

/** @param {string} key @param {number} n */
export function keyShard(key, n) {
  let h = 0;
  for (const ch of key) h = (h * 31 + /** @type {number} */ (ch.codePointAt(0))) % HASH_MODULUS;
  return h % n;
}

/** The shards a (normalized, pre-tokenized) word's pieces are looked up in.
 * @param {string} word @param {number} n @returns {number[]} */
export function wordShards(word, n) {
  const chars = Array.from(word);
  if (chars.length > MAX_INPUT_CHARS_PER_WORD) return []; // [UNK], no lookup
  const keys = [chars[0], chars.slice(0, 2).join(""), ...chars.slice(1).map((ch) => `##${ch}`)];
  return keys.map((key) => keyShard(key, n));
}

/**
 * A parsed shard -> its [entry, id] pairs, checked like read_vocab_shard (same messages).
 * @param {unknown} data @param {any} manifest @param {number} index @returns {[string, number][]}
 */
export function readVocabShard(data, manifest, index) {
  const name = vocabShard(index);
  const { size, shards } = manifest.encoder.vocab;
  const shard = object(name, data, "the file");
  const tokens = strings(name, own(shard, "tokens"), "tokens");
  const gaps = wholes(name, own(shard, "gaps"), "gaps", tokens.length, 0, size - 1);
  /** @type {[string, number][]} */
  const pairs = [];
  let last = -1;
  tokens.forEach((token, i) => {
    const current = i === 0 ? gaps[i] : last + gaps[i];
    if ((i && gaps[i] === 0) || current >= size) fail(name, `gaps[${i}]`, `must give rising ids below ${size}`);
    if (keyShard(vocabKey(token), shards) !== index) fail(name, `tokens[${i}]`, "belongs to another shard");
    pairs.push([token, current]);
    last = current;
  });
  return pairs;
}

/** Every id 0..size-1 exactly once over all shards (node's loadBundle, as join_vocab).
 * @param {number[]} ids every shard's ids (each below size) @param {number} size */
export function checkVocabCovered(ids, size) {
  if (ids.length !== size || new Set(ids).size !== size) {
    throw new BundleError(`the vocab shards do not hold ids 0 to ${size - 1} once each (corrupted)`);
  }
}
