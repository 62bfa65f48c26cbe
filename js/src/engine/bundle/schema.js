// @ts-check
/**
 * Shape checks of a bundle's JSON (spec: mkdocs_graphsearch/bundle/schema.py: same checks, order
 * and messages). A JSON number with an integral value is a whole number however it is spelled
 * (`3.0`): JSON.parse cannot tell.
 */

import {
  BundleError,
  COMPACT_DISPLAY_FORMAT,
  DERIVED_FORMAT,
  GROUPED_DISPLAY_FORMAT,
  INLINE_PARTS,
  INNER_TEXT_FORMAT,
  MAX_CRC32,
  MODES,
  compareCodePoints,
  displayCount,
  displayFragment,
  fileKey,
  graphCount,
  graphShard,
  graphStarts,
  postingsShard,
  textFragment,
} from "./format.js";

/** @typedef {import("./read.js").Bundle} Bundle */

const MAX_WHOLE = Number.MAX_SAFE_INTEGER;
/** The parts every bundle has, then the semantic part's (present with `vectors`). */
const KEYWORD_PARTS = ["keyword.json", "graph.json", "terms.json"];
const SEMANTIC_PARTS = ["vectors.bin", "encoder.json"]; // vectors.bin: or vectorParts; then checkEncoderParts'

/** The vector files of a semantic bundle: vectors.bin, or centroids.bin then each cell's (two
 * levels) then each group's (vector-shards.js; a bad `clusters`, `groups` or `cells` gives no
 * such files: its check then names it).
 * @param {any} manifest @returns {string[]} */
function vectorParts(manifest) {
  const clusters = isObject(manifest.vectors) ? own(manifest.vectors, "clusters") ?? null : null;
  if (clusters === null) return ["vectors.bin"];
  const sizes = isObject(clusters) ? own(clusters, "sizes") : undefined;
  const groups = isObject(clusters) && Object.hasOwn(clusters, "groups") ? own(clusters, "groups") : sizes;
  const count = Array.isArray(groups) && Array.isArray(sizes) ? groups.length : 0;
  const cells = isObject(clusters) ? own(clusters, "cells") : undefined;
  const cellCount = Array.isArray(cells) ? cells.length : 0;
  return ["centroids.bin", ...Array.from({ length: cellCount }, (_, i) => `centroids.${i}.bin`),
          ...Array.from({ length: count }, (_, i) => `vectors.${i}.bin`)];
}

/** vectors.clusters (vector-shards.js): each cluster's size, the probe rule, the code widths, the group files'
 * first clusters, two levels' cells
 * (spec: schema.py). @param {any} vectors @param {number} nChunks */
function checkClusters(vectors, nChunks) {
  const m = "manifest.json";
  const clusters = object(m, vectors.clusters, "vectors.clusters");
  const sizes = wholes(m, own(clusters, "sizes"), "vectors.clusters.sizes", null, 1, Math.max(nChunks, 1));
  if (!sizes.length) fail(m, "vectors.clusters.sizes", "must list at least one cluster");
  if (sizes.reduce((a, b) => a + b, 0) !== nChunks) fail(m, "vectors.clusters.sizes", "must add up to counts.chunks");
  whole(m, own(clusters, "probe"), "vectors.clusters.probe", 1, sizes.length);
  whole(m, own(clusters, "probe_chunks"), "vectors.clusters.probe_chunks", 0, nChunks);
  for (const key of ["bits", "centroid_bits"]) whole(m, own(clusters, key), `vectors.clusters.${key}`, 2, 8);
  if (Object.hasOwn(clusters, "groups")) { // each group file's first cluster: 0 first, rising (format 3: none)
    const groups = list(m, clusters.groups, "vectors.clusters.groups");
    if (!groups.length) fail(m, "vectors.clusters.groups", "must list at least one group");
    let previous = -1;
    groups.forEach((start, i) => {
      previous = whole(m, start, `vectors.clusters.groups[${i}]`, previous + 1, i ? sizes.length - 1 : 0);
    });
  }
  if (Object.hasOwn(clusters, "hood_chunks")) { // hoods (format 6): each cluster's file holds its hood, no groups or cells
    const where = "vectors.clusters.hood_chunks";
    whole(m, clusters.hood_chunks, where, 1, Math.max(nChunks, 1));
    if (Object.hasOwn(clusters, "groups") || Object.hasOwn(clusters, "cells")) fail(m, where, "must not come with groups or cells");
  }
  if (Object.hasOwn(clusters, "cells")) { // two levels: clusters per cell, then the chunks the cells taken cover
    const cells = wholes(m, clusters.cells, "vectors.clusters.cells", null, 1, sizes.length);
    if (!cells.length) fail(m, "vectors.clusters.cells", "must list at least one cell");
    if (cells.reduce((a, b) => a + b, 0) !== sizes.length) fail(m, "vectors.clusters.cells", "must add up to the clusters");
    whole(m, own(clusters, "cell_chunks"), "vectors.clusters.cell_chunks", 0, nChunks);
  }
}

