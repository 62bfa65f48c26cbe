// @ts-check
/**
 * The WordPiece vocabulary in shards fetched by the query's words (spec and layout:
 * bundle/vocab_shards.py): with k = the manifest's `encoder.vocab.key_chars`, an entry's key is
 * `##` + its next k - 1 code points for a continuation piece, else its first k code points; its
 * shard is hash(key) mod n. A word c0 c1 ... needs the shards of its first 1 .. k code points
 * and, for each position ci greedy longest-match reaches, of `##` + its 1 .. k - 1 code points
 * from ci (k = 1: `##`): every entry greedy longest-match looks up for it (wordShards), so its
 * pieces are exactly those of the whole vocabulary.
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

/** WordPiece's special tokens: every query needs their ids. */
const SPECIALS = ["[CLS]", "[SEP]", "[UNK]"];

/** The special tokens' ids the manifest gives (`encoder.vocab.specials`; none before it did).
 * @param {any} manifest @returns {[string, number][]} */
export function givenSpecials(manifest) {
  const given = manifest.encoder.vocab.specials ?? {};
  return SPECIALS.filter((token) => Object.hasOwn(given, token)).map((token) => [token, given[token]]);
}

/** The shards of the special tokens whose ids the manifest does not give, ascending (their
 * shard holds a thousand other entries: read only for a bundle without them).
 * @param {any} manifest @returns {number[]} */
export function specialShards(manifest) {
  const keyChars = keyCharsOf(manifest), n = manifest.encoder.vocab.shards;
  const given = new Set(givenSpecials(manifest).map(([token]) => token));
  const shards = new Set(SPECIALS.filter((token) => !given.has(token)).map((token) => keyShard(vocabKey(token, keyChars), n)));
  return [...shards].sort((a, b) => a - b);
}

/**
 * The shards a (normalized, pre-tokenized) word's pieces are looked up in, as far as the shards
 * in tell: greedy longest-match from the word's start, each position's candidates in the shards
 * of their keys (its first 1 .. k code points at the start, `##` + 1 .. k - 1 from it after);
 * where one of those shards is neither in nor failed (`settled`), the pieces after it are not
 * known yet, so neither are their shards. So a word the vocabulary holds whole never needs the continuation
 * pieces' shards, and the shards named, once all in, give exactly the whole vocabulary's pieces.
 * @param {string} word @param {number} n @param {number} keyChars
 * @param {(shard: number) => boolean} settled whether a shard is in (or failed: not to be had)
 * @param {(entry: string) => boolean} has whether an entry of the shards in is in the vocabulary
 * @returns {number[]}
 */
export function wordShards(word, n, keyChars, settled, has) {
  const chars = Array.from(word);
  if (chars.length > MAX_INPUT_CHARS_PER_WORD) return []; // [UNK], no lookup
  /** @type {Set<number>} */
  const out = new Set();
  for (let start = 0; start < chars.length;) {
    const keys = start === 0
      ? chars.slice(0, keyChars).map((_, j) => chars.slice(0, j + 1).join(""))
      : Array.from({ length: keyChars - Math.min(1, keyChars - 1) },
                   (_, j) => `##${chars.slice(start, start + Math.min(1, keyChars - 1) + j).join("")}`);
    const shards = keys.map((key) => keyShard(key, n));
    for (const shard of shards) out.add(shard);
    if (!shards.every(settled)) break;
    let end = chars.length;
    const prefix = start ? "##" : "";
    while (end > start && !has(prefix + chars.slice(start, end).join(""))) end--;
    if (end === start) break; // no piece: the word is [UNK]
    start = end;
  }
  return [...out];
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
