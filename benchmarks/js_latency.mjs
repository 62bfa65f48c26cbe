// Query latency and index load/build time of the graphsearch JS runtime, MkDocs' built-in
// lunr search and MiniSearch, measured in one node process on the same pages and queries.
//
//   node benchmarks/js_latency.mjs --bundle DIR --search-index SEARCH_INDEX_JSON \
//        --queries QUERIES_JSON [--rounds 20] [--warmup 3] [--load-repeats 5] [--scratch DIR]
//
// QUERIES_JSON: a JSON array of {"id", "query"} objects. Prints one JSON object on stdout.
// With --scratch, writes the serialized lunr index (lunr.json) and MiniSearch index
// (minisearch.json) there so the caller can measure their sizes.
// Run it through benchmarks/keyword_bench.py, which builds the inputs.

import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

import lunr from "lunr";
import MiniSearch from "minisearch";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, "..", "js", "src");
const { loadKeywordBundle } = await import(path.join(src, "engine", "bundle", "read.js"));
const { loadBundle } = await import(path.join(src, "engine", "worker.js"));
const { search } = await import(path.join(src, "engine", "engine.js"));
const { keywordScores } = await import(path.join(src, "keyword.js"));

function parseArgs(argv) {
  const args = { rounds: 20, warmup: 3, loadRepeats: 5, scratch: null };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === "--bundle") args.bundle = value;
    else if (key === "--search-index") args.searchIndex = value;
    else if (key === "--queries") args.queries = value;
    else if (key === "--rounds") args.rounds = Number(value);
    else if (key === "--warmup") args.warmup = Number(value);
    else if (key === "--load-repeats") args.loadRepeats = Number(value);
    else if (key === "--scratch") args.scratch = value;
    else throw new Error(`unknown option ${key}`);
  }
  for (const need of ["bundle", "searchIndex", "queries"]) {
    if (!args[need]) throw new Error(`--${need.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())} is required`);
  }
  return args;
}

/** q-quantile of sorted numbers, linear interpolation (numpy's default). */
function quantile(sorted, q) {
  if (!sorted.length) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

const median = (values) => quantile([...values].sort((a, b) => a - b), 0.5);

/** Time fn() `repeats` times (after one untimed warm-up call when warm is true); median ms. */
async function timeMedian(fn, repeats, warm = true) {
  if (warm) await fn();
  const times = [];
  let last;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    last = await fn();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), runs: times, value: last };
}

/**
 * Latency of run(query) over all queries: `warmup` untimed rounds over the whole query list,
 * then each query `rounds` times. p50/p95 over all samples; also the slowest query by median.
 */
function latency(queries, run, rounds, warmup) {
  for (let w = 0; w < warmup; w++) for (const q of queries) run(q.query);
  const samples = [];
  let slowest = { id: null, query: null, ms: -1 };
  for (const q of queries) {
    const mine = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      run(q.query);
      mine.push(performance.now() - t0);
    }
    samples.push(...mine);
    const m = median(mine);
    if (m > slowest.ms) slowest = { id: q.id, query: q.query, ms: m };
  }
  samples.sort((a, b) => a - b);
  return {
    p50_ms: quantile(samples, 0.5),
    p95_ms: quantile(samples, 0.95),
    max_ms: samples[samples.length - 1],
    mean_ms: samples.reduce((s, x) => s + x, 0) / samples.length,
    samples: samples.length,
    slowest_query: slowest,
  };
}

const args = parseArgs(process.argv.slice(2));
const queries = JSON.parse(await fs.readFile(args.queries, "utf8"));

// ---- ours: read the bundle files once, then time loadBundle from memory (no disk in the timing)
const files = new Map();
for (const name of await fs.readdir(args.bundle)) {
  files.set(name, await fs.readFile(path.join(args.bundle, name)));
}
const fetchFile = async (name) => {
  const bytes = files.get(name);
  if (!bytes) throw new Error(`no such file ${name}`);
  return bytes;
};
const oursLoad = await timeMedian(() => loadBundle(fetchFile), args.loadRepeats);
const oursFirst = await timeMedian(() => loadKeywordBundle(fetchFile), args.loadRepeats);
const bundle = oursLoad.value;

