// @ts-check
/** Keyword scoring over precomputed BM25F impacts (spec: mkdocs_graphsearch/engine/keyword.py). */
import { compareCodePoints, lastAtOrBefore } from "./bundle/format.js";
import { COMPOUND, WORD, querySpans } from "./text/tokenize.js";
import { strongTypo, typoBudget, typoDistance } from "./fuzzy.js";
import { isProseWord, stem } from "./text/stem.js";

/**
 * @typedef {import("./bundle/read.js").Bundle} Bundle
 * @typedef {{term: number, weight: number, distance: number}} Expansion (distance: a typo match's edits, else 0)
 * @typedef {{scores: Float64Array, tokens: string[], matchedTerms: Set<string>, expansions: Expansion[][], typed: Set<string>, stop: Set<string>}} KeywordScores
 */

/** @param {string} query @returns {string[]} */
export function queryTokens(query) {
  return [...new Set(querySpans(query).map((span) => span[0]))];
}

/** The query tokens that occur as words (not only inside a compound).
 * @param {string} query @returns {Set<string>} */
export function queryWords(query) {
  return new Set(querySpans(query).filter((span) => span[3] === WORD).map(([token]) => token));
}

/** The tokens being typed, matched as prefixes too: the last query token, and the whole compound
 * the query ends with (spec: typed_tokens). @param {string} query @param {string[]} tokens
 * @returns {Set<string>} */
export function typedTokens(query, tokens) {
  if (!tokens.length) return new Set();
  const typed = new Set([tokens[tokens.length - 1]]);
  const spans = querySpans(query);
  let end = 0;
  for (const span of spans) if (span[2] > end) end = span[2];
  for (const [token, , stop, kind] of spans) if (kind === COMPOUND && stop === end) typed.add(token);
  return typed;
}

/** The query's stop words, unless the query has nothing else.
 * @param {Bundle} bundle @param {string[]} tokens @param {Set<string>} words @returns {Set<string>} */
export function stopTokens(bundle, tokens, words) {
  const listed = new Set(bundle.settings.query_stop_words ?? []); // format 1: none
  const stop = new Set(tokens.filter((token) => words.has(token) && listed.has(token)));
  return stop.size < tokens.length ? stop : new Set();
}

/** The other terms of a prose word's stem group, in term order; null while the term shard of
 * the stem's string (which holds its group: bundle/write.py keyword_part) is not loaded (it
 * goes into `wanted`). @param {Bundle} bundle @param {string} token @param {boolean} isWord
 * @param {Set<number> | null} [wanted] @returns {number[] | null} */
export function stemTerms(bundle, token, isWord, wanted = null) {
  if (!isWord || !isProseWord(token)) return [];
  const stemmed = stem(token);
  if (!ready(bundle, shardOf(bundle, stemmed), wanted)) return null;
  const exact = bundle.termIndex.get(token);
  return (bundle.stems.get(stemmed) ?? []).filter((term) => term !== exact);
}

/** The shard a term is in, or would be: the last whose first term is <= it (bundle/format.py).
 * @param {Bundle} bundle @param {string} token */
export function shardOf(bundle, token) {
  const first = bundle.termShards.first;
  let lo = 0, hi = first.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (compareCodePoints(first[mid], token) <= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The shard holding term number `term`. @param {Bundle} bundle @param {number} term */
function shardOfTerm(bundle, term) {
  return lastAtOrBefore(bundle.termShards.start, term);
}

/** The dictionary's mark in a `wanted` set (shards are 0, 1, ...). */
export const DICTIONARY = -1;

/** Is this shard loaded? If not, it goes into `wanted` (worker.js fetches it and asks again).
 * @param {Bundle} bundle @param {number} shard @param {Set<number> | null} wanted */
function ready(bundle, shard, wanted) {
  if (bundle.shardLoaded[shard]) return true;
  wanted?.add(shard);
  return false;
}

/** @type {WeakMap<(string | undefined)[], Int32Array[]> | undefined} code points of terms, made on first use */
let termCodePoints;

/** @param {string} text */
function codePoints(text) {
  return Int32Array.from(text, (ch) => /** @type {number} */ (ch.codePointAt(0)));
}

/** @param {Bundle} bundle @param {number} term */
function postingsCount(bundle, term) {
  return bundle.termCounts[term];
}

/** @param {Bundle} bundle @param {number[]} candidates @param {number} limit */
function top(bundle, candidates, limit) {
  return candidates
    .sort((a, b) => postingsCount(bundle, b) - postingsCount(bundle, a) || a - b)
    .slice(0, limit);
}

/** Terms that start with token (other than itself), best first: from the shard token is in and
 * the following shards whose first term starts with it (all of them are needed).
 * @param {Bundle} bundle @param {string} token @param {Set<number> | null} [wanted]
 * @returns {number[]} */
export function prefixTerms(bundle, token, wanted = null) {
  const { terms, termShards } = bundle;
  const shard = shardOf(bundle, token);
  if (!prefixReady(bundle, token, wanted)) return [];
  let lo = termShards.start[shard];
  let hi = shard + 1 < termShards.start.length ? termShards.start[shard + 1] : terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareCodePoints(/** @type {string} */ (terms[mid]), token) < 0) lo = mid + 1;
    else hi = mid;
  }
  const found = [];
  // Up to the first term without the prefix: in a loaded shard, or the end of the loaded ones
  // (prefixReady: then the next shard's first term does not have it either).
  for (let i = lo; i < terms.length && terms[i]?.startsWith(token); i++) {
    if (terms[i] !== token) found.push(i);
  }
  return top(bundle, found, bundle.settings.max_expansions);
}

