// Run the JS runtime's search over a query list many times, for `node --cpu-prof`.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof benchmarks/profile_query.mjs BUNDLE_DIR QUERIES [ROUNDS] [MODE]
//   python3 benchmarks/cpuprofile_summary.py /tmp/prof/*.cpuprofile
//
// QUERIES: a .json array or .jsonl file of objects with a "query" field.

import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, "..", "js", "src");
const { loadBundle } = await import(path.join(src, "engine", "worker.js"));
const { search } = await import(path.join(src, "engine", "engine.js"));

const [dir, queryFile, rounds = "50", mode = "keyword"] = process.argv.slice(2);
if (!dir || !queryFile) {
  console.error("usage: profile_query.mjs BUNDLE_DIR QUERIES [ROUNDS] [MODE]");
  process.exit(2);
}
const text = await fs.readFile(queryFile, "utf8");
const queries = (queryFile.endsWith(".jsonl")
  ? text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l))
  : JSON.parse(text)).map((q) => q.query);
const bundle = await loadBundle((name) => fs.readFile(path.join(dir, name)));
const t0 = performance.now();
for (let r = 0; r < Number(rounds); r++) for (const q of queries) search(bundle, q, { mode });
const total = performance.now() - t0;
console.log(`${queries.length} queries x ${rounds} rounds: ${(total / (queries.length * Number(rounds))).toFixed(3)} ms/query`);
