// @ts-check
/**
 * Load and validate a search bundle (spec: mkdocs_graphsearch/bundle/read.py; the format:
 * format.js, the shape checks: schema.js).
 * Works in browsers, workers and node: the caller passes a function that fetches one file.
 * Files only: this module reads and checks the parts; worker.js composes them with the query
 * encoder (encoder.js) into a searchable bundle (loadBundle).
 *
 * Format 3 stores each part under a content-hashed file name that manifest.json gives
 * (`files[part].name`), the chunks' texts in fragments (`text.<i>.json`, the manifest's
 * `text_starts`) fetched only for the results shown (loadTexts), the terms and postings in
 * term shards (`postings.<i>.bin`, the manifest's `term_shards`) fetched for the query's terms
 * (loadShard); formats 1 and 2 are refused.
 *
 * Checks, in the order the Python engine makes them (bundle/read.py, bundle/schema.py), with
 * the same messages: the manifest's format, its own checksum (required), the shape of
 * every value either engine reads; each part's CRC-32, then its shape. Any fault is a
 * BundleError naming the file, never a TypeError at load or query time.
 */

import {
  BundleError,
  FORMAT_VERSION,
  MANIFEST,
  MIN_FORMAT_VERSION,
  crc32,
  decodeVarints,
  displayCount,
  displayFragment,
  fileName,
  graphShard,
  graphStarts,
  groupedGraph,
  inlinePart,
  lastAtOrBefore,
  partCrc,
  postingsShard,
  textFragment,
  verifyManifest,
} from "./format.js";
import {
  checkDisplay,
  checkGraph,
  checkGraphShard,
  checkKeyword,
  checkManifest,
  checkShardKeys,
  displayStarts,
  isObject,
  object,
  own,
  pageRange,
  shardRange,
  strings,
  textRange,
  wholes,
} from "./schema.js";
import { expandDisplay, expandPages } from "./display.js";
import { fragmentRuns, pageFirsts, runFragment } from "./display-groups.js";
import { fetchTried } from "./http.js";

/**
 * @typedef {(name: string, tried?: number) => Promise<ArrayBuffer | Uint8Array>} FetchFile
 *   (tried: tries of this file made elsewhere, the page's of the manifest: ui/client.js)
 *   fetches one file of the bundle folder by its file name (manifest.json, or a name the
 *   manifest gives)
 * @typedef {{
 *   manifest: any, settings: any, terms: (string | undefined)[], termIndex: Map<string, number>,
 *   stems: Map<string, number[]>, termLengths: Int32Array, termCounts: Float64Array,
 *   termShards: {first: string[], start: number[], postings: number[]}, shardLoaded: Uint8Array,
 *   dictionary: boolean, knownWords: Set<string>, pages: {path: string[], url: string[], title: string[], tags?: string[][],
 *          language?: string[]},
 *   chunks: {id: string[], page: number[], parent: number[], kind: string[], level: number[],
 *            anchor: string[], title: string[], language: string[]},
 *   defines: Map<string, number[]>,
 *   termStart: Float64Array, postChunk: Int32Array, postImpact: Float64Array,
 *   texts: (string | undefined)[], textStarts: number[], displayLoaded: Uint8Array, displayStarts: number[],
 *   pageDisplay: number[] | null, pageFirsts: Int32Array | null,
 *   graphStarts: number[],
 *   nChunks: number, impactScale: number,
 *   graph: {edge_types: string[], edges: ({targets: number[], types: number[]} | undefined)[]} | null,
 *   vectors: import("./vector-shards.js").Vectors | null,
 *   encoder: any
 * }} Bundle
 *   (`vectors` and `encoder` are set together by worker.js's semantic part, `graph` by its graph
 *   part (null until then: no expansion; `graph.edges` has a hole for each chunk whose graph
 *   shard is not loaded: loadGraphShard); `texts` has a hole
 *   for each chunk whose fragment is not loaded yet; `terms`, `termLengths`, `termCounts` hold
 *   the terms of the shards loaded (`shardLoaded`), all once the dictionary is (`dictionary`);
 *   termStart / postChunk / postImpact the postings of the shards loaded; the display columns
 *   (chunks' id, anchor, title, level, parent; pages' url, title) hold those of the display
 *   fragments loaded (`displayLoaded`: DISPLAY_LOADED or 0; `displayStarts`: each one's first chunk;
 *   grouped, format 10: `pageDisplay` each page's fragment, `pageFirsts` each page's first chunk))
 */

