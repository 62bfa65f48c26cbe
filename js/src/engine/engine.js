// @ts-check
/** The search entry point: query -> grouped results (spec: mkdocs_graphsearch/engine/search.py). */
import { completedQuery, keywordScores, queryTokens } from "./keyword.js";
import { bestChunks, groupByPage, matchesOf, rankChunks } from "./results.js";
import { highlight, keywordHighlight, snippet } from "./snippet.js";
import { queryVector } from "./encoder.js";
import { cosines, queryLevels } from "./vector.js";
import { clusterCosines } from "./bundle/vector-shards.js";
import { coverage, definingChunks, exactCover, fuse, fusionExplain, keywordSure, pathRoots, typoSlip, wordMatches } from "./fuse.js";
import { liftTitled, titledRoots } from "./titles.js";
import { expand, languagesOf } from "./expand.js";
import { MODES } from "./bundle/format.js";
import { graphOf } from "./bundle/read.js";
import { allowedChunks, filtersObject, merged, parseFilter, parseQuery } from "./filters.js";

/** @typedef {import("./bundle/read.js").Bundle} Bundle */

/** In search()'s `graphs`: graph.json (the graph's edge types), needed before any graph shard. */
export const GRAPH = -1;

/** The mode a query really runs in: without vectors loaded, only keyword.
 * @param {Bundle} bundle @param {string | null | undefined} mode */
export function availableMode(bundle, mode) {
  const requested = mode || bundle.settings.default_mode;
  if (!MODES.includes(requested)) {
    throw new Error(`unknown mode ${JSON.stringify(requested)} (choose from ${MODES.join(", ")})`);
  }
  if (requested !== "keyword" && !bundle.vectors) return "keyword";
  return requested;
}

/** A side without matches (keyword mode's vector side, vector mode's keyword side). */
/** @type {import("./results.js").Matches} */
const NO_MATCHES = Object.freeze({ chunks: new Int32Array(0), best: -1, next: -1 });

/** An older manifest's search settings have no `max_query_chars` (bundle/settings.py). */
const MAX_QUERY_CHARS_IF_ABSENT = 1000;

/** The query cut to the bundle's `max_query_chars` code points (not UTF-16 units, as Python
 * counts): bounded work for any input.
 * @param {Bundle} bundle @param {string} query */
export function boundedQuery(bundle, query) {
  const max = bundle.settings.max_query_chars ?? MAX_QUERY_CHARS_IF_ABSENT;
  if (query.length <= max) return query; // never more code points than UTF-16 units
  let out = "", count = 0;
  for (const ch of query) {
    if (count++ === max) break;
    out += ch;
  }
  return out;
}

/**
 * @param {Bundle} bundle @param {string} query
 * @param {{mode?: string | null, limit?: number | null, explain?: boolean, filters?: string[],
 *           missing?: Set<number>, shards?: Set<number>, clusters?: Set<number>,
 *           encoderShards?: Set<number>, displays?: Set<number>, graphs?: Set<number>, whole?: boolean}} [options]
 *   filters: `facet:value` filters given apart from the query, as if typed (a bad one throws);
 *   missing: collects the chunks whose texts a shown snippet needs but are not loaded (their
 *   snippets are "" until worker.js loads those fragments and asks again);
 *   shards: collects the term shards (and keyword.js DICTIONARY) the query needs that are not
 *   loaded: when it is not empty the answer is incomplete (worker.js loads them and asks again);
 *   clusters: the same for the vector group files holding the clusters the query probes
 *   (vector-shards.js loadGroup; two levels: first the cells' centroids it takes, cell g as -1 - g)
 *   encoderShards: the same for the query encoder's shards (encoder.js queryVector); without
 *   it, pieces whose shard is not in count as unknown;
 *   displays: collects the display fragments the pages shown need that are not loaded: when it
 *   is not empty no page is listed (worker.js loads them and asks again);
 *   graphs: collects the graph shards (bundle/read.js loadGraphShard) the expansion needs that are
 *   not loaded, and GRAPH when graph.json itself is not: when it is not empty no page is listed
 *   (worker.js loads them and asks again);
 *   whole: every snippet "" when a shown snippet's text is not loaded (`missing` gets the same
 *   chunks): for a caller that shows no such answer (worker.js), the other snippets' work is saved
 */
