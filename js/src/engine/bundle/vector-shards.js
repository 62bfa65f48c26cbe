// @ts-check
/**
 * The clustered vector layout: a query reads a few clusters' vectors, not every vector, stored as
 * compact codes decoded here into int8 rows (spec: mkdocs_graphsearch/bundle/vector_shards.py
 * and engine/vector.py probed_clusters).
 * centroids.bin comes with the semantic part; vectors.<g>.bin, group g of clusters, when a query
 * probes one of its clusters (engine.js notes the groups it needs in a `wanted` set; worker.js
 * fetches them and asks again; one that fails marks its clusters `failed` and the answer goes
 * out without them). Two levels:
 * centroids.bin holds the cells' centroids and centroids.<g>.bin cell g's clusters' centroids,
 * fetched when a query takes cell g (in `wanted` as -1 - g; a failed cell's clusters are
 * left out). Hoods (format 6): vectors.<c>.bin holds cluster c's hood (hoodOf), a query reads
 * the files probedFiles names (in `wanted` as c) and every cluster they hold.
 */
import { BundleError, COLUMN_FORMAT } from "./format.js";
import { readFile } from "./read.js";
import { dot, quantizeQuery } from "../vector.js";

/** @typedef {import("./read.js").Bundle} Bundle */
/** @typedef {import("./read.js").FetchFile} FetchFile */
/**
 * @typedef {{centroids: Int8Array, centroidScales: Float64Array, sizes: number[], probe: number,
 *            probeChunks: number, bits: number, members: (Uint32Array | undefined)[],
 *            rows: ({values: Int8Array, scales: Float64Array} | undefined)[],
 *            failed: Uint8Array, groups: number[], groupOf: Int32Array, cells?: Cells,
 *            hoodChunks: number, hoods: (number[] | undefined)[]}} Clusters
 *   groups: each group file's first cluster (groupStarts), groupOf: each cluster's group;
 *   members: each loaded cluster's chunks; rows: their rows and scales, in that order (a
 *   cluster's rows side by side: a query reads whole clusters, and rows scattered by chunk over
 *   a big site's vectors made its dot products up to twice as slow); hoodChunks: 0 (groups) or
 *   the manifest's hood_chunks, hoods: each hood as hoodOf makes it once asked
 * @typedef {{counts: number[], starts: number[], chunks: number[], cellChunks: number,
 *            centroids: Int8Array, scales: Float64Array, bits: number, state: Uint8Array}} Cells
 *   two levels: clusters per cell, each cell's first cluster and chunks, the cells' centroids;
 *   state 0 not loaded, 1 loaded (its clusters' rows are in Clusters.centroids), 2 failed
 * @typedef {{values: Int8Array, scales: Float64Array, dim: number, clusters?: Clusters}} Vectors
 *   (clustered: values and scales are empty: the rows of the clusters loaded are in `clusters`)
 */

export const CENTROIDS = "centroids.bin";
/** A manifest without `vectors.bits` (format 4 and older) stores vectors.bin as int8 rows. */
const VECTOR_BITS_IF_ABSENT = 8;

/** The file of cluster group `index`. @param {number} index */
export const vectorShard = (index) => `vectors.${index}.bin`;

/**
 * Each group file's first cluster: the manifest's `groups`, or one cluster a file (format 3).
 * @param {{sizes: number[], groups?: number[]}} clusters @returns {number[]}
 */
export const groupStarts = (clusters) => clusters.groups ?? clusters.sizes.map((_, c) => c);

/** @param {number} index */
export const cellCentroids = (index) => `centroids.${index}.bin`;

/** Bytes of one row of `dim` codes of `bits` bits. @param {number} dim @param {number} bits */
export const rowBytes = (dim, bits) => Math.ceil((dim * bits) / 8);

/**
 * Whether the bundle stores its code tables by columns (format 10 and later).
 * @param {{format: number}} manifest
 */
