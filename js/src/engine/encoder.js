// @ts-check
/** The static query encoder (spec, with the exact order of operations: engine/encoder.py).
 * Its token rows come in shards fetched by token (encoder-shards.js): `queryVector` names the
 * shards the query's pieces need that are not in; worker.js fetches them and asks again. */
import { BundleError, fileName } from "./bundle/format.js";
import { checkEncoder } from "./bundle/schema.js";
import { parseJson, readFile } from "./bundle/read.js";
import { HELD_ROWS, checkEncoderModel, encoderShard, encoderShardOf, readEncoderShard } from "./bundle/encoder-shards.js";

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
 *   words: (text: string) => string[], vocabShardsOf: (text: string) => number[],
 *   wordShards: number, wordLoaded: boolean[], wordFailed: boolean[], wordPieces: Map<string, number[]>,
 *   noRow: Set<number>, typing: boolean, heldFrom: number, continuations: number,
 *   wordShardOf: (word: string) => number}} StaticEncoder
 *   rows: the loaded shards' rows by token (dequantized: rows[d] * row_scales[d], exact products);
 *   wordShards: the bundle's word shards (word-rows.js; 0: none, or words.bin failed), wordPieces:
 *   the ids of the words of words.bin and of the word shards loaded, noRow: their pieces that
 *   have no row; typing: the query is being typed (set by worker.js: its words are looked up in
 *   the vocabulary, whose shards their prefixes fetched already, not in a word shard each);
 *   heldFrom: the first word of the text queryVector reads whose rows wait for the typing pause
 *   (HELD_ROWS; set by worker.js; Infinity: none);
 *   continuations: the vocab shard of every continuation piece (one-letter keys; else -1);
 *   wordShardOf: the word shard a word is looked up in;
 *   stopPieces: pieces that make no vector on their own;
 *   wordpiece: over the entries of the vocab shards loaded (vocabLoaded); words: a text's
 *   words as WordPiece cuts each on its own (normalized, pre-tokenized); vocabShardsOf: the
 *   vocab shards a text's words are looked up in, as far as the shards loaded tell (vocab-shards.js
 *   wordShards: queryVector asks again once they are in)
 */

/** encoder.json and the special tokens' ids (the manifest's, else their vocab shards); no row yet, no other entry.
 * @param {import("./bundle/read.js").Bundle} bundle @param {import("./bundle/read.js").FetchFile} fetchFile
 * @returns {Promise<StaticEncoder>} */
export async function loadEncoder(bundle, fetchFile) {
  const manifest = bundle.manifest;
  const metaBytes = readFile(fetchFile, manifest, "encoder.json");
  metaBytes.catch(() => {}); // its failure is reported below, once awaited
  // Imported here, not at the top: WordPiece (and its Unicode tables) is only needed once the
  // semantic part is in, so it stays off the first keystroke's path.
  const [{ createWordPiece, normalize, preTokenize }, shardsOf, wordRows] = await Promise.all([
    import("./text/wordpiece.js"), import("./bundle/vocab-shards.js"), import("./bundle/word-rows.js"),
  ]);
  const n = manifest.encoder.vocab.shards;
  const keyChars = shardsOf.keyCharsOf(manifest);
  // With one-letter keys every continuation piece is in the shard of "##": a word the vocabulary
  // does not hold whole needs it, named only once its first letter's shard is read. Downloaded
  // now (read when a query names it), that is no round trip more for a pasted query; a bundle
  // with word files has a pasted query's words there, and names it with a word they lack.
  const hasWords = manifest.encoder.words !== undefined;
  if (keyChars === 1 && !hasWords) fetchFile(fileName(manifest, shardsOf.vocabShard(shardsOf.keyShard("##", n)))).catch(() => {});
  const common = hasWords ? readFile(fetchFile, manifest, wordRows.WORDS) : null;
  common?.catch(() => {}); // awaited below
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
  for (const [token, id] of shardsOf.givenSpecials(manifest)) ids.set(token, id);
  for (const index of shardsOf.specialShards(manifest)) await addVocab(index);
  /** @type {StaticEncoder} */
  const encoder = {
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
    continuations: keyChars === 1 ? shardsOf.keyShard("##", n) : -1,
    wordShardOf: (word) => wordRows.wordShardOf(manifest, word),
    wordShards: 0,
    wordLoaded: [],
    wordFailed: [],
    wordPieces: new Map(),
    noRow: new Set(),
    typing: false,
    heldFrom: Infinity,
  };
  if (common) {
    try {
      addWords(encoder, wordRows.readWords(await common, wordRows.WORDS, manifest, null));
      encoder.wordShards = manifest.encoder.words.shards;
      encoder.wordLoaded = new Array(encoder.wordShards).fill(false);
      encoder.wordFailed = new Array(encoder.wordShards).fill(false);
    } catch {
      // none: every word is looked up in the vocabulary shards (the same pieces and rows)
    }
  }
  return encoder;
}

