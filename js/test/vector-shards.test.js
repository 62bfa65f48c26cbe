// @ts-check
// The clustered vector layout (spec: bundle/vector_shards.py): the search service fetches the
// centroids with the semantic part and only the clusters a query probes; a cluster that fails
// is a warning and the answer goes out without it. The clustered bundle is the frozen bundle's
// data re-laid out here in memory (3 clusters of chunk % 3, centroid = the first member's row,
// 8-bit codes: the int8 rows). Also: the codes' bit layout and the probe rule, on the same
// inputs as tests/test_vector_shards.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { crc32, fileKey, fileName, listedParts } from "../src/engine/bundle/format.js";
import { loadBundle } from "../src/engine/worker.js";
import { codeRows, hoodOf, probedCells, probedClusters, probedFiles, readTable } from "../src/engine/bundle/vector-shards.js";
import { queryVector } from "../src/engine/encoder.js";
import { queryLevels } from "../src/engine/vector.js";
import { search } from "../src/engine/engine.js";
import { sealedManifest } from "./sealed-manifest.js";
import { askService } from "./service.js";

const BUNDLE = new URL("../../tests/vectors/engine/bundle/", import.meta.url);
const CLUSTERS = 3;

/** List a part in a manifest's `files` by its CRC-32 (bundle/format.js fileKey). @param {any} manifest @param {string} part @param {Uint8Array} bytes */
function listPart(manifest, part, bytes) {
  const [key, index] = fileKey(part);
  if (index === null) manifest.files[key] = crc32(bytes);
  else (manifest.files[key] ??= [])[index] = crc32(bytes);
}

/** The frozen bundle with its vectors in CLUSTERS clusters, probe `probe` (and `probeChunks`): name -> bytes.
 * Format 3 (one cluster a file), or with `groups` format 4: vectors.<g>.bin holds the clusters
 * groups[g] .. groups[g + 1] - 1 in turn; with `hoodChunks` format 6: vectors.<c>.bin holds cluster
 * c's hood. @param {number[] | null} [groups] @param {number} [hoodChunks] */
async function clusteredFiles(probe = 1, probeChunks = 0, groups = null, hoodChunks = 0) {
  const manifest = JSON.parse(await readFile(new URL("manifest.json", BUNDLE), "utf8"));
  /** @type {Map<string, Uint8Array>} */
  const files = new Map();
  for (const part of listedParts(manifest)) {
    if (part !== "vectors.bin") files.set(part, new Uint8Array(await readFile(new URL(fileName(manifest, part), BUNDLE))));
  }
  const vectors = new Uint8Array(await readFile(new URL(fileName(manifest, "vectors.bin"), BUNDLE)));
  const n = manifest.counts.chunks, dim = manifest.vectors.dim;
  const row = (/** @type {number} */ c) => vectors.subarray(c * dim, (c + 1) * dim);
  const scale = (/** @type {number} */ c) => vectors.subarray(n * dim + 4 * c, n * dim + 4 * c + 4);
  const members = Array.from({ length: CLUSTERS }, (_, k) => Array.from({ length: n }, (_, c) => c).filter((c) => c % CLUSTERS === k));
  const concat = (/** @type {Uint8Array[]} */ parts) => {
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) { out.set(part, at); at += part.length; }
    return out;
  };
  files.set("centroids.bin", concat([...members.map((m) => row(m[0])), ...members.map((m) => scale(m[0]))]));
  const blocks = members.map((m) => {
    const chunks = new Uint8Array(new Uint32Array(m).buffer); // little-endian hosts (node on x86/arm)
    return concat([chunks, ...m.map(row), ...m.map(scale)]);
  });
  const starts = groups ?? blocks.map((_, k) => k);
  starts.forEach((start, g) => files.set(`vectors.${g}.bin`, concat(blocks.slice(start, starts[g + 1] ?? blocks.length))));
  if (hoodChunks) {
    const centroids = new Int8Array(concat(members.map((m) => row(m[0]))).buffer);
    const scales = Float64Array.from(members, (m) => new DataView(scale(m[0]).slice().buffer).getFloat32(0, true));
    const sizes = members.map((m) => m.length);
    const clusters = /** @type {any} */ ({ centroids, centroidScales: scales, sizes, hoodChunks, hoods: [] });
    blocks.forEach((_, c) => files.set(`vectors.${c}.bin`, concat(hoodOf(clusters, dim, c).map((k) => blocks[k]))));
  }
  delete manifest.files["vectors.bin"];
  for (const [part, bytes] of files) {
    listPart(manifest, part, bytes);
  }
  manifest.vectors.clusters = { bits: 8, centroid_bits: 8, probe, probe_chunks: probeChunks, sizes: members.map((m) => m.length) };
  if (groups) Object.assign(manifest, { format: 4 }).vectors.clusters.groups = groups;
  // Hoods keep the frozen bundle's format: its display fragments are not format 6's compact ones.
  if (hoodChunks) manifest.vectors.clusters.hood_chunks = hoodChunks;
  /** @type {Map<string, Uint8Array>} by file name (bundle/format.js fileName) */
  const served = new Map([...files].map(([part, bytes]) => [fileName(manifest, part), bytes]));
  served.set("manifest.json", sealedManifest(manifest));
  return served;
}