const byColumns = (manifest) => manifest.format >= COLUMN_FORMAT;

/**
 * `count` 4-byte little-endian numbers at `offset`, one after another, or (`planes`) as their
 * byte planes (spec: vector_shards.py) -> a view of them one after another.
 * @param {Uint8Array} bytes @param {number} offset @param {number} count @param {boolean} planes
 */
function numbersAt(bytes, offset, count, planes) {
  if (!planes) return new DataView(bytes.buffer, bytes.byteOffset + offset, 4 * count);
  const out = new Uint8Array(4 * count);
  for (let b = 0; b < 4; b++) for (let i = 0; i < count; i++) out[4 * i + b] = bytes[offset + b * count + i];
  return new DataView(out.buffer);
}

/**
 * A file's `count` rows of `dim` codes of `bits` bits (code j of a row: bits j*bits.. of it as a
 * little-endian bit stream, two's complement; 8: int8 bytes) and their float32 little-endian
 * scales, its length checked (spec: vector_shards.py): by rows (formats 3 to 9; vectors.bin's,
 * centroids' and a cluster's block, after its `numbered` chunk numbers) or by `columns` (format
 * 10: the table of read_table, the numbers' and the scales' byte planes, the codes dimension by
 * dimension) -> the chunk numbers (empty unless `numbered`), the codes as int8 rows, the scales.
 * @param {string} name @param {Uint8Array} bytes @param {number} count @param {number} dim
 * @param {number} bits @param {boolean} numbered @param {boolean} columns
 */
export function readTable(name, bytes, count, dim, bits, numbered, columns) {
  const rowWidth = rowBytes(dim, bits), columnWidth = rowBytes(count, bits);
  const at = numbered ? 4 * count : 0, end = at + (columns ? dim * columnWidth : count * rowWidth);
  if (bytes.length !== end + 4 * count) {
    throw new BundleError(`${name} has ${bytes.length} bytes, expected ${end + 4 * count} (corrupted)`);
  }
  const chunks = new Uint32Array(numbered ? count : 0);
  const numbers = numbersAt(bytes, 0, chunks.length, columns);
  for (let i = 0; i < chunks.length; i++) chunks[i] = numbers.getUint32(4 * i, true);
  const rows = bits === 8 && !columns;
  const values = rows ? new Int8Array(bytes.buffer, bytes.byteOffset + at, count * dim) : new Int8Array(count * dim);
  // bit b of code (r, j) is bit `first + r * rowStep + j * dimStep + b` of the codes
  const [rowStep, dimStep] = columns ? [bits, 8 * columnWidth] : [8 * rowWidth, bits];
  const sign = 1 << (bits - 1);
  for (let r = 0; r < count && !rows; r++) {
    for (let j = 0; j < dim; j++) {
      let code = 0;
      const first = 8 * at + r * rowStep + j * dimStep;
      for (let b = 0; b < bits; b++) code |= ((bytes[(first + b) >> 3] >> ((first + b) & 7)) & 1) << b;
      values[r * dim + j] = code >= sign ? code - 2 * sign : code;
    }
  }
  const view = numbersAt(bytes, end, count, columns);
  const scales = new Float64Array(count);
  for (let i = 0; i < count; i++) scales[i] = view.getFloat32(4 * i, true);
  return { chunks, values, scales };
}

/**
 * A file's rows without chunk numbers (readTable): vectors.bin's and the centroids'.
 * @param {string} name @param {Uint8Array} bytes @param {number} count @param {number} dim
 * @param {number} bits @param {boolean} [columns] by columns (format 10)
 */
export function codeRows(name, bytes, count, dim, bits, columns = false) {
  const { values, scales } = readTable(name, bytes, count, dim, bits, false, columns);
  return { values, scales };
}

/**
 * The vectors of a bundle without clusters (vectors.bin: every row), or a clustered bundle's
 * centroids (loadCluster adds each cluster's rows).
 * @param {Bundle} bundle @param {FetchFile} fetchFile @returns {Promise<Vectors | null>}
 */