/** Search settings: whole numbers with their least value, finite numbers, then the optional ones. */
const SETTING_WHOLE = {
  default_limit: 0, fuzzy_long_length: 0, fuzzy_min_length: 0, graph_depth: 0, max_expansions: 0,
  page_top_n: 1, rrf_k: 0, sections_per_page: 0, seeds: 0, snippet_source_chars: 0, snippet_words: 1,
};
const SETTING_NUMBER = [
  "keyword_weight", "min_score", "page_max_weight", "page_top_weight", "prefix_weight",
  "vector_only_threshold", "vector_threshold", "vector_weight",
];
const OPTIONAL_WHOLE = { max_query_chars: 0 };
const OPTIONAL_NUMBER = [
  "stem_weight", "stop_word_weight", "fusion_coverage_base", "fusion_coverage_span", "fusion_gap_span",
];

/** @param {string} file @param {string} where @param {string} problem @returns {never} */
export function fail(file, where, problem) {
  throw new BundleError(`${file}: ${where} ${problem}`);
}

/** @param {unknown} value @returns {value is Record<string, any>} */
export function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** @param {any} parent @param {string} key */
export const own = (parent, key) => (Object.hasOwn(parent, key) ? parent[key] : undefined);

/** @param {string} file @param {unknown} value @param {string} where @returns {Record<string, any>} */
export function object(file, value, where) {
  if (!isObject(value)) fail(file, where, "must be an object");
  return value;
}

/** @param {string} file @param {unknown} value @param {string} where @returns {number} */
function whole(file, value, where, low = 0, high = MAX_WHOLE) {
  if (typeof value !== "number" || !Number.isInteger(value) || value < low || value > high) {
    fail(file, where, `must be a whole number from ${low} to ${high}`);
  }
  return value;
}

/** @param {string} file @param {unknown} value @param {string} where @returns {number} */
function number(file, value, where) {
  if (typeof value !== "number" || !Number.isFinite(value)) fail(file, where, "must be a finite number");
  return value;
}

/** @param {string} file @param {unknown} value @param {string} where @returns {string} */
function string(file, value, where) {
  if (typeof value !== "string") fail(file, where, "must be a string");
  return value;
}

/** @param {string} file @param {unknown} value @param {string} where @param {number | null} [length]
 * @returns {any[]} */
export function list(file, value, where, length = null) {
  if (!Array.isArray(value)) fail(file, where, "must be a list");
  if (length !== null && value.length !== length) fail(file, where, `has ${value.length} items, not ${length}`);
  return value;
}

/** @param {string} file @param {unknown} value @param {string} where @param {number | null} [length]
 * @returns {string[]} */
export function strings(file, value, where, length = null) {
  const items = list(file, value, where, length);
  items.forEach((item, i) => string(file, item, `${where}[${i}]`));
  return items;
}

