// Node driver for `graphsearch query --engine js` and the parity tests.
// Usage: node query.mjs BUNDLE_DIR [--mode M] [--limit N] [--explain]
// Reads a JSON array of {id?, query} on stdin; prints one JSON line per query.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadBundle } from "../src/bundle.js";
import { search } from "../src/engine.js";

const args = process.argv.slice(2);
const folder = args[0];
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const mode = option("--mode");
const limit = option("--limit") === undefined ? undefined : Number(option("--limit"));
const explain = args.includes("--explain");

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
try {
  const bundle = await loadBundle((name) => readFile(join(folder, name)));
  const lines = [];
  for (const item of JSON.parse(input)) {
    const output = search(bundle, String(item.query), { mode, limit, explain });
    lines.push(JSON.stringify("id" in item ? { id: item.id, ...output } : output));
  }
  process.stdout.write(lines.join("\n") + (lines.length ? "\n" : ""));
} catch (error) {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}
