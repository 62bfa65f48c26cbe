// @ts-check
/** Vector similarity against int8 passage vectors (spec: mkdocs_graphsearch/engine/vector.py). */

const QUERY_LEVELS = 32767;

/** @param {number[]} vector @returns {{q: Int32Array, scale: number}} */
export function quantizeQuery(vector) {
  let peak = 0;
  for (const value of vector) peak = Math.max(peak, Math.abs(value));
  const q = new Int32Array(vector.length);
  if (peak === 0) return { q, scale: 0 };
  for (let i = 0; i < vector.length; i++) q[i] = Math.floor((vector[i] / peak) * QUERY_LEVELS + 0.5);
  return { q, scale: peak / QUERY_LEVELS };
}

/**
 * Cosine of every passage with the (unit) query vector; integer dot products are exact.
 * @param {Int8Array} vectors @param {Float64Array} scales @param {number} dim @param {number[]} query
 */
export function cosines(vectors, scales, dim, query) {
  const { q, scale } = quantizeQuery(query);
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