/** @param {string} file @param {unknown} value @param {string} where @param {number} length */
function listsOfStrings(file, value, where, length) {
  list(file, value, where, length).forEach((item, i) => strings(file, item, `${where}[${i}]`));
}

/** @param {string} file @param {unknown} value @param {string} where @param {number | null} length
 * @param {number} low @param {number} high @returns {number[]} */
export function wholes(file, value, where, length, low, high) {
  const items = list(file, value, where, length);
  items.forEach((item, i) => whole(file, item, `${where}[${i}]`, low, high));
  return items;
}

/** A list of fragments' first chunks: 0 first, then rising, each a chunk (spec: bundle/schema.py _check_starts).
 * @param {Record<string, any>} manifest @param {string} key @param {number} nChunks @returns {number[]} */
function checkStarts(manifest, key, nChunks) {
  const m = "manifest.json";
  const starts = list(m, own(manifest, key), key);
  if (!starts.length) fail(m, key, "must list at least one fragment");
  let previous = -1;
  starts.forEach((start, i) => { previous = whole(m, start, `${key}[${i}]`, previous + 1, i ? nChunks - 1 : 0); });
  return starts;
}

/** Each display fragment's first chunk: the manifest's `display_starts`, or a format-4 bundle's
 * `text_starts` (spec: bundle/display.py display_starts).
 * @param {Record<string, any>} manifest @returns {number[]} */
export function displayStarts(manifest) {
  return Object.hasOwn(manifest, "display_starts") ? manifest.display_starts : manifest.text_starts;
}

/** Everything either engine reads from manifest.json (after its format and checksum).
 * @param {Record<string, any>} manifest */
export function checkManifest(manifest) {
  const m = "manifest.json";
  const counts = object(m, own(manifest, "counts"), "counts");
  for (const key of ["chunks", "pages", "postings", "terms"]) whole(m, own(counts, key), `counts.${key}`);
  if (number(m, own(manifest, "impact_scale"), "impact_scale") <= 0) fail(m, "impact_scale", "must be above 0");
  const starts = checkStarts(manifest, "text_starts", counts.chunks);
  if (Object.hasOwn(manifest, "display_count")) { // format 10 grouped (keyword.json's pages.display)
    if (manifest.format < GROUPED_DISPLAY_FORMAT || Object.hasOwn(manifest, "display_starts")) {
      fail(m, "display_count", "needs format 10 and no display_starts");
    }
    whole(m, manifest.display_count, "display_count", 1);
  } else if (Object.hasOwn(manifest, "display_starts")) { // format 5 (else the text fragments' ranges: displayStarts)
    checkStarts(manifest, "display_starts", counts.chunks);
  }
  // format 6 (else the text fragments' ranges: graphStarts)
  if (Object.hasOwn(manifest, "graph_starts")) checkStarts(manifest, "graph_starts", counts.chunks);
  const shards = checkTermShards(manifest, counts);
  const files = object(m, own(manifest, "files"), "files");
  const semantic = Object.hasOwn(manifest, "vectors");
  const fragments = starts.map((_, i) => textFragment(i));
  const semanticParts = semantic ? [...vectorParts(manifest), ...SEMANTIC_PARTS.slice(1), ...checkEncoderParts(manifest)] : [];
  const displays = Array.from({ length: displayCount(manifest, displayStarts(manifest)) }, (_, i) => displayFragment(i));
  const graphs = Array.from({ length: graphCount(manifest) }, (_, i) => graphShard(i));
  checkFiles(files, [...KEYWORD_PARTS, ...shards, ...fragments, ...displays, ...graphs, ...semanticParts]);
  checkSettings(object(m, own(manifest, "search"), "search"));
  if (semantic) {
    const vectors = object(m, manifest.vectors, "vectors");
    whole(m, own(vectors, "dim"), "vectors.dim", 1);
    if (Object.hasOwn(vectors, "query_levels")) whole(m, vectors.query_levels, "vectors.query_levels", 1);
    // vectors.bin's code width (format 5; absent: int8)
    if (Object.hasOwn(vectors, "bits")) whole(m, vectors.bits, "vectors.bits", 2, 8);
    if (Object.hasOwn(vectors, "clusters")) checkClusters(vectors, counts.chunks);
    const encoder = object(m, own(manifest, "encoder"), "encoder");
    if (Object.hasOwn(encoder, "max_query_pieces")) whole(m, encoder.max_query_pieces, "encoder.max_query_pieces");
    // optional (index/semantic.py stop_pieces)
    if (Object.hasOwn(encoder, "stop_pieces")) wholes(m, encoder.stop_pieces, "encoder.stop_pieces", null, 0, MAX_WHOLE);
  }
  if (Object.hasOwn(manifest, "facets")) { // optional (index/facets.py): the UI's filter chips
    for (const [facet, entries] of Object.entries(object(m, manifest.facets, "facets"))) {
      list(m, entries, `facets.${facet}`).forEach((entry, i) => {
        const where = `facets.${facet}[${i}]`;
        object(m, entry, where);
        for (const key of ["value", "label"]) string(m, own(entry, key), `${where}.${key}`);
        whole(m, own(entry, "count"), `${where}.count`);
      });
    }
  }
  if (Object.hasOwn(manifest, "top")) { // optional (bundle/related.py): the start list of an empty box
    list(m, manifest.top, "top").forEach((entry, i) => {
      object(m, entry, `top[${i}]`);
      for (const key of ["path", "title", "url"]) string(m, own(entry, key), `top[${i}].${key}`);
    });
  }
  if (Object.hasOwn(manifest, "inline")) { // format 9 (format.js INLINE_PARTS)
    for (const [part, text] of Object.entries(object(m, manifest.inline, "inline"))) {
      if (!INLINE_PARTS.includes(part)) fail(m, `inline.${part}`, "is no part a manifest holds");
      string(m, text, `inline.${part}`);
    }
  }
  return manifest;
}

