// @ts-check
/**
 * The WordPiece vocabulary in shards fetched by the query's words (spec and layout:
 * bundle/vocab_shards.py): with k = the manifest's `encoder.vocab.key_chars`, an entry's key is
 * `##` + its next k - 1 code points for a continuation piece, else its first k code points; its
 * shard is hash(key) mod n. A word c0 c1 ... needs the shards of its first 1 .. k code points
 * and, for every i >= 1, of `##` + its 1 .. k - 1 code points from ci (k = 1: `##`): every entry
 * greedy longest-match could look up for it, so its pieces are exactly those of the whole vocabulary.
 */
import { BundleError } from "./format.js";
import { fail, object, own, strings, wholes } from "./schema.js";
import { MAX_INPUT_CHARS_PER_WORD } from "../text/wordpiece.js";

const HASH_MODULUS = 1000003;

/** @param {number} index */
export const vocabShard = (index) => `vocab.${index}.json`;

/** Key length of a bundle whose manifest has no `encoder.vocab.key_chars`. */
const KEY_CHARS_IF_ABSENT = 2;

/** The manifest's key length. @param {any} manifest @returns {number} */
export const keyCharsOf = (manifest) => manifest.encoder.vocab.key_chars ?? KEY_CHARS_IF_ABSENT;

/** @param {string} entry @param {number} keyChars */
export function vocabKey(entry, keyChars) {
  const chars = Array.from(entry);
  if (entry.startsWith("##") && chars.length > 2) return chars.slice(0, 1 + keyChars).join("");
  return chars.slice(0, keyChars).join("");
}

/** @param {string} key @param {number} n */
export function keyShard(key, n) {
  let h = 0;
  for (const ch of key) h = (h * 31 + /** @type {number} */ (ch.codePointAt(0))) % HASH_MODULUS;
  return h % n;
}

/** The shards a (normalized, pre-tokenized) word's pieces are looked up in.
 * @param {string} word @param {number} n @param {number} keyChars @returns {number[]} */
export function wordShards(word, n, keyChars) {
  const chars = Array.from(word);
  if (chars.length > MAX_INPUT_CHARS_PER_WORD) return []; // [UNK], no lookup
  const keys = chars.slice(0, keyChars).map((_, j) => chars.slice(0, j + 1).join(""));
  for (let i = 1; i < chars.length; i++) {
    for (let j = Math.min(1, keyChars - 1); j < keyChars; j++) keys.push(`##${chars.slice(i, i + j).join("")}`);
  }
  return [...new Set(keys.map((key) => keyShard(key, n)))];
}

/**
 * A parsed shard -> its [entry, id] pairs, checked like read_vocab_shard (same messages).
 * @param {unknown} data @param {any} manifest @param {number} index @returns {[string, number][]}
 */
export function readVocabShard(data, manifest, index) {
  const name = vocabShard(index);
  const { size, shards } = manifest.encoder.vocab;
  const keyChars = keyCharsOf(manifest);
  const shard = object(name, data, "the file");
  const tokens = strings(name, own(shard, "tokens"), "tokens");
  const gaps = wholes(name, own(shard, "gaps"), "gaps", tokens.length, 0, size - 1);
  /** @type {[string, number][]} */
  const pairs = [];
  let last = -1;
  tokens.forEach((token, i) => {
    const current = i === 0 ? gaps[i] : last + gaps[i];
    if ((i && gaps[i] === 0) || current >= size) fail(name, `gaps[${i}]`, `must give rising ids below ${size}`);
    if (keyShard(vocabKey(token, keyChars), shards) !== index) fail(name, `tokens[${i}]`, "belongs to another shard");
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
