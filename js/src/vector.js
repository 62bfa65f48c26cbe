// @ts-check
/** Vector similarity against int8 passage vectors (spec: mkdocs_graphsearch/engine/vector.py). */

/** A format-1 manifest's vectors entry has no `query_levels` (written since format 2,
 * index/semantic.py): the value those engines had built in. Frozen: never change it. */
const FORMAT_1_QUERY_LEVELS = 32767;

/** The integer range the query vector is quantized to: +-query_levels.
 * @param {any} manifest @returns {number} */
export function queryLevels(manifest) {
  return manifest.vectors.query_levels ?? FORMAT_1_QUERY_LEVELS;
}

/** @param {number[]} vector @param {number} levels @returns {{q: Int32Array, scale: number}} */
export function quantizeQuery(vector, levels) {
  let peak = 0;
  for (const value of vector) peak = Math.max(peak, Math.abs(value));
  const q = new Int32Array(vector.length);
  if (peak === 0) return { q, scale: 0 };
  for (let i = 0; i < vector.length; i++) q[i] = Math.floor((vector[i] / peak) * levels + 0.5);
  return { q, scale: peak / levels };
}

/**
 * Cosine of every passage with the (unit) query vector; integer dot products are exact.
 * @param {Int8Array} vectors @param {Float64Array} scales @param {number} dim @param {number[]} query
 * @param {number} levels queryLevels(manifest)
 */
export function cosines(vectors, scales, dim, query, levels) {
  const { q, scale } = quantizeQuery(query, levels);
  const n = scales.length;
  const out = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    let dot = 0;
    const row = c * dim;
    for (let i = 0; i < dim; i++) dot += vectors[row + i] * q[i];
    out[c] = dot * scales[c] * scale;
  }
  return out;
}
