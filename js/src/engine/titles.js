// @ts-check
/** A query that is a page's title, or the site's name: that page first (spec:
 * mkdocs_graphsearch/engine/titles.py). */
import { titleKey } from "./text/tokenize.js";

/**
 * The page roots the keyword side matched whose title (or, for the home page, the site's name)
 * is the query. The key's term shard is its first token's, loaded for the query anyway.
 * @param {import("./bundle/read.js").Bundle} bundle @param {string} text
 * @param {(chunk: number) => boolean} isHit @returns {Set<number>}
 */
export function titledRoots(bundle, text, isHit) {
  const kinds = bundle.chunks.kind;
  return new Set((bundle.defines.get(titleKey(text)) ?? []).filter((chunk) => kinds[chunk] === "page" && isHit(chunk)));
}

/** Each titled chunk scores the best score plus its own (in place).
 * @param {Float64Array} scores @param {Set<number>} titled */
export function liftTitled(scores, titled) {
  if (!titled.size) return;
  let top = 0;
  for (const score of scores) if (score > top) top = score;
  for (const chunk of titled) scores[chunk] += top;
}