// ---- MkDocs' built-in search: search_index.json, lunr configured like its worker.js
const searchIndexText = await fs.readFile(args.searchIndex, "utf8");
const parseDocs = await timeMedian(() => JSON.parse(searchIndexText), args.loadRepeats);
const data = parseDocs.value;
const docs = data.docs;
if (data.config && data.config.separator) lunr.tokenizer.separator = new RegExp(data.config.separator);
// MkDocs 1.6 worker.js: this.field('title'); this.field('text'); this.ref('location') (no boost)
const buildLunr = () =>
  lunr(function () {
    this.field("title");
    this.field("text");
    this.ref("location");
    for (const doc of docs) this.add(doc);
  });
const lunrBuild = await timeMedian(buildLunr, Math.max(1, Math.min(args.loadRepeats, 3)));
const lunrIndex = lunrBuild.value;
const lunrSerialized = JSON.stringify(lunrIndex);
// what a site built with `prebuild_index: true` does: parse the serialized index, Index.load it
const lunrLoad = await timeMedian(() => lunr.Index.load(JSON.parse(lunrSerialized)), args.loadRepeats);

// ---- MiniSearch over the same docs (ids are positions: MkDocs' locations may repeat)
const miniOptions = {
  idField: "id",
  fields: ["title", "text"],
  storeFields: ["title", "location"],
  searchOptions: { prefix: true, fuzzy: 0.2, boost: { title: 2 } },
};
const miniDocs = docs.map((d, i) => ({ id: i, title: d.title, text: d.text, location: d.location }));
const miniBuild = await timeMedian(() => {
  const ms = new MiniSearch(miniOptions);
  ms.addAll(miniDocs);
  return ms;
}, Math.max(1, Math.min(args.loadRepeats, 3)));
const mini = miniBuild.value;
const miniSerialized = JSON.stringify(mini);
const miniLoad = await timeMedian(() => MiniSearch.loadJSON(miniSerialized, miniOptions), args.loadRepeats);

if (args.scratch) {
  await fs.mkdir(args.scratch, { recursive: true });
  await fs.writeFile(path.join(args.scratch, "lunr.json"), lunrSerialized);
  await fs.writeFile(path.join(args.scratch, "minisearch.json"), miniSerialized);
}

// ---- zero results / errors (one untimed pass)
let oursZero = 0, lunrZero = 0, lunrThrows = 0, miniZero = 0;
const perQuery = [];
const lunrErrors = [];
for (const q of queries) {
  const ours = search(bundle, q.query, { mode: "keyword" }).results.length;
  let lunrCount = 0, threw = false;
  try {
    lunrCount = lunrIndex.search(q.query).length;
  } catch (error) {
    threw = true;
    lunrErrors.push({ id: q.id, query: q.query, error: String(error && error.message || error) });
  }
  const miniCount = mini.search(q.query).length;
  if (ours === 0) oursZero++;
  if (threw) lunrThrows++;
  else if (lunrCount === 0) lunrZero++;
  if (miniCount === 0) miniZero++;
  perQuery.push({ id: q.id, query: q.query, ours, lunr: threw ? "error" : lunrCount, minisearch: miniCount });
}

// ---- latency (lunr: a query that throws costs what it costs until it throws, as in the browser)
const runOurs = (q) => search(bundle, q, { mode: "keyword" });
const runOursScoring = (q) => keywordScores(bundle, q);
const runLunr = (q) => {
  try {
    return lunrIndex.search(q);
  } catch {
    return null;
  }
};
const runMini = (q) => mini.search(q);

const result = {
  node: process.version,
  lunr_version: lunr.version,
  queries: queries.length,
  rounds: args.rounds,
  warmup: args.warmup,
  counts: { chunks: bundle.nChunks, pages: bundle.pages.path.length, mkdocs_docs: docs.length },
  load_ms: {
    ours_load_bundle: oursLoad.ms,
    ours_load_keyword_bundle: oursFirst.ms,
    search_index_json_parse: parseDocs.ms,
    lunr_build: lunrBuild.ms,
    lunr_index_load: lunrLoad.ms,
    minisearch_build: miniBuild.ms,
    minisearch_load_json: miniLoad.ms,
  },
  latency: {
    ours: latency(queries, runOurs, args.rounds, args.warmup),
    ours_scoring_only: latency(queries, runOursScoring, args.rounds, args.warmup),
    lunr: latency(queries, runLunr, args.rounds, args.warmup),
    minisearch: latency(queries, runMini, args.rounds, args.warmup),
  },
  zero_results: { ours: oursZero, lunr: lunrZero, lunr_errors: lunrThrows, minisearch: miniZero },
  lunr_errors: lunrErrors,
  per_query_counts: perQuery,
};
process.stdout.write(JSON.stringify(result) + "\n");