/** A word file's words and rows into the encoder; its words' pieces with no row, into noRow
 * (words.bin, loaded first, has the rows a word shard leaves out).
 * @param {StaticEncoder} encoder @param {import("./bundle/word-rows.js").WordFile} file */
function addWords(encoder, file) {
  addRows(encoder, file.rows);
  for (const [word, ids] of file.pieces) {
    encoder.wordPieces.set(word, ids);
    for (const id of ids) if (!encoder.rows.has(id)) encoder.noRow.add(id);
  }
}

/** Dequantize rows into the encoder (rows[d] * row_scales[d]).
 * @param {StaticEncoder} encoder @param {{token: number, weight: number, row: Int8Array}[]} entries */
function addRows(encoder, entries) {
  const { k, rowScales } = encoder;
  for (const { token, weight, row } of entries) {
    const values = new Float64Array(k);
    for (let d = 0; d < k; d++) values[d] = row[d] * rowScales[d];
    encoder.rows.set(token, { weight, row: values });
  }
}

/** Fetch, check and add word shard `index` (its words, their rows); one that fails is marked
 * failed (its words are looked up in the vocabulary shards) and throws.
 * @param {import("./bundle/read.js").Bundle} bundle @param {import("./bundle/read.js").FetchFile} fetchFile
 * @param {number} index */
async function loadWordShard(bundle, fetchFile, index) {
  const encoder = /** @type {StaticEncoder} */ (bundle.encoder);
  if (encoder.wordLoaded[index]) return;
  try {
    const { readWords, wordShard } = await import("./bundle/word-rows.js");
    const name = wordShard(index);
    addWords(encoder, readWords(await readFile(fetchFile, bundle.manifest, name), name, bundle.manifest, index));
  } catch (error) {
    encoder.wordFailed[index] = true;
    throw error;
  }
  encoder.wordLoaded[index] = true;
}

/** What queryVector adds to `wanted` for word shard `index`: below every vocab shard's -1 - i. @param {StaticEncoder} encoder @param {number} index */
const wordWanted = (encoder, index) => -1 - encoder.vocabLoaded.length - index;

/** Fetch, check and add the part queryVector named in `wanted`: encoder shard `code`, vocab shard
 * -1 - code, or word shard -1 - code - (the number of vocab shards) (loadEncoderShard,
 * loadVocabShard, loadWordShard). @param {import("./bundle/read.js").Bundle} bundle
 * @param {import("./bundle/read.js").FetchFile} fetchFile @param {number} code */
export async function loadEncoderPart(bundle, fetchFile, code) {
  const n = /** @type {StaticEncoder} */ (bundle.encoder).vocabLoaded.length;
  if (code >= 0) await loadEncoderShard(bundle, fetchFile, code);
  else if (-1 - code < n) await loadVocabShard(bundle, -1 - code);
  else await loadWordShard(bundle, fetchFile, -1 - code - n);
}

/** Download the vocab shards of WordPiece's special tokens (loadEncoder reads them before any
 * query's files): at manifest time, not after encoder.json.
 * @param {any} manifest @param {import("./bundle/read.js").FetchFile} fetchFile */
export async function prefetchSpecials(manifest, fetchFile) {
  const { specialShards, vocabShard } = await import("./bundle/vocab-shards.js");
  for (const index of specialShards(manifest)) fetchFile(fileName(manifest, vocabShard(index))).catch(() => {});
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
  encoder.rows.clear(); // words.bin's: the table's own rows come next
  for (let index = 0; index < encoder.shards.length; index++) rows += await loadEncoderShard(bundle, fetchFile, index);
  const model = await readFile(fetchFile, bundle.manifest, "encoder-model.bin");
  if (rows !== encoder.meta.rows) {
    throw new BundleError(`the encoder shards hold ${rows} rows, encoder.json says ${encoder.meta.rows} (corrupted)`);
  }
  checkEncoderModel(model, encoder.meta);
  const words = bundle.manifest.encoder.words;
  if (words === undefined) return;
  const { WORDS, readWords, wordShard } = await import("./bundle/word-rows.js");
  const names = [WORDS, ...Array.from({ length: words.shards }, (_, i) => wordShard(i))];
  /** @type {Set<number>} */
  let common = new Set();
  for (const [i, name] of names.entries()) {
    const file = readWords(await readFile(fetchFile, bundle.manifest, name), name, bundle.manifest, i ? i - 1 : null);
    checkWordRows(encoder, name, file, common);
    if (!i) common = new Set(file.rows.map(({ token }) => token));
  }
}

/** A word file against the encoder's whole table (in encoder.rows), as check_word_rows: each row
 * is the table's, and each word's pieces that have a row have it in the file or in words.bin.
 * @param {StaticEncoder} encoder @param {string} name @param {import("./bundle/word-rows.js").WordFile} file
 * @param {Set<number>} common words.bin's row tokens (none while it is the file checked) */
