// @ts-check
// Per-function vectors of the mirrored engine parts (tests/test_function_vectors.py checks the
// Python reference against the same files; scripts/make_function_vectors.py writes them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { osaWithin, strongTypo, typoDistance } from "../src/engine/fuzzy.js";
import { BundleError, decodeVarints } from "../src/engine/bundle/format.js";
import { coverage, definingChunks, exactCover, fuse, identifierTokens, pathRoots, typoSlip, wordMatches } from "../src/engine/fuse.js";
import { typedTokens } from "../src/engine/keyword.js";
import { allowedChunks, facetKey, parseFilter, parseQuery, pathKey } from "../src/engine/filters.js";
import { groupByPage, pageScore, rankChunks } from "../src/engine/results.js";
import { expand, languagesOf } from "../src/engine/expand.js";
import { highlight } from "../src/engine/snippet.js";

/** @param {string} name */
const load = (name) => JSON.parse(readFileSync(new URL(`../../tests/vectors/${name}`, import.meta.url), "utf8"));
const STOP_WORDS = ["a", "do", "how", "i", "is", "the", "to"]; // as scripts/make_function_vectors.py
/** @param {string} text code points, as keyword.js passes them */
const codePoints = (text) => Array.from(text, (ch) => /** @type {number} */ (ch.codePointAt(0)));

const fuzzy = load("fuzzy.json");
for (const c of fuzzy.osa) {
  test(`osa ${JSON.stringify(c.a)} ${JSON.stringify(c.b)} within ${c.budget}`, () => {
    assert.equal(osaWithin(codePoints(c.a), codePoints(c.b), c.budget), c.expected);
  });
}
for (const c of fuzzy.typo) {
  test(`typo ${JSON.stringify(c.token)} of ${JSON.stringify(c.term)}`, () => {
    assert.equal(typoDistance(codePoints(c.token), codePoints(c.term), c.settings), c.expected);
  });
}
for (const c of fuzzy.strong) {
  test(`strong typo ${JSON.stringify(c.token)} at ${c.distance}`, () => {
    assert.equal(strongTypo(codePoints(c.token), c.distance, c.settings), c.expected);
  });
}

const varints = load("varints.json");
for (const c of varints.decode) {
  test(`varints: ${c.name}`, () => {
    const bytes = Uint8Array.from(c.hex.match(/../g) ?? [], (/** @type {string} */ h) => parseInt(h, 16));
    if (c.expected.error) {
      assert.throws(() => decodeVarints(bytes), (error) => error instanceof BundleError && error.message === c.expected.error);
    } else {
      assert.deepEqual(Array.from(decodeVarints(bytes)), c.expected.values);
    }
  });
}

const fusion = load("fuse.json");
for (const c of fusion.identifier_tokens) {
  test(`identifier tokens of ${JSON.stringify(c.query ?? c.tokens)}`, () => {
    assert.deepEqual(identifierTokens(c.tokens), c.expected);
  });
}
for (const c of fusion.typed_tokens) {
  test(`typed tokens of ${JSON.stringify(c.query)}`, () => {
    assert.deepEqual([...typedTokens(c.query, c.tokens)].sort(), c.expected);
  });
}
/** A `defines` column inverted as the term shards hold it (spec: bundle/write.py defines_index):
 * each name and each part of it after a dot -> the chunks, rising.
 * @param {string[][]} column @returns {Map<string, number[]>} */
function definesIndex(column) {
  /** @type {Map<string, number[]>} */
  const index = new Map();
  column.forEach((names, chunk) => {
    for (const name of names) {
      const keys = new Set([name, ...[...name].flatMap((char, i) => (char === "." ? [name.slice(i + 1)] : []))]);
      for (const key of keys) {
        const chunks = index.get(key) ?? [];
        if (chunks[chunks.length - 1] !== chunk) chunks.push(chunk);
        index.set(key, chunks);
      }
    }
  });
  return index;
}

