// @ts-check
/**
 * Load and validate a search bundle (format: mkdocs_graphsearch/bundle/format.py).
 * Works in browsers, workers and node: the caller passes a function that fetches one file.
 * Files only: this module reads and checks the parts; worker.js composes them with the query
 * encoder (encoder.js) into a searchable bundle (loadBundle).
 *
 * Format 2 stores each part under a content-hashed file name that manifest.json gives
 * (`files[part].name`); format 1 (still read) stores each part under its own name.
 */

/** The format this runtime reads up to (and the oldest it still reads). */
export const FORMAT_VERSION = 2;
export const MIN_FORMAT_VERSION = 1;
export const MANIFEST = "manifest.json";
/** A part's file name: one plain file in the bundle folder, never a path or another origin. */
const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

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
 *   manifest: any, settings: any, terms: string[], termIndex: Map<string, number>, stems: Map<string, number[]>,
 *   termLengths: Int32Array, pages: {path: string[], url: string[], title: string[], tags?: string[][]},
 *   chunks: {id: string[], page: number[], parent: number[], kind: string[], level: number[],
 *            anchor: string[], title: string[], language: string[], defines?: string[][]},
 *   termStart: Float64Array, postChunk: Int32Array, postImpact: Float64Array,
 *   texts: string[] | null, nChunks: number, impactScale: number,
 *   graph: {edge_types: string[], offsets: number[], targets: number[], types: number[]},
 *   vectors: {values: Int8Array, scales: Float64Array, dim: number} | null,
 *   encoder: any
 * }} Bundle
 *   (`vectors` and `encoder` are set together by worker.js's semantic part)
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

/** @param {string} name @param {Uint8Array} bytes */
function parseJson(name, bytes) {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
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
  const manifest = parseJson("manifest.json", bytes);
  const version = manifest && manifest.format;
  if (version === undefined || version === null) {
    throw new BundleError("manifest.json has no format version: not a graphsearch bundle");
  }
  // JSON.parse reads 1.0 and 1e0 as 1: the source text tells, as Python's float does.
  const literal = Number.isInteger(version) && topLevelNumber(new TextDecoder().decode(bytes), "format");
  if (!literal || !/^-?\d+$/.test(literal)) {
    throw new BundleError("manifest.json format version is not an integer: not a graphsearch bundle");
  }
  if (version > FORMAT_VERSION) {
    throw new BundleError(
      `bundle format ${version} is newer than this search runtime (format ${FORMAT_VERSION}): ` +
        "reload the page or rebuild the site with a matching plugin",
    );
  }
  if (version < MIN_FORMAT_VERSION) {
    throw new BundleError(`bundle format ${version} is no longer supported: rebuild the site`);
  }
  return manifest;
}

/**
 * The file a manifest stores a part in (format 1: the part's own name).
 * @param {any} manifest @param {string} name the part's logical name (e.g. "keyword.json")
 */
export function fileName(manifest, name) {
  const entry = manifest.files && Object.hasOwn(manifest.files, name) ? manifest.files[name] : null;
  if (!entry || typeof entry !== "object") throw new BundleError(`manifest.json does not list ${name}`);
  const file = entry.name === undefined ? name : entry.name;
  if (typeof file !== "string" || !SAFE_NAME.test(file) || file === MANIFEST) {
    throw new BundleError(`manifest.json gives ${name} an invalid file name`);
  }
  return file;
}

/**
 * Fetch one bundle part (by its logical name) and check it against the manifest's size and CRC-32.
 * @param {FetchFile} fetchFile @param {any} manifest @param {string} name
 */
export async function readFile(fetchFile, manifest, name) {
  const file = fileName(manifest, name);
  const entry = manifest.files[name];
  let bytes;
  try {
    bytes = asBytes(await fetchFile(file));
  } catch (error) {
    throw new BundleError(`cannot read ${name}: ${/** @type {Error} */ (error).message}`);
  }
  if (bytes.length !== entry.bytes) {
    throw new BundleError(
      `${name} is ${bytes.length} bytes, the manifest says ${entry.bytes} (truncated or stale)`,
    );
  }
  if (crc32(bytes) !== entry.crc32) {
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
 * Load what the first keystroke needs (keyword.json + postings.bin); texts come later
 * through loadTexts.
 * @param {FetchFile} fetchFile
 * @returns {Promise<Bundle>}
 */
export async function loadKeywordBundle(fetchFile) {
  const manifest = await loadManifest(fetchFile);
  const [keywordBytes, postingsBytes, graphBytes] = await Promise.all([
    readFile(fetchFile, manifest, "keyword.json"),
    readFile(fetchFile, manifest, "postings.bin"),
    readFile(fetchFile, manifest, "graph.json"),
  ]);
  const graph = parseJson("graph.json", graphBytes);
  if (!graph.offsets || graph.offsets.length !== manifest.counts.chunks + 1) {
    throw new BundleError("graph.json does not match the manifest's chunk count (corrupted)");
  }
  const keyword = parseJson("keyword.json", keywordBytes);
  const { terms: nTerms, postings: nPostings, chunks: nChunks } = manifest.counts;
  const values = decodeVarints(postingsBytes);
  if (values.length !== nTerms + 2 * nPostings || keyword.terms.length !== nTerms) {
    throw new BundleError("postings.bin does not match the manifest's counts (corrupted)");
  }
  const termStart = new Float64Array(nTerms + 1);
  for (let t = 0; t < nTerms; t++) termStart[t + 1] = termStart[t] + values[t];
  if (termStart[nTerms] !== nPostings) {
    throw new BundleError("postings.bin posting counts do not add up (corrupted)");
  }
  const postChunk = new Int32Array(nPostings);
  const postImpact = new Float64Array(nPostings);
  for (let t = 0; t < nTerms; t++) {
    let chunk = 0;
    for (let p = termStart[t]; p < termStart[t + 1]; p++) {
      chunk += values[nTerms + p];
      if (chunk >= nChunks) throw new BundleError("postings.bin points at chunks that do not exist (corrupted)");
      postChunk[p] = chunk;
      postImpact[p] = values[nTerms + nPostings + p];
    }
  }
  /** @type {string[]} */
  const terms = keyword.terms;
  const termIndex = new Map(terms.map((term, i) => [term, i]));
  const termLengths = Int32Array.from(terms, codePointLength);
  /** @type {Map<string, number[]>} stem -> terms that are prose words with it (format 1: none) */
  const stems = new Map(Object.entries(keyword.stems ?? {}));
  return {
    manifest,
    settings: manifest.search,
    terms,
    termIndex,
    stems,
    termLengths,
    pages: keyword.pages,
    chunks: keyword.chunks,
    termStart,
    postChunk,
    postImpact,
    texts: null,
    graph,
    vectors: null,
    encoder: null,
    nChunks,
    impactScale: manifest.impact_scale,
  };
}

/**
 * Load the snippet texts into the bundle.
 * @param {Bundle} bundle @param {FetchFile} fetchFile
 */
export async function loadTexts(bundle, fetchFile) {
  const texts = parseJson("text.json", await readFile(fetchFile, bundle.manifest, "text.json"));
  if (!Array.isArray(texts) || texts.length !== bundle.nChunks) {
    throw new BundleError("text.json does not match the manifest's chunk count (corrupted)");
  }
  bundle.texts = texts;
  return bundle;
}

/**
 * Read the passage vectors (vectors.bin), or null when the bundle has no semantic part. The
 * query encoder's files are read by encoder.js: the worker composes the two (worker.js).
 * @param {Bundle} bundle @param {FetchFile} fetchFile
 * @returns {Promise<{values: Int8Array, scales: Float64Array, dim: number} | null>}
 */
export async function loadVectors(bundle, fetchFile) {
  const info = bundle.manifest.vectors;
  if (!info) return null;
  const bytes = await readFile(fetchFile, bundle.manifest, "vectors.bin");
  const n = bundle.nChunks, dim = info.dim;
  if (bytes.length !== n * dim + 4 * n) {
    throw new BundleError(`vectors.bin has ${bytes.length} bytes, expected ${n * (dim + 4)} (corrupted)`);
  }
  const values = new Int8Array(bytes.buffer, bytes.byteOffset, n * dim);
  const view = new DataView(bytes.buffer, bytes.byteOffset + n * dim, 4 * n);
  const scales = new Float64Array(n);
  for (let c = 0; c < n; c++) scales[c] = view.getFloat32(4 * c, true);
  return { values, scales, dim };
}

/**
 * A FetchFile for a bundle folder served over HTTP (browser or worker). manifest.json is
 * revalidated every time (`no-cache`): it names the parts of the current build, whose
 * content-hashed files the browser may cache as long as it likes.
 * @param {string} baseUrl URL of the bundle folder, ending with "/"
 * @returns {FetchFile}
 */
export function httpFetcher(baseUrl) {
  return async (name) => {
    const init = name === MANIFEST ? { cache: /** @type {RequestCache} */ ("no-cache") } : {};
    const response = await fetch(new URL(name, baseUrl), init);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${name}`);
    return response.arrayBuffer();
  };
}
