// The search service's final (complete) answers to a fixed list of queries on a bundle folder:
// page and section ids with scores rounded to 1e-6, one JSON object by query. Run it with two
// runtimes on two bundles of the same docs to check that a layout change left every answer as
// it was (benchmarks/results/history/format3-work-log.md).
// Usage: node benchmarks/service_answers.mjs BUNDLE_DIR [MODE] [RUNTIME_SRC] [--queries FILE.jsonl] > answers.json
// (--queries: the `query` of each line of a judged set instead of the fixed list)
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const at = args.indexOf("--queries");
const queriesFile = at < 0 ? null : args.splice(at, 2)[1];
const [folder, mode = "hybrid", runtime = "js/src"] = args;
// The engine half of a runtime: js/src/engine/, or the js/src of a checkout from before the split.
const engineDir = existsSync(resolve(runtime, "engine", "worker.js")) ? resolve(runtime, "engine") : resolve(runtime);
const { createService } = await import(pathToFileURL(resolve(engineDir, "worker.js")).href);
const FIXED = ["install", "pod security", "how do I change the theme", "kubectl apply", "configure a liveness probe",
  "kubectl.apply", "ConfigMap", "livenessProbe", "instal", "securty context", "mkdocs.yml", "nav", "theme_dir", "plugins"];
const QUERIES = queriesFile ? readFileSync(queriesFile, "utf8").split("\n").filter((line) => line.trim())
  .map((line) => JSON.parse(line).query) : FIXED;
/** @type {Record<string, unknown>} */
const out = {};
for (const query of QUERIES) {
  out[query] = await new Promise((done) => {
    const service = createService((message) => {
      if (message.type !== "results" || !message.complete) return;
      done(message.results.map((/** @type {any} */ r) => [r.page, r.sections?.map((/** @type {any} */ s) => [s.id, +s.score.toFixed(6)])]));
    }, { fetcher: () => async (/** @type {string} */ name) => new Uint8Array(await readFile(join(folder, name))) });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
    service.handle({ type: "query", channel: "box", id: 1, query, mode });
  });
}
console.log(JSON.stringify(out));
