// @ts-check
/** The static query encoder (spec, with the exact order of operations: engine/encoder.py).
 * Its token rows come in shards fetched by token (encoder-shards.js): `queryVector` names the
 * shards the query's pieces need that are not in; worker.js fetches them and asks again. */
import { checkEncoder, inOrder, parseJson, readFile } from "./bundle.js";
import { encoderShard, encoderShardOf, readEncoderShard } from "./encoder-shards.js";

/** A format-1 manifest's encoder entry has no `max_query_pieces` (written since format 2,
 * index/semantic.py): the value those engines had built in. Frozen: never change it. */
const FORMAT_1_MAX_QUERY_PIECES = 64;

/**
 * @typedef {{rows: Map<number, {weight: number, row: Float64Array}>, rowScales: Float64Array,
 *   k: number, meta: any, shards: number[], shardLoaded: boolean[], shardFailed: boolean[],
 *   maxPieces: number,
 *   wordpiece: import("./wordpiece.js").WordPiece}} StaticEncoder
 *   rows: the loaded shards' rows by token (dequantized: rows[d] * row_scales[d], exact products)
 */

/** encoder.json and the vocabulary; no row yet.
 * @param {import("./bundle.js").Bundle} bundle @param {import("./bundle.js").FetchFile} fetchFile
 * @returns {Promise<StaticEncoder>} */
export async function loadEncoder(bundle, fetchFile) {
  const manifest = bundle.manifest;
  const [metaBytes, vocabBytes] = await inOrder([
    readFile(fetchFile, manifest, "encoder.json"),
    readFile(fetchFile, manifest, "vocab.txt"),
  ]);
  // Imported here, not at the top: WordPiece (and its Unicode tables) is only needed once the
  // semantic part is in, so it stays off the first keystroke's path.
  const { createWordPiece } = await import("./wordpiece.js");
  const meta = checkEncoder(parseJson("encoder.json", metaBytes), manifest);
  const shards = /** @type {number[]} */ (manifest.encoder.shards);
  return {
    rows: new Map(),
    rowScales: Float64Array.from(/** @type {number[]} */ (meta.row_scales)),
    k: meta.pca_dim,
    meta,
    shards,
    shardLoaded: shards.map(() => false),
    shardFailed: shards.map(() => false),
    maxPieces: manifest.encoder.max_query_pieces ?? FORMAT_1_MAX_QUERY_PIECES,
    wordpiece: createWordPiece(new TextDecoder().decode(vocabBytes)),
  };
}

/** Fetch, check and add encoder shard `index` (a no-op once it is in). One that fails is marked
 * failed (queries go on without its rows: queryVector no longer wants it) and throws.
 * @param {import("./bundle.js").Bundle} bundle @param {import("./bundle.js").FetchFile} fetchFile
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
  for (const piece of pieces.slice(0, encoder.maxPieces)) {
    const entry = encoder.rows.get(piece);
    if (entry === undefined) continue;
    const w = entry.weight;
    for (let d = 0; d < k; d++) acc[d] += w * entry.row[d];
    wsum += w;
  }
  if (wsum === 0) return null;
  for (let d = 0; d < k; d++) acc[d] = acc[d] / wsum;
  let total = 0;
  for (let d = 0; d < k; d++) total += acc[d] * acc[d];
  const norm = Math.sqrt(total);
  if (norm === 0) return null;
  return Array.from(acc, (value) => value / norm);
}

/** The unit query vector, or null when no query piece is known to the encoder, or when a piece's
 * shard is not in: then its index is added to `wanted` (when given; a shard that failed is
 * never wanted again: the answer goes out without its rows).
 * @param {import("./bundle.js").Bundle} bundle @param {string} query
 * @param {Set<number> | null} [wanted] @returns {number[] | null} */
export function queryVector(bundle, query, wanted = null) {
  const encoder = bundle.encoder;
  if (!encoder) return null;
  const pieces = encoder.wordpiece.pieces(query).slice(0, encoder.maxPieces);
  if (wanted) {
    for (const piece of pieces) {
      const index = encoderShardOf(encoder.shards, piece);
      if (!encoder.shardLoaded[index] && !encoder.shardFailed[index]) wanted.add(index);
    }
    if (wanted.size) return null;
  }
  return encodeQuery(encoder, pieces);
}
