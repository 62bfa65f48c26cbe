// Node driver for tests/test_bundle_integrity.py: many bundle folders in one process.
// Usage: node bundles.mjs, with {"bundles": [DIR, ...], "queries": [{"query", "mode"?}, ...]} on stdin.
// Prints one JSON line per folder, in order: {"answers": [search output per query]} or
// {"error": {"name", "message"}} for whatever loading or searching threw (a BundleError, or a
// TypeError the tests must never see).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadBundle } from "../src/engine/worker.js";
import { search } from "../src/engine/engine.js";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { bundles, queries } = JSON.parse(input);
for (const folder of bundles) {
  let line;
  try {
    const bundle = await loadBundle((name) => readFile(join(folder, name)));
    line = { answers: queries.map((item) => search(bundle, item.query, { mode: item.mode })) };
  } catch (error) {
    line = { error: { name: error?.name ?? typeof error, message: String(error?.message ?? error) } };
  }
  process.stdout.write(JSON.stringify(line) + "\n");
}
