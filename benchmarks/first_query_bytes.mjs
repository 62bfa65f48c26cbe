// Bytes a reader's first query fetches from a bundle folder, counted through the search
// service's fetcher (worker.js createService, as in the browser; the runtime's own scripts not
// counted): gzip size (level 9) of each file, until the first answer (titles) and until the
// first complete answer (snippets in), in all and by part (the file name's first word: `text`,
// `display`, `postings` = term shards, `manifest`, ...), and the first answer in hybrid mode.
// Usage: node benchmarks/first_query_bytes.mjs BUNDLE_DIR QUERY [MODE] [RUNTIME_SRC]
// RUNTIME_SRC (default js/src) lets the same script measure another checkout's runtime.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [folder, query, mode = "keyword", runtime = "js/src"] = process.argv.slice(2);
// The engine half of a runtime: js/src/engine/, or the js/src of a checkout from before the split.
const engineDir = existsSync(resolve(runtime, "engine", "worker.js")) ? resolve(runtime, "engine") : resolve(runtime);
const { createService } = await import(pathToFileURL(resolve(engineDir, "worker.js")).href);
/** @type {{name: string, gzip: number}[]} */
const fetched = [];
const report = (/** @type {string} */ when) => {
  const gzip = fetched.reduce((sum, file) => sum + file.gzip, 0);
  /** @type {Record<string, number>} */
  const parts = {};
  /** @type {Record<string, number>} */
  const requests = {};
  for (const file of fetched) {
    const part = file.name.split(".")[0];
    parts[part] = (parts[part] ?? 0) + file.gzip;
    requests[part] = (requests[part] ?? 0) + 1;
  }
  for (const part in parts) parts[part] = +(parts[part] / 1024).toFixed(1);
  return { when, files: fetched.length, gzip_bytes: gzip, gzip_kib: +(gzip / 1024).toFixed(1), parts, requests };
};
const out = [];
await new Promise((done) => {
  const service = createService((message) => {
    if (message.type === "status" && message.state === "error") throw new Error(message.message);
    if (message.type !== "results") return;
    if (!out.length) out.push(report("first answer"));
    if (message.mode === "hybrid" && !out.some((step) => step.when === "first hybrid answer")) {
      out.push(report("first hybrid answer"));
    }
    if (message.complete) {
      out.push(report("first complete answer"));
      done(undefined);
    }
  }, {
    fetcher: () => async (/** @type {string} */ name) => {
      const bytes = await readFile(join(folder, name));
      fetched.push({ name, gzip: gzipSync(bytes, { level: 9 }).length });
      return new Uint8Array(bytes); // as fetch gives (a node Buffer's slice() is a view)
    },
  });
  service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
  service.handle({ type: "query", channel: "box", id: 1, query, mode });
});
console.log(JSON.stringify({ bundle: folder, query, mode, steps: out, fetched: fetched.map((f) => f.name) }));