/** A stored file's logical name: without the CRC-32 before its extension. @param {string} name */
const logical = (name) => name.replace(/\.[0-9a-f]{8}(\.\w+)$/, "$1");

/**
 * Run one query through the service; resolves with its answers, the files fetched, the warnings.
 * @param {Map<string, Uint8Array>} files @param {string} query @param {string} mode
 * @param {(name: string) => boolean} [fails]
 */
async function serve(files, query, mode, fails = () => false) {
  /** @type {string[]} */
  const fetched = [];
  const fetching = async (/** @type {string} */ name) => {
    fetched.push(logical(name));
    if (fails(logical(name))) throw new Error("HTTP 404");
    return /** @type {Uint8Array} */ (files.get(name));
  };
  const { answers, status } = await askService(fetching, { query, mode });
  return { answers, fetched, warnings: status?.warnings ?? [] };
}

const QUERY = "what happens when a render fails";

test("a vector query fetches only the clusters it probes, and answers as with every cluster loaded", async () => {
  const files = await clusteredFiles(1);
  const full = await loadBundle(async (name) => /** @type {Uint8Array} */ (files.get(name)));
  const vector = /** @type {number[]} */ (queryVector(full, QUERY));
  const probed = probedClusters(/** @type {any} */ (full.vectors).clusters, full.vectors?.dim ?? 0, vector, queryLevels(full.manifest));
  assert.equal(probed.length, 1);
  const { answers, fetched } = await serve(files, QUERY, "vector");
  assert.deepEqual(fetched.filter((name) => name.startsWith("vectors.")), [`vectors.${probed[0]}.bin`]);
  assert.ok(fetched.includes("centroids.bin"));
  const last = answers[answers.length - 1];
  assert.deepEqual(last.results, search(full, QUERY, { mode: "vector" }).results);
  // Every vector hit is a chunk of the probed cluster (graph neighbours may be any).
  const sections = search(full, QUERY, { mode: "vector", explain: true }).results.flatMap((/** @type {any} */ page) => page.sections);
  const hits = sections.filter((/** @type {any} */ s) => s.via.includes("vector"));
  assert.ok(hits.length > 0);
  for (const hit of hits) assert.equal(full.chunks.id.indexOf(hit.id) % CLUSTERS, probed[0], hit.id);
});

test("probing every cluster is exact search: the same answers as the frozen bundle's vectors.bin", async () => {
  const files = await clusteredFiles(CLUSTERS);
  const clustered = await loadBundle(async (name) => /** @type {Uint8Array} */ (files.get(name)));
  const frozen = await loadBundle((name) => readFile(new URL(name, BUNDLE)));
  for (const mode of ["vector", "hybrid"]) {
    assert.deepEqual(search(clustered, QUERY, { mode, explain: true }), search(frozen, QUERY, { mode, explain: true }));
  }
});