/** `files` (bundle/format.py compact_files): each kind's CRC-32s, in the order of their first
 * part: a whole number for a single part, a list of one per part for numbered parts (spec:
 * bundle/schema.py _check_files). @param {Record<string, any>} files @param {string[]} parts */
function checkFiles(files, parts) {
  const m = "manifest.json";
  /** @type {Map<string, number | null>} key -> how many parts it lists (null: a single part) */
  const numbered = new Map();
  for (const part of parts) {
    const [key, index] = fileKey(part);
    numbered.set(key, index === null ? null : (numbered.get(key) ?? 0) + 1);
  }
  for (const [key, count] of numbered) {
    const value = own(files, key);
    if (value === undefined || value === null) fail(m, `files.${key}`, "is missing");
    if (count === null) whole(m, value, `files.${key}`, 0, MAX_CRC32);
    else wholes(m, value, `files.${key}`, count, 0, MAX_CRC32);
  }
}

/** `term_shards`: parallel lists, shard 0 first at "" / 0 / 0, then starts and postings rising;
 * the shards' logical names (spec: bundle/schema.py _check_term_shards).
 * @param {Record<string, any>} manifest @param {Record<string, any>} counts @returns {string[]} */
function checkTermShards(manifest, counts) {
  const m = "manifest.json";
  const shards = object(m, own(manifest, "term_shards"), "term_shards");
  const first = strings(m, own(shards, "first"), "term_shards.first");
  if (!first.length || first[0] !== "") fail(m, "term_shards.first", 'must start with ""');
  const start = list(m, own(shards, "start"), "term_shards.start", first.length);
  const posted = list(m, own(shards, "postings"), "term_shards.postings", first.length);
  first.forEach((_, i) => {
    whole(m, start[i], `term_shards.start[${i}]`, i ? start[i - 1] + 1 : 0, i ? counts.terms - 1 : 0);
    whole(m, posted[i], `term_shards.postings[${i}]`, i ? posted[i - 1] : 0, i ? counts.postings : 0);
  });
  return first.map((_, i) => postingsShard(i));
}

