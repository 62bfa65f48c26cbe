// The query encoder's files a pasted query fetches (issue 23: its words should reach their rows
// in one round trip and few files), and its complete answer, for each judged query of a set: one
// fresh search service per query (worker.js createService, as the page's worker runs it) over a
// bundle folder. Run it with two runtimes on two bundles of the same docs to compare the files
// and check that every answer stayed as it was.
// Usage: node benchmarks/encoder_files.mjs BUNDLE_DIR QUERIES.jsonl [MODE] [RUNTIME_SRC] > out.json
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [folder, queriesFile, mode = "hybrid", runtime = "js/src"] = process.argv.slice(2);
const { createService } = await import(pathToFileURL(resolve(runtime, "engine", "worker.js")).href);
const queries = (await readFile(queriesFile, "utf8")).trim().split("\n").map((line) => JSON.parse(line).query);
/** Logical names (content hash dropped) of the encoder's files: vocabulary, rows, words. */
const ENCODER_FILE = /^(vocab|encoder|words)\./;
/** @type {Record<string, {answer: unknown, files: string[]}>} */
const out = {};
for (const query of queries) {
  /** @type {string[]} */
  const fetched = [];
  out[query] = await new Promise((done) => {
    const service = createService((/** @type {any} */ message) => {
      if (message.type !== "results" || !message.complete) return;
      done({
        answer: message.results.map((/** @type {any} */ r) => [r.page, r.sections?.map((/** @type {any} */ s) => [s.id, +s.score.toFixed(6)])]),
        files: fetched.filter((name) => ENCODER_FILE.test(name)).map((name) => name.replace(/\.[0-9a-f]{8}\./, ".")),
      });
    }, { fetcher: () => async (/** @type {string} */ name) => (fetched.push(name), new Uint8Array(await readFile(join(folder, name)))) });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
    service.handle({ type: "query", channel: "box", id: 1, query, mode });
  });
}
console.log(JSON.stringify(out));
