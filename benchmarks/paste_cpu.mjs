// The search service's CPU from a pasted query to its complete answer, under node: a fresh
// service per query and runtime, the query sent once its warm-up is done, each file answered
// 20-80 ms after it is asked for (fixed per file name: files arrive spread over a round trip,
// as in a browser). Runtimes interleaved, so two checkouts are timed in one sitting on one bundle
// (what CPU the worker's orchestration costs where the machine's speed drifts; wall time is noted
// but follows the simulated delays and the load).
// Usage: node benchmarks/paste_cpu.mjs BUNDLE_DIR --runtime NAME=JS_SRC ... [--rounds 3] [--out FILE]
//   (queries: those of benchmarks/material_latency.py)
import { readFile, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { spawnSync } from "node:child_process";

const QUERIES = ["how do I deploy my docs to github pages", "configure navigation", "use_directory_urls", "add a custom 404 page"];
const WARM_MS = 2500;

/** Milliseconds a file takes to arrive. @param {string} name */
const delay = (name) => 20 + ([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 61);

/** One query in a fresh service (this process is a child: one runtime, one query). */
async function child(runtime, folder, query) {
  const { createService } = await import(pathToFileURL(resolve(runtime, "engine", "worker.js")).href);
  /** @type {string[] | null} */
  let after = null;
  const fetcher = () => async (/** @type {string} */ name) => {
    after?.push(name);
    const bytes = new Uint8Array(await readFile(join(folder, name)));
    await new Promise((done) => setTimeout(done, delay(name)));
    return bytes;
  };
  let t0 = 0, c0 = process.cpuUsage(), answers = 0;
  const out = await new Promise((done) => {
    const service = createService((message) => {
      if (message.type !== "results" || !after) return;
      answers++;
      if (!message.complete) return;
      const cpu = process.cpuUsage(c0);
      done({ cpu_ms: (cpu.user + cpu.system) / 1000, wall_ms: performance.now() - t0, fetches: after.length, answers });
    }, { fetcher });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
    setTimeout(() => {
      after = [];
      t0 = performance.now();
      c0 = process.cpuUsage();
      service.handle({ type: "query", channel: "box", id: 1, query, settled: true });
    }, WARM_MS);
  });
  console.log(JSON.stringify(out));
}

const median = (/** @type {number[]} */ v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--child") return child(args[1], args[2], args[3]);
  const folder = args[0];
  /** @type {[string, string][]} */
  const runtimes = [];
  let rounds = 3, out = "";
  for (let i = 1; i < args.length; i++) {
    if (args[i] === "--runtime") runtimes.push(/** @type {[string, string]} */ (args[++i].split("=", 2)));
    else if (args[i] === "--rounds") rounds = Number(args[++i]);
    else if (args[i] === "--out") out = args[++i];
  }
  const load = [loadavg()[0]];
  const rows = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of QUERIES) {
      for (const [name, src] of round % 2 ? [...runtimes].reverse() : runtimes) {
        const run = spawnSync(process.execPath, [process.argv[1], "--child", resolve(src), resolve(folder), query], { encoding: "utf8" });
        if (run.status !== 0) throw new Error(run.stderr);
        rows.push({ runtime: name, round, query, ...JSON.parse(run.stdout.trim().split("\n").pop() ?? "{}") });
      }
    }
  }
  load.push(loadavg()[0]);
  console.log("| runtime | worker CPU ms p50 (paste to complete) | CPU ms sum | wall ms p50 | answers posted p50 | fetches p50 |");
  console.log("|---|---|---|---|---|---|");
  for (const [name] of runtimes) {
    const mine = rows.filter((row) => row.runtime === name);
    const col = (/** @type {string} */ key) => mine.map((row) => row[key]);
    console.log(`| ${name} | ${median(col("cpu_ms")).toFixed(1)} | ${col("cpu_ms").reduce((a, b) => a + b, 0).toFixed(0)} | `
      + `${median(col("wall_ms")).toFixed(0)} | ${median(col("answers"))} | ${median(col("fetches"))} |`);
  }
  console.log(`load ${load[0].toFixed(2)} -> ${load[1].toFixed(2)}`);
  if (out) {
    await writeFile(out, JSON.stringify({ queries: QUERIES, rounds, loadavg: load,
      runtimes: runtimes.map(([name]) => name), rows }, null, 1) + "\n");
  }
}

await main();
