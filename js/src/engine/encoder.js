// @ts-check
/** The static query encoder (spec, with the exact order of operations: engine/encoder.py).
 * Its token rows come in shards fetched by token (encoder-shards.js): `queryVector` names the
 * shards the query's pieces need that are not in; worker.js fetches them and asks again. */
import { BundleError, fileName } from "./bundle/format.js";
import { checkEncoder } from "./bundle/schema.js";
import { parseJson, readFile } from "./bundle/read.js";
import { checkEncoderModel, encoderShard, encoderShardOf, readEncoderShard } from "./bundle/encoder-shards.js";

/** An older manifest's encoder entry has no `max_query_pieces` (the builder writes it now,
 * index/semantic.py): the value those engines had built in. Frozen: never change it. */
const MAX_QUERY_PIECES_IF_ABSENT = 64;
/** An older manifest's encoder entry has no `stop_pieces` (index/semantic.py writes it now): none,
 * so a query of known stop words alone is encoded as those engines did. Frozen. */
/** @type {number[]} */
const STOP_PIECES_IF_ABSENT = [];

/**
 * @typedef {{rows: Map<number, {weight: number, row: Float64Array}>, rowScales: Float64Array,
 *   k: number, meta: any, shards: number[], shardLoaded: boolean[], shardFailed: boolean[],
 *   maxPieces: number, stopPieces: Set<number>, wordpiece: import("./text/wordpiece.js").WordPiece,
 *   vocabLoaded: boolean[], vocabFailed: boolean[], addVocab: (index: number) => Promise<number[]>,
 *   words: (text: string) => string[], vocabShardsOf: (text: string) => number[]}} StaticEncoder
 *   rows: the loaded shards' rows by token (dequantized: rows[d] * row_scales[d], exact products);
 *   stopPieces: pieces that make no vector on their own;
 *   wordpiece: over the entries of the vocab shards loaded (vocabLoaded); words: a text's
 *   words as WordPiece cuts each on its own (normalized, pre-tokenized); vocabShardsOf: the
 *   vocab shards a text's words are looked up in, as far as the shards loaded tell (vocab-shards.js
 *   wordShards: queryVector asks again once they are in)
 */

/** encoder.json and the vocab shards of the special tokens; no row yet, no other entry.
 * @param {import("./bundle/read.js").Bundle} bundle @param {import("./bundle/read.js").FetchFile} fetchFile
 * @returns {Promise<StaticEncoder>} */
export async function loadEncoder(bundle, fetchFile) {
  const manifest = bundle.manifest;
  const metaBytes = readFile(fetchFile, manifest, "encoder.json");
  metaBytes.catch(() => {}); // its failure is reported below, once awaited
  // Imported here, not at the top: WordPiece (and its Unicode tables) is only needed once the
  // semantic part is in, so it stays off the first keystroke's path.
  const [{ createWordPiece, normalize, preTokenize }, shardsOf] = await Promise.all([
    import("./text/wordpiece.js"), import("./bundle/vocab-shards.js"),
  ]);
  const n = manifest.encoder.vocab.shards;
  const keyChars = shardsOf.keyCharsOf(manifest);
  // With one-letter keys every continuation piece is in the shard of "##": a word the vocabulary
  // does not hold whole needs it, named only once its first letter's shard is read. Downloaded
  // now (read when a query names it), that is no round trip more for a pasted query.
  if (keyChars === 1) fetchFile(fileName(manifest, shardsOf.vocabShard(shardsOf.keyShard("##", n)))).catch(() => {});
  const meta = checkEncoder(parseJson("encoder.json", await metaBytes), manifest);
  const shards = /** @type {number[]} */ (manifest.encoder.shards);
  /** @type {Map<string, number>} */
  const ids = new Map();
  const vocabLoaded = new Array(n).fill(false);
  const vocabFailed = new Array(n).fill(false);
  /** Read shard `index` and add its entries; its ids. @param {number} index */
  const addVocab = async (index) => {
    const name = shardsOf.vocabShard(index);
    const pairs = shardsOf.readVocabShard(parseJson(name, await readFile(fetchFile, manifest, name)), manifest, index);
    for (const [token, id] of pairs) ids.set(token, id);
    vocabLoaded[index] = true;
    return pairs.map(([, id]) => id);
  };
  /** @param {string} text */
  const words = (text) => preTokenize(normalize(text));
  const special = new Set(["[CLS]", "[SEP]", "[UNK]"].map((token) => shardsOf.keyShard(shardsOf.vocabKey(token, keyChars), n)));
  for (const index of [...special].sort((a, b) => a - b)) await addVocab(index);
  return {
    rows: new Map(),
    rowScales: Float64Array.from(/** @type {number[]} */ (meta.row_scales)),
    k: meta.pca_dim,
    meta,
    shards,
    shardLoaded: shards.map(() => false),
    shardFailed: shards.map(() => false),
    maxPieces: manifest.encoder.max_query_pieces ?? MAX_QUERY_PIECES_IF_ABSENT,
    stopPieces: new Set(manifest.encoder.stop_pieces ?? STOP_PIECES_IF_ABSENT),
    wordpiece: createWordPiece(ids, true),
    vocabLoaded,
    vocabFailed,
    addVocab,
    words,
    vocabShardsOf: (text) => words(text).flatMap((word) => shardsOf.wordShards(
      word, n, keyChars, (shard) => vocabLoaded[shard] || vocabFailed[shard], (entry) => ids.has(entry))),
  };
}

/** Fetch, check and add vocab shard `index` (a no-op once it is in); one that fails is marked
 * failed (its words are tokenized without it) and throws.
 * @param {import("./bundle/read.js").Bundle} bundle @param {number} index @returns {Promise<number[]>} its ids */