export async function loadVectors(bundle, fetchFile) {
  const info = bundle.manifest.vectors;
  if (!info) return null;
  const n = bundle.nChunks, dim = info.dim;
  if (!info.clusters) {
    const bytes = await readFile(fetchFile, bundle.manifest, "vectors.bin");
    const columns = byColumns(bundle.manifest);
    return { ...codeRows("vectors.bin", bytes, n, dim, info.bits ?? VECTOR_BITS_IF_ABSENT, columns), dim };
  }
  const { sizes, probe, probe_chunks: probeChunks, bits, centroid_bits: centroidBits, cells: counts } = info.clusters;
  const rows = counts ? counts.length : sizes.length;
  const centroidFile = await readFile(fetchFile, bundle.manifest, CENTROIDS);
  const centroids = codeRows(CENTROIDS, centroidFile, rows, dim, centroidBits, byColumns(bundle.manifest));
  const groups = groupStarts(info.clusters);
  const groupOf = new Int32Array(sizes.length);
  groups.forEach((start, g) => groupOf.fill(g, start, g + 1 < groups.length ? groups[g + 1] : sizes.length));
  /** @type {Clusters} */
  const clusters = { centroids: centroids.values, centroidScales: centroids.scales, sizes, probe, probeChunks, bits,
                     members: new Array(sizes.length).fill(undefined), rows: new Array(sizes.length).fill(undefined),
                     failed: new Uint8Array(sizes.length), groups, groupOf,
                     hoodChunks: info.clusters.hood_chunks ?? 0, hoods: new Array(sizes.length).fill(undefined) };
  if (counts) {
    /** @type {number[]} */
    const starts = [], chunks = [];
    let start = 0;
    for (const count of counts) {
      starts.push(start);
      chunks.push(sizes.slice(start, start + count).reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0));
      start += count;
    }
    clusters.cells = { counts, starts, chunks, cellChunks: info.clusters.cell_chunks, centroids: centroids.values,
                       scales: centroids.scales, bits: centroidBits, state: new Uint8Array(counts.length) };
    clusters.centroids = new Int8Array(sizes.length * dim);
    clusters.centroidScales = new Float64Array(sizes.length);
  }
  return { values: new Int8Array(0), scales: new Float64Array(0), dim, clusters };
}

/**
 * Read cell `index`'s cluster centroids (centroids.<index>.bin, two levels) into the clusters';
 * a file that fails marks the cell failed (its clusters are left out) and throws.
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadCell(bundle, fetchFile, index) {
  const vectors = /** @type {Vectors} */ (bundle.vectors);
  const clusters = /** @type {Clusters} */ (vectors.clusters);
  const cells = /** @type {Cells} */ (clusters.cells);
  try {
    const name = cellCentroids(index);
    const bytes = await readFile(fetchFile, bundle.manifest, name);
    const rows = codeRows(name, bytes, cells.counts[index], vectors.dim, cells.bits, byColumns(bundle.manifest));
    clusters.centroids.set(rows.values, cells.starts[index] * vectors.dim);
    clusters.centroidScales.set(rows.scales, cells.starts[index]);
    cells.state[index] = 1;
  } catch (error) {
    cells.state[index] = 2;
    throw error;
  }
}

/**
 * Hoods: cluster `center`'s hood (spec: vector_shards.py hood_of): itself, then the other
 * clusters by the cosine of their centroid with its own (integer dot product times the two
 * scales), best first, ties to the lower number, taken while it holds fewer than hoodChunks chunks.
 * @param {Clusters} clusters @param {number} dim @param {number} center @returns {number[]}
 */