/** @param {Record<string, any>} search */
function checkSettings(search) {
  const m = "manifest.json";
  for (const [key, low] of Object.entries(SETTING_WHOLE)) whole(m, own(search, key), `search.${key}`, low);
  for (const key of SETTING_NUMBER) number(m, own(search, key), `search.${key}`);
  for (const [key, low] of Object.entries(OPTIONAL_WHOLE)) {
    if (Object.hasOwn(search, key)) whole(m, search[key], `search.${key}`, low);
  }
  for (const key of OPTIONAL_NUMBER) if (Object.hasOwn(search, key)) number(m, search[key], `search.${key}`);
  if (!MODES.includes(own(search, "default_mode"))) {
    fail(m, "search.default_mode", `must be one of ${MODES.join(", ")}`);
  }
  const weights = list(m, own(search, "fuzzy_weights"), "search.fuzzy_weights", 2);
  weights.forEach((weight, i) => number(m, weight, `search.fuzzy_weights[${i}]`));
  const decay = object(m, own(search, "graph_decay"), "search.graph_decay");
  for (const [edge, value] of Object.entries(decay)) number(m, value, `search.graph_decay.${edge}`);
  if (Object.hasOwn(search, "query_stop_words")) {
    strings(m, search.query_stop_words, "search.query_stop_words");
    if (!Object.hasOwn(search, "stop_word_weight")) {
      fail(m, "search.stop_word_weight", "is missing (there are query_stop_words)");
    }
  }
  if (Object.hasOwn(search, "language_aliases")) { // absent: none (filters.js LANGUAGE_ALIASES_IF_ABSENT)
    const aliases = object(m, search.language_aliases, "search.language_aliases");
    for (const [key, language] of Object.entries(aliases)) string(m, language, `search.language_aliases.${key}`);
  }
}

/** keyword.json: the pages and chunks columns, consistent with the counts.
 * @param {unknown} data @param {any} manifest @returns {any} */
export function checkKeyword(data, manifest) {
  const k = "keyword.json";
  const { pages: nPages, chunks: nChunks } = manifest.counts;
  const keyword = object(k, data, "the file");
  const pages = object(k, own(keyword, "pages"), "pages");
  strings(k, own(pages, "path"), "pages.path", nPages);
  if (Object.hasOwn(pages, "tags")) listsOfStrings(k, pages.tags, "pages.tags", nPages); // optional: front matter tags
  if (Object.hasOwn(pages, "language")) strings(k, pages.language, "pages.language", nPages); // optional: expand.js
  const grouped = Object.hasOwn(manifest, "display_count");
  if (grouped !== Object.hasOwn(pages, "display")) { // format 10 grouped: each page's display fragment
    fail(k, "pages.display", "must be there exactly when manifest.json has display_count");
  }
  if (grouped) wholes(k, pages.display, "pages.display", nPages, 0, manifest.display_count - 1);
  const chunks = object(k, own(keyword, "chunks"), "chunks");
  for (const key of ["kind", "language"]) strings(k, own(chunks, key), `chunks.${key}`, nChunks);
  const chunkPages = list(k, own(chunks, "page"), "chunks.page", nChunks);
  let previous = 0; // never decreasing, so a page's chunks are together (bundle/display.py)
  chunkPages.forEach((page, i) => { previous = whole(k, page, `chunks.page[${i}]`, previous, nPages - 1); });
  const starting = manifest.format < INNER_TEXT_FORMAT ? [["text", manifest.text_starts]] : [];
  for (const [kind, starts] of [...starting, ["display", grouped ? [] : displayStarts(manifest)]]) {
    starts.forEach((/** @type {number} */ start, /** @type {number} */ i) => { // a fragment starts a page
      if (i && chunkPages[start] === chunkPages[start - 1]) {
        fail(k, `chunks.page[${start}]`, `must start a page (${kind} fragment ${i} starts there)`);
      }
    });
  }
  return keyword;
}

