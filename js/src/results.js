// @ts-check
/** Rank chunks and group them by page (spec: mkdocs_graphsearch/engine/results.py). */
import { snippet, sourceText } from "./snippet.js";

/** @typedef {import("./bundle.js").Bundle} Bundle */

/** Chunks with a positive score, best first, ties by chunk index.
 * @param {Float64Array} scores @returns {number[]} */
export function rankChunks(scores) {
  const candidates = [];
  for (let c = 0; c < scores.length; c++) if (scores[c] > 0) candidates.push(c);
  return candidates.sort((a, b) => scores[b] - scores[a] || a - b);
}

/** @param {number[]} sectionScores @param {any} settings */
export function pageScore(sectionScores, settings) {
  const top = sectionScores.slice(0, settings.page_top_n);
  let total = 0;
  for (const score of top) total += score;
  return settings.page_max_weight * top[0] + settings.page_top_weight * (total / top.length);
}

/**
 * @param {Bundle} bundle @param {number[]} ranked @param {Float64Array} scores
 * @param {import("./snippet.js").Highlight} marks @param {number} limit
 * @param {Map<number, any>} details per chunk: `via` and the explain parts
 * @param {boolean} explain
 */
export function groupByPage(bundle, ranked, scores, marks, limit, details, explain = false) {
  const { settings, chunks, pages } = bundle;
  /** @type {Map<number, number[]>} */
  const byPage = new Map();
  for (const chunk of ranked) {
    const page = chunks.page[chunk];
    const members = byPage.get(page);
    if (members) members.push(chunk);
    else byPage.set(page, [chunk]);
  }
  const scored = [...byPage].map(([page, members]) => ({
    score: pageScore(members.map((c) => scores[c]), settings),
    page,
    members,
  }));
  scored.sort((a, b) => b.score - a.score || a.page - b.page);
  return scored.slice(0, limit).map(({ score, page, members }) => {
    const url = pages.url[page];
    const sections = [];
    const listed = new Set();
    for (const chunk of members) {
      const anchor = chunks.anchor[chunk];
      if (listed.has(anchor)) continue;
      if (sections.length === settings.sections_per_page) break;
      listed.add(anchor);
      /** @type {any} */
      const section = {
        id: chunks.id[chunk],
        kind: chunks.kind[chunk],
        anchor,
        title: chunks.title[chunk],
        url: anchor ? `${url}#${anchor}` : url,
        score: scores[chunk],
        snippet: bundle.texts
          ? snippet(sourceText(bundle.texts, chunks.parent, chunks.title, chunk), marks, settings.snippet_words)
          : "",
      };
      const { via, ...parts } = details.get(chunk);
      section.via = via;
      if (explain) section.explain = parts;
      sections.push(section);
    }
    return { page: pages.path[page], url, title: pages.title[page], score, sections };
  });
}
