// @ts-check
/**
 * Load and validate a search bundle (format: mkdocs_graphsearch/bundle/format.py).
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
 * the same messages: the manifest's format, its own checksum (when it has one), the shape of
 * every value either engine reads; each part's CRC-32, then its shape. Any fault is a
 * BundleError naming the file, never a TypeError at load or query time.
 */

/** The format this runtime reads up to (and the oldest it still reads). */
export const FORMAT_VERSION = 3;
export const MIN_FORMAT_VERSION = 3;
export const MANIFEST = "manifest.json";
/** The search modes both engines know (spec: bundle/settings.py MODES). */
export const MODES = ["keyword", "vector", "hybrid"];
export class BundleError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "BundleError";
  }
}

/**
 * @typedef {(name: string) => Promise<ArrayBuffer | Uint8Array>} FetchFile
 *   fetches one file of the bundle folder by its file name (manifest.json, or a name the
 *   manifest gives)
 * @typedef {{
 *   manifest: any, settings: any, terms: (string | undefined)[], termIndex: Map<string, number>,
 *   stems: Map<string, number[]>, termLengths: Int32Array, termCounts: Float64Array,
 *   termShards: {first: string[], start: number[], postings: number[]}, shardLoaded: Uint8Array,
 *   dictionary: boolean, pages: {path: string[], url: string[], title: string[], tags?: string[][]},
 *   chunks: {id: string[], page: number[], parent: number[], kind: string[], level: number[],
 *            anchor: string[], title: string[], language: string[]},
 *   defines: Map<string, number[]>,
 *   termStart: Float64Array, postChunk: Int32Array, postImpact: Float64Array,
 *   texts: (string | undefined)[], textStarts: number[], displayLoaded: Uint8Array, nChunks: number, impactScale: number,
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
 *   fragments loaded (`displayLoaded`: DISPLAY_LOADED, DISPLAY_FAILED or 0))
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (zlib's polynomial). @param {Uint8Array} bytes */
export function crc32(bytes) {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Bytes a varint may take (spec: bundle/format.py MAX_VARINT_BYTES). */
const MAX_VARINT_BYTES = 9;

/** All unsigned LEB128 varints in bytes, checked in the order decode_varints checks them (a
 * cut-off value, one too long, one above 2^53 - 1: a JS number would lose its low bits).
 * @param {Uint8Array} bytes @returns {Float64Array} */
export function decodeVarints(bytes) {
  if (bytes.length && bytes[bytes.length - 1] & 0x80) {
    throw new BundleError("varint stream ends inside a value");
  }
  let count = 0, length = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (++length > MAX_VARINT_BYTES) throw new BundleError(`varint longer than ${MAX_VARINT_BYTES} bytes`);
    if (!(bytes[i] & 0x80)) {
      count++;
      length = 0;
    }
  }
  const out = new Float64Array(count);
  let value = 0, scale = 1, k = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    value += (b & 0x7f) * scale;
    if (b & 0x80) scale *= 128;
    else {
      // Exact up to 2^53 - 1; any larger value rounds to >= 2^53, so the check holds.
      if (value > Number.MAX_SAFE_INTEGER) throw new BundleError("varint above 2^53 - 1");
      out[k++] = value;
      value = 0;
      scale = 1;
    }
  }
  return out;
}

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
  // The checksum first (when there is one): damage is never mistaken for a newer format.
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
  if (!checked && Object.hasOwn(manifest, "checksum")) {
    throw new BundleError("manifest.json is corrupted (its checksum is not at its start)");
  }
  return checkManifest(manifest);
}

/** A manifest with a checksum starts with this, then 8 lowercase hex digits and `"`
 * (spec: bundle/format.py manifest_checksum). */
const CHECKSUM_PREFIX = new TextEncoder().encode('{"checksum":"');
const CHECKSUM_DIGITS = 8;

/** True when the manifest's checksum holds, false when it has none at its start; a
 * BundleError when it differs (spec: bundle/format.py verify_manifest).
 * @param {Uint8Array} bytes */
