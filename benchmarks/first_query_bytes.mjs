// Bytes a reader's first query fetches from a bundle folder, counted through the search
// service's fetcher (worker.js createService, as in the browser; the runtime's own scripts not
// counted): gzip size (level 9) of each file, until the first answer (titles) and until the
// first complete answer (snippets in), in all and by part (the file name's first word: `text`,
// `display`, `postings` = term shards, `manifest`, ...), and the first answer in hybrid mode.
// Usage: node benchmarks/first_query_bytes.mjs BUNDLE_DIR QUERY [MODE] [RUNTIME_SRC]
//        node benchmarks/first_query_bytes.mjs BUNDLE_DIR --queries FILE.jsonl [--typed MS] [MODE] [RUNTIME_SRC]
// RUNTIME_SRC (default js/src) lets the same script measure another checkout's runtime.
// --queries: each query of a judged set (a `query` field a line) in a fresh service, pasted
// (settled); --typed MS: typed instead, one prefix every MS milliseconds (the semantic pause
// applies), counted until the whole query's complete answer; --typed each: typed with no clock
// (once every part is in, each prefix sent when the files it asked for are in, the typing pause
// never ending, then the whole query as if the reader paused: the most a typed question fetches
// when every key is answered, the same on a loaded machine). Prints one JSON line a query, then
// the medians of requests and gzip KiB at each step (and per kind of file, the median and most
// requests); typed, also how many of the question's prefixes got an answer (shown while typing:
// `prefixes_answered`).
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const args = process.argv.slice(2);
/** @param {string} flag */
const option = (flag) => {
  const at = args.indexOf(flag);
  return at < 0 ? null : args.splice(at, 2)[1];
};
const queriesFile = option("--queries");
const typedMs = option("--typed");
const [folder, ...rest] = args;
const [query, mode = "keyword", runtime = "js/src"] = queriesFile ? [null, ...rest] : rest;
// The engine half of a runtime: js/src/engine/, or the js/src of a checkout from before the split.
const engineDir = existsSync(resolve(runtime, "engine", "worker.js")) ? resolve(runtime, "engine") : resolve(runtime);
const { createService } = await import(pathToFileURL(resolve(engineDir, "worker.js")).href);

/** @param {{name: string, gzip: number}[]} fetched @param {string} when */
const report = (fetched, when) => {
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

/** Resolves once `busy()` has stayed false over a few timer turns (the service's answers and the
 * fetches they start are in). @param {() => boolean} busy */
async function settle(busy) {
  for (let quiet = 0; quiet < 3; quiet = busy() ? 0 : quiet + 1) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * One search in a fresh service: `texts` sent one after another, `delay` ms apart (the last is
 * the query; one text and `settled`: pasted; delay "each": --typed each).
 * @param {string[]} texts @param {number | "each"} delay @param {boolean} settled
 */
async function measure(texts, delay, settled) {
  /** @type {{name: string, gzip: number}[]} */
  const fetched = [];
  const out = [];
  const last = texts.length;
  /** The typed prefixes that got an answer (shown while typing). @type {Set<number>} */
  const answered = new Set();
  let loading = 0;
  let loaded = () => {};
  const allParts = new Promise((resolve) => { loaded = () => resolve(undefined); });
  /** @type {any} */
  let service;
  await new Promise((done) => {
    service = createService((message) => {
      if (message.type === "status" && message.state === "error") throw new Error(message.message);
      if (message.type === "status" && message.done) loaded();
      if (message.type === "results" && message.id < last) answered.add(message.id);
      if (message.type !== "results" || message.id !== last) return;
      if (!out.length) out.push(report(fetched, "first answer"));
      if (message.mode === "hybrid" && !out.some((step) => step.when === "first hybrid answer")) {
        out.push(report(fetched, "first hybrid answer"));
      }
      if (message.complete) {
        out.push(report(fetched, "first complete answer"));
        done(undefined);
      }
    }, {
      fetcher: () => async (/** @type {string} */ name) => {
        loading++;
        const bytes = await readFile(join(folder, name));
        fetched.push({ name, gzip: gzipSync(bytes, { level: 9 }).length });
        loading--;
        return new Uint8Array(bytes); // as fetch gives (a node Buffer's slice() is a view)
      },
      semanticPause: delay === "each" ? 3_600_000 : undefined, // an hour: it never ends while typing
    });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
    const ask = (/** @type {number} */ i, /** @type {boolean} */ whole) =>
      service.handle({ type: "query", channel: "box", id: i + 1, query: texts[i], mode, settled: whole });
    if (delay !== "each") texts.forEach((_, i) => setTimeout(() => ask(i, settled), i * delay));
    else {
      allParts.then(async () => {
        for (let i = 0; i < last - 1; i++) {
          ask(i, false);
          await settle(() => loading > 0);
        }
        ask(last - 1, true);
      });
    }
  });
  if (delay === "each") service.handle({ type: "clear", channel: "box" }); // its pause timer goes too
  return { steps: out, fetched: fetched.map((f) => f.name), answered: answered.size };
}

if (!queriesFile) {
  const { steps, fetched } = await measure([/** @type {string} */ (query)], 0, false);
  console.log(JSON.stringify({ bundle: folder, query, mode, steps, fetched }));
} else {
  const queries = readFileSync(queriesFile, "utf8").split("\n").filter((line) => line.trim())
    .map((line) => JSON.parse(line).query);
  /** @type {Record<string, {files: number[], gzip_kib: number[], kinds: Record<string, number>[]}>} */
  const steps = {};
  /** @type {number[]} */
  const answeredCounts = [];
  for (const text of queries) {
    const typed = typedMs ? [...text].map((_, i) => text.slice(0, i + 1)) : [text];
    const result = await measure(typed, typedMs === "each" ? "each" : Number(typedMs ?? 0), !typedMs);
    console.log(JSON.stringify({ query: text, steps: result.steps, fetched: result.fetched,
                                 ...(typedMs ? { prefixes_answered: result.answered } : {}) }));
    answeredCounts.push(result.answered);
    for (const step of result.steps) {
      steps[step.when] ??= { files: [], gzip_kib: [], kinds: [] };
      steps[step.when].files.push(step.files);
      steps[step.when].gzip_kib.push(step.gzip_kib);
      steps[step.when].kinds.push(step.requests);
    }
  }
  const median = (/** @type {number[]} */ values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  /** Per kind of file, the median and most requests over the queries (a query without one: 0). */
  const byKind = (/** @type {Record<string, number>[]} */ kinds) => Object.fromEntries(
    [...new Set(kinds.flatMap(Object.keys))].sort().map((kind) => {
      const counts = kinds.map((each) => each[kind] ?? 0);
      return [kind, [median(counts), Math.max(...counts)]];
    }));
  const summary = Object.fromEntries(Object.entries(steps).map(([when, { files, gzip_kib, kinds }]) =>
    [when, { queries: files.length, requests_p50: median(files), requests_max: Math.max(...files),
             gzip_kib_p50: +median(gzip_kib).toFixed(1), gzip_kib_max: Math.max(...gzip_kib),
             requests_by_kind_p50_max: byKind(kinds) }]));
  console.log(JSON.stringify({ bundle: folder, queries: queriesFile, mode,
                               typed_ms: typedMs === "each" ? "each" : typedMs && Number(typedMs),
                               runtime, summary,
                               ...(typedMs ? { prefixes_answered_p50: median(answeredCounts) } : {}) }));
}
