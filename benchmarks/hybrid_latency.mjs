// Query latency of the JS runtime under node, keyword vs hybrid, on any bundle.
// Usage: node benchmarks/hybrid_latency.mjs BUNDLE_DIR QUERIES.jsonl [RUNTIME_SRC] [--typed]
//   (5 timed rounds after 3 warm-up; RUNTIME_SRC: another checkout's js/src, to time two
//   runtimes on one bundle in one sitting; --typed: each query's two typed prefixes too, its
//   first half and all but its last character, as a reader sees them while typing)
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const typed = args.includes("--typed");
const [dir, queryFile, runtime = new URL("../js/src", import.meta.url).pathname] = args.filter((a) => a !== "--typed");
// The engine half of a runtime: js/src/engine/, or the js/src of a checkout from before the split.
const engineDir = existsSync(resolve(runtime, "engine", "worker.js")) ? resolve(runtime, "engine") : resolve(runtime);
const { loadBundle } = await import(pathToFileURL(resolve(engineDir, "worker.js")).href);
const { search } = await import(pathToFileURL(resolve(engineDir, "engine.js")).href);
const full = (await readFile(queryFile, "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l).query);
/** @param {string} q */
const prefixes = (q) => [q.slice(0, Math.ceil(q.length / 2)).trim(), q.slice(0, -1).trim()].filter((p) => p.length >= 2);
const queries = typed ? [...new Set(full.flatMap((q) => [q, ...prefixes(q)]))] : full;
let t = performance.now();
const bundle = await loadBundle((/** @type {string} */ n) => readFile(join(dir, n)));
console.log(`loadBundle (all parts) ${(performance.now() - t).toFixed(1)} ms; ${queries.length} queries`);
/** @param {number[]} times @param {number} x */
const p = (times, x) => times[Math.min(times.length - 1, Math.floor(x * times.length))].toFixed(2);
for (const mode of ["keyword", "hybrid"]) {
  const times = [], cpu = [];
  for (let round = 0; round < 8; round++) for (const q of queries) {
    const used = process.cpuUsage();
    t = performance.now(); search(bundle, q, { mode }); const dt = performance.now() - t;
    const spent = process.cpuUsage(used);
    if (round >= 3) times.push(dt), cpu.push((spent.user + spent.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  // CPU time: the process's (every thread's) user + system time during the search, which waiting
  // for a core on a loaded machine does not inflate (wall time does).
  console.log(`${mode}: p50 ${p(times, 0.5)} ms p95 ${p(times, 0.95)} ms (${times.length} timed searches); CPU time p50 ${p(cpu, 0.5)} ms p95 ${p(cpu, 0.95)} ms`);
}