function verifyManifest(bytes) {
  const start = CHECKSUM_PREFIX.length, end = start + CHECKSUM_DIGITS;
  if (bytes.length < start || CHECKSUM_PREFIX.some((byte, i) => bytes[i] !== byte)) return false;
  const digits = String.fromCharCode(...bytes.subarray(start, end));
  if (bytes[end] !== 0x22 || !/^[0-9a-f]{8}$/.test(digits)) {
    throw new BundleError(`manifest.json is corrupted (its checksum is not ${CHECKSUM_DIGITS} hex digits)`);
  }
  const zeroed = Uint8Array.from(bytes); // a copy (a node Buffer's slice() is a view of the caller's bytes)
  zeroed.fill(0x30, start, end);
  if (parseInt(digits, 16) !== crc32(zeroed)) {
    throw new BundleError("manifest.json is corrupted (its checksum differs from its content)");
  }
  return true;
}

/** A part's key in the manifest's `files` and its number there: `text.3.json` -> [`text.#.json`, 3],
 * `keyword.json` -> [`keyword.json`, null] (spec: bundle/format.py file_key).
 * @param {string} part @returns {[string, number | null]} */
export function fileKey(part) {
  const match = /^(.+)\.(\d+)\.([^.]+)$/.exec(part);
  return match ? [`${match[1]}.#.${match[3]}`, Number(match[2])] : [part, null];
}

/** A part's CRC-32 as the manifest lists it (spec: bundle/format.py part_crc).
 * @param {any} manifest @param {string} name @returns {number} */
function partCrc(manifest, name) {
  const [key, index] = fileKey(name);
  const files = manifest.files;
  let value = files && typeof files === "object" && Object.hasOwn(files, key) ? files[key] : null;
  if (index !== null) value = Array.isArray(value) && index < value.length ? value[index] : null;
  if (!Number.isInteger(value) || value < 0 || value > MAX_CRC32) {
    throw new BundleError(`manifest.json does not list ${name}`);
  }
  return value;
}

/**
 * The file a manifest stores a part in: its logical name with its CRC-32's eight hex digits
 * before the extension (spec: bundle/format.py stored_name).
 * @param {any} manifest @param {string} name the part's logical name (e.g. "keyword.json")
 */
export function fileName(manifest, name) {
  const digits = partCrc(manifest, name).toString(16).padStart(8, "0");
  const dot = name.lastIndexOf(".");
  return dot < 0 ? `${name}.${digits}` : `${name.slice(0, dot)}.${digits}${name.slice(dot)}`;
}

/** Every part a manifest's `files` lists (what is not a CRC-32 or a list of them is skipped;
 * spec: bundle/format.py listed_parts). @param {any} manifest @returns {string[]} */
export function listedParts(manifest) {
  const files = manifest.files && typeof manifest.files === "object" ? manifest.files : {};
  /** @type {string[]} */
  const parts = [];
  for (const [key, value] of Object.entries(files)) {
    if (!key.includes("#")) parts.push(key);
    else if (Array.isArray(value)) value.forEach((_, i) => parts.push(key.replace(".#.", `.${i}.`)));
  }
  return parts.filter((part) => {
    try {
      return Boolean(fileName(manifest, part));
    } catch {
      return false;
    }
  });
}

/**
 * Fetch one bundle part (by its logical name) and check it against the manifest's CRC-32 (which
 * a cut or damaged file fails).
 * @param {FetchFile} fetchFile @param {any} manifest @param {string} name
 */