export function search(bundle, query, options = {}) {
  const mode = availableMode(bundle, options.mode);
  const display = { explain: Boolean(options.explain), missing: options.missing, displays: options.displays,
                    whole: Boolean(options.whole) };
  const settings = bundle.settings;
  const limit = options.limit ?? settings.default_limit;
  const parsed = parseQuery(boundedQuery(bundle, query));
  const chosen = merged(parsed.filters, (options.filters ?? []).map(parseFilter));
  const allowed = chosen.size ? allowedChunks(bundle, chosen) : null;
  const searched = parsed.text;
  const keyword = keywordScores(bundle, searched, options.shards ?? null);
  // Term shards missing: the expansions name terms not loaded; worker.js loads them and asks again.
  if (options.shards?.size) {
    // The encoder's shards for the words as entered (completions come with the terms): fetched
    // beside the term shards, not after them.
    if (mode !== "keyword" && bundle.vectors && options.encoderShards) queryVector(bundle, searched, options.encoderShards);
    return output(query, mode, [], chosen);
  }
  if (allowed) {
    for (let c = 0; c < allowed.length; c++) if (!allowed[c]) keyword.scores[c] = 0;
    if (!keyword.tokens.length) {
      return listing(bundle, query, mode, limit, chosen, allowed, keywordHighlight(bundle, searched, keyword), display);
    }
  }
  // Each side's matches; ranked in full only for explain's ranks (rankChunks).
  const keywordMatches = mode !== "vector" ? matchesOf(keyword.scores) : NO_MATCHES;
  let vectorMatches = NO_MATCHES;
  /** @type {Float64Array | null} */
  let cos = null;
  if (mode !== "keyword" && bundle.vectors) {
    const vector = queryVector(bundle, completedQuery(bundle, searched, keyword), options.encoderShards ?? null);
    // Encoder shards missing: worker.js loads them and asks again (encoder.js).
    if (options.encoderShards?.size) return output(query, mode, [], chosen);
    if (vector !== null) {
      const { values, scales, dim } = bundle.vectors;
      cos = bundle.vectors.clusters // clustered: the probed clusters' chunks only
        ? clusterCosines(bundle.vectors, vector, queryLevels(bundle.manifest), bundle.nChunks, options.clusters ?? null)
        : cosines(values, scales, dim, vector, queryLevels(bundle.manifest));
      if (cos === null) return output(query, mode, [], chosen); // worker.js loads them and asks again
      const threshold = settings.vector_threshold;
      for (let c = 0; c < cos.length; c++) if (cos[c] < threshold) cos[c] = 0;
      if (allowed) for (let c = 0; c < cos.length; c++) if (!allowed[c]) cos[c] = 0;
      vectorMatches = matchesOf(cos);
    }
  }

  // Tens of thousands of chunks can match on a big site: membership is read from the scores
  // (the keyword side's ranking is its chunks scored > 0, the vector side's its cosines > 0)
  // and only the graph seeds and the pages shown are ranked, not every match.
  const hits = mode !== "vector" ? keyword.scores : null;
  const isHit = (/** @type {number} */ chunk) => hits !== null && hits[chunk] > 0;
  /** @type {Map<number, import("./expand.js").Origin>} */
  let origins = new Map();
  /** @type {Uint8Array | null} what the keyword or vector side put in the results (null: keyword hits) */
  let direct = null;
  /** @type {object | null} what set the keyword share (hybrid), for explain */
  let fusion = null;
  let scores;
  const cover = mode !== "vector" ? exactCover(bundle, keyword.tokens, keyword.typed) : new Set();
  // Definitions count where the keyword side found them (fuse.py); pathRoots reads the keyword
  // matches only for a path (one word with a "/").
  const defined = new Set([...definingChunks(bundle, keyword.tokens, cover, keyword.typed)].filter(isHit));
  for (const chunk of pathRoots(bundle, searched, keywordMatches.chunks)) defined.add(chunk);
  const titled = titledRoots(bundle, searched, isHit); // first of all (titles.js)
  /** @type {ArrayLike<number>} the chunks listed: scored > 0, in any order (groupByPage ranks what it shows) */
  let listed = keywordMatches.chunks; // keyword mode: the definitions' lift keeps them > 0
  if (mode === "keyword") {
    scores = keyword.scores;
    if (defined.size || titled.size) { // ahead of every other chunk, in keyword order among themselves (fuse.py)
      scores = Float64Array.from(scores);
      let best = 0;
      for (const score of scores) if (score > best) best = score;
      for (const chunk of defined) scores[chunk] += best;
      liftTitled(scores, titled);
    }
  } else {
    /** @type {import("./fuse.js").Fused} */
    let fused;
    let floor;
    let follow = true; // graph expansion
    if (mode === "vector") {
      // (no query vector: nothing fused)
      fused = { scores: cos ? Float64Array.from(cos) : new Float64Array(bundle.nChunks), direct: new Uint8Array(bundle.nChunks) };
      for (const chunk of vectorMatches.chunks) fused.direct[chunk] = 1;
      floor = settings.vector_threshold;
    } else {
      const expansions = keyword.expansions.map((options) => options.map((expansion) => expansion.term));
      const matched = wordMatches(bundle, keyword.tokens, expansions, keyword.typed);
      const sure = coverage(bundle, keyword.tokens, keyword.stop, keywordMatches, matched);
      const distances = keyword.expansions.map((options) => options.map((expansion) => expansion.distance));
      if (keywordMatches.best >= 0 && typoSlip(keyword.tokens, keyword.stop, distances)) sure.slip = true;
      fused = fuse(keywordMatches, keyword.scores, vectorMatches, cos ?? [], sure, cover, settings, defined); // no cosines: no vector ranking
      if (display.explain) fusion = fusionExplain(sure, keywordMatches, keyword.scores, settings); // recomputes fuse()'s share: only for explain
      // Sure of the keyword side (fuse.py): its answer, whole, without graph guesses.
      follow = !keywordSure(sure);
      floor = follow ? settings.min_score : 0;
      // Without a keyword match, a chunk needs a surer cosine: the vector side alone
      // must not answer an off-topic query.
      const alone = settings.vector_only_threshold;
      const c = /** @type {Float64Array | null} */ (cos);
      const k = keyword.scores;
      // (a keyword match always stays: only the vector side's other chunks can go)
      for (const chunk of vectorMatches.chunks) {
        if (!(k[chunk] > 0) && !(c !== null && c[chunk] >= alone)) fused.scores[chunk] = fused.direct[chunk] = 0;
      }
      liftTitled(fused.scores, titled);
    }
    direct = fused.direct;
    scores = fused.scores;
    // An answer that expands waits for the graph: worker.js fetches graph.json (as GRAPH) only for
    // such an answer, with the seeds' shards beside it. Without `graphs` (a caller that loads
    // nothing) and no graph: direct matches only.
    if (!bundle.graph && follow && options.graphs) {
      options.graphs.add(GRAPH);
      for (const seed of bestChunks(scores, direct, settings.seeds)) options.graphs.add(graphOf(bundle, seed));
      return output(query, mode, [], chosen);
    }
    if (bundle.graph && follow) {
      const seeds = bestChunks(scores, direct, settings.seeds);
      /** @type {Set<number>} */
      const unexpanded = new Set();
      const languages = languagesOf(bundle.pages, bundle.chunks);
      origins = expand(fused, seeds, bundle.graph, settings, floor, allowed, unexpanded, languages);
      // Graph shards missing: worker.js loads them and asks again (their edges may add results).
      if (unexpanded.size) {
        for (const chunk of unexpanded) options.graphs?.add(graphOf(bundle, chunk));
        return output(query, mode, [], chosen);
      }
    }
    // The chunks listed: scored >= floor and > 0 (a fused score is 0 only where nothing fused
    // or a score was 0); groupByPage reads the scores of those only.
    for (let c = 0; c < scores.length; c++) if (scores[c] < floor) scores[c] = 0;
    listed = matchesOf(scores).chunks;
  }

  const isVector = (/** @type {number} */ chunk) => cos !== null && cos[chunk] > 0;
  const isDirect = (/** @type {number} */ chunk) => (direct === null ? isHit(chunk) : direct[chunk] === 1);
  /** @type {Int32Array | null} */
  let keywordRank = null;
  /** @type {Int32Array | null} */
  let vectorRank = null;
  /** @param {number[]} ranking */
  const ranks = (ranking) => {
    const out = new Int32Array(bundle.nChunks);
    ranking.forEach((chunk, i) => { out[chunk] = i + 1; });
    return out;
  };
  // Related only (via is ["graph"]): graph-found, and neither side's direct match.
  const related = new Uint8Array(bundle.nChunks);
  for (const chunk of origins.keys()) if (!isHit(chunk) && !(isVector(chunk) && isDirect(chunk))) related[chunk] = 1;
  /** @type {import("./results.js").Details} */
  const details = {
    related,
    get: (chunk) => {
      const via = [];
      /** @type {any} */
      const info = {};
      if (isHit(chunk)) {
        via.push("keyword");
        if (options.explain) info.bm25 = { rank: (keywordRank ??= ranks(rankChunks(keyword.scores)))[chunk], score: keyword.scores[chunk] };
      }
      if (isVector(chunk)) {
        if (isDirect(chunk)) via.push("vector"); // else its cosine was too low for a vector-only result
        if (options.explain) info.vector = { rank: (vectorRank ??= ranks(rankChunks(/** @type {Float64Array} */ (cos))))[chunk], cosine: /** @type {Float64Array} */ (cos)[chunk] };
      }
      const origin = origins.get(chunk);
      if (origin) {
        via.push("graph");
        // `from` is the seed's chunk: results.js names it by id (its display fragment may not be in yet)
        if (options.explain) info.graph = { from: origin.seed, edge: origin.edge, depth: origin.depth };
      }
      info.via = via;
      return info;
    },
  };
  const marks = keywordHighlight(bundle, searched, keyword);
  const results = groupByPage(bundle, listed, scores, marks, limit, details, display);
  const answer = output(query, mode, results, chosen);
  return fusion ? { ...answer, fusion } : answer;
}

