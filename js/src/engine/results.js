// @ts-check
/** Rank chunks and group them by page (spec: mkdocs_graphsearch/engine/results.py). */
import { BREADCRUMB_SEPARATOR, snippet, sourceText } from "./snippet.js";
import { languageAliases, languageOf } from "./filters.js";
import { DISPLAY_LOADED, displayOf } from "./bundle/read.js";

/** @typedef {import("./bundle/read.js").Bundle} Bundle */

/** Which 32-bit half of a double holds its sign and exponent (the platform's byte order). */
const HIGH = new Uint32Array(Float64Array.of(1).buffer)[1] === 0x3ff00000 ? 1 : 0;
/** The sort digits of a key: 11 bits each, low half first ([half: 0 low, 1 high, shift]). */
const DIGITS = [[0, 0], [0, 11], [0, 22], [1, 0], [1, 11], [1, 22]];
const RADIX = 2048;
/** rankChunks' working arrays. */
let work = { values: new Float64Array(0), chunks: new Int32Array(0), from: new Int32Array(0), to: new Int32Array(0) };

/** Chunks with a positive score, best first, ties by chunk index. Not a comparison sort (on a
 * big site tens of thousands of chunks match, and a comparator call per comparison cost more
 * than the rest of the query): positive doubles order as their bits do, so a stable radix sort
 * of the inverted bits (six passes of 11 bits; a pass whose digit is the same for every score is
 * skipped) of the chunks in chunk order gives that order.
 * @param {Float64Array} scores @returns {number[]} */