/** Strict UTF-8, as Python's orjson reads: a damaged byte is an error, never a U+FFFD. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** @param {string} name @param {Uint8Array} bytes */
export function parseJson(name, bytes) {
  try {
    return JSON.parse(UTF8.decode(bytes));
  } catch (error) {
    throw new BundleError(`${name} is not valid JSON: ${/** @type {Error} */ (error).message}`);
  }
}

/** The source text of the number under `key` in a JSON object's top level (the last one, as
 * JSON.parse keeps), or null. `text` is valid JSON.
 * @param {string} text @param {string} key @returns {string | null} */
function topLevelNumber(text, key) {
  const value = /\s*:\s*(-?\d[\d.eE+-]*)?/y;
  let depth = 0, found = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
      value.lastIndex = i + 1;
      const match = depth === 1 ? value.exec(text) : null;
      if (match && JSON.parse(text.slice(start, i + 1)) === key) found = match[1] ?? null;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return found;
}

/**
 * Like Promise.all, but a failure is the first in the given order, not the first in time: the
 * Python engine reads the same files one by one, so both report the same fault first.
 * @template {readonly unknown[] | []} T @param {T} promises
 * @returns {Promise<{ -readonly [P in keyof T]: Awaited<T[P]> }>}
 */
export async function inOrder(promises) {
  const settled = await Promise.allSettled(promises);
  for (const result of settled) if (result.status === "rejected") throw result.reason;
  return /** @type {any} */ (settled.map((result) => /** @type {PromiseFulfilledResult<unknown>} */ (result).value));
}

