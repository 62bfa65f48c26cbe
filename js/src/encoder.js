// @ts-check
/** The static query encoder (spec: mkdocs_graphsearch/engine/encoder.py). */

/** @param {import("./bundle.js").Bundle} bundle @param {string} query @returns {number[] | null} */
export function queryVector(bundle, query) {
  return null;
}

/** @param {import("./bundle.js").Bundle} bundle @param {import("./bundle.js").FetchFile} fetchFile */
export async function loadEncoder(bundle, fetchFile) {
  return null;
}
