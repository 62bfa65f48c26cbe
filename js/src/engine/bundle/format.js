// @ts-check
/**
 * The bundle format (spec: mkdocs_graphsearch/bundle/format.py): its version, the parts' logical
 * names and the content-hashed file names the manifest gives them (`files`: CRC-32s), varints,
 * the manifest's own checksum, BundleError; and the orders a reader looks names and numbers up
 * in (code point order, the last start at or before a number). Reading is read.js, shape
 * checks schema.js.
 */

/** The format this runtime reads up to (and the oldest it still reads: format 3 differs only in
 * its clustered vectors, one cluster a file: vector-shards.js groupStarts; formats 3 and 4 store
 * vectors.bin as int8 rows, format 5 as codes of `vectors.bits` bits; formats 3 and 4 have their
 * display fragments over the text fragments' ranges, format 5 its own: schema.js displayStarts;
 * format 6 stores them compact, sizes graph shards apart (graphStarts), adds the
 * word files (word-rows.js) and may store clustered vectors by hoods (vector-shards.js hoodOf);
 * format 8 derives display parents, page titles and urls and stores graph shards compact;
 * format 9 holds INLINE_PARTS in the manifest; format 10 may group display fragments by meaning
 * (GROUPED_DISPLAY_FORMAT) and stores the vector files by columns (COLUMN_FORMAT). */
export const FORMAT_VERSION = 10;
export const MIN_FORMAT_VERSION = 3;
/** Format 6: compact display fragments (display.js; spec: bundle/format.py COMPACT_DISPLAY_FORMAT). */
export const COMPACT_DISPLAY_FORMAT = 6;
/** Format 7: text fragments may start inside a page (spec: bundle/format.py INNER_TEXT_FORMAT). */
export const INNER_TEXT_FORMAT = 7;
/** Format 8: display fragments derive parents, page titles and urls (display.js), graph shards
 * store edge counts and relative targets (schema.js checkGraphShard; spec: bundle/format.py
 * DERIVED_FORMAT). */
export const DERIVED_FORMAT = 8;
/** Format 10 display fragments of a clustered site hold pages that rank together (keyword.json's
 * `pages.display`, the manifest's `display_count`: display-groups.js; spec: format.py). */
export const GROUPED_DISPLAY_FORMAT = 10;
/** Format 10: each file of vector codes is one table by columns (vector-shards.js readTable; spec:
 * bundle/format.py COLUMN_FORMAT). */
export const COLUMN_FORMAT = 10;
export const MANIFEST = "manifest.json";
/** Format 9: the small parts the manifest holds (its `inline`: part -> text; spec:
 * bundle/format.py INLINE_PARTS). */
export const INLINE_PARTS = ["graph.json", "encoder.json"];
/** The search modes both engines know (spec: bundle/settings.py MODES). */
export const MODES = ["keyword", "vector", "hybrid"];

export class BundleError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "BundleError";
  }
}

/** The largest CRC-32 (the manifest's `files` values). */
export const MAX_CRC32 = 2 ** 32 - 1;

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

/** A manifest with a checksum starts with this, then 8 lowercase hex digits and `"`
 * (spec: bundle/format.py manifest_checksum). */
const CHECKSUM_PREFIX = new TextEncoder().encode('{"checksum":"');
const CHECKSUM_DIGITS = 8;

/** True when the manifest's checksum holds, false when it has none at its start (the caller
 * refuses it once the format is known); a BundleError when it differs (spec: bundle/format.py
 * verify_manifest).
 * @param {Uint8Array} bytes */
export function verifyManifest(bytes) {
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
export function partCrc(manifest, name) {
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

/** A part the manifest holds (its `inline`, format 9), or null: one in a file (spec:
 * bundle/format.py inline_part). @param {any} manifest @param {string} name
 * @returns {Uint8Array | null} */
export function inlinePart(manifest, name) {
  const inline = manifest.inline;
  const text = inline && typeof inline === "object" && Object.hasOwn(inline, name) ? inline[name] : null;
  return typeof text === "string" ? new TextEncoder().encode(text) : null;
}

/** Every part a manifest's `files` lists as a file (what is not a CRC-32 or a list of them is
 * skipped, and so is a part the manifest holds: inlinePart; spec: bundle/format.py listed_parts).
 * @param {any} manifest @returns {string[]} */
export function listedParts(manifest) {
  const files = manifest.files && typeof manifest.files === "object" ? manifest.files : {};
  /** @type {string[]} */
  const parts = [];
  for (const [key, value] of Object.entries(files)) {
    if (!key.includes("#")) parts.push(key);
    else if (Array.isArray(value)) value.forEach((_, i) => parts.push(key.replace(".#.", `.${i}.`)));
  }
  return parts.filter((part) => Boolean(storedName(manifest, part)));
}

/** The file a part is stored in: null when the manifest does not list it or holds it (`inline`).
 * @param {any} manifest @param {string} part @returns {string | null} */
export function storedName(manifest, part) {
  try {
    return inlinePart(manifest, part) === null ? fileName(manifest, part) : null;
  } catch {
    return null; // not listed
  }
}

/** The logical name of term shard `index` (spec: bundle/format.py postings_shard). @param {number} index */
export const postingsShard = (index) => `postings.${index}.bin`;

/** The logical name of text fragment `index` (spec: bundle/format.py text_fragment). @param {number} index */
export const textFragment = (index) => `text.${index}.json`;

/** The logical name of graph shard `index` (spec: bundle/format.py graph_shard). @param {number} index */
export const graphShard = (index) => `graph.${index}.json`;

/** The logical name of display fragment `index` (spec: bundle/format.py display_fragment). @param {number} index */
export const displayFragment = (index) => `display.${index}.json`;

/** Each graph shard's first chunk: the manifest's `graph_starts`, or before format 6 its
 * `text_starts` (spec: bundle/graph_shards.py graph_starts).
 * @param {Record<string, any>} manifest @returns {number[]} */
export function graphStarts(manifest) {
  return Object.hasOwn(manifest, "graph_starts") ? manifest.graph_starts : manifest.text_starts;
}

/**
 * Whether the site's graph is one shard (bundle/format.py WHOLE_TEXT_BYTES: a small site, or one
 * whose texts are one file): every expansion needs it, so it is fetched with the manifest and
 * never waits for the typing pause. Such a site's queries show most of its pages, so a typed
 * prefix's snippet texts do not wait for the pause either; where they are several files, a query
 * entered whole fetches its keyword answer's at once, beside the semantic half's files, and a
 * final answer waits for its own (worker.js answerByKeyword, answer).
 * @param {any} manifest a bundle's manifest
 */
export const oneGraphShard = (manifest) => graphCount(manifest) === 1;

/** How many display fragments a bundle has: its `display_count` (grouped), else one per
 * displayStarts entry (schema.js; spec: bundle/display_groups.py display_count).
 * @param {any} manifest @param {number[]} starts @returns {number} */
export function displayCount(manifest, starts) {
  return Object.hasOwn(manifest, "display_count") ? manifest.display_count : starts.length;
}

/** Whether the graph shards are grouped as the display fragments (format 10: `display_count` and
 * no `graph_starts`; spec: bundle/graph_shards.py graph_count). @param {Record<string, any>} manifest */
export const groupedGraph = (manifest) => Object.hasOwn(manifest, "display_count") && !Object.hasOwn(manifest, "graph_starts");

/** How many graph shards a bundle has (spec: bundle/graph_shards.py graph_count).
 * @param {Record<string, any>} manifest @returns {number} */
export const graphCount = (manifest) => (groupedGraph(manifest) ? manifest.display_count : graphStarts(manifest).length);

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
