// Node driver for `graphsearch query --engine js` and the parity tests.
// Usage: node query.mjs BUNDLE_DIR [--mode M] [--limit N] [--explain] [--filter FACET:VALUE]...
// Reads a JSON array of {id?, query} on stdin; prints one JSON line per query. An item
// without a string "query" is an error naming it (exit code 2); a bad bundle is exit code 1.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadBundle } from "../src/engine/worker.js";
import { search } from "../src/engine/engine.js";

const args = process.argv.slice(2);
const folder = args[0];
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const mode = option("--mode");
const limit = option("--limit") === undefined ? undefined : Number(option("--limit"));
const explain = args.includes("--explain");
const filters = args.flatMap((arg, i) => (arg === "--filter" && i + 1 < args.length ? [args[i + 1]] : []));

/** The queries on stdin, each checked: never String(undefined), which would search "undefined". */
function readItems(input) {
  const items = JSON.parse(input);
  if (!Array.isArray(items)) throw new Error("expected a JSON array of {id?, query} on stdin");
  items.forEach((item, i) => {
    if (item === null || typeof item !== "object" || typeof item.query !== "string") {
      const shown = (JSON.stringify(item) ?? String(item)).slice(0, 80);
      throw new Error(`item ${i + 1} of the input has no "query" string: ${shown}`);
    }
  });
  return items;
}

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
let items;
try {
  items = readItems(input);
} catch (error) {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(2);
}
try {
  const bundle = await loadBundle((name) => readFile(join(folder, name)));
  const lines = items.map((item) => {
    const output = search(bundle, item.query, { mode, limit, explain, filters });
    return JSON.stringify("id" in item ? { id: item.id, ...output } : output);
  });
  process.stdout.write(lines.join("\n") + (lines.length ? "\n" : ""));
} catch (error) {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}
