// @ts-check
/**
 * The site's words with their WordPiece ids and encoder rows (format 6; layout and checks:
 * bundle/word_rows.py): words.bin (the commonest words, and the rows of their pieces and of the
 * pieces most words use), words.<i>.bin (the other words w with keyShard(w, n) = i, and the rows
 * of their pieces words.bin lacks). Each: the compact JSON {"pieces", "words"}, a newline, rows in
 * encoder shard layout. A pasted query's word found here has its rows in the same file: one
 * round trip, where the vocabulary shards and then the encoder shards take two.
 */
import { BundleError, compareCodePoints } from "./format.js";
import { parseJson } from "./read.js";
import { fail, list, object, own, strings, wholes } from "./schema.js";
import { readRows, rising } from "./encoder-shards.js";
import { keyShard } from "./vocab-shards.js";

/** @param {number} index */
export const wordShard = (index) => `words.${index}.bin`;
export const WORDS = "words.bin";

/** The word shard a word is looked up in. @param {any} manifest @param {string} word */
export const wordShardOf = (manifest, word) => keyShard(word, manifest.encoder.words.shards);

/** @typedef {{pieces: Map<string, number[]>, rows: {token: number, weight: number, row: Int8Array}[]}} WordFile
 * a word file's words' ids, and its rows */

/**
 * words.bin (index null) or word shard `index` -> its words' ids and its rows, checked like
 * read_words (same messages).
 * @param {Uint8Array} data @param {string} name @param {any} manifest @param {number | null} index
 * @returns {WordFile}
 */
export function readWords(data, name, manifest, index) {
  const cut = data.indexOf(0x0a);
  if (cut < 0) throw new BundleError(`${name} has no word list (corrupted)`);
  const header = object(name, parseJson(name, data.subarray(0, cut)), "the file");
  const words = strings(name, own(header, "words"), "words");
  const lists = list(name, own(header, "pieces"), "pieces", words.length);
  const size = manifest.encoder.vocab.size;
  /** @type {Map<string, number[]>} */
  const pieces = new Map();
  words.forEach((word, i) => {
    wholes(name, lists[i], `pieces[${i}]`, null, 0, size - 1);
    if (i && compareCodePoints(word, words[i - 1]) <= 0) fail(name, `words[${i}]`, "must come after the word before it");
    if (index !== null && wordShardOf(manifest, word) !== index) fail(name, `words[${i}]`, "belongs to another shard");
    pieces.set(word, lists[i]);
  });
  const rows = readRows(data.subarray(cut + 1), manifest.vectors.dim, name);
  if (!rising(rows)) throw new BundleError(`${name} holds row tokens out of order (corrupted)`);
  return { pieces, rows };
}
