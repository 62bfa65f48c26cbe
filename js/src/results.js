// @ts-check
/** Rank chunks and group them by page (spec: mkdocs_graphsearch/engine/results.py). */
import { snippet, sourceText } from "./snippet.js";
import { languageAliases, languageOf } from "./filters.js";
import { DISPLAY_FAILED, DISPLAY_LOADED, fragmentOf } from "./bundle.js";

/** @typedef {import("./bundle.js").Bundle} Bundle */

/** Chunks with a positive score, best first, ties by chunk index.
 * @param {Float64Array} scores @returns {number[]} */
export function rankChunks(scores) {
  const candidates = [];
  for (let c = 0; c < scores.length; c++) if (scores[c] > 0) candidates.push(c);
  return candidates.sort((a, b) => scores[b] - scores[a] || a - b);
}

/** page_max_weight x best + page_top_weight x mean of the top page_top_n (spec: page_score).
 * @param {number[]} members best first @param {Float64Array} scores @param {any} settings */
export function pageScore(members, scores, settings) {
  const top = members.slice(0, settings.page_top_n).map((chunk) => scores[chunk]);
  let sum = 0;
  for (const score of top) sum += score;
  return settings.page_max_weight * top[0] + settings.page_top_weight * (sum / top.length);
}

/**
 * @typedef {{explain: boolean, missing?: Set<number>, displays?: Set<number>}} Display
 *   explain: add each section's score parts; missing: collects the chunks whose texts a snippet
 *   needs but are not loaded (engine.js search); displays: collects the display fragments
 *   (bundle.js loadDisplay) the pages shown need but are not loaded: then no page is listed
 */

/**
 * @param {Bundle} bundle @param {number[]} ranked @param {Float64Array} scores
 * @param {import("./snippet.js").Highlight} marks @param {number} limit
 * @param {Map<number, any>} details per chunk: `via` and the explain parts
 * @param {Display} display
 */
export function groupByPage(bundle, ranked, scores, marks, limit, details, display) {
  const { settings, chunks, pages } = bundle;
  const languages = chunks.language;
  // Direct sections (keyword or vector found them) rank their page; related ones (graph only)
  // follow them and never lower it (spec: results.py).
  /** @type {Map<number, number[]>} */
  const direct = new Map();
  /** @type {Map<number, number[]>} */
  const related = new Map();
  for (const chunk of ranked) {
    const via = details.get(chunk).via;
    const found = via.length === 1 && via[0] === "graph" ? related : direct;
    const page = chunks.page[chunk];
    const members = found.get(page);
    if (members) members.push(chunk);
    else found.set(page, [chunk]);
  }
  const scored = [...new Set([...direct.keys(), ...related.keys()])].map((page) => {
    const members = [...(direct.get(page) ?? []), ...(related.get(page) ?? [])];
    const ranking = direct.get(page) ?? /** @type {number[]} */ (related.get(page));
    return { onlyRelated: !direct.has(page), score: pageScore(ranking, scores, settings), page, members };
  });
  scored.sort((a, b) => Number(a.onlyRelated) - Number(b.onlyRelated) || b.score - a.score || a.page - b.page);
  // Titles, anchors and urls are in display fragments: those of the pages shown (a page's chunks
  // share one), and of the graph seeds explain names. One that failed to load drops its pages
  // (worker.js warns); the Python engine has them all, so answers are the same.
  const shown = scored.filter(({ members }) => bundle.displayLoaded[fragmentOf(bundle, members[0])] !== DISPLAY_FAILED).slice(0, limit);
  const needed = new Set();
  for (const { members } of shown) {
    needed.add(fragmentOf(bundle, members[0]));
    if (display.explain) {
      for (const chunk of members) {
        const seed = details.get(chunk).graph?.from;
        if (seed !== undefined) needed.add(fragmentOf(bundle, seed));
      }
    }
  }
  const absent = [...needed].filter((index) => bundle.displayLoaded[index] !== DISPLAY_LOADED);
  if (absent.length) {
    for (const index of absent) display.displays?.add(index);
    return [];
  }
  return shown.map(({ score, page, members }) => {
    const url = pages.url[page];
    const sections = [];
    const listed = new Set();
    for (const chunk of members) {
      const anchor = chunks.anchor[chunk];
      if (listed.has(anchor)) continue;
      if (sections.length === settings.sections_per_page) break;
      listed.add(anchor);
      const source = sourceText(bundle.texts, chunks.parent, chunks.title, chunk, display.missing);
      /** @type {any} */
      const section = {
        id: chunks.id[chunk],
        kind: chunks.kind[chunk],
        anchor,
        title: chunks.title[chunk],
        url: anchor ? `${url}#${anchor}` : url,
        score: scores[chunk],
        snippet: source === null ? "" : snippet(source, marks, settings.snippet_words),
      };
      if (languages && chunks.kind[chunk] === "code" && languages[chunk]) {
        section.language = languageOf(languages[chunk], languageAliases(bundle));
      }
      const { via, ...parts } = details.get(chunk);
      section.via = via;
      if (display.explain) {
        section.explain = parts.graph ? { ...parts, graph: { ...parts.graph, from: chunks.id[parts.graph.from] } } : parts;
      }
      sections.push(section);
    }
    return { page: pages.path[page], url, title: pages.title[page], score, sections };
  });
}
