// @ts-check
/**
 * The clustered vector layout: a query reads a few clusters' vectors, not every vector, stored as
 * compact codes decoded here into int8 rows (spec: mkdocs_graphsearch/bundle/vector_shards.py
 * and engine/vector.py probed_clusters).
 * centroids.bin comes with the semantic part; vectors.<i>.bin when a query probes cluster i
 * (engine.js notes the clusters it needs in a `wanted` set; worker.js fetches them and asks
 * again; one that fails is marked `failed` and the answer goes out without it).
 */
import { BundleError, readFile } from "./bundle.js";
import { quantizeQuery } from "./vector.js";

/** @typedef {import("./bundle.js").Bundle} Bundle */
/** @typedef {import("./bundle.js").FetchFile} FetchFile */
/**
 * @typedef {{centroids: Int8Array, centroidScales: Float64Array, sizes: number[], probe: number,
 *            probeChunks: number, bits: number, members: (Uint32Array | undefined)[],
 *            failed: Uint8Array}} Clusters
 * @typedef {{values: Int8Array, scales: Float64Array, dim: number, clusters?: Clusters}} Vectors
 *   (clustered: values and scales hold the rows of the clusters loaded, `members` their chunks)
 */

export const CENTROIDS = "centroids.bin";

/** @param {number} index */
export const vectorShard = (index) => `vectors.${index}.bin`;

/** Bytes of one row of `dim` codes of `bits` bits. @param {number} dim @param {number} bits */
export const rowBytes = (dim, bits) => Math.ceil((dim * bits) / 8);

/**
 * Rows of `bits`-bit codes (code j: bits j*bits.. of the row as a little-endian bit stream, two's
 * complement; 8: int8 bytes) decoded into int8 values, then float32 little-endian scales
 * (vectors.bin's, centroids.bin's and each cluster's layout after its chunk numbers).
 * @param {string} name @param {Uint8Array} bytes @param {number} count @param {number} dim
 * @param {number} bits @param {number} [offset] bytes before the rows
 */
export function codeRows(name, bytes, count, dim, bits, offset = 0) {
  const width = rowBytes(dim, bits);
  if (bytes.length !== offset + count * (width + 4)) {
    throw new BundleError(`${name} has ${bytes.length} bytes, expected ${offset + count * (width + 4)} (corrupted)`);
  }
  const values = bits === 8 ? new Int8Array(bytes.buffer, bytes.byteOffset + offset, count * dim) : new Int8Array(count * dim);
  const sign = 1 << (bits - 1);
  for (let r = 0; r < count && bits !== 8; r++) {
    const row = offset + r * width;
    for (let j = 0; j < dim; j++) {
      let code = 0;
      for (let b = 0; b < bits; b++) {
        const t = j * bits + b;
        code |= ((bytes[row + (t >> 3)] >> (t & 7)) & 1) << b;
      }
      values[r * dim + j] = code >= sign ? code - 2 * sign : code;
    }
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset + count * width, 4 * count);
  const scales = new Float64Array(count);
  for (let i = 0; i < count; i++) scales[i] = view.getFloat32(4 * i, true);
  return { values, scales };
}

/**
 * The vectors of a bundle without clusters (vectors.bin: every row), or a clustered bundle's
 * centroids with room for every row (filled by loadCluster).
 * @param {Bundle} bundle @param {FetchFile} fetchFile @returns {Promise<Vectors | null>}
 */
export async function loadVectors(bundle, fetchFile) {
  const info = bundle.manifest.vectors;
  if (!info) return null;
  const n = bundle.nChunks, dim = info.dim;
  if (!info.clusters) return { ...codeRows("vectors.bin", await readFile(fetchFile, bundle.manifest, "vectors.bin"), n, dim, 8), dim };
  const { sizes, probe, probe_chunks: probeChunks, bits, centroid_bits: centroidBits } = info.clusters;
  const centroids = codeRows(CENTROIDS, await readFile(fetchFile, bundle.manifest, CENTROIDS), sizes.length, dim, centroidBits);
  return {
    values: new Int8Array(n * dim),
    scales: new Float64Array(n),
    dim,
    clusters: { centroids: centroids.values, centroidScales: centroids.scales, sizes, probe, probeChunks, bits,
                members: new Array(sizes.length).fill(undefined), failed: new Uint8Array(sizes.length) },
  };
}

