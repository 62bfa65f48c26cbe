// @ts-check
/** Vector similarity against int8 passage vectors (spec: mkdocs_graphsearch/engine/vector.py). */

/** An older manifest's vectors entry has no `query_levels` (the builder writes it now,
 * index/semantic.py): the value those engines had built in. Frozen: never change it. */
const QUERY_LEVELS_IF_ABSENT = 32767;

/** The integer range the query vector is quantized to: +-query_levels.
 * @param {any} manifest @returns {number} */
export function queryLevels(manifest) {
  return manifest.vectors.query_levels ?? QUERY_LEVELS_IF_ABSENT;
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
 * The integer dot product of row `rows[offset..offset+dim)` with `q`: four running sums (exact
 * in any order: integers far below 2^53), faster than one under V8.
 * @param {Int8Array} rows @param {number} offset @param {Int32Array} q @param {number} dim
 */
export function dot(rows, offset, q, dim) {
  let d0 = 0, d1 = 0, d2 = 0, d3 = 0, i = 0;
  for (; i + 3 < dim; i += 4) {
    d0 += rows[offset + i] * q[i];
    d1 += rows[offset + i + 1] * q[i + 1];
    d2 += rows[offset + i + 2] * q[i + 2];
    d3 += rows[offset + i + 3] * q[i + 3];
  }
  for (; i < dim; i++) d0 += rows[offset + i] * q[i];
  return d0 + d1 + d2 + d3;
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
  for (let c = 0; c < n; c++) out[c] = dot(vectors, c * dim, q, dim) * scales[c] * scale;
  return out;
}