/** Are the shards token's prefix range spans loaded? (Those that are not go into `wanted`.)
 * @param {Bundle} bundle @param {string} token @param {Set<number> | null} wanted */
function prefixReady(bundle, token, wanted) {
  const first = bundle.termShards.first;
  const shard = shardOf(bundle, token);
  let complete = ready(bundle, shard, wanted);
  for (let next = shard + 1; next < first.length && first[next].startsWith(token); next++) {
    complete = ready(bundle, next, wanted) && complete;
  }
  return complete;
}

/** (term, distance) the token is a typo of, nearest and most frequent first; none for a known word.
 * @param {Bundle} bundle @param {string} token @returns {[number, number][]} */
export function fuzzyTerms(bundle, token) {
  if (bundle.knownWords.has(token)) return [];
  const settings = bundle.settings;
  const chars = codePoints(token);
  const budget = typoBudget(chars, settings);
  /** @type {[number, number][]} */
  const found = [];
  const { terms, termLengths } = bundle;
  termCodePoints ??= new WeakMap();
  let cached = termCodePoints.get(terms);
  if (!cached) termCodePoints.set(terms, (cached = new Array(terms.length)));
  for (let i = 0; i < terms.length; i++) {
    if (Math.abs(termLengths[i] - chars.length) > budget) continue;
    const distance = typoDistance(chars, (cached[i] ??= codePoints(/** @type {string} */ (terms[i]))), settings);
    if (distance !== null) found.push([i, distance]);
  }
  found.sort(
    (a, b) => a[1] - b[1] || postingsCount(bundle, b[0]) - postingsCount(bundle, a[0]) || a[0] - b[0],
  );
  return found.slice(0, settings.max_expansions);
}

/**
 * A token's expansions (spec: engine/keyword.py expand). The shards they need that are not loaded
 * go into `wanted` (the dictionary as DICTIONARY, when the token may be a typo); the expansions
 * are then incomplete, and the caller loads those and asks again.
 * @param {Bundle} bundle @param {string} token @param {boolean} isTyped @param {boolean} isWord
 * @param {Set<number> | null} [wanted] @returns {Expansion[]} */
export function expand(bundle, token, isTyped, isWord, wanted = null) {
  const settings = bundle.settings;
  /** @type {Expansion[]} */
  const expansions = [];
  let known = ready(bundle, shardOf(bundle, token), wanted); // what the token matched is known
  const exact = bundle.termIndex.get(token);
  if (exact !== undefined) expansions.push({ term: exact, weight: 1.0, distance: 0 });
  if (isTyped) known = prefixReady(bundle, token, wanted) && known;
  const prefixed = isTyped ? prefixTerms(bundle, token, wanted) : [];
  for (const term of prefixed) expansions.push({ term, weight: settings.prefix_weight, distance: 0 });
  const group = stemTerms(bundle, token, isWord, wanted);
  known = group !== null && known; // no typo search before the stem's group is known
  const stemmed = group ?? [];
  for (const term of stemmed) {
    ready(bundle, shardOfTerm(bundle, term), wanted);
    expansions.push({ term, weight: settings.stem_weight, distance: 0 });
  }
  if (known && exact === undefined && !prefixed.length && !stemmed.length && Array.from(token).length >= settings.fuzzy_min_length) {
    if (!bundle.dictionary) {
      wanted?.add(DICTIONARY);
      return expansions;
    }
    for (const [term, distance] of fuzzyTerms(bundle, token)) {
      ready(bundle, shardOfTerm(bundle, term), wanted);
      expansions.push({ term, weight: settings.fuzzy_weights[distance - 1], distance });
    }
  }
  return expansions;
}