test("a cluster that fails to load is a warning, and the answer goes out without it", async () => {
  const files = await clusteredFiles(CLUSTERS);
  const { answers, fetched, warnings } = await serve(files, QUERY, "hybrid", (name) => name === "vectors.1.bin");
  assert.equal(fetched.filter((name) => name.startsWith("vectors.")).length, CLUSTERS);
  assert.ok(warnings.some((w) => w.startsWith("vectors: cannot read vectors.1.bin")), warnings.join("\n"));
  const last = answers[answers.length - 1];
  assert.equal(last.complete, true);
  assert.ok(last.results.length > 0);
  // The same as a bundle whose cluster 1 failed: its chunks have no cosine.
  const full = await loadBundle(async (name) => /** @type {Uint8Array} */ (files.get(name)));
  const clusters = /** @type {any} */ (full.vectors).clusters;
  clusters.members[1] = undefined;
  clusters.failed[1] = 1;
  assert.deepEqual(last.results, search(full, QUERY, { mode: "hybrid" }).results);
  assert.notDeepEqual(last.results, search(await loadBundle(async (name) => /** @type {Uint8Array} */ (files.get(name))), QUERY, { mode: "hybrid" }).results);
});

test("codes have the documented bit layout (the bytes of tests/test_vector_shards.py PACKED)", () => {
  const packed = [
    [4, [1, -1, 7, -7], [0xF1, 0x97]],
    [6, [1, -1, 31, -32], [0xC1, 0xFF, 0x81]],
    [6, [5, 0], [0x05, 0x00]],
    [8, [1, -1, 127, -127], [0x01, 0xFF, 0x7F, 0x81]],
  ];
  for (const [bits, codes, bytes] of /** @type {[number, number[], number[]][]} */ (packed)) {
    const scale = new Uint8Array(new Float32Array([0.5]).buffer);
    const { values, scales } = codeRows("x", new Uint8Array([...bytes, ...scale]), 1, codes.length, bits);
    assert.deepEqual([...values], codes, `bits ${bits}`);
    assert.deepEqual([...scales], [0.5]);
  }
  assert.throws(() => codeRows("x", new Uint8Array(5), 1, 4, 6), /x has 5 bytes, expected 7 \(corrupted\)/);
});

test("a table by columns has the documented layout (the bytes of tests/test_vector_shards.py TABLE)", () => {
  const table = new Uint8Array([5, 9, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x71, 0x00, 0x9F, 0x02,
                                0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0x3F, 0x40, 0x3F]);
  const { chunks, values, scales } = readTable("t", table, 3, 2, 4, true, true);
  assert.deepEqual([...chunks], [5, 9, 258]);
  assert.deepEqual([...values], [1, -1, 7, -7, 0, 2]);
  assert.deepEqual([...scales], [1, 2, 0.5]);
  assert.deepEqual([...codeRows("t", table.subarray(12), 3, 2, 4, true).values], [1, -1, 7, -7, 0, 2]);
  assert.throws(() => readTable("t", table.subarray(1), 3, 2, 4, true, true), /t has 27 bytes, expected 28 \(corrupted\)/);
});

test("the probe reads clusters best first until both counts are met", () => {
  const centroids = new Int8Array([100, 0, 0, 0, 100, 0, 0, 100, 0, 0, 0, 100]);
  const clusters = { centroids, centroidScales: new Float64Array(4).fill(1), sizes: [5, 1, 1, 9], probe: 1, probeChunks: 0,
                     bits: 8, members: [], failed: new Uint8Array(4) };
  const query = [0.1, 0.9, 0.5];
  const probed = (/** @type {number} */ probe, /** @type {number} */ probeChunks) =>
    probedClusters({ ...clusters, probe, probeChunks }, 3, query, 32767);
  assert.deepEqual(probed(1, 0), [1]);
  assert.deepEqual(probed(1, 2), [1, 2]);
  assert.deepEqual(probed(1, 3), [1, 2, 3]);
  assert.deepEqual(probed(3, 0), [1, 2, 3]);
  assert.deepEqual(probed(3, 16), [1, 2, 3, 0]);
});

test("probe_chunks: the service fetches every cluster the rule names, and answers as loaded in full", async () => {
  const files = await clusteredFiles(1, 4); // the frozen bundle's 9 chunks: 3 + 3 chunks, two clusters
  const full = await loadBundle(async (name) => /** @type {Uint8Array} */ (files.get(name)));
  const vector = /** @type {number[]} */ (queryVector(full, QUERY));
  const probed = probedClusters(/** @type {any} */ (full.vectors).clusters, full.vectors?.dim ?? 0, vector, queryLevels(full.manifest));
  assert.equal(probed.length, 2);
  const { answers, fetched } = await serve(files, QUERY, "vector");
  assert.deepEqual(fetched.filter((name) => name.startsWith("vectors.")).sort(), probed.map((c) => `vectors.${c}.bin`).sort());
  assert.deepEqual(answers[answers.length - 1].results, search(full, QUERY, { mode: "vector" }).results);
});

