// @ts-check
/**
 * The files any query needs, whatever its words: fetched on the reader's first sign of intent,
 * by the page beside worker.js as soon as it has the manifest (ui/client.js hands their bytes to
 * the service), else by the service once it has read the manifest (worker.js). The page would
 * otherwise wait for worker.js to arrive and start before any of them left, and a query pasted
 * meanwhile for them, then for its term shards (issue 23: pasted latency). It imports format.js
 * only, so a page view loads none of the engine (js/test/layering.test.js).
 */
import { displayFragment, graphShard, oneGraphShard, storedName } from "./format.js";

/** The keyword part (a query's term shards wait on it: first), then the semantic part's files
 * every query reads (vector-shards.js: every vector, or a clustered bundle's centroids;
 * encoder.js: its header and word list). */
const PARTS = ["keyword.json", "encoder.json", "vectors.bin", "centroids.bin", "words.bin"];

/**
 * The file names of those a manifest lists in files of their own (format 9's manifest holds
 * graph.json and encoder.json: format.js inlinePart); on a small site (format.js oneGraphShard) also its
 * display fragment 0 and, with vectors, its graph: most answers' pages and every expansion's
 * edges, needed before the answer, not after the query's term shards or vectors.
 * @param {any} manifest @returns {string[]}
 */
export function warmFiles(manifest) {
  const graph = manifest.vectors ? ["graph.json", graphShard(0)] : [];
  const names = oneGraphShard(manifest) ? [...PARTS, displayFragment(0), ...graph] : PARTS;
  return names.flatMap((name) => storedName(manifest, name) ?? []);
}

/**
 * warmFiles of a manifest's bytes as the page received them, before anything checked them:
 * none when they do not parse (the service reads the manifest and reports what is wrong).
 * @param {Uint8Array} bytes @returns {string[]}
 */
export function warmFilesOf(bytes) {
  try {
    return warmFiles(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return [];
  }
}
