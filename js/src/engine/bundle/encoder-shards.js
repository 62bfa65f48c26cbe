// @ts-check
/**
 * The query encoder's token rows in shards fetched by token (layout and checks:
 * bundle/encoder_shards.py). encoder.<i>.bin holds the rows of tokens encoder.shards[i] ..
 * encoder.shards[i + 1] - 1: uint32 LE tokens (m) | float32 LE weights (m) | int8 rows (m x k).
 * encoder-model.bin (the PCA components) is only read by node's loadBundle, to check it.
 */
import { BundleError, lastAtOrBefore } from "./format.js";

/** @param {number} index */
export const encoderShard = (index) => `encoder.${index}.bin`;

/** What encoder.js queryVector adds to its `wanted` codes (shards, vocabulary and word files)
 * for rows it holds back (heldFrom): the word being typed and the completions after it change
 * with the next key, so their rows are fetched once the reader pauses (worker.js), not for
 * every prefix. */
export const HELD_ROWS = -(2 ** 31);

/** The shard that would hold `token`. @param {number[]} firsts @param {number} token */
export const encoderShardOf = (firsts, token) => lastAtOrBefore(firsts, token);

/**
 * Shard `index` -> its rows, checked like read_encoder_shard (same messages).
 * @param {Uint8Array} data @param {number} k @param {number[]} firsts @param {number} index
 * @returns {{token: number, weight: number, row: Int8Array}[]}
 */
export function readEncoderShard(data, k, firsts, index) {
  const name = encoderShard(index);
  const rows = readRows(data, k, name);
  const m = rows.length;
  const high = index + 1 < firsts.length ? firsts[index + 1] : Infinity;
  if (m && (rows[0].token < firsts[index] || rows[m - 1].token >= high || !rising(rows))) {
    throw new BundleError(`${name} holds tokens out of order or outside its range (corrupted)`);
  }
  return rows;
}

/** Whether rows' tokens rise. @param {{token: number}[]} rows */
export const rising = (rows) => rows.every((row, i) => i === 0 || row.token > rows[i - 1].token);

/**
 * Rows in shard layout (uint32 LE tokens | float32 LE weights | int8 rows; also the word files'
 * rows: word-rows.js), checked: whole rows (as read_rows).
 * @param {Uint8Array} data @param {number} k @param {string} name
 * @returns {{token: number, weight: number, row: Int8Array}[]}
 */
export function readRows(data, k, name) {
  if (data.length % (8 + k)) {
    throw new BundleError(`${name} has ${data.length} bytes, not whole rows of ${8 + k} (corrupted)`);
  }
  const m = data.length / (8 + k);
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  return Array.from({ length: m }, (_, i) => ({
    token: view.getUint32(4 * i, true),
    weight: view.getFloat32(4 * m + 4 * i, true),
    row: new Int8Array(data.buffer, data.byteOffset + 8 * m + k * i, k),
  }));
}

/** encoder-model.bin's size (pca_dim x dim int8, pca_dim float32). @param {Uint8Array} data
 * @param {{pca_dim: number, dim: number}} meta */
export function checkEncoderModel(data, meta) {
  const expected = meta.pca_dim * meta.dim + 4 * meta.pca_dim;
  if (data.length !== expected) {
    throw new BundleError(`encoder-model.bin has ${data.length} bytes, expected ${expected} (corrupted)`);
  }
}