/** Just the parts of a bundle exactCover and definingChunks read. @param {any} c @returns {any} */
function smallBundle(c) {
  const termStart = [0];
  for (const postings of c.postings) termStart.push(termStart[termStart.length - 1] + postings.length);
  return {
    terms: c.terms,
    termIndex: new Map(c.terms.map((/** @type {string} */ term, /** @type {number} */ i) => [term, i])),
    termStart,
    postChunk: c.postings.flat(),
    settings: c.settings,
    chunks: c.chunks ?? {},
    defines: definesIndex(c.chunks?.defines ?? []),
    termCounts: c.postings.map((/** @type {number[]} */ postings) => postings.length),
    termShards: { first: [""], start: [0] }, // one shard, loaded: every term is in
    shardLoaded: [true],
  };
}
for (const c of fusion.exact_cover) {
  test(`exact cover of ${JSON.stringify(c.query)}`, () => {
    assert.deepEqual([...exactCover(smallBundle(c), c.tokens, new Set(c.typed))].sort((a, b) => a - b), c.expected);
  });
}
/** A ranking (best first) as fuse.js reads a side's matches. @param {number[]} ranked
 * @returns {import("../src/engine/results.js").Matches} */
const matches = (ranked) => ({ chunks: Int32Array.from(ranked), best: ranked[0] ?? -1, next: ranked[1] ?? -1 });
for (const c of fusion.fuse) {
  test(`fuse: ${c.name}`, () => {
    const covered = { held: c.coverage[0], words: c.coverage[1], matched: c.coverage[2], slip: c.coverage[3] };
    const fused = fuse(matches(c.keyword), c.scores, matches(c.vector), c.cosines, covered, new Set(c.cover), c.settings, new Set(c.defined ?? []));
    // The spec's order: the keyword ranking's chunks, then the vector ranking's others.
    const chunks = [...new Set([...c.keyword, ...c.vector])];
    assert.deepEqual(chunks.map((chunk) => [chunk, fused.scores[chunk]]), c.expected);
    fused.scores.forEach((score, chunk) => { // direct: the chunks fused; 0 elsewhere
      assert.equal(fused.direct[chunk], chunks.includes(chunk) ? 1 : 0);
      if (!chunks.includes(chunk)) assert.equal(score, 0);
    });
  });
}
for (const c of fusion.coverage) {
  test(`coverage of ${JSON.stringify(c.tokens)} (stop ${JSON.stringify(c.stop)}) by ${JSON.stringify(c.keyword)}`, () => {
    const covered = coverage(smallBundle(c), c.tokens, new Set(c.stop), matches(c.keyword), c.matched);
    assert.deepEqual([covered.held, covered.words, covered.matched], c.expected);
  });
}
for (const c of fusion.typo_slip) {
  test(`typo slip in ${JSON.stringify(c.tokens)} (stop ${JSON.stringify(c.stop)})`, () => {
    assert.equal(typoSlip(c.tokens, new Set(c.stop), c.distances), c.expected);
  });
}
for (const c of fusion.word_matches) {
  test(`word matches of ${JSON.stringify(c.tokens)} (typed ${JSON.stringify(c.typed)})`, () => {
    assert.deepEqual(wordMatches(smallBundle(c), c.tokens, c.matched, new Set(c.typed)), c.expected);
  });
}
for (const c of fusion.defining_chunks) {
  test(`defining chunks of ${JSON.stringify(c.query)}`, () => {
    const found = definingChunks(smallBundle(c), c.tokens, new Set(c.cover), new Set(c.typed));
    assert.deepEqual([...found].sort((a, b) => a - b), c.expected);
  });
}
for (const c of fusion.path_roots) {
  test(`path roots of ${JSON.stringify(c.text)}`, () => {
    const bundle = /** @type {any} */ ({ chunks: c.chunks, pages: c.pages });
    const found = new Set(c.chunks.kind.map((/** @type {string} */ _, /** @type {number} */ i) => i));
    assert.deepEqual([...pathRoots(bundle, c.text, found)].sort((a, b) => a - b), c.expected);
  });
}