export function hoodOf(clusters, dim, center) {
  const known = clusters.hoods[center];
  if (known) return known;
  const { centroids, centroidScales: scales, sizes } = clusters;
  const row = Int32Array.from(centroids.subarray(center * dim, (center + 1) * dim));
  const cos = new Float64Array(sizes.length);
  for (let c = 0; c < sizes.length; c++) cos[c] = dot(centroids, c * dim, row, dim) * scales[c] * scales[center];
  const others = sizes.map((_, c) => c).filter((c) => c !== center).sort((a, b) => cos[b] - cos[a] || a - b);
  const hood = [center];
  let held = sizes[center];
  for (const cluster of others) {
    if (held >= clusters.hoodChunks) break;
    hood.push(cluster);
    held += sizes[cluster];
  }
  clusters.hoods[center] = hood;
  return hood;
}

/**
 * The clusters file vectors.<index>.bin holds, in order: group `index`'s, or (hoods) cluster
 * `index`'s hood. @param {Clusters} clusters @param {number} dim @param {number} index
 */
function fileClusters(clusters, dim, index) {
  if (clusters.hoodChunks) return hoodOf(clusters, dim, index);
  const end = index + 1 < clusters.groups.length ? clusters.groups[index + 1] : clusters.sizes.length;
  return Array.from({ length: end - clusters.groups[index] }, (_, i) => clusters.groups[index] + i);
}

/**
 * Read vectors.<index>.bin (per cluster it holds, fileClusters: its chunk numbers, rows and
 * scales) into the bundle's vectors; a file that fails marks its clusters not yet loaded failed
 * (queries go on without them) and throws.
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadGroup(bundle, fetchFile, index) {
  const vectors = /** @type {Vectors} */ (bundle.vectors);
  const clusters = /** @type {Clusters} */ (vectors.clusters);
  const held = fileClusters(clusters, vectors.dim, index);
  try {
    const name = vectorShard(index);
    const bytes = await readFile(fetchFile, bundle.manifest, name);
    const blocks = byColumns(bundle.manifest) ? tableBlocks : rowBlocks;
    const read = blocks(name, bytes, held.map((cluster) => clusters.sizes[cluster]), vectors.dim, clusters.bits);
    for (const { chunks } of read) checkChunks(name, chunks, bundle.nChunks);
    read.forEach(({ chunks, rows }, i) => {
      if (clusters.members[held[i]]) return; // hoods: loaded with another file
      clusters.rows[held[i]] = rows;
      clusters.members[held[i]] = chunks;
    });
  } catch (error) {
    for (const cluster of held) if (!clusters.members[cluster]) clusters.failed[cluster] = 1;
    throw error;
  }
}

/** @typedef {{chunks: Uint32Array, rows: {values: Int8Array, scales: Float64Array}}} Block a cluster's, as read */

/**
 * A group or hood file by rows (formats 3 to 9), the clusters of `sizes` one after another,
 * its length checked -> their blocks.
 * @param {string} name @param {Uint8Array} bytes @param {number[]} sizes @param {number} dim
 * @param {number} bits @returns {Block[]}
 */
function rowBlocks(name, bytes, sizes, dim, bits) {
  const width = 4 + rowBytes(dim, bits) + 4;
  const expected = sizes.reduce((sum, size) => sum + size * width, 0);
  if (bytes.length !== expected) throw new BundleError(`${name} has ${bytes.length} bytes, expected ${expected} (corrupted)`);
  let at = 0;
  return sizes.map((size) => {
    const { chunks, values, scales } = readTable(name, bytes.subarray(at, at + size * width), size, dim, bits, true, false);
    at += size * width;
    return { chunks, rows: { values, scales } };
  });
}

/**
 * A group or hood file by columns (format 10): its one table split into the blocks of the
 * clusters of `sizes`.
 * @param {string} name @param {Uint8Array} bytes @param {number[]} sizes @param {number} dim
 * @param {number} bits @returns {Block[]}
 */