/** graph.json: CSR edges between existing chunks, each edge type with its decay.
 * @param {unknown} data @param {any} manifest @returns {any} */
export function checkGraph(data, manifest) {
  const g = "graph.json";
  const graph = object(g, data, "the file");
  const edgeTypes = strings(g, own(graph, "edge_types"), "edge_types");
  edgeTypes.forEach((edge, i) => {
    if (!Object.hasOwn(manifest.search.graph_decay, edge)) {
      fail(g, `edge_types[${i}]`, `(${edge}) has no decay in manifest.json's search.graph_decay`);
    }
  });
  return graph;
}

/** graph.<index>.json: CSR edges from its chunks (`chunks`: a grouped shard's, else its range's)
 * to existing chunks (spec: bundle/schema.py check_graph_shard). @param {unknown} data
 * @param {any} manifest @param {number} nTypes @param {number} index
 * @param {number[] | null} [chunks] @returns {any} */
export function checkGraphShard(data, manifest, nTypes, index, chunks = null) {
  const g = graphShard(index);
  const nChunks = manifest.counts.chunks;
  const [start, end] = chunks ? [0, chunks.length] : textRange(manifest, index, graphStarts(manifest));
  const chunkAt = (/** @type {number} */ i) => (chunks ? chunks[i] : start + i);
  let shard = object(g, data, "the file");
  if (manifest.format >= DERIVED_FORMAT) { // degrees and relative targets: back to CSR
    const degrees = wholes(g, own(shard, "degrees"), "degrees", end - start, 0, MAX_WHOLE);
    const relative = list(g, own(shard, "targets"), "targets");
    if (degrees.reduce((sum, degree) => sum + degree, 0) !== relative.length) {
      fail(g, "degrees", `must add up to the number of targets (${relative.length})`);
    }
    const offsets = [0];
    /** @type {number[]} */
    const targets = [];
    degrees.forEach((degree, i) => {
      const chunk = chunkAt(i), first = offsets[offsets.length - 1];
      for (let e = first; e < first + degree; e++) targets.push(whole(g, relative[e], `targets[${e}]`, -chunk, nChunks - 1 - chunk) + chunk);
      offsets.push(first + degree);
    });
    shard = { offsets, targets, types: own(shard, "types") };
  }
  const offsets = list(g, own(shard, "offsets"), "offsets", end - start + 1);
  const targets = list(g, own(shard, "targets"), "targets");
  let previous = 0; // offsets[0] is 0, then they never decrease
  offsets.forEach((offset, i) => {
    previous = whole(g, offset, `offsets[${i}]`, previous, i ? targets.length : 0);
  });
  if (previous !== targets.length) fail(g, "offsets", `must end at the number of targets (${targets.length})`);
  wholes(g, targets, "targets", null, 0, nChunks - 1);
  wholes(g, own(shard, "types"), "types", targets.length, 0, nTypes - 1);
  return shard;
}

/** The `stems` (stem -> term numbers) or `defines` (name -> chunk numbers) of term shard
 * `index`, each key in the shard's term range: the shard a query looks it up in (spec:
 * bundle/schema.py check_shard_keys).
 * @param {unknown} data @param {any} manifest @param {number} index @param {"stems" | "defines"} field
 * @returns {Record<string, number[]>} */
