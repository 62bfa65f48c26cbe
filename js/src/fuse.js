// @ts-check
/** Fusion with definitions and exact covers first (spec: mkdocs_graphsearch/engine/fuse.py). */
import { pathKey } from "./filters.js";
import { prefixTerms } from "./keyword.js";

/** @typedef {import("./bundle.js").Bundle} Bundle */

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

/** For a path query, the roots (among `found`) of the pages its path names.
 * @param {Bundle} bundle @param {string} text @param {Set<number>} found @returns {Set<number>} */
export function pathRoots(bundle, text, found) {
  const word = text.replace(EDGE_SPACE, "");
  const typed = pathKey(word);
  if (!word.includes("/") || !typed || /[ \t\n\r\f\v]/.test(word)) return new Set();
  const { kind, page } = bundle.chunks;
  const paths = bundle.pages.path;
  return new Set([...found].filter((chunk) => kind[chunk] === "page" && `/${pathKey(paths[page[chunk]])}`.includes(`/${typed}`)));
}

/** RRF with covers one ceiling up and definitions two (both count in the keyword ranking only).
 * @param {number[]} keywordRanked @param {number[]} vectorRanked @param {Set<number>} cover
 * @param {any} settings @param {Set<number>} [defined] @returns {Map<number, number>} */
export function fuse(keywordRanked, vectorRanked, cover, settings, defined = new Set()) {
  const k = settings.rrf_k;
  const keywordWeight = settings.keyword_weight;
  const vectorWeight = settings.vector_weight;
  const ceiling = (keywordWeight + vectorWeight) / (k + 1);
  const fused = new Map();
  keywordRanked.forEach((chunk, i) => {
    const lift = defined.has(chunk) ? 2 * ceiling : cover.has(chunk) ? ceiling : 0;
    fused.set(chunk, lift + keywordWeight / (k + i + 1));
  });
  vectorRanked.forEach((chunk, i) => fused.set(chunk, (fused.get(chunk) ?? 0) + vectorWeight / (k + i + 1)));
  return fused;
}