function tableBlocks(name, bytes, sizes, dim, bits) {
  const table = readTable(name, bytes, sizes.reduce((a, b) => a + b, 0), dim, bits, true, true);
  let at = 0;
  return sizes.map((size) => {
    const start = at;
    at += size;
    const rows = { values: table.values.subarray(start * dim, at * dim), scales: table.scales.subarray(start, at) };
    return { chunks: table.chunks.subarray(start, at), rows };
  });
}

/**
 * A cluster's chunk numbers rise and name chunks that exist.
 * @param {string} name @param {Uint32Array} chunks @param {number} nChunks
 */
function checkChunks(name, chunks, nChunks) {
  for (let i = 0; i < chunks.length; i++) {
    if ((i && chunks[i] <= chunks[i - 1]) || chunks[i] >= nChunks) {
      throw new BundleError(`${name}: its chunk numbers must rise and name chunks that exist (corrupted)`);
    }
  }
}

/**
 * Every cell (two levels) and every group, in the order bundle/read.py reads them, then each
 * chunk in one cluster only (node: drivers, tests, benchmarks); any that fails throws.
 * @param {Bundle} bundle @param {FetchFile} fetchFile
 */
export async function loadAllClusters(bundle, fetchFile) {
  const clusters = /** @type {Clusters} */ (/** @type {Vectors} */ (bundle.vectors).clusters);
  for (let index = 0; index < (clusters.cells?.counts.length ?? 0); index++) await loadCell(bundle, fetchFile, index);
  const seen = new Uint8Array(bundle.nChunks);
  for (let index = 0; index < clusters.groups.length; index++) {
    await loadGroup(bundle, fetchFile, index);
    const end = index + 1 < clusters.groups.length ? clusters.groups[index + 1] : clusters.sizes.length;
    for (let cluster = clusters.groups[index]; cluster < end; cluster++) {
      for (const chunk of /** @type {Uint32Array} */ (clusters.members[cluster])) {
        if (seen[chunk]++) throw new BundleError(`vectors.${index}.bin: a chunk in two clusters (corrupted)`);
      }
    }
  }
}

/**
 * `numbers` (rows of `rows`: cluster or cell numbers) by the cosine of their rows with the query
 * (integer dot products, as for passages), best first, ties to the lower number.
 * @param {Int8Array} rows @param {Float64Array} scales @param {number[]} numbers @param {number} dim
 * @param {number[]} query @param {number} levels
 */
function bestFirst(rows, scales, numbers, dim, query, levels) {
  const { q, scale } = quantizeQuery(query, levels);
  const cos = new Float64Array(scales.length); // by number: no Map lookups in the sort
  for (const c of numbers) cos[c] = dot(rows, c * dim, q, dim) * scales[c] * scale;
  return [...numbers].sort((a, b) => cos[b] - cos[a] || a - b);
}

/**
 * The first of `order` taken while fewer than `probe` are taken or their sizes add up to fewer
 * than `probeChunks`.
 * @param {number[]} order @param {number[]} sizes @param {number} probe @param {number} probeChunks
 */
function taken(order, sizes, probe, probeChunks) {
  /** @type {number[]} */
  const out = [];
  let read = 0;
  for (const number of order) {
    if (out.length >= probe && read >= probeChunks) break;
    out.push(number);
    read += sizes[number];
  }
  return out;
}

/**
 * Two levels: the cells a query takes, best first, until their clusters' chunks add up to at
 * least `cellChunks` (at least one cell).
 * @param {Cells} cells @param {number} dim @param {number[]} query @param {number} levels
 */
export function probedCells(cells, dim, query, levels) {
  const numbers = Array.from({ length: cells.counts.length }, (_, g) => g);
  return taken(bestFirst(cells.centroids, cells.scales, numbers, dim, query, levels), cells.chunks, 1, cells.cellChunks);
}

/**
 * Hoods: the files a query reads, in the order taken: down the clusters best first, each
 * cluster no file taken holds takes its own file, until `probe` files are taken (spec:
 * engine/vector.py probed_files).
 * @param {Clusters} clusters @param {number} dim @param {number[]} query @param {number} levels
 */