export function checkShardKeys(data, manifest, index, field) {
  const name = postingsShard(index);
  const found = object(name, data, field);
  const first = manifest.term_shards.first;
  const low = first[index], high = index + 1 < first.length ? first[index + 1] : null;
  const top = manifest.counts[field === "stems" ? "terms" : "chunks"] - 1;
  for (const [key, numbers] of Object.entries(found)) {
    wholes(name, numbers, `${field}.${key}`, null, 0, top);
    if (compareCodePoints(key, low) < 0 || (high !== null && compareCodePoints(key, high) >= 0)) {
      fail(name, `${field}.${key}`, "is outside the shard's term range");
    }
  }
  if (field === "stems" && Object.keys(found).length && !Object.hasOwn(manifest.search, "stem_weight")) {
    fail("manifest.json", "search.stem_weight", `is missing (${name} has stems)`);
  }
  return found;
}

/** The terms a shard holds (spec: bundle/schema.py shard_range).
 * @param {any} manifest @param {number} index @returns {[number, number]} start, end (exclusive) */
export function shardRange(manifest, index) {
  const starts = manifest.term_shards.start;
  return [starts[index], index + 1 < starts.length ? starts[index + 1] : manifest.counts.terms];
}

/** The chunks whose texts a fragment holds (of `starts`: displayStarts for a display fragment;
 * spec: bundle/schema.py text_range).
 * @param {any} manifest @param {number} index @param {number[]} [starts]
 * @returns {[number, number]} start, end (exclusive) */
export function textRange(manifest, index, starts = manifest.text_starts) {
  return [starts[index], index + 1 < starts.length ? starts[index + 1] : manifest.counts.chunks];
}

/** The pages whose display columns fragment `index` holds (spec: bundle/display.py page_range).
 * @param {Bundle} bundle @param {number} index @returns {[number, number]} start, end (exclusive) */
export function pageRange(bundle, index) {
  const starts = bundle.displayStarts, pages = bundle.chunks.page;
  return [index ? pages[starts[index]] : 0,
    index + 1 < starts.length ? pages[starts[index + 1]] : bundle.manifest.counts.pages];
}

/** The display fragment's columns, checked (spec: bundle/schema.py check_display; format 6:
 * compact, a null title its parent's, earlier in the fragment; ids where not derived; format 10
 * grouped: those of its `runs`, display-groups.js).
 * @param {unknown} data @param {Bundle} bundle @param {number} index
 * @param {import("./display-groups.js").Run[]} runs @returns {any} */
export function checkDisplay(data, bundle, index, runs) {
  const name = displayFragment(index);
  // only sizes count below (the title check before format 8 is for one run)
  const start = runs[0]?.[0] ?? 0, end = start + runs.reduce((n, run) => n + run[1] - run[0], 0);
  const first = 0, last = runs.reduce((n, run) => n + run[3] - run[2], 0);
  const fragment = object(name, data, "the file");
  const pages = object(name, own(fragment, "pages"), "pages");
  const derived = bundle.manifest.format >= DERIVED_FORMAT;
  for (const key of ["url", "title"]) {
    list(name, own(pages, key), `pages.${key}`, last - first).forEach((item, i) => {
      if (item !== null || !derived) string(name, item, `pages.${key}[${i}]`);
    });
  }
  const chunks = object(name, own(fragment, "chunks"), "chunks");
  const compact = bundle.manifest.format >= COMPACT_DISPLAY_FORMAT;
  for (const key of compact ? ["anchor", "title"] : ["id", "anchor", "title"]) {
    list(name, own(chunks, key), `chunks.${key}`, end - start).forEach((item, i) => {
      if (item !== null || !compact) string(name, item, `chunks.${key}[${i}]`);
    });
  }
  wholes(name, own(chunks, "level"), "chunks.level", end - start, 0, MAX_WHOLE);
  const key = derived ? "chunks.parents" : "chunks.parent";
  const stored = derived ? numbered(name, own(chunks, "parents"), key, end - start)
    : Object.fromEntries(list(name, own(chunks, "parent"), key, end - start).entries());
  for (const [i, parent] of Object.entries(stored)) { // -1: a page's top chunk
    if (parent !== -1) whole(name, parent, `${key}[${i}]`, 0, bundle.nChunks - 1);
  }
  if (compact) {
    if (!derived) { // a format-8 fragment's parents are derived first: display.js checks
      chunks.title.forEach((/** @type {string | null} */ item, /** @type {number} */ i) => {
        if (item === null && !(start <= stored[i] && stored[i] < start + i)) {
          fail(name, `chunks.title[${i}]`, "is null but its parent is not before it in the fragment");
        }
      });
    }
    for (const [i, value] of Object.entries(numbered(name, own(chunks, "ids"), "chunks.ids", end - start))) {
      string(name, value, `chunks.ids[${i}]`);
    }
  }
  return fragment;
}