const filters = load("filters.json");
for (const c of filters.parse_query) {
  test(`parse query ${JSON.stringify(c.query)}`, () => {
    const { text, filters: parsed } = parseQuery(c.query);
    assert.deepEqual({ text, filters: Object.fromEntries(parsed) }, c.expected);
  });
}
for (const c of filters.facet_key) {
  test(`facet key of ${JSON.stringify(c.value)}`, () => assert.equal(facetKey(c.value), c.expected));
}
for (const c of filters.path_key) {
  test(`path key of ${JSON.stringify(c.path)}`, () => assert.equal(pathKey(c.path), c.expected));
}
for (const c of filters.parse_filter) {
  test(`parse filter ${JSON.stringify(c.argument)}`, () => {
    if (c.error) assert.throws(() => parseFilter(c.argument));
    else assert.deepEqual(parseFilter(c.argument), c.expected);
  });
}
for (const c of filters.allowed_chunks) {
  test(`allowed chunks of ${JSON.stringify(c.query)}${c.pages.tags ? "" : " (format 1)"}`, () => {
    const bundle = /** @type {any} */ ({ pages: c.pages, chunks: c.chunks, settings: c.settings, nChunks: c.chunks.id.length });
    const allowed = allowedChunks(bundle, parseQuery(c.query).filters);
    assert.deepEqual([...allowed.keys()].filter((i) => allowed[i]), c.expected);
  });
}

const results = load("results.json");
for (const c of results.rank_chunks) {
  test(`rank chunks ${JSON.stringify(c.scores)}`, () => {
    assert.deepEqual(rankChunks(Float64Array.from(c.scores)), c.expected);
  });
}
for (const c of results.page_score) {
  test(`page score: ${c.name}`, () => {
    assert.equal(pageScore(c.members, Float64Array.from(c.scores), c.settings), c.expected);
  });
}
for (const c of results.group_by_page) {
  test(`group by page: ${c.name}`, () => {
    // Every display column loaded: one fragment (bundle/read.js loadDisplay)
    const bundle = /** @type {any} */ ({ settings: c.settings, chunks: c.chunks, pages: c.pages, texts: c.texts,
                                        textStarts: [0], displayStarts: [0], displayLoaded: Uint8Array.of(1) });
    const details = new Map(Object.entries(c.details).map(([chunk, info]) => [Number(chunk), info]));
    const marks = highlight(c.query, new Map(Object.entries(c.matched)), STOP_WORDS);
    const got = groupByPage(bundle, c.ranked, Float64Array.from(c.scores), marks, c.limit, details, { explain: c.explain });
    assert.deepEqual(got, c.expected);
  });
}

const expansion = load("expand.json");
for (const c of expansion.expand) {
  test(`expand: ${c.name}`, () => {
    const n = c.chunks.page.length;
    // The graph as bundle/read.js holds it: each chunk's edges, in edge order.
    const edges = Array.from({ length: n }, (_, node) => {
      const row = c.edges.filter((/** @type {number[]} */ [from]) => from === node);
      return { targets: row.map((/** @type {number[]} */ e) => e[1]), types: row.map((/** @type {number[]} */ e) => e[2]) };
    });
    const fused = { scores: new Float64Array(n), direct: new Uint8Array(n) };
    for (const [chunk, score] of c.scores) {
      fused.scores[chunk] = score;
      fused.direct[chunk] = 1;
    }
    const graph = { edge_types: c.edge_types, edges };
    const origins = expand(fused, c.ranked, graph, c.settings, c.min_score, null, new Set(), languagesOf(c.pages, c.chunks));
    const scores = [...fused.scores].flatMap((score, chunk) => (score ? [[chunk, score]] : []));
    const from = [...origins].sort(([a], [b]) => a - b).map(([chunk, o]) => [chunk, o.seed, o.edge, o.depth]);
    assert.deepEqual({ scores, origins: from }, c.expected);
  });
}
