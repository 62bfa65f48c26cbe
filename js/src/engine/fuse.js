// @ts-check
/** Score-aware fusion with definitions and exact covers first (spec: mkdocs_graphsearch/engine/fuse.py). */
import { pathKey } from "./filters.js";
import { prefixTerms } from "./keyword.js";

/** @typedef {import("./bundle/read.js").Bundle} Bundle */
/** @typedef {import("./results.js").Matches} Matches */

/** Each whole compound of a query made of nothing but identifiers, or its only token
 * (spec: identifier_tokens). @param {string[]} tokens @returns {string[]} */
export function identifierTokens(tokens) {
  /** @type {string[]} */
  const wholes = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (/[_.-]/.test(token)) {
      wholes.push(token);
      continue;
    }
    let spelt = "";
    let j = i + 1;
    while (j < tokens.length && spelt.length < token.length) spelt += tokens[j++];
    if (j - i > 2 && spelt === token) wholes.push(token);
  }
  if (tokens.length === 1) return tokens;
  // A lookup: every token is a whole or a piece of one (the parts that spell it included).
  const lookup = tokens.every((token) => wholes.some((whole) => whole.includes(token)));
  return wholes.length && lookup ? wholes : [];
}

/** For a token being typed that is no term, the terms it is a prefix of (spec: completions).
 * @param {Bundle} bundle @param {string} token @param {Set<string>} typed @returns {number[]} */
export function completions(bundle, token, typed) {
  return typed.has(token) && !bundle.termIndex.has(token) ? prefixTerms(bundle, token) : [];
}

/** Per identifier token of the query, its exact term, else its completions (spec: lookup_terms).
 * @param {Bundle} bundle @param {string[]} tokens @param {Set<string>} typed @returns {number[][]} */
export function lookupTerms(bundle, tokens, typed) {
  return identifierTokens(tokens).map((token) => {
    const term = bundle.termIndex.get(token);
    return term !== undefined ? [term] : completions(bundle, token, typed);
  });
}

/** Chunks that hold, for every identifier token of the query, one of its lookup terms.
 * @param {Bundle} bundle @param {string[]} tokens @param {Set<string>} [typed] @returns {Set<number>} */
export function exactCover(bundle, tokens, typed = new Set()) {
  /** @type {Set<number> | null} */
  let cover = null;
  for (const terms of lookupTerms(bundle, tokens, typed)) {
    /** @type {Set<number>} */
    const holders = new Set();
    for (const term of terms) {
      for (let p = bundle.termStart[term]; p < bundle.termStart[term + 1]; p++) {
        const chunk = bundle.postChunk[p];
        if (cover === null || cover.has(chunk)) holders.add(chunk);
      }
    }
    cover = holders;
    if (!cover.size) return new Set();
  }
  return cover ?? new Set();
}

/** The chunks of the exact cover that define an identifier token of the query, or one of its
 * completions. @param {Bundle} bundle @param {string[]} tokens @param {Set<number>} cover
 * @param {Set<string>} [typed] @returns {Set<number>} */
export function definingChunks(bundle, tokens, cover, typed = new Set()) {
  const identifiers = identifierTokens(tokens);
  const wanted = [...identifiers, ...identifiers.flatMap((token) => completions(bundle, token, typed).map((term) => /** @type {string} */ (bundle.terms[term])))];
  // bundle.defines: each name a chunk defines and each part of it after a dot (bundle/write.py
  // defines_index), from the term shards; the shard of each wanted token (a query token or a
  // completion, a loaded term) is loaded before any answer: the chunks with a name that is a
  // wanted token or ends in "." + it.
  /** @type {Set<number>} */
  const found = new Set();
  for (const token of wanted) for (const chunk of bundle.defines.get(token) ?? []) if (cover.has(chunk)) found.add(chunk);
  return found;
}

const EDGE_SPACE = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g;

/** For a path query, the roots (among `found`, each chunk once) of the pages its path names.
 * @param {Bundle} bundle @param {string} text @param {Iterable<number>} found @returns {Set<number>} */
export function pathRoots(bundle, text, found) {
  const word = text.replace(EDGE_SPACE, "");
  const typed = pathKey(word);
  if (!word.includes("/") || !typed || /[ \t\n\r\f\v]/.test(word)) return new Set();
  const { kind, page } = bundle.chunks;
  const paths = bundle.pages.path;
  return new Set([...found].filter((chunk) => kind[chunk] === "page" && `/${pathKey(paths[page[chunk]])}`.includes(`/${typed}`)));
}