/** An object keyed by chunk numbers in a fragment of `n` chunks (decimal, from 0).
 * @param {string} name @param {unknown} value @param {string} what @param {number} n @returns {Record<string, any>} */
function numbered(name, value, what, n) {
  const items = object(name, value, what);
  for (const key of Object.keys(items)) {
    if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) >= n) fail(name, what, `has a key that is no chunk number from 0 to ${n - 1}`);
  }
  return items;
}

/** encoder.json: token ids and shapes; its pca_dim is the dimension of vectors.bin's rows.
 * @param {unknown} data @param {any} manifest */
export function checkEncoder(data, manifest) {
  const e = "encoder.json";
  const meta = object(e, data, "the file");
  const dim = manifest.vectors.dim;
  whole(e, own(meta, "pca_dim"), "pca_dim", dim, dim);
  whole(e, own(meta, "dim"), "dim", 1);
  whole(e, own(meta, "rows"), "rows");
  list(e, own(meta, "row_scales"), "row_scales", dim).forEach((scale, i) => number(e, scale, `row_scales[${i}]`));
  return meta;
}

/** The manifest's `encoder.shards` (encoder-shards.js): each encoder shard's first token, 0
 * first, then rising, `encoder.vocab` {shards, size, key_chars?, specials?} (vocab-shards.js) and the optional
 * `encoder.words` {shards} (word-rows.js); the names of the encoder shards, encoder-model.bin,
 * the vocab shards, then words.bin and the word shards.
 * @param {Record<string, any>} manifest @returns {string[]} */
function checkEncoderParts(manifest) {
  const m = "manifest.json";
  const encoder = object(m, own(manifest, "encoder"), "encoder");
  const firsts = list(m, own(encoder, "shards"), "encoder.shards");
  if (!firsts.length) fail(m, "encoder.shards", "must list at least one shard");
  firsts.forEach((first, i) => whole(m, first, `encoder.shards[${i}]`, i ? firsts[i - 1] + 1 : 0, i ? MAX_WHOLE : 0));
  const vocab = object(m, own(encoder, "vocab"), "encoder.vocab");
  for (const key of ["shards", "size"]) whole(m, own(vocab, key), `encoder.vocab.${key}`, 1);
  if (own(vocab, "key_chars") !== undefined) whole(m, vocab.key_chars, "encoder.vocab.key_chars", 1); // absent: 2 (vocab-shards.js KEY_CHARS_IF_ABSENT)
  if (own(vocab, "specials") !== undefined) { // absent: read from their shards (vocab-shards.js)
    const specials = object(m, vocab.specials, "encoder.vocab.specials");
    for (const token of Object.keys(specials)) whole(m, specials[token], `encoder.vocab.specials.${token}`, 0, vocab.size - 1);
  }
  /** @type {string[]} */
  let words = [];
  if (own(encoder, "words") !== undefined) { // format 6 (word-rows.js)
    const entry = object(m, encoder.words, "encoder.words");
    whole(m, own(entry, "shards"), "encoder.words.shards", 1);
    words = ["words.bin", ...Array.from({ length: entry.shards }, (_, i) => `words.${i}.bin`)];
  }
  return [
    ...firsts.map((_, i) => `encoder.${i}.bin`),
    "encoder-model.bin",
    ...Array.from({ length: vocab.shards }, (_, i) => `vocab.${i}.json`),
    ...words,
  ];
}
