// @ts-check
/** The search entry point: query -> grouped results (spec: mkdocs_graphsearch/engine/search.py). */
import { keywordScores } from "./keyword.js";
import { groupByPage, rankChunks } from "./results.js";

/** @typedef {import("./bundle.js").Bundle} Bundle */

export const MODES = ["keyword", "vector", "hybrid"];

/** The mode a query really runs in: without vectors in the bundle, only keyword.
 * @param {Bundle} bundle @param {string | null | undefined} mode */
export function availableMode(bundle, mode) {
  const requested = mode || bundle.settings.default_mode;
  if (!MODES.includes(requested)) {
    throw new Error(`unknown mode ${JSON.stringify(requested)} (choose from ${MODES.join(", ")})`);
  }
  if (requested !== "keyword" && !("vectors" in bundle.manifest)) return "keyword";
  return requested;
}

/**
 * @param {Bundle} bundle @param {string} query
 * @param {{mode?: string | null, limit?: number | null, explain?: boolean}} [options]
 */
export function search(bundle, query, options = {}) {
  const mode = availableMode(bundle, options.mode);
  const limit = options.limit ?? bundle.settings.default_limit;
  const keyword = keywordScores(bundle, query);
  const scores = keyword.scores;
  const ranked = rankChunks(scores);
  let details = null;
  if (options.explain) {
    details = new Map(ranked.map((chunk, rank) => [chunk, { bm25: { rank: rank + 1, score: scores[chunk] } }]));
  }
  const results = groupByPage(bundle, ranked, scores, keyword.matchedTerms, limit, details);
  return { query, mode, results };
}
