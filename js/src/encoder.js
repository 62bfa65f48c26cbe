// @ts-check
/** The static query encoder (spec, with the exact order of operations: engine/encoder.py). */
import { BundleError, checkEncoder, inOrder, parseJson, readFile } from "./bundle.js";

/** A format-1 manifest's encoder entry has no `max_query_pieces` (written since format 2,
 * index/semantic.py): the value those engines had built in. Frozen: never change it. */
const FORMAT_1_MAX_QUERY_PIECES = 64;

/**
 * @typedef {{rowOf: Map<number, number>, rows: Float64Array, weights: Float64Array, k: number,
 *   maxPieces: number, wordpiece: import("./wordpiece.js").WordPiece}} StaticEncoder
 */

/** @param {import("./bundle.js").Bundle} bundle @param {import("./bundle.js").FetchFile} fetchFile
 * @returns {Promise<StaticEncoder>} */
export async function loadEncoder(bundle, fetchFile) {
  const manifest = bundle.manifest;
  const [metaBytes, data, vocabBytes] = await inOrder([
    readFile(fetchFile, manifest, "encoder.json"),
    readFile(fetchFile, manifest, "encoder.bin"),
    readFile(fetchFile, manifest, "vocab.txt"),
  ]);
  // Imported here, not at the top: WordPiece (and its Unicode tables) is only needed once the
  // semantic part is in, so it stays off the first keystroke's path.
  const { createWordPiece } = await import("./wordpiece.js");
  const meta = checkEncoder(parseJson("encoder.json", metaBytes), manifest);
  const tokens = /** @type {number[]} */ (meta.tokens);
  const k = meta.pca_dim, dim = meta.dim, n = tokens.length;
  const expected = n * k + 4 * k + 4 * n + k * dim + 4 * k;
  if (data.length !== expected) {
    throw new BundleError(`encoder.bin has ${data.length} bytes, expected ${expected} (corrupted)`);
  }
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  let offset = 0;
  /** @param {number} count */
  const int8s = (count) => {
    const out = new Int8Array(data.buffer, data.byteOffset + offset, count);
    offset += count;
    return out;
  };
  /** @param {number} count */
  const float32s = (count) => {
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++) out[i] = view.getFloat32(offset + 4 * i, true);
    offset += 4 * count;
    return out;
  };
  const rowsQ = int8s(n * k);
  const rowScales = float32s(k);
  const weights = float32s(n);
  // The components that follow (pca_dim x dim) only serve the Python engine's full-model
  // comparisons: passage vectors are stored already projected onto them.
  const rows = new Float64Array(n * k);
  for (let r = 0; r < n; r++) for (let d = 0; d < k; d++) rows[r * k + d] = rowsQ[r * k + d] * rowScales[d];
  return {
    rowOf: new Map(tokens.map((token, i) => [token, i])),
    rows, weights, k,
    maxPieces: manifest.encoder.max_query_pieces ?? FORMAT_1_MAX_QUERY_PIECES,
    wordpiece: createWordPiece(new TextDecoder().decode(vocabBytes)),
  };
}

/** @param {StaticEncoder} encoder @param {number[]} pieces @returns {number[] | null} */
export function encodeQuery(encoder, pieces) {
  const { k, rows, weights } = encoder;
  const acc = new Float64Array(k);
  let wsum = 0;
  for (const piece of pieces.slice(0, encoder.maxPieces)) {
    const r = encoder.rowOf.get(piece);
    if (r === undefined) continue;
    const w = weights[r];
    for (let d = 0; d < k; d++) acc[d] += w * rows[r * k + d];
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

/** The unit query vector, or null when no query piece is known to the encoder.
 * @param {import("./bundle.js").Bundle} bundle @param {string} query @returns {number[] | null} */
export function queryVector(bundle, query) {
  if (!bundle.encoder) return null;
  return encodeQuery(bundle.encoder, bundle.encoder.wordpiece.pieces(query));
}