function checkWordRows(encoder, name, file, common) {
  for (const { token, weight, row } of file.rows) {
    const table = encoder.rows.get(token);
    if (!table || table.weight !== weight || table.row.some((value, d) => value !== row[d] * encoder.rowScales[d])) {
      throw new BundleError(`${name}: the row of token ${token} is not the encoder's (corrupted)`);
    }
  }
  const held = new Set([...common, ...file.rows.map(({ token }) => token)]);
  [...file.pieces.values()].forEach((ids, i) => {
    if (ids.some((id) => encoder.rows.has(id) && !held.has(id))) {
      throw new BundleError(`${name}: words[${i}] lacks a row of its pieces (corrupted)`);
    }
  });
}

/** Fetch, check and add encoder shard `index` (a no-op once it is in). One that fails is marked
 * failed (queries go on without its rows: queryVector no longer wants it) and throws.
 * @param {import("./bundle/read.js").Bundle} bundle @param {import("./bundle/read.js").FetchFile} fetchFile
 * @param {number} index @returns {Promise<number>} the rows it added */
export async function loadEncoderShard(bundle, fetchFile, index) {
  const encoder = /** @type {StaticEncoder} */ (bundle.encoder);
  if (encoder.shardLoaded[index]) return 0;
  let entries;
  try {
    entries = readEncoderShard(await readFile(fetchFile, bundle.manifest, encoderShard(index)), encoder.k, encoder.shards, index);
  } catch (error) {
    encoder.shardFailed[index] = true;
    throw error;
  }
  addRows(encoder, entries);
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
 * never wanted again: the answer goes out without its rows), or HELD_ROWS for the words from
 * heldFrom on. Before that, the vocab shards the query's words need, as -1 - index (worker.js
 * loads them and asks again). Without `wanted` (node, everything loaded), the pieces and rows
 * that are in.
 * @param {import("./bundle/read.js").Bundle} bundle @param {string} query
 * @param {Set<number> | null} [wanted] @returns {number[] | null} */
export function queryVector(bundle, query, wanted = null) {
  const encoder = bundle.encoder;
  if (!encoder) return null;
  const words = encoder.words(query);
  if (wanted) {
    // Word by word: a word's pieces are known once its word shard or its own vocab shards are in
    // (wordWanted, -1 - index until then), so its rows are named while other words' files still
    // download. (A query of more than maxPieces pieces may so fetch a row it leaves unused.)
    for (const [at, word] of words.entries()) {
      const known = encoder.wordPieces.get(word);
      if (known) {
        wantRows(encoder, known, wanted, at >= encoder.heldFrom);
        continue;
      }
      const missing = encoder.vocabShardsOf(word).filter((/** @type {number} */ s) => !encoder.vocabLoaded[s] && !encoder.vocabFailed[s]);
      if (missing.length && encoder.wordShards && !encoder.typing) {
        const shard = encoder.wordShardOf(word);
        if (!encoder.wordLoaded[shard] && !encoder.wordFailed[shard]) {
          wanted.add(wordWanted(encoder, shard));
          continue;
        }
        // not a word of the site: its continuation pieces are likely wanted, so "##" comes now
        const hashes = encoder.continuations;
        if (hashes >= 0 && !encoder.vocabLoaded[hashes] && !encoder.vocabFailed[hashes]) missing.push(hashes);
      }
      for (const index of missing) wanted.add(-1 - index);
      if (!missing.length) wantRows(encoder, encoder.wordpiece.pieces(word), wanted, at >= encoder.heldFrom);
    }
    if (wanted.size) return null;
  }
  /** @type {number[][]} each word's pieces */
  const each = words.map((/** @type {string} */ word) => encoder.wordPieces.get(word) ?? encoder.wordpiece.pieces(word));
  const pieces = each.flat().slice(0, encoder.maxPieces);
  if (wanted) { // (the query's own pieces decide)
    const held = each.slice(0, encoder.heldFrom).reduce((count, word) => count + word.length, 0);
    wantRows(encoder, pieces.slice(0, held), wanted, false);
    wantRows(encoder, pieces.slice(held), wanted, true);
    if (wanted.size) return null;
  }
  return encodeQuery(encoder, pieces);
}

/** Add to `wanted` the encoder shards of these pieces that are neither in nor failed (`held`:
 * HELD_ROWS instead, if any). @param {StaticEncoder} encoder @param {number[]} pieces
 * @param {Set<number>} wanted @param {boolean} held */
function wantRows(encoder, pieces, wanted, held) {
  for (const piece of pieces) {
    if (encoder.rows.has(piece) || encoder.noRow.has(piece)) continue;
    const index = encoderShardOf(encoder.shards, piece);
    if (!encoder.shardLoaded[index] && !encoder.shardFailed[index]) wanted.add(held ? HELD_ROWS : index);
  }
}