export async function readFile(fetchFile, manifest, name) {
  const file = fileName(manifest, name);
  let bytes;
  try {
    bytes = asBytes(await fetchFile(file));
  } catch (error) {
    throw new BundleError(`cannot read ${name}: ${/** @type {Error} */ (error).message}`);
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
    // Display columns (bundle/display.py) with a hole per chunk or page until its fragment is in.
    pages: { ...keyword.pages, ...Object.fromEntries(DISPLAY_PAGES.map((key) => [key, new Array(manifest.counts.pages)])) },
    chunks: { ...keyword.chunks, ...Object.fromEntries(DISPLAY_CHUNKS.map((key) => [key, new Array(nChunks)])) },
    displayLoaded: new Uint8Array(manifest.text_starts.length),
    termStart: new Float64Array(nTerms + 1),
    postChunk: new Int32Array(nPostings),
    postImpact: new Float64Array(nPostings),
    texts: new Array(nChunks),
    textStarts: manifest.text_starts,
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

/** The logical name of graph shard `index` (spec: bundle/format.py graph_shard). @param {number} index */
export const graphShard = (index) => `graph.${index}.json`;

/** No edges: the rows of a graph shard that failed to load (expand.js then goes on without them). */
const NO_EDGES = { targets: [], types: [] };

/**
 * Load graph shard `index` (the edges from the chunks text fragment `index` covers) into
 * `bundle.graph.edges`; when it fails, its chunks get no edges and the error is thrown.
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadGraphShard(bundle, fetchFile, index) {
  const graph = /** @type {NonNullable<Bundle["graph"]>} */ (bundle.graph);
  const [start, end] = textRange(bundle.manifest, index);
  try {
    const name = graphShard(index);
    const shard = checkGraphShard(parseJson(name, await readFile(fetchFile, bundle.manifest, name)),
      bundle.manifest, graph.edge_types.length, index);
    for (let chunk = start; chunk < end; chunk++) {
      const [from, to] = [shard.offsets[chunk - start], shard.offsets[chunk - start + 1]];
      graph.edges[chunk] = { targets: shard.targets.slice(from, to), types: shard.types.slice(from, to) };
    }
  } catch (error) {
    for (let chunk = start; chunk < end; chunk++) graph.edges[chunk] = NO_EDGES;
    throw error;
  }
  return bundle;
}

/** The logical name of term shard `index` (spec: bundle/format.py postings_shard). @param {number} index */
export const postingsShard = (index) => `postings.${index}.bin`;

/** The terms a shard holds (spec: bundle/schema.py shard_range).
 * @param {any} manifest @param {number} index @returns {[number, number]} start, end (exclusive) */
export function shardRange(manifest, index) {
  const starts = manifest.term_shards.start;
  return [starts[index], index + 1 < starts.length ? starts[index + 1] : manifest.counts.terms];
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

/** The `stems` (stem -> term numbers) or `defines` (name -> chunk numbers) of term shard
 * `index`, each key in the shard's term range: the shard a query looks it up in (spec:
 * bundle/schema.py check_shard_keys).
 * @param {unknown} data @param {any} manifest @param {number} index @param {"stems" | "defines"} field
 * @returns {Record<string, number[]>} */
function checkShardKeys(data, manifest, index, field) {
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

/** Code point order (what Python's str comparison uses). @param {string} a @param {string} b */
export function compareCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP code point above them.
    const xs = x >= 0xd800 && x <= 0xdfff, ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
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
  bundle.shardLoaded.forEach((loaded, index) => {
    const [start, end] = shardRange(manifest, index);
    for (let i = start; loaded && i < end; i++) {
      if (terms[i] !== bundle.terms[i] || counts[i] !== bundle.termCounts[i]) {
        throw new BundleError(`${t} does not match the term shards (corrupted)`);
      }
    }
  });
  terms.forEach((term, i) => setTerm(bundle, i, term, counts[i]));
  bundle.dictionary = true;
  return bundle;
}

/** The logical name of text fragment `index` (spec: bundle/format.py text_fragment). @param {number} index */
export const textFragment = (index) => `text.${index}.json`;

/** The fragment holding a chunk's text (the last whose first chunk is at or before it).
 * @param {Bundle} bundle @param {number} chunk */
export function fragmentOf(bundle, chunk) {
  return lastAtOrBefore(bundle.textStarts, chunk);
}

/** The last index of an ascending list whose value is <= value (0 when none is): the fragment or
 * term shard that a chunk or term number falls in, from their first numbers.
 * @param {ArrayLike<number>} starts @param {number} value */
export function lastAtOrBefore(starts, value) {
  let low = 0, high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The chunks whose texts a fragment holds (spec: bundle/schema.py text_range).
 * @param {any} manifest @param {number} index @returns {[number, number]} start, end (exclusive) */
function textRange(manifest, index) {
  const starts = manifest.text_starts;
  return [starts[index], index + 1 < starts.length ? starts[index + 1] : manifest.counts.chunks];
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

/** The logical name of display fragment `index` (spec: bundle/format.py display_fragment). @param {number} index */
export const displayFragment = (index) => `display.${index}.json`;

/** The pages whose display columns fragment `index` holds (spec: bundle/display.py page_range).
 * @param {Bundle} bundle @param {number} index @returns {[number, number]} start, end (exclusive) */
function pageRange(bundle, index) {
  const starts = bundle.textStarts, pages = bundle.chunks.page;
  return [index ? pages[starts[index]] : 0,
    index + 1 < starts.length ? pages[starts[index + 1]] : bundle.manifest.counts.pages];
}

/** The display fragment's columns, checked (spec: bundle/schema.py check_display).
 * @param {unknown} data @param {Bundle} bundle @param {number} index @returns {any} */
function checkDisplay(data, bundle, index) {
  const name = displayFragment(index);
  const [start, end] = textRange(bundle.manifest, index);
  const [first, last] = pageRange(bundle, index);
  const fragment = object(name, data, "the file");
  const pages = object(name, own(fragment, "pages"), "pages");
  for (const key of ["url", "title"]) strings(name, own(pages, key), `pages.${key}`, last - first);
  const chunks = object(name, own(fragment, "chunks"), "chunks");
  for (const key of ["id", "anchor", "title"]) strings(name, own(chunks, key), `chunks.${key}`, end - start);
  wholes(name, own(chunks, "level"), "chunks.level", end - start, 0, MAX_WHOLE);
  const parents = list(name, own(chunks, "parent"), "chunks.parent", end - start);
  parents.forEach((parent, i) => { // -1: a page's top chunk
    if (parent !== -1) whole(name, parent, `chunks.parent[${i}]`, 0, bundle.nChunks - 1);
  });
  return fragment;
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
  const fragment = checkDisplay(parseJson(name, await readFile(fetchFile, bundle.manifest, name)), bundle, index);
  const [start] = textRange(bundle.manifest, index);
  const [first] = pageRange(bundle, index);
  const chunks = /** @type {any} */ (bundle.chunks), pages = /** @type {any} */ (bundle.pages);
  for (const key of DISPLAY_CHUNKS) fragment.chunks[key].forEach((/** @type {any} */ value, /** @type {number} */ i) => { chunks[key][start + i] = value; });
  for (const key of DISPLAY_PAGES) fragment.pages[key].forEach((/** @type {any} */ value, /** @type {number} */ i) => { pages[key][first + i] = value; });
  bundle.displayLoaded[index] = DISPLAY_LOADED;
  return bundle;
}

/** `displayLoaded` states: a fragment not loaded is 0. */
export const DISPLAY_LOADED = 1;
export const DISPLAY_FAILED = 2;

/** Seconds a bundle fetch may go without receiving anything (its response, or the next bytes of
 * its body) before it is given up and tried once more; a page may set another with the runtime
 * script's `data-graphsearch-timeout` attribute (ui.js). A stall, not a duration: a large part on
 * a slow connection keeps receiving, so it never times out. */
export const FETCH_TIMEOUT_SECONDS = 15;

class Stalled extends Error {}

/**
 * One HTTP GET of the whole body, aborted when nothing arrives for `timeoutMs`.
 * @param {URL} url @param {RequestInit} init @param {number} timeoutMs @returns {Promise<Uint8Array>}
 */
async function fetchBytes(url, init, timeoutMs) {
  const controller = new AbortController();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Stalled()), timeoutMs);
  };
  arm();
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (!response.body) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    /** @type {Uint8Array[]} */
    const chunks = [];
    let length = 0;
    for (;;) {
      arm();
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes;
  } catch (error) {
    throw controller.signal.aborted ? new Stalled() : error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A FetchFile for a bundle folder served over HTTP (browser or worker). manifest.json is
 * revalidated every time (`no-cache`): it names the parts of the current build, whose
 * content-hashed files the browser may cache as long as it likes. A fetch that stalls for
 * `timeoutSeconds`, fails on the network or gets a 5xx is tried once more, then fails with a
 * message the UI shows (the worker's error state): never a "Loading" that lasts forever.
 * @param {string} baseUrl URL of the bundle folder, ending with "/"
 * @param {number} [timeoutSeconds]
 * @returns {FetchFile}
 */
export function httpFetcher(baseUrl, timeoutSeconds = FETCH_TIMEOUT_SECONDS) {
  const timeoutMs = 1000 * (timeoutSeconds > 0 ? timeoutSeconds : FETCH_TIMEOUT_SECONDS);
  return async (name) => {
    const init = name === MANIFEST ? { cache: /** @type {RequestCache} */ ("no-cache") } : {};
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetchBytes(new URL(name, baseUrl), init, timeoutMs);
      } catch (error) {
        const message = error instanceof Stalled
          ? `no response for ${timeoutMs / 1000} s`
          : /** @type {Error} */ (error).message;
        const permanent = /^HTTP [1-4]/.test(message); // a 404 stays a 404: no retry
        if (permanent) throw new Error(`${message} for ${name}`);
        if (attempt === 2) throw new Error(`${message} for ${name} (tried twice)`);
      }
    }
  };
}

// ------------------------------------------------------------------ shape checks
// Spec: mkdocs_graphsearch/bundle/schema.py (same checks, order and messages). A JSON number with
// an integral value is a whole number however it is spelled (`3.0`): JSON.parse cannot tell.

const MAX_WHOLE = Number.MAX_SAFE_INTEGER;
const MAX_CRC32 = 2 ** 32 - 1;
/** The parts every bundle has, then the semantic part's (present with `vectors`). */
const KEYWORD_PARTS = ["keyword.json", "graph.json", "terms.json"];
const SEMANTIC_PARTS = ["vectors.bin", "encoder.json"]; // vectors.bin: or vectorParts; then checkEncoderParts'

/** The vector files of a semantic bundle: vectors.bin, or centroids.bin then each cell's (two
 * levels) then each cluster's (vector-shards.js; a bad `clusters` or `cells` gives no such
 * files: its check then names it).
 * @param {any} manifest @returns {string[]} */
function vectorParts(manifest) {
  const clusters = isObject(manifest.vectors) ? own(manifest.vectors, "clusters") ?? null : null;
  if (clusters === null) return ["vectors.bin"];
  const sizes = isObject(clusters) ? own(clusters, "sizes") : undefined;
  const count = Array.isArray(sizes) ? sizes.length : 0;
  const cells = isObject(clusters) ? own(clusters, "cells") : undefined;
  const cellCount = Array.isArray(cells) ? cells.length : 0;
  return ["centroids.bin", ...Array.from({ length: cellCount }, (_, i) => `centroids.${i}.bin`),
          ...Array.from({ length: count }, (_, i) => `vectors.${i}.bin`)];
}

/** vectors.clusters (vector-shards.js): each cluster's size, the probe rule, the code widths, two levels' cells
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
const OPTIONAL_NUMBER = ["stem_weight", "stop_word_weight"];

/** @param {string} file @param {string} where @param {string} problem @returns {never} */
export function fail(file, where, problem) {
  throw new BundleError(`${file}: ${where} ${problem}`);
}

/** @param {unknown} value @returns {value is Record<string, any>} */
function isObject(value) {
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
function list(file, value, where, length = null) {
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

/** Everything either engine reads from manifest.json (after its format and checksum).
 * @param {Record<string, any>} manifest */
function checkManifest(manifest) {
  const m = "manifest.json";
  const counts = object(m, own(manifest, "counts"), "counts");
  for (const key of ["chunks", "pages", "postings", "terms"]) whole(m, own(counts, key), `counts.${key}`);
  if (number(m, own(manifest, "impact_scale"), "impact_scale") <= 0) fail(m, "impact_scale", "must be above 0");
  const starts = list(m, own(manifest, "text_starts"), "text_starts");
  if (!starts.length) fail(m, "text_starts", "must list at least one fragment");
  let previous = -1; // 0 first, then rising, each a chunk
  starts.forEach((start, i) => {
    previous = whole(m, start, `text_starts[${i}]`, previous + 1, i ? counts.chunks - 1 : 0);
  });
  const shards = checkTermShards(manifest, counts);
  const files = object(m, own(manifest, "files"), "files");
  const semantic = Object.hasOwn(manifest, "vectors");
  const fragments = starts.map((_, i) => textFragment(i));
  const semanticParts = semantic ? [...vectorParts(manifest), ...SEMANTIC_PARTS.slice(1), ...checkEncoderParts(manifest)] : [];
  const displays = starts.map((_, i) => displayFragment(i));
  const graphs = starts.map((_, i) => graphShard(i));
  checkFiles(files, [...KEYWORD_PARTS, ...shards, ...fragments, ...displays, ...graphs, ...semanticParts]);
  checkSettings(object(m, own(manifest, "search"), "search"));
  if (semantic) {
    const vectors = object(m, manifest.vectors, "vectors");
    whole(m, own(vectors, "dim"), "vectors.dim", 1);
    if (Object.hasOwn(vectors, "query_levels")) whole(m, vectors.query_levels, "vectors.query_levels", 1);
    if (Object.hasOwn(vectors, "clusters")) checkClusters(vectors, counts.chunks);
    const encoder = object(m, own(manifest, "encoder"), "encoder");
    if (Object.hasOwn(encoder, "max_query_pieces")) whole(m, encoder.max_query_pieces, "encoder.max_query_pieces");
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
  if (Object.hasOwn(search, "language_aliases")) { // format 1: none (filters.js FORMAT_1_LANGUAGE_ALIASES)
    const aliases = object(m, search.language_aliases, "search.language_aliases");
    for (const [key, language] of Object.entries(aliases)) string(m, language, `search.language_aliases.${key}`);
  }
}

/** keyword.json: the pages and chunks columns, consistent with the counts.
 * @param {unknown} data @param {any} manifest @returns {any} */
function checkKeyword(data, manifest) {
  const k = "keyword.json";
  const { pages: nPages, chunks: nChunks } = manifest.counts;
  const keyword = object(k, data, "the file");
  const pages = object(k, own(keyword, "pages"), "pages");
  strings(k, own(pages, "path"), "pages.path", nPages);
  if (Object.hasOwn(pages, "tags")) listsOfStrings(k, pages.tags, "pages.tags", nPages); // optional: front matter tags
  const chunks = object(k, own(keyword, "chunks"), "chunks");
  for (const key of ["kind", "language"]) strings(k, own(chunks, key), `chunks.${key}`, nChunks);
  const chunkPages = list(k, own(chunks, "page"), "chunks.page", nChunks);
  let previous = 0; // never decreasing, so a page's chunks are together (bundle/display.py)
  chunkPages.forEach((page, i) => { previous = whole(k, page, `chunks.page[${i}]`, previous, nPages - 1); });
  manifest.text_starts.forEach((/** @type {number} */ start, /** @type {number} */ i) => { // a fragment starts a page
    if (i && chunkPages[start] === chunkPages[start - 1]) {
      fail(k, `chunks.page[${start}]`, `must start a page (text fragment ${i} starts there)`);
    }
  });
  return keyword;
}

/** graph.json: CSR edges between existing chunks, each edge type with its decay.
 * @param {unknown} data @param {any} manifest @returns {any} */
function checkGraph(data, manifest) {
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

/** graph.<index>.json: CSR edges from its chunks to existing chunks (spec: bundle/schema.py
 * check_graph_shard). @param {unknown} data @param {any} manifest @param {number} nTypes
 * @param {number} index @returns {any} */
function checkGraphShard(data, manifest, nTypes, index) {
  const g = graphShard(index);
  const nChunks = manifest.counts.chunks;
  const [start, end] = textRange(manifest, index);
  const shard = object(g, data, "the file");
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
 * first, then rising, and `encoder.vocab` {shards, size} (vocab-shards.js); the names of the
 * encoder shards, encoder-model.bin, then the vocab shards.
 * @param {Record<string, any>} manifest @returns {string[]} */
function checkEncoderParts(manifest) {
  const m = "manifest.json";
  const encoder = object(m, own(manifest, "encoder"), "encoder");
  const firsts = list(m, own(encoder, "shards"), "encoder.shards");
  if (!firsts.length) fail(m, "encoder.shards", "must list at least one shard");
  firsts.forEach((first, i) => whole(m, first, `encoder.shards[${i}]`, i ? firsts[i - 1] + 1 : 0, i ? MAX_WHOLE : 0));
  const vocab = object(m, own(encoder, "vocab"), "encoder.vocab");
  for (const key of ["shards", "size"]) whole(m, own(vocab, key), `encoder.vocab.${key}`, 1);
  return [
    ...firsts.map((_, i) => `encoder.${i}.bin`),
    "encoder-model.bin",
    ...Array.from({ length: vocab.shards }, (_, i) => `vocab.${i}.json`),
  ];
}