/**
 * Read cluster `index` (vectors.<index>.bin: chunk numbers, rows, scales) into the bundle's
 * vectors; a file that fails marks the cluster failed (queries go on without it) and throws.
 * @param {Bundle} bundle @param {FetchFile} fetchFile @param {number} index
 */
export async function loadCluster(bundle, fetchFile, index) {
  const vectors = /** @type {Vectors} */ (bundle.vectors);
  const clusters = /** @type {Clusters} */ (vectors.clusters);
  try {
    const name = vectorShard(index);
    const size = clusters.sizes[index], dim = vectors.dim;
    const bytes = await readFile(fetchFile, bundle.manifest, name);
    const { values, scales } = codeRows(name, bytes, size, dim, clusters.bits, 4 * size);
    const view = new DataView(bytes.buffer, bytes.byteOffset, 4 * size);
    const chunks = new Uint32Array(size);
    for (let i = 0; i < size; i++) {
      chunks[i] = view.getUint32(4 * i, true);
      if ((i && chunks[i] <= chunks[i - 1]) || chunks[i] >= bundle.nChunks) {
        throw new BundleError(`${name}: its chunk numbers must rise and name chunks that exist (corrupted)`);
      }
    }
    chunks.forEach((chunk, i) => {
      vectors.values.set(values.subarray(i * dim, (i + 1) * dim), chunk * dim);
      vectors.scales[chunk] = scales[i];
    });
    clusters.members[index] = chunks;
  } catch (error) {
    clusters.failed[index] = 1;
    throw error;
  }
}

/**
 * The clusters a query reads: by the cosine of their centroids with the query (integer dot
 * products, as for passages), best first, ties to the lower cluster number, taken while fewer
 * than `probe` are taken or fewer than `probeChunks` chunks are read.
 * @param {Clusters} clusters @param {number} dim @param {number[]} query @param {number} levels
 */
export function probedClusters(clusters, dim, query, levels) {
  const { q, scale } = quantizeQuery(query, levels);
  const k = clusters.sizes.length;
  const cos = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    let dot = 0;
    for (let i = 0; i < dim; i++) dot += clusters.centroids[c * dim + i] * q[i];
    cos[c] = dot * clusters.centroidScales[c] * scale;
  }
  const order = Array.from({ length: k }, (_, c) => c).sort((a, b) => cos[b] - cos[a] || a - b);
  /** @type {number[]} */
  const probed = [];
  let read = 0;
  for (const cluster of order) {
    if (probed.length >= clusters.probe && read >= clusters.probeChunks) break;
    probed.push(cluster);
    read += clusters.sizes[cluster];
  }
  return probed;
}

/**
 * Cosines of the probed clusters' chunks (every other chunk: 0), or null while a probed
 * cluster is neither loaded nor failed (it goes into `wanted`: worker.js fetches it).
 * @param {Vectors} vectors @param {number[]} query @param {number} levels @param {number} nChunks
 * @param {Set<number> | null} wanted
 */
export function clusterCosines(vectors, query, levels, nChunks, wanted) {
  const clusters = /** @type {Clusters} */ (vectors.clusters);
  const { values, scales, dim } = vectors;
  const probed = probedClusters(clusters, dim, query, levels);
  for (const cluster of probed) if (!clusters.members[cluster] && !clusters.failed[cluster]) wanted?.add(cluster);
  if (wanted?.size) return null;
  const { q, scale } = quantizeQuery(query, levels);
  const out = new Float64Array(nChunks);
  for (const cluster of probed) {
    for (const c of clusters.members[cluster] ?? []) {
      let dot = 0;
      const row = c * dim;
      for (let i = 0; i < dim; i++) dot += values[row + i] * q[i];
      out[c] = dot * scales[c] * scale;
    }
  }
  return out;
}