export function probedFiles(clusters, dim, query, levels) {
  const numbers = Array.from({ length: clusters.sizes.length }, (_, c) => c);
  /** @type {number[]} */
  const taken = [];
  const held = new Uint8Array(clusters.sizes.length);
  for (const cluster of bestFirst(clusters.centroids, clusters.centroidScales, numbers, dim, query, levels)) {
    if (taken.length >= clusters.probe) break;
    if (held[cluster]) continue;
    taken.push(cluster);
    for (const c of hoodOf(clusters, dim, cluster)) held[c] = 1;
  }
  return taken;
}

/**
 * The clusters a query reads: by the cosine of their centroids with the query (integer dot
 * products, as for passages), best first, ties to the lower cluster number, taken while fewer
 * than `probe` are taken or fewer than `probeChunks` chunks are read; two levels: among the
 * clusters of the cells taken (probedCells) that are loaded only; hoods: every cluster the files
 * taken hold (probedFiles), in rising order.
 * @param {Clusters} clusters @param {number} dim @param {number[]} query @param {number} levels
 */
export function probedClusters(clusters, dim, query, levels) {
  if (clusters.hoodChunks) {
    const held = new Set(probedFiles(clusters, dim, query, levels).flatMap((c) => hoodOf(clusters, dim, c)));
    return [...held].sort((a, b) => a - b);
  }
  const cells = clusters.cells;
  let numbers = Array.from({ length: clusters.sizes.length }, (_, c) => c);
  if (cells) {
    numbers = [];
    for (const g of probedCells(cells, dim, query, levels).sort((a, b) => a - b)) {
      if (cells.state[g] !== 1) continue;
      for (let c = cells.starts[g]; c < cells.starts[g] + cells.counts[g]; c++) numbers.push(c);
    }
  }
  const order = bestFirst(clusters.centroids, clusters.centroidScales, numbers, dim, query, levels);
  return taken(order, clusters.sizes, clusters.probe, clusters.probeChunks);
}

/**
 * Cosines of the probed clusters' chunks (every other chunk: 0), or null while a probed
 * cluster is neither loaded nor failed (its group goes into `wanted`: worker.js fetches it).
 * @param {Vectors} vectors @param {number[]} query @param {number} levels @param {number} nChunks
 * @param {Set<number> | null} wanted
 */
export function clusterCosines(vectors, query, levels, nChunks, wanted) {
  const clusters = /** @type {Clusters} */ (vectors.clusters);
  const dim = vectors.dim;
  if (clusters.cells) { // two levels: the cells taken first (as -1 - cell)
    const cells = clusters.cells;
    for (const g of probedCells(cells, dim, query, levels)) if (!cells.state[g]) wanted?.add(-1 - g);
    if (wanted?.size) return null;
  }
  const probed = probedClusters(clusters, dim, query, levels);
  /** @param {number} cluster */
  const missing = (cluster) => !clusters.members[cluster] && !clusters.failed[cluster];
  if (clusters.hoodChunks) { // each file taken whose clusters are not all in
    for (const c of probedFiles(clusters, dim, query, levels)) if (hoodOf(clusters, dim, c).some(missing)) wanted?.add(c);
  } else {
    for (const cluster of probed) if (missing(cluster)) wanted?.add(clusters.groupOf[cluster]);
  }
  if (wanted?.size) return null;
  const { q, scale } = quantizeQuery(query, levels);
  const out = new Float64Array(nChunks);
  for (const cluster of probed) {
    const members = clusters.members[cluster], rows = clusters.rows[cluster];
    if (!members || !rows) continue; // failed: left out
    const { values, scales } = rows;
    for (let i = 0; i < members.length; i++) out[members[i]] = dot(values, i * dim, q, dim) * scales[i] * scale;
  }
  return out;
}