/** Per query token, the terms that show its word is in a chunk: the terms it matched less, for a
 * token being typed that is a term itself, its completions (spec: word_matches).
 * @param {Bundle} bundle @param {string[]} tokens @param {number[][]} matchedTerms
 * @param {Set<string>} typed @returns {number[][]} */
export function wordMatches(bundle, tokens, matchedTerms, typed) {
  return tokens.map((token, i) => {
    const guessed = new Set(typed.has(token) && bundle.termIndex.has(token) ? prefixTerms(bundle, token) : []);
    return matchedTerms[i].filter((term) => !guessed.has(term));
  });
}

/** How much of the query the keyword side's best chunk holds: `held` of the query's `words` (its
 * tokens that are not stop words) are exact terms of that chunk, `matched` of them are there
 * through a term that shows the word is there; `slip` (absent: false): the query has a misspelt
 * word the keyword side corrected and the keyword side found chunks (spec: Coverage).
 * @typedef {{held: number, words: number, matched: number, slip?: boolean}} Coverage */

/** Whether a query token that is not a stop word matched through typo corrections alone
 * (`distances`: per token, the edits of each term it matched, 0 for an exact, prefix or stem
 * match), one of them a single edit away (spec: typo_slip).
 * @param {string[]} tokens @param {Set<string>} stop @param {number[][]} distances @returns {boolean} */
export function typoSlip(tokens, stop, distances) {
  return tokens.some((token, i) => !stop.has(token) && distances[i].length > 0 && !distances[i].includes(0) && distances[i].includes(1));
}

/** Of the query's tokens that are not stop words, how many the keyword side's best chunk holds
 * as an exact term, and as any of its `matchedTerms` (wordMatches, per token of `tokens`); none
 * held without a keyword match (spec: coverage).
 * @param {Bundle} bundle @param {string[]} tokens @param {Set<string>} stop
 * @param {Matches} keyword @param {ArrayLike<number>[]} matchedTerms @returns {Coverage} */
export function coverage(bundle, tokens, stop, keyword, matchedTerms) {
  let words = 0, held = 0, matched = 0;
  tokens.forEach((token, i) => {
    if (stop.has(token)) return;
    words++;
    if (keyword.best < 0) return;
    const term = bundle.termIndex.get(token);
    if (term !== undefined && holds(bundle, term, keyword.best)) held++;
    if (Array.prototype.some.call(matchedTerms[i], (/** @type {number} */ t) => holds(bundle, t, keyword.best))) matched++;
  });
  return { held, words, matched };
}

/** Whether the term's postings name the chunk: a binary search, as they rise by chunk (spec: holds).
 * @param {Bundle} bundle @param {number} term @param {number} chunk @returns {boolean} */
export function holds(bundle, term, chunk) {
  let low = bundle.termStart[term];
  const end = bundle.termStart[term + 1];
  let high = end;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (bundle.postChunk[middle] < chunk) low = middle + 1;
    else high = middle;
  }
  return low < end && bundle.postChunk[low] === chunk;
}

/** A manifest written before the fusion settings were settings fuses with these (spec:
 * bundle/settings.py FUSION_DEFAULTS; tests/vectors/fuse.json pins both engines to them). */
const FUSION_DEFAULTS = { fusion_coverage_base: 0.4, fusion_coverage_span: 0.4, fusion_gap_span: 0.2 };

/** A fusion setting of the manifest, or its default (spec: fusion_setting).
 * @param {any} settings @param {keyof typeof FUSION_DEFAULTS} key @returns {number} */
const fusionSetting = (settings, key) => settings[key] ?? FUSION_DEFAULTS[key];

/** How far the keyword side's best chunk leads: 1 - second score / best score (1 with a single
 * keyword match, 0 with none) (spec: keyword_gap).
 * @param {Matches} keyword @param {ArrayLike<number>} keywordScores @returns {number} */
export function keywordGap(keyword, keywordScores) {
  if (keyword.best < 0) return 0;
  if (keyword.next < 0) return 1;
  return 1 - keywordScores[keyword.next] / keywordScores[keyword.best];
}

/** Whether the keyword side's best chunk matches every word of the query, or the query has a
 * slip the keyword side corrected (spec: keyword_sure).
 * @param {Coverage} covered @returns {boolean} */