export function rankChunks(scores) {
  let n = 0;
  for (let c = 0; c < scores.length; c++) if (scores[c] > 0) n++;
  // Working arrays kept between calls (grown as needed): queries on a big site would otherwise
  // allocate and collect megabytes each.
  if (work.chunks.length < n) work = { values: new Float64Array(n), chunks: new Int32Array(n), from: new Int32Array(n), to: new Int32Array(n) };
  const { values, chunks } = work;
  for (let c = 0, i = 0; c < scores.length; c++) {
    if (scores[c] > 0) {
      values[i] = scores[c];
      chunks[i++] = c;
    }
  }
  const bits = new Uint32Array(values.buffer);
  const counts = new Int32Array(DIGITS.length * RADIX);
  const mask = RADIX - 1;
  for (let i = 0; i < n; i++) {
    const low = ~bits[2 * i + 1 - HIGH], high = ~bits[2 * i + HIGH];
    counts[low & mask]++;
    counts[RADIX + ((low >>> 11) & mask)]++;
    counts[2 * RADIX + (low >>> 22)]++;
    counts[3 * RADIX + (high & mask)]++;
    counts[4 * RADIX + ((high >>> 11) & mask)]++;
    counts[5 * RADIX + (high >>> 22)]++;
  }
  let { from, to } = work; // positions in values
  for (let i = 0; i < n; i++) from[i] = i;
  const starts = new Int32Array(RADIX);
  for (let d = 0; d < DIGITS.length; d++) {
    const [half, shift] = DIGITS[d];
    let sum = 0, same = false;
    for (let k = 0; k < RADIX; k++) {
      const count = counts[d * RADIX + k];
      same ||= count === n;
      starts[k] = sum;
      sum += count;
    }
    if (same) continue;
    const word = half ? HIGH : 1 - HIGH;
    for (let i = 0; i < n; i++) {
      const at = from[i];
      to[starts[(~bits[2 * at + word] >>> shift) & mask]++] = at;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  /** @type {number[]} */
  const out = new Array(n).fill(0);
  for (let i = 0; i < n; i++) out[i] = chunks[from[i]];
  return out;
}

/**
 * A side's ranking as fusion reads it (fuse.js): its chunks (those with a positive score) in
 * chunk order, and the first two of rankChunks' order (-1: none). Tens of thousands of chunks
 * can match on a big site; a query ranks them all only for explain's ranks.
 * @typedef {{chunks: Int32Array, best: number, next: number}} Matches
 */

/** @param {ArrayLike<number>} scores @returns {Matches} */
export function matchesOf(scores) {
  const chunks = new Int32Array(scores.length); // one pass: room for every chunk
  let n = 0, best = -1, next = -1;
  for (let c = 0; c < scores.length; c++) {
    const score = scores[c];
    if (!(score > 0)) continue;
    chunks[n++] = c;
    // Rising chunks: a tie keeps the lower chunk ahead.
    if (best < 0 || score > scores[best]) {
      next = best;
      best = c;
    } else if (next < 0 || score > scores[next]) next = c;
  }
  return { chunks: chunks.subarray(0, n), best, next };
}

/** Chunks best first: score descending, ties by chunk index. @param {Float64Array} scores */
const byScore = (scores) => (/** @type {number} */ a, /** @type {number} */ b) => scores[b] - scores[a] || a - b;

/** Keep `item` in `list` (the first `k` in `compare`'s order, a total order) if it is one of them.
 * @template T @param {T[]} list @param {T} item @param {number} k @param {(a: T, b: T) => number} compare */
function keep(list, item, k, compare) {
  if (list.length >= k && compare(item, list[list.length - 1]) >= 0) return;
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(list[mid], item) <= 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, item);
  if (list.length > k) list.pop();
}

/** Put `chunk` in list `list` of `lists` (`k` slots from list x k, `sizes[list]` used, best
 * first: score descending, ties by chunk index) if it is one of that list's best k.
 * @param {Int32Array} lists @param {Int32Array} sizes @param {number} list @param {number} k
 * @param {number} chunk @param {Float64Array} scores */
function place(lists, sizes, list, k, chunk, scores) {
  const base = list * k, size = sizes[list], score = scores[chunk];
  let j = size === k ? k - 1 : size; // the slot it takes if it beats the one there (full list)
  if (size === k) {
    const last = lists[base + j];
    if (!(score > scores[last] || (score === scores[last] && chunk < last))) return;
  }
  for (; j > 0; j--) {
    const other = lists[base + j - 1];
    if (!(score > scores[other] || (score === scores[other] && chunk < other))) break;
    lists[base + j] = other;
  }
  lists[base + j] = chunk;
  if (size < k) sizes[list] = size + 1;
}

/** The first `k` of `items` in `compare`'s order (a total order: no two items equal), as sorting
 * them all and taking the first k gives, in one pass: k is small (pages shown, graph seeds).
 * @template T @param {Iterable<T>} items @param {number} k @param {(a: T, b: T) => number} compare
 * @returns {T[]} */
export function firstK(items, k, compare) {
  /** @type {T[]} */
  const kept = [];
  if (k > 0) for (const item of items) keep(kept, item, k, compare);
  return kept;
}

/** The best `k` chunks flagged in `among` by score (descending, ties by chunk index), best first:
 * firstK's answer, comparing with the k-th kept inline (tens of thousands of chunks can fuse on a
 * big site; firstK calls its comparator for each).
 * @param {Float64Array} scores @param {Uint8Array} among @param {number} k @returns {number[]} */
export function bestChunks(scores, among, k) {
  const order = byScore(scores);
  /** @type {number[]} */
  const kept = [];
  if (!(k > 0)) return kept;
  for (let chunk = 0; chunk < among.length; chunk++) {
    if (!among[chunk]) continue;
    if (kept.length >= k) {
      const last = kept[kept.length - 1];
      if (!(scores[chunk] > scores[last] || (scores[chunk] === scores[last] && chunk < last))) continue;
    }
    keep(kept, chunk, k, order);
  }
  return kept;
}

/** For a parameter entry or a code block in one, its object's anchor; null for any other chunk
 * (spec: parameter_of). @param {string[]} kinds @param {string[]} anchors @param {number[]} parents
 * @param {number} chunk @returns {string | null} */
export function parameterOf(kinds, anchors, parents, chunk) {
  const entry = kinds[chunk] === "code" ? parents[chunk] : chunk;
  if (entry < 0) return null;
  const anchor = anchors[entry], parent = parents[entry];
  if (kinds[entry] !== "api" || parent < 0 || kinds[parent] !== "api" || !anchor.endsWith(")")) return null;
  const owner = anchors[parent];
  return owner && anchor.startsWith(`${owner}(`) && !anchor.slice(owner.length + 1, -1).includes(")") ? owner : null;
}

/** A parameter row's title: `object › name` (spec: parameter_title).
 * @param {string} owner @param {string} anchor @returns {string} */
export function parameterTitle(owner, anchor) {
  return owner.slice(owner.lastIndexOf(".") + 1) + BREADCRUMB_SEPARATOR + anchor.slice(owner.length + 1, -1);
}

/** page_max_weight x best + page_top_weight x mean of the top page_top_n (spec: page_score).
 * @param {ArrayLike<number>} members best first @param {Float64Array} scores @param {any} settings */
export function pageScore(members, scores, settings) {
  const count = Math.min(members.length, settings.page_top_n);
  let sum = 0;
  for (let i = 0; i < count; i++) sum += scores[members[i]];
  return settings.page_max_weight * scores[members[0]] + settings.page_top_weight * (sum / count);
}

/**
 * @typedef {{explain: boolean, missing?: Set<number>, displays?: Set<number>, whole?: boolean}} Display
 *   explain: add each section's score parts; missing: collects the chunks whose texts a snippet
 *   needs but are not loaded (engine.js search); displays: collects the display fragments
 *   (bundle/read.js loadDisplay) the pages shown need but are not loaded: then no page is listed;
 *   whole: snippets only when every shown snippet's text is in, else all "" (the caller shows
 *   no such answer: it asks again once they are in, so their work would be lost)
 */

/**
 * @typedef {{get: (chunk: number) => any, related?: Uint8Array}} Details
 *   get: a chunk's `via` and explain parts (asked for the pages shown only, when `related` is
 *   given); related: 1 by chunk where it is related only (graph-found: `via` is ["graph"])
 */

/** @param {{onlyRelated: boolean, score: number, page: number}} a @param {{onlyRelated: boolean, score: number, page: number}} b */
const pageOrder = (a, b) => Number(a.onlyRelated) - Number(b.onlyRelated) || b.score - a.score || a.page - b.page;

/**
 * Pages by score with their sections. Only what the pages' scores need (each page's best
 * page_top_n sections) and the members of the pages shown are ranked, not every chunk: the same
 * pages, sections and order as ranking every chunk first (spec: results.py group_by_page).
 * @param {Bundle} bundle @param {ArrayLike<number>} ranked the chunks to group, in any order:
 *   they rank by score (descending), ties by chunk index
 * @param {Float64Array} scores
 * @param {import("./snippet.js").Highlight} marks @param {number} limit
 * @param {Details | Map<number, any>} details per chunk: `via` and the explain parts
 * @param {Display} display
 */
export function groupByPage(bundle, ranked, scores, marks, limit, details, display) {
  const { settings, chunks, pages } = bundle;
  const languages = chunks.language;
  const order = byScore(scores);
  let related = "related" in details ? details.related : undefined;
  if (!related) { // from each chunk's via
    related = new Uint8Array(chunks.page.length);
    for (let i = 0; i < ranked.length; i++) {
      const via = details.get(ranked[i]).via;
      related[ranked[i]] = via.length === 1 && via[0] === "graph" ? 1 : 0;
    }
  }
  // Direct sections (keyword or vector found them) rank their page; related ones (graph only)
  // follow them and never lower it (spec: results.py). Each page's best page_top_n of each, in
  // typed arrays by page (tens of thousands of chunks can match): list 2 page (direct) and
  // 2 page + 1 (related), `top` slots each.
  const top = Math.max(1, settings.page_top_n);
  const nPages = pages.path.length;
  const lists = new Int32Array(2 * nPages * top);
  const sizes = new Int32Array(2 * nPages);
  /** @type {number[]} */
  const touched = [];
  for (let i = 0; i < ranked.length; i++) {
    const chunk = ranked[i];
    const page = chunks.page[chunk];
    if (!sizes[2 * page] && !sizes[2 * page + 1]) touched.push(page);
    place(lists, sizes, 2 * page + related[chunk], top, chunk, scores);
  }
  const scored = [];
  /** @type {number[]} one page's list at a time */
  const ranking = [];
  for (const page of touched) {
    const onlyRelated = !sizes[2 * page];
    const list = 2 * page + (onlyRelated ? 1 : 0);
    ranking.length = sizes[list];
    for (let j = 0; j < ranking.length; j++) ranking[j] = lists[list * top + j];
    scored.push({ onlyRelated, score: pageScore(ranking, scores, settings), page });
  }
  const chosen = Number.isInteger(limit) && limit >= 0 && limit < scored.length ? firstK(scored, limit, pageOrder) : scored.sort(pageOrder).slice(0, limit);
  // The members of the pages shown, direct ones first, each part best first.
  const slot = new Int32Array(nPages).fill(-1);
  chosen.forEach(({ page }, i) => { slot[page] = i; });
  /** @type {number[][]} */
  const directOf = chosen.map(() => []);
  /** @type {number[][]} */
  const relatedOf = chosen.map(() => []);
  for (let i = 0; i < ranked.length; i++) {
    const chunk = ranked[i];
    const at = slot[chunks.page[chunk]];
    if (at >= 0) (related[chunk] ? relatedOf[at] : directOf[at]).push(chunk);
  }
  const shown = chosen.map(({ score, page }, i) => ({ score, page, members: [...directOf[i].sort(order), ...relatedOf[i].sort(order)] }));
  // Titles, anchors and urls are in display fragments: those of the pages shown (a page's chunks
  // share one), and of the graph seeds explain names.
  const needed = new Set();
  for (const { members } of shown) {
    needed.add(displayOf(bundle, members[0]));
    if (display.explain) {
      for (const chunk of members) {
        const seed = details.get(chunk).graph?.from;
        if (seed !== undefined) needed.add(displayOf(bundle, seed));
      }
    }
  }
  const absent = [...needed].filter((index) => bundle.displayLoaded[index] !== DISPLAY_LOADED);
  if (absent.length) {
    for (const index of absent) display.displays?.add(index);
    return [];
  }
  const lacking = display.missing?.size ?? 0;
  const grouped = shown.map(({ score, page, members }) => {
    const url = pages.url[page];
    const sections = [];
    const listed = new Set();
    for (const chunk of members) {
      const anchor = chunks.anchor[chunk];
      // A parameter entry shares its object's place (spec: results.py).
      const owner = parameterOf(chunks.kind, chunks.anchor, chunks.parent, chunk);
      const place = owner ?? anchor;
      if (listed.has(place)) continue;
      if (sections.length === settings.sections_per_page) break;
      listed.add(place);
      const source = sourceText(bundle.texts, chunks.parent, chunks.title, chunk, display.missing);
      /** @type {any} */
      const section = {
        id: chunks.id[chunk],
        kind: chunks.kind[chunk],
        anchor,
        title: owner === null ? chunks.title[chunk] : parameterTitle(owner, anchor),
        url: anchor ? `${url}#${anchor}` : url,
        score: scores[chunk],
        snippet: source === null ? "" : source,
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
  // The sources first, their snippets after: with `whole`, none where a text is missing.
  const partial = display.whole && (display.missing?.size ?? 0) > lacking;
  for (const { sections } of grouped) {
    for (const section of sections) section.snippet = section.snippet && !partial ? snippet(section.snippet, marks, settings.snippet_words) : "";
  }
  return grouped;
}
