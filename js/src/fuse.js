// @ts-check
/** Reciprocal rank fusion (spec: mkdocs_graphsearch/engine/fuse.py). */

/** @param {number[]} keywordRanked @param {number[]} vectorRanked @param {any} settings
 * @returns {Map<number, number>} */
export function rrf(keywordRanked, vectorRanked, settings) {
  const k = settings.rrf_k;
  const fused = new Map();
  keywordRanked.forEach((chunk, i) => fused.set(chunk, 0 + settings.keyword_weight / (k + i + 1)));
  vectorRanked.forEach((chunk, i) => fused.set(chunk, (fused.get(chunk) ?? 0) + settings.vector_weight / (k + i + 1)));
  return fused;
}