/**
 * clusteredFiles in two levels: clusters 0 and 1 in cell 0, cluster 2 in cell 1; the cells'
 * centroids are clusters 0's and 2's; a query takes cells until `cellChunks` chunks (1: one cell).
 * @param {number} cellChunks
 */
async function twoLevelFiles(cellChunks) {
  const files = await clusteredFiles(1);
  const manifest = JSON.parse(new TextDecoder().decode(files.get("manifest.json")));
  const dim = manifest.vectors.dim, k = CLUSTERS;
  const centroids = /** @type {Uint8Array} */ (files.get(fileName(manifest, "centroids.bin")));
  const rows = (/** @type {number[]} */ cs) => {
    const out = new Uint8Array(cs.length * (dim + 4));
    cs.forEach((c, i) => {
      out.set(centroids.subarray(c * dim, (c + 1) * dim), i * dim);
      out.set(centroids.subarray(k * dim + 4 * c, k * dim + 4 * c + 4), cs.length * dim + 4 * i);
    });
    return out;
  };
  files.delete(fileName(manifest, "centroids.bin"));
  const parts = new Map([["centroids.bin", rows([0, 2])], ["centroids.0.bin", rows([0, 1])], ["centroids.1.bin", rows([2])]]);
  for (const [part, bytes] of parts) {
    listPart(manifest, part, bytes);
    files.set(fileName(manifest, part), bytes);
  }
  Object.assign(manifest.vectors.clusters, { cells: [2, 1], cell_chunks: cellChunks });
  files.set("manifest.json", sealedManifest(manifest));
  return files;
}

test("two levels: the service fetches the centroids of the cells a query takes, then only their probed clusters", async () => {
  const files = await twoLevelFiles(1);
  const full = await loadBundle(async (name) => /** @type {Uint8Array} */ (files.get(name)));
  const clusters = /** @type {any} */ (full.vectors).clusters;
  const vector = /** @type {number[]} */ (queryVector(full, QUERY));
  const levels = queryLevels(full.manifest), dim = full.vectors?.dim ?? 0;
  const cells = probedCells(clusters.cells, dim, vector, levels);
  assert.equal(cells.length, 1);
  const probed = probedClusters(clusters, dim, vector, levels);
  assert.equal(probed.length, 1);
  assert.ok(probed[0] >= clusters.cells.starts[cells[0]] && probed[0] < clusters.cells.starts[cells[0]] + clusters.cells.counts[cells[0]]);
  const { answers, fetched } = await serve(files, QUERY, "vector");
  assert.deepEqual(fetched.filter((name) => name.startsWith("centroids.")), ["centroids.bin", `centroids.${cells[0]}.bin`]);
  assert.deepEqual(fetched.filter((name) => name.startsWith("vectors.")), [`vectors.${probed[0]}.bin`]);
  assert.deepEqual(answers[answers.length - 1].results, search(full, QUERY, { mode: "vector" }).results);
});

test("two levels, every cell taken: the same answers as one level", async () => {
  const flat = await clusteredFiles(1);
  const one = await loadBundle(async (name) => /** @type {Uint8Array} */ (flat.get(name)));
  const files = await twoLevelFiles(9); // counts.chunks
  const two = await loadBundle(async (name) => /** @type {Uint8Array} */ (files.get(name)));
  for (const mode of ["vector", "hybrid"]) {
    assert.deepEqual(search(two, QUERY, { mode }).results, search(one, QUERY, { mode }).results, mode);
  }
});