/**
 * The code of an answer that a search of `query` does not reach before its term shards are in,
 * run on what is loaded (worker.js warms the service up with it, after that search): at once the
 * vector side's dot products over an unclustered bundle's vectors, then, `count` loaded texts a
 * call, their snippets, `query`'s words marked (the returned function: false once every loaded
 * text had its turn). V8 makes a function fast only once it has run, so a pasted query's answers
 * would otherwise be the first to pay for that. It reads the bundle only: nothing is fetched,
 * nothing a query reads changes.
 * @param {Bundle} bundle @param {string} query @returns {(count: number) => boolean}
 */
export function answerWarmer(bundle, query) {
  const vectors = bundle.vectors;
  if (vectors && !vectors.clusters) {
    const unit = new Array(vectors.dim).fill(1 / Math.sqrt(vectors.dim));
    cosines(vectors.values, vectors.scales, vectors.dim, unit, queryLevels(bundle.manifest));
  }
  const { settings, texts } = bundle;
  const tokens = queryTokens(query);
  const marks = highlight(query, new Map(tokens.map((token) => [token, [token]])), settings.query_stop_words ?? []);
  let chunk = 0;
  return (count) => {
    for (let left = count; chunk < texts.length && left > 0; chunk++) {
      const text = texts[chunk];
      if (text === undefined) continue;
      snippet(text, marks, settings.snippet_words);
      left--;
    }
    return chunk < texts.length;
  };
}

/** @param {string} query @param {string} mode @param {any[]} results @param {import("./filters.js").Filters} filters */
function output(query, mode, results, filters) {
  return filters.size ? { query, mode, results, filters: filtersObject(filters) } : { query, mode, results };
}

/**
 * A query of filters alone: the matching chunks by page, in bundle order, score 0 (spec: _listing).
 * @param {Bundle} bundle @param {string} query @param {string} mode @param {number} limit
 * @param {import("./filters.js").Filters} filters @param {Uint8Array} allowed
 * @param {import("./snippet.js").Highlight} marks @param {import("./results.js").Display} display
 */
function listing(bundle, query, mode, limit, filters, allowed, marks, display) {
  const ranked = [];
  for (let c = 0; c < allowed.length; c++) if (allowed[c]) ranked.push(c);
  const details = { get: () => ({ via: ["filter"] }), related: new Uint8Array(bundle.nChunks) };
  const results = groupByPage(bundle, ranked, new Float64Array(bundle.nChunks), marks, limit, details, display);
  return output(query, mode, results, filters);
}