/** @param {ArrayBuffer | Uint8Array} data */
function asBytes(data) {
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

/**
 * Read the manifest and check its format version.
 * @param {FetchFile} fetchFile
 */
export async function loadManifest(fetchFile) {
  let bytes;
  try {
    bytes = asBytes(await fetchFile(MANIFEST));
  } catch (error) {
    throw new BundleError(`cannot read manifest.json: ${/** @type {Error} */ (error).message}`);
  }
  // The checksum first: damage is never mistaken for a newer format. A manifest without one is
  // refused below once its format is known: too old, or (a damaged key) corrupted.
  const checked = verifyManifest(bytes);
  const manifest = parseJson("manifest.json", bytes);
  const version = isObject(manifest) ? manifest.format : undefined;
  if (version === undefined || version === null) {
    throw new BundleError("manifest.json has no format version: not a graphsearch bundle");
  }
  // JSON.parse reads 1.0 and 1e0 as 1: the source text tells, as Python's float does.
  const literal = Number.isInteger(version) && topLevelNumber(UTF8.decode(bytes), "format");
  // orjson reads an integer outside -2^63..2^64-1 as a float: not an integer there either. The
  // messages show the literal: a number above 2^53 would print rounded.
  if (!literal || !/^-?\d+$/.test(literal) || BigInt(literal) > 2n ** 64n - 1n || BigInt(literal) < -(2n ** 63n)) {
    throw new BundleError("manifest.json format version is not an integer: not a graphsearch bundle");
  }
  const spelled = BigInt(literal).toString(); // as Python prints the int (-0 is 0)
  if (version > FORMAT_VERSION) {
    throw new BundleError(
      `manifest.json is bundle format ${spelled}, newer than this search runtime (format ${FORMAT_VERSION}): ` +
        "reload the page or rebuild the site with a matching plugin",
    );
  }
  if (version < MIN_FORMAT_VERSION) {
    throw new BundleError(
      `manifest.json is bundle format ${spelled}, no longer supported (this reader reads format ${MIN_FORMAT_VERSION}): ` +
        "rebuild the site",
    );
  }
  if (!checked) {
    throw new BundleError("manifest.json is corrupted (its checksum is not at its start)");
  }
  return checkManifest(manifest);
}

/**
 * Fetch one bundle part (by its logical name) and check it against the manifest's CRC-32 (which
 * a cut or damaged file fails).
 * @param {FetchFile} fetchFile @param {any} manifest @param {string} name
 */
export async function readFile(fetchFile, manifest, name) {
  const file = fileName(manifest, name);
  let bytes = inlinePart(manifest, name);
  if (bytes === null) {
    try {
      bytes = asBytes(await fetchFile(file));
    } catch (error) {
      throw new BundleError(`cannot read ${name}: ${/** @type {Error} */ (error).message}`);
    }
  }
  if (crc32(bytes) !== partCrc(manifest, name)) {
    throw new BundleError(`${name} is corrupted (CRC-32 differs from the manifest)`);
  }
  return bytes;
}

/** @param {string} text */
function codePointLength(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/**
 * Load what every query needs (keyword.json); the term shards come through loadShard (the
 * query's), the term dictionary through loadDictionary (typos), texts through loadTexts (the
 * results shown), the graph through loadGraph (only vector and hybrid answers expand).
 * @param {FetchFile} fetchFile
 * @returns {Promise<Bundle>}
 */
export async function loadKeywordBundle(fetchFile) {
  const manifest = await loadManifest(fetchFile);
  const keyword = checkKeyword(parseJson("keyword.json", await readFile(fetchFile, manifest, "keyword.json")), manifest);
  const { terms: nTerms, postings: nPostings, chunks: nChunks } = manifest.counts;
  const { display: pageDisplay = null, ...pageColumns } = keyword.pages; // display: grouped (display-groups.js)
  /** @type {Map<string, number[]>} stem -> terms that are prose words with it (from the loaded term shards) */
  const stems = new Map();
  return {
    manifest,
    settings: manifest.search,
    terms: new Array(nTerms),
    termIndex: new Map(),
    stems,
    /** name -> chunks that define it (from the loaded term shards: bundle/write.py defines_index) */
    defines: new Map(),
    termLengths: new Int32Array(nTerms),
    termCounts: new Float64Array(nTerms),
    termShards: manifest.term_shards,
    shardLoaded: new Uint8Array(manifest.term_shards.start.length),
    dictionary: false,
    knownWords: new Set(), // terms.json `words` (the known words never typo-matched), with the dictionary
    // Display columns (bundle/display.py) with a hole per chunk or page until its fragment is in.
    pages: { ...pageColumns, ...Object.fromEntries(DISPLAY_PAGES.map((key) => [key, new Array(manifest.counts.pages)])) },
    chunks: { ...keyword.chunks, ...Object.fromEntries(DISPLAY_CHUNKS.map((key) => [key, new Array(nChunks)])) },
    displayLoaded: new Uint8Array(displayCount(manifest, displayStarts(manifest))),
    displayStarts: displayStarts(manifest),
    pageDisplay,
    pageFirsts: pageDisplay ? pageFirsts(keyword.chunks.page, manifest.counts.pages) : null,
    termStart: new Float64Array(nTerms + 1),
    postChunk: new Int32Array(nPostings),
    postImpact: new Float64Array(nPostings),
    texts: new Array(nChunks),
    textStarts: manifest.text_starts,
    graphStarts: graphStarts(manifest),
    graph: null,
    vectors: null,
    encoder: null,
    nChunks,
    impactScale: manifest.impact_scale,
  };
}

/**
 * Add the chunk graph (graph.json) to a bundle: until it is in, vector and hybrid answers are
 * not expanded (engine.js).
 * @param {Bundle} bundle @param {FetchFile} fetchFile
 */
export async function loadGraph(bundle, fetchFile) {
  const bytes = await readFile(fetchFile, bundle.manifest, "graph.json");
  const { edge_types } = checkGraph(parseJson("graph.json", bytes), bundle.manifest);
  bundle.graph = { edge_types, edges: new Array(bundle.nChunks) };
}

/** No edges: the rows of a graph shard that failed to load (expand.js then goes on without them). */
const NO_EDGES = { targets: [], types: [] };

/**
 * Load graph shard `index` (the edges from the chunks of its range: graphStarts) into
 * `bundle.graph.edges`; when it fails, its chunks get no edges and the error is thrown.
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadGraphShard(bundle, fetchFile, index) {
  const graph = /** @type {NonNullable<Bundle["graph"]>} */ (bundle.graph);
  const grouped = groupedGraph(bundle.manifest);
  const [start, end] = grouped ? [0, 0] : textRange(bundle.manifest, index, bundle.graphStarts);
  const chunks = grouped ? displayRuns(bundle, index).flatMap(([from, to]) => Array.from({ length: to - from }, (_, i) => from + i))
    : Array.from({ length: end - start }, (_, i) => start + i);
  try {
    const name = graphShard(index);
    const shard = checkGraphShard(parseJson(name, await readFile(fetchFile, bundle.manifest, name)),
      bundle.manifest, graph.edge_types.length, index, grouped ? chunks : null);
    chunks.forEach((chunk, i) => {
      const [from, to] = [shard.offsets[i], shard.offsets[i + 1]];
      graph.edges[chunk] = { targets: shard.targets.slice(from, to), types: shard.types.slice(from, to) };
    });
  } catch (error) {
    for (const chunk of chunks) graph.edges[chunk] = NO_EDGES;
    throw error;
  }
  return bundle;
}

/**
 * Load term shard `index` into the bundle's terms and postings (spec: bundle/read.py read_shard:
 * same checks, order and messages).
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadShard(bundle, fetchFile, index) {
  const name = postingsShard(index);
  const manifest = bundle.manifest;
  const bytes = await readFile(fetchFile, manifest, name);
  const [start, end] = shardRange(manifest, index);
  const shards = manifest.term_shards;
  const firstPosting = shards.postings[index];
  const endPosting = index + 1 < shards.postings.length ? shards.postings[index + 1] : manifest.counts.postings;
  const nTerms = end - start, nPostings = endPosting - firstPosting;
  const cut = bytes.indexOf(0x0a);
  if (cut < 0) throw new BundleError(`${name} has no term list (corrupted)`);
  const terms = parseJson(name, bytes.subarray(0, cut));
  if (!Array.isArray(terms) || terms.length !== nTerms || !terms.every((term) => typeof term === "string")) {
    throw new BundleError(`${name}: its term list must be ${nTerms} strings`);
  }
  const stemsEnd = bytes.indexOf(0x0a, cut + 1);
  if (stemsEnd < 0) throw new BundleError(`${name} has no stem list (corrupted)`);
  const stems = checkShardKeys(parseJson(name, bytes.subarray(cut + 1, stemsEnd)), manifest, index, "stems");
  const definesEnd = bytes.indexOf(0x0a, stemsEnd + 1);
  if (definesEnd < 0) throw new BundleError(`${name} has no definition list (corrupted)`);
  const defines = checkShardKeys(parseJson(name, bytes.subarray(stemsEnd + 1, definesEnd)), manifest, index, "defines");
  let values;
  try {
    values = decodeVarints(bytes.subarray(definesEnd + 1));
  } catch (error) {
    throw new BundleError(`${name}: ${/** @type {Error} */ (error).message} (corrupted)`);
  }
  if (values.length !== nTerms + 2 * nPostings) {
    throw new BundleError(`${name} does not match the manifest's counts (corrupted)`);
  }
  let total = 0;
  for (let t = 0; t < nTerms; t++) total += values[t];
  if (total !== nPostings) throw new BundleError(`${name} posting counts do not add up (corrupted)`);
  const { termStart, postChunk, postImpact } = bundle;
  let p = firstPosting;
  for (let t = 0; t < nTerms; t++) {
    const term = start + t;
    termStart[term] = p;
    let chunk = 0;
    for (let k = 0; k < values[t]; k++, p++) {
      chunk += values[nTerms + p - firstPosting];
      if (chunk >= bundle.nChunks) throw new BundleError(`${name} points at chunks that do not exist (corrupted)`);
      postChunk[p] = chunk;
      postImpact[p] = values[nTerms + nPostings + p - firstPosting];
    }
  }
  // Written only now (a shard that fails a check adds nothing): terms, then the end of the last.
  terms.forEach((term, t) => setTerm(bundle, start + t, term, values[t]));
  for (const [stem, stemTerms] of Object.entries(stems)) bundle.stems.set(stem, stemTerms);
  for (const [key, chunks] of Object.entries(defines)) bundle.defines.set(key, chunks);
  termStart[end] = endPosting;
  bundle.shardLoaded[index] = 1;
  return bundle;
}