export const keywordSure = (covered) => covered.words > 0 && (covered.matched === covered.words || covered.slip === true);

/** The keyword side's confidence `a`: 1 when it is sure, else base + span x exact coverage + gap
 * span x gap, at most 1 (spec: keyword_confidence).
 * @param {Coverage} covered @param {number} gap @param {any} settings @returns {number} */
export function keywordConfidence(covered, gap, settings) {
  if (keywordSure(covered)) return 1;
  const coveredShare = covered.words ? covered.held / covered.words : 0;
  const a = fusionSetting(settings, "fusion_coverage_base")
    + fusionSetting(settings, "fusion_coverage_span") * coveredShare
    + fusionSetting(settings, "fusion_gap_span") * gap;
  return Math.min(a, 1);
}

/** The keyword side's share of a fused score (spec: keyword_share).
 * @param {Coverage} covered @param {number} gap @param {any} settings @returns {number} */
export function keywordShare(covered, gap, settings) {
  const a = keywordConfidence(covered, gap, settings);
  const keyword = settings.keyword_weight * a;
  const vector = settings.vector_weight * (1 - a);
  const total = keyword + vector;
  return total ? keyword / total : 0;
}

/** What set a hybrid query's keyword share (explain): words held exactly and matched of the
 * query's words, the keyword gap, whether a typo slip was corrected, whether the keyword side is
 * sure and the share (spec: fusion_explain).
 * @param {Coverage} covered @param {Matches} keyword @param {ArrayLike<number>} keywordScores @param {any} settings
 * @returns {{held: number, matched: number, words: number, gap: number, slip: boolean, sure: boolean, keyword_share: number}} */
export function fusionExplain(covered, keyword, keywordScores, settings) {
  const gap = keywordGap(keyword, keywordScores);
  return {
    held: covered.held, matched: covered.matched, words: covered.words, gap, slip: covered.slip === true, sure: keywordSure(covered),
    keyword_share: keywordShare(covered, gap, settings),
  };
}

/**
 * Fused scores by chunk: `scores` (0 where nothing fused), `direct` 1 for each chunk of either
 * ranking. Typed arrays by chunk, not a map: tens of thousands of chunks fuse on a big site.
 * @typedef {{scores: Float64Array, direct: Uint8Array}} Fused
 */

/** Normalized scores mixed by the keyword share, with covers one ceiling up and definitions two
 * (both count in the keyword ranking only); scores and cosines are indexed by chunk, each side's
 * matches rank by them (spec: fuse; no sum depends on the order of a side's `chunks`).
 * @param {Matches} keyword @param {ArrayLike<number>} keywordScores
 * @param {Matches} vector @param {ArrayLike<number>} cosines @param {Coverage} covered
 * @param {Set<number>} cover @param {any} settings @param {Set<number>} [defined]
 * @returns {Fused} */
export function fuse(keyword, keywordScores, vector, cosines, covered, cover, settings, defined = new Set()) {
  const ceiling = (settings.keyword_weight + settings.vector_weight) / (settings.rrf_k + 1);
  const share = keywordShare(covered, keywordGap(keyword, keywordScores), settings);
  const keywordPart = ceiling * share;
  const vectorPart = ceiling * (1 - share);
  const n = Math.max(keywordScores.length, cosines.length);
  const scores = new Float64Array(n);
  const direct = new Uint8Array(n);
  if (keyword.best >= 0) {
    const best = keywordScores[keyword.best];
    const lifts = cover.size > 0 || defined.size > 0; // (most queries: no Set lookups per chunk)
    for (const chunk of keyword.chunks) {
      const lift = !lifts ? 0 : defined.has(chunk) ? 2 * ceiling : cover.has(chunk) ? ceiling : 0;
      scores[chunk] = lift + keywordPart * (keywordScores[chunk] / best);
      direct[chunk] = 1;
    }
  }
  if (vector.best >= 0) {
    const floor = settings.vector_threshold;
    const span = cosines[vector.best] - floor;
    for (const chunk of vector.chunks) {
      const closeness = span > 0 ? (cosines[chunk] - floor) / span : 1;
      scores[chunk] += vectorPart * closeness; // 0 + x is x: as a chunk the keyword side lacks
      direct[chunk] = 1;
    }
  }
  return { scores, direct };
}