/**
 * Each token's expansions; when no token but stop tokens matched without a typo, less the typo
 * matches that are not strong (spec: engine/keyword.py typos_if_strong).
 * @param {Bundle} bundle @param {string[]} tokens @param {Set<string>} stop
 * @param {Expansion[][]} expansions @returns {Expansion[][]} */
export function typosIfStrong(bundle, tokens, stop, expansions) {
  if (tokens.some((token, i) => !stop.has(token) && expansions[i].some((e) => e.distance === 0))) return expansions;
  return expansions.map((options, i) => {
    const chars = codePoints(tokens[i]);
    return options.filter((e) => strongTypo(chars, e.distance, bundle.settings));
  });
}

/**
 * The text the query encoder reads: the query plus, for each token with no exact match, its
 * best stand-in term (highest weight, then most postings, then term order).
 * @param {Bundle} bundle @param {string} query @param {KeywordScores} keyword
 */
export function completedQuery(bundle, query, keyword) {
  /** @type {string[]} */
  const extra = [];
  keyword.tokens.forEach((token, i) => {
    const options = keyword.expansions[i];
    if (!options || !options.length || bundle.termIndex.has(token)) return;
    let best = options[0];
    for (const e of options.slice(1)) {
      const better =
        e.weight > best.weight ||
        (e.weight === best.weight &&
          (postingsCount(bundle, e.term) > postingsCount(bundle, best.term) ||
            (postingsCount(bundle, e.term) === postingsCount(bundle, best.term) && e.term < best.term)));
      if (better) best = e;
    }
    extra.push(/** @type {string} */ (bundle.terms[best.term]));
  });
  return extra.length ? [query, ...extra].join(" ") : query;
}

/** keywordScores' working arrays (grown to the largest site searched). */
let scratch = { best: new Float64Array(0), touched: new Int32Array(0) };

/** @param {Bundle} bundle @param {string} query
 * @param {Set<number> | null} [wanted] collects the shards (and DICTIONARY) the query needs that
 *   are not loaded: the scores are final only when it stays empty
 * @returns {KeywordScores} */
export function keywordScores(bundle, query, wanted = null) {
  const tokens = queryTokens(query);
  const words = queryWords(query);
  const stop = stopTokens(bundle, tokens, words);
  const total = new Float64Array(bundle.nChunks);
  const stopTotal = stop.size ? new Float64Array(bundle.nChunks) : total; // total: never added to
  const matchedTerms = new Set();
  /** @type {Expansion[][]} */
  const allExpansions = [];
  // Each chunk's best weighted impact for the token, and the chunks it has one for: zero and
  // empty again after each token, so one pair serves every query (no per-query allocation the
  // size of the site).
  if (scratch.best.length < bundle.nChunks) scratch = { best: new Float64Array(bundle.nChunks), touched: new Int32Array(bundle.nChunks) };
  const { best, touched } = scratch;
  const typed = typedTokens(query, tokens);
  const expanded = typosIfStrong(
    bundle, tokens, stop, tokens.map((token) => expand(bundle, token, typed.has(token), words.has(token), wanted)),
  );
  tokens.forEach((token, i) => {
    const expansions = expanded[i];
    const sum = stop.has(token) ? stopTotal : total;
    allExpansions.push(expansions);
    let count = 0;
    for (const { term, weight } of expansions) {
      if (!bundle.shardLoaded[shardOfTerm(bundle, term)]) continue; // wanted: asked again
      for (let p = bundle.termStart[term]; p < bundle.termStart[term + 1]; p++) {
        const chunk = bundle.postChunk[p];
        const weighted = bundle.postImpact[p] * weight;
        if (weighted > best[chunk]) {
          if (best[chunk] === 0) touched[count++] = chunk; // once: best stays > 0 until added
          best[chunk] = weighted;
        }
      }
      matchedTerms.add(bundle.terms[term]);
    }
    for (let i = 0; i < count; i++) {
      const chunk = touched[i];
      sum[chunk] += best[chunk];
      best[chunk] = 0;
    }
  });
  if (stop.size) {
    const weight = bundle.settings.stop_word_weight;
    for (let c = 0; c < total.length; c++) if (total[c] > 0) total[c] += stopTotal[c] * weight;
  }
  for (let c = 0; c < total.length; c++) total[c] = total[c] / bundle.impactScale;
  return { scores: total, tokens, matchedTerms, expansions: allExpansions, typed, stop };
}
