// Query latency of the JS runtime under node, keyword vs hybrid, on any bundle.
// Usage: node benchmarks/hybrid_latency.mjs BUNDLE_DIR QUERIES.jsonl   (5 timed rounds after 3 warm-up)
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadBundle } from "../js/src/worker.js";
import { search } from "../js/src/engine.js";
const dir = process.argv[2];
const queries = (await readFile(process.argv[3], "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l).query);
let t = performance.now();
const bundle = await loadBundle((n) => readFile(join(dir, n)));
console.log(`loadBundle (all parts) ${(performance.now() - t).toFixed(1)} ms`);
for (const mode of ["keyword", "hybrid"]) {
  const times = [];
  for (let round = 0; round < 8; round++) for (const q of queries) {
    t = performance.now(); search(bundle, q, { mode }); const dt = performance.now() - t;
    if (round >= 3) times.push(dt);
  }
  times.sort((a, b) => a - b);
  const p = (x) => times[Math.min(times.length - 1, Math.floor(x * times.length))].toFixed(2);
  console.log(`${mode}: p50 ${p(0.5)} ms p95 ${p(0.95)} ms (${times.length} timed searches)`);
}