/** @param {Bundle} bundle @param {number} index @param {string} term @param {number} count */
function setTerm(bundle, index, term, count) {
  bundle.terms[index] = term;
  bundle.termIndex.set(term, index);
  bundle.termLengths[index] = codePointLength(term);
  bundle.termCounts[index] = count;
}

/**
 * Load terms.json, the term dictionary typo matching scans (spec: bundle/schema.py
 * check_dictionary, then bundle/read.py's check that it matches the shards: here, those loaded).
 * @param {Bundle} bundle @param {FetchFile} fetchFile
 */
export async function loadDictionary(bundle, fetchFile) {
  const t = "terms.json";
  const manifest = bundle.manifest;
  const { terms: nTerms, postings: nPostings } = manifest.counts;
  const dictionary = object(t, parseJson(t, await readFile(fetchFile, manifest, t)), "the file");
  const terms = strings(t, own(dictionary, "terms"), "terms", nTerms);
  const counts = wholes(t, own(dictionary, "postings"), "postings", nTerms, 0, nPostings);
  const words = own(dictionary, "words") === undefined ? [] : strings(t, own(dictionary, "words"), "words", null);
  bundle.shardLoaded.forEach((loaded, index) => {
    const [start, end] = shardRange(manifest, index);
    for (let i = start; loaded && i < end; i++) {
      if (terms[i] !== bundle.terms[i] || counts[i] !== bundle.termCounts[i]) {
        throw new BundleError(`${t} does not match the term shards (corrupted)`);
      }
    }
  });
  terms.forEach((term, i) => setTerm(bundle, i, term, counts[i]));
  bundle.knownWords = new Set(words);
  bundle.dictionary = true;
  return bundle;
}