test("format 4: a query fetches the group file of each cluster it probes, once, and answers as format 3", async () => {
  const grouped = await clusteredFiles(1, 0, [0, 2]); // clusters 0 and 1 in vectors.0.bin, 2 in vectors.1.bin
  const single = await clusteredFiles(1);
  const full = await loadBundle(async (name) => /** @type {Uint8Array} */ (single.get(name)));
  const loaded = await loadBundle(async (name) => /** @type {Uint8Array} */ (grouped.get(name)));
  for (const mode of ["vector", "hybrid"]) {
    assert.deepEqual(search(loaded, QUERY, { mode, explain: true }), search(full, QUERY, { mode, explain: true }));
  }
  const vector = /** @type {number[]} */ (queryVector(full, QUERY));
  const [probed] = probedClusters(/** @type {any} */ (full.vectors).clusters, full.vectors?.dim ?? 0, vector, queryLevels(full.manifest));
  const { answers, fetched } = await serve(grouped, QUERY, "vector");
  assert.deepEqual(fetched.filter((name) => name.startsWith("vectors.")), [`vectors.${probed < 2 ? 0 : 1}.bin`]);
  assert.deepEqual(answers[answers.length - 1].results, search(full, QUERY, { mode: "vector" }).results);
});

test("format 4: a group file that fails is one warning, and the answer goes out without its clusters", async () => {
  const grouped = await clusteredFiles(CLUSTERS, 0, [0, 2]);
  const { answers, fetched, warnings } = await serve(grouped, QUERY, "hybrid", (name) => name === "vectors.0.bin");
  assert.deepEqual(fetched.filter((name) => name.startsWith("vectors.")).sort(), ["vectors.0.bin", "vectors.1.bin"]);
  assert.equal(warnings.filter((w) => w.startsWith("vectors: cannot read vectors.0.bin")).length, 1, warnings.join("\n"));
  const full = await loadBundle(async (name) => /** @type {Uint8Array} */ (grouped.get(name)));
  const clusters = /** @type {any} */ (full.vectors).clusters;
  for (const cluster of [0, 1]) {
    clusters.members[cluster] = undefined;
    clusters.failed[cluster] = 1;
  }
  assert.deepEqual(answers[answers.length - 1].results, search(full, QUERY, { mode: "hybrid" }).results);
});

test("hoods: a hood is its cluster then the nearest (the inputs of tests/test_vector_shards.py)", () => {
  const centroids = new Int8Array([10, 0, 7, 7, 10, 1, 0, 10, 7, 7]);
  const hood = (/** @type {number} */ center, /** @type {number} */ hoodChunks) =>
    hoodOf(/** @type {any} */ ({ centroids, centroidScales: new Float64Array(5).fill(1), sizes: [2, 3, 1, 4, 2], hoodChunks, hoods: [] }), 2, center);
  assert.deepEqual([hood(0, 1), hood(0, 3), hood(0, 4), hood(3, 7), hood(3, 8)], [[0], [0, 2], [0, 2, 1], [3, 1], [3, 1, 4]]);
  const clusters = /** @type {any} */ ({ centroids: new Int8Array([10, 0, 9, 3, 0, 10, 3, 9]), centroidScales: new Float64Array(4).fill(1),
                                         sizes: [2, 2, 2, 2], probe: 1, probeChunks: 0, hoodChunks: 4, hoods: [] });
  const query = [1.0, 0.2];
  assert.deepEqual([probedFiles(clusters, 2, query, 32767), probedClusters(clusters, 2, query, 32767)], [[0], [0, 1]]);
  clusters.probe = 2;
  assert.deepEqual([probedFiles(clusters, 2, query, 32767), probedClusters(clusters, 2, query, 32767)], [[0, 3], [0, 1, 2, 3]]);
});

test("hoods: a query fetches the hood file of its best cluster only, and answers as with every file loaded", async () => {
  const hoods = await clusteredFiles(1, 0, null, 6); // each hood: its cluster and the nearest (3 + 3 chunks)
  const full = await loadBundle(async (name) => /** @type {Uint8Array} */ (hoods.get(name)));
  const clusters = /** @type {any} */ (full.vectors).clusters;
  const vector = /** @type {number[]} */ (queryVector(full, QUERY));
  const [file] = probedFiles(clusters, full.vectors?.dim ?? 0, vector, queryLevels(full.manifest));
  assert.equal(hoodOf(clusters, full.vectors?.dim ?? 0, file).length, 2);
  const { answers, fetched } = await serve(hoods, QUERY, "vector");
  assert.deepEqual(fetched.filter((name) => name.startsWith("vectors.")), [`vectors.${file}.bin`]);
  for (const mode of ["vector", "hybrid"]) {
    const { answers: got } = await serve(hoods, QUERY, mode);
    assert.deepEqual(got[got.length - 1].results, search(full, QUERY, { mode }).results);
  }
  assert.ok(answers.length > 0);
});