export async function loadVocabShard(bundle, index) {
  const encoder = /** @type {StaticEncoder} */ (bundle.encoder);
  if (encoder.vocabLoaded[index]) return [];
  try {
    return await encoder.addVocab(index);
  } catch (error) {
    encoder.vocabFailed[index] = true;
    throw error;
  }
}

/**
 * Every vocab shard (each id once over them), every encoder shard (encoder.json's row count),
 * then encoder-model.bin (its size; never used here): node's loadBundle, as bundle/read.py.
 * @param {import("./bundle/read.js").Bundle} bundle @param {import("./bundle/read.js").FetchFile} fetchFile
 */
export async function loadAllEncoderParts(bundle, fetchFile) {
  const encoder = /** @type {StaticEncoder} */ (bundle.encoder);
  const { checkVocabCovered } = await import("./bundle/vocab-shards.js");
  /** @type {number[]} */
  const ids = [];
  // every shard, those of the special tokens again: each id is counted
  for (let index = 0; index < encoder.vocabLoaded.length; index++) ids.push(...await encoder.addVocab(index));
  checkVocabCovered(ids, bundle.manifest.encoder.vocab.size);
  let rows = 0;
  for (let index = 0; index < encoder.shards.length; index++) rows += await loadEncoderShard(bundle, fetchFile, index);
  const model = await readFile(fetchFile, bundle.manifest, "encoder-model.bin");
  if (rows !== encoder.meta.rows) {
    throw new BundleError(`the encoder shards hold ${rows} rows, encoder.json says ${encoder.meta.rows} (corrupted)`);
  }
  checkEncoderModel(model, encoder.meta);
}

/** Fetch, check and add encoder shard `index` (a no-op once it is in). One that fails is marked
 * failed (queries go on without its rows: queryVector no longer wants it) and throws.
 * @param {import("./bundle/read.js").Bundle} bundle @param {import("./bundle/read.js").FetchFile} fetchFile
 * @param {number} index @returns {Promise<number>} the rows it added */
export async function loadEncoderShard(bundle, fetchFile, index) {
  const encoder = /** @type {StaticEncoder} */ (bundle.encoder);
  if (encoder.shardLoaded[index]) return 0;
  const { k, rowScales } = encoder;
  let entries;
  try {
    entries = readEncoderShard(await readFile(fetchFile, bundle.manifest, encoderShard(index)), k, encoder.shards, index);
  } catch (error) {
    encoder.shardFailed[index] = true;
    throw error;
  }
  for (const { token, weight, row } of entries) {
    const values = new Float64Array(k);
    for (let d = 0; d < k; d++) values[d] = row[d] * rowScales[d];
    encoder.rows.set(token, { weight, row: values });
  }
  encoder.shardLoaded[index] = true;
  return entries.length;
}

/** @param {StaticEncoder} encoder @param {number[]} pieces @returns {number[] | null} */
export function encodeQuery(encoder, pieces) {
  const { k } = encoder;
  const acc = new Float64Array(k);
  let wsum = 0;
  let content = false;
  for (const piece of pieces.slice(0, encoder.maxPieces)) {
    const entry = encoder.rows.get(piece);
    if (entry === undefined) continue;
    const w = entry.weight;
    for (let d = 0; d < k; d++) acc[d] += w * entry.row[d];
    wsum += w;
    content = content || !encoder.stopPieces.has(piece);
  }
  // Stop words alone would point wherever the site says them: no meaning to search by.
  if (wsum === 0 || !content) return null;
  for (let d = 0; d < k; d++) acc[d] = acc[d] / wsum;
  let total = 0;
  for (let d = 0; d < k; d++) total += acc[d] * acc[d];
  const norm = Math.sqrt(total);
  if (norm === 0) return null;
  return Array.from(acc, (value) => value / norm);
}

/** The unit query vector, or null when no query piece is known to the encoder, or when a piece's
 * shard is not in: then its index is added to `wanted` (when given; a shard that failed is
 * never wanted again: the answer goes out without its rows). Before that, the vocab shards the
 * query's words need, as -1 - index (worker.js loads them and asks again). Without `wanted`
 * (node, everything loaded), the pieces and rows that are in.
 * @param {import("./bundle/read.js").Bundle} bundle @param {string} query
 * @param {Set<number> | null} [wanted] @returns {number[] | null} */
export function queryVector(bundle, query, wanted = null) {
  const encoder = bundle.encoder;
  if (!encoder) return null;
  if (wanted) {
    // Word by word: a word's pieces are known once its own vocab shards are in (-1 - index until
    // then), so its rows are named while other words' vocabulary still downloads. (A query of
    // more than maxPieces pieces may so fetch a row it leaves unused.)
    for (const word of encoder.words(query)) {
      const missing = encoder.vocabShardsOf(word).filter((/** @type {number} */ i) => !encoder.vocabLoaded[i] && !encoder.vocabFailed[i]);
      for (const index of missing) wanted.add(-1 - index);
      if (!missing.length) wantRows(encoder, encoder.wordpiece.pieces(word), wanted);
    }
    if (wanted.size) return null;
  }
  const pieces = encoder.wordpiece.pieces(query).slice(0, encoder.maxPieces);
  if (wanted && wantRows(encoder, pieces, wanted).size) return null; // (the query's own pieces decide)
  return encodeQuery(encoder, pieces);
}

/** Add to `wanted` the encoder shards of these pieces that are neither in nor failed.
 * @param {StaticEncoder} encoder @param {number[]} pieces @param {Set<number>} wanted */
function wantRows(encoder, pieces, wanted) {
  for (const piece of pieces) {
    const index = encoderShardOf(encoder.shards, piece);
    if (!encoder.shardLoaded[index] && !encoder.shardFailed[index]) wanted.add(index);
  }
  return wanted;
}