/** The fragment holding a chunk's text (the last whose first chunk is at or before it).
 * @param {Bundle} bundle @param {number} chunk */
export function fragmentOf(bundle, chunk) {
  return lastAtOrBefore(bundle.textStarts, chunk);
}

/** The graph shard holding the edges from a chunk (format.js graphStarts).
 * @param {Bundle} bundle @param {number} chunk */
export function graphOf(bundle, chunk) {
  return groupedGraph(bundle.manifest) ? displayOf(bundle, chunk) : lastAtOrBefore(bundle.graphStarts, chunk);
}

/** The display fragment holding a chunk's (and its page's) display columns.
 * @param {Bundle} bundle @param {number} chunk */
export function displayOf(bundle, chunk) {
  return bundle.pageDisplay ? bundle.pageDisplay[bundle.chunks.page[chunk]] : lastAtOrBefore(bundle.displayStarts, chunk);
}

/** Display fragment `index`'s runs: a grouped fragment's (display-groups.js), else its one range.
 * @param {Bundle} bundle @param {number} index @returns {import("./display-groups.js").Run[]} */
export function displayRuns(bundle, index) {
  if (bundle.pageDisplay && bundle.pageFirsts) return fragmentRuns(bundle.pageFirsts, bundle.pageDisplay, index);
  const [start, end] = textRange(bundle.manifest, index, bundle.displayStarts);
  const [first, last] = pageRange(bundle, index);
  return [[start, end, first, last]];
}

/**
 * Load text fragment `index` into the bundle's texts.
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadTexts(bundle, fetchFile, index) {
  const name = textFragment(index);
  const [start, end] = textRange(bundle.manifest, index);
  const texts = strings(name, parseJson(name, await readFile(fetchFile, bundle.manifest, name)), "texts", end - start);
  texts.forEach((text, i) => { bundle.texts[start + i] = text; });
  return bundle;
}

/** Display columns: chunks' and pages' (bundle/display.py), filled in as fragments load. */
const DISPLAY_CHUNKS = ["anchor", "id", "level", "parent", "title"];
const DISPLAY_PAGES = ["title", "url"];

/**
 * Load display fragment `index` into the bundle's chunk and page columns (`displayLoaded`).
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadDisplay(bundle, fetchFile, index) {
  const name = displayFragment(index);
  const runs = displayRuns(bundle, index);
  const fragment = checkDisplay(parseJson(name, await readFile(fetchFile, bundle.manifest, name)), bundle, index, runs);
  const chunks = /** @type {any} */ (bundle.chunks), pages = /** @type {any} */ (bundle.pages);
  let at = 0, pageAt = 0;
  for (const run of runs) {
    const [start, end, first, last] = run;
    const part = bundle.pageDisplay ? runFragment(fragment, at, pageAt, run) : fragment;
    const columns = expandDisplay(part, bundle.chunks, bundle.pages.path, start, index);
    const pageColumns = /** @type {Record<string, string[]>} */ (
      expandPages(part, columns.title, bundle.chunks.page, bundle.pages.path, start, first, index));
    for (const key of DISPLAY_CHUNKS) columns[key].forEach((/** @type {any} */ value, /** @type {number} */ i) => { chunks[key][start + i] = value; });
    for (const key of DISPLAY_PAGES) pageColumns[key].forEach((/** @type {any} */ value, /** @type {number} */ i) => { pages[key][first + i] = value; });
    at += end - start;
    pageAt += last - first;
  }
  bundle.displayLoaded[index] = DISPLAY_LOADED;
  return bundle;
}

/** `displayLoaded` states: a fragment not loaded is 0. */
export const DISPLAY_LOADED = 1;

/**
 * A FetchFile for a bundle folder served over HTTP (browser or worker). manifest.json is
 * revalidated every time (`no-cache`): it names the parts of the current build, whose
 * content-hashed files the browser may cache as long as it likes. Each file is tried as
 * http.js fetchTried says (a stall, a network failure or a 5xx is tried once more), then fails
 * with a message the UI shows (the worker's error state): never a "Loading" that lasts forever.
 * @param {string} baseUrl URL of the bundle folder, ending with "/"
 * @param {number} [timeoutSeconds] how long a fetch may stall (http.js stallSeconds)
 * @returns {FetchFile}
 */
export function httpFetcher(baseUrl, timeoutSeconds) {
  return (name, tried = 0) => fetchTried(new URL(name, baseUrl), name, { revalidate: name === MANIFEST, timeoutSeconds }, tried);
}
