// @ts-check
// Layering of the runtime (read from the sources' import statements): bundle.js reads files
// only (worker.js composes it with the encoder), and the UI modules never pull the engine into a
// page view (the worker client imports worker.js lazily, on intent).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const src = new URL("../src/", import.meta.url);

/** Relative modules a file imports, statically and dynamically. @param {string} file */
function imports(file) {
  // Without comments: JSDoc's import("./x.js") types are no imports.
  const text = readFileSync(new URL(file, src), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const stat = [...text.matchAll(/^import\s+(?:[^"';]*?\s+from\s+)?"(\.\/[^"]+)"/gm)].map((m) => m[1].slice(2));
  const lazy = [...text.matchAll(/\bimport\("(\.\/[^"]+)"\)/g)].map((m) => m[1].slice(2));
  return { stat, lazy };
}

const uiModules = readdirSync(src).filter((name) => /^ui(-[a-z]+)?\.js$/.test(name)).sort();

test("bundle.js reads files only: it imports no other module", () => {
  assert.deepEqual(imports("bundle.js"), { stat: [], lazy: [] });
});

test("worker.js composes the bundle with the encoder", () => {
  const { stat, lazy } = imports("worker.js");
  assert.deepEqual(stat, ["bundle.js"]);
  assert.deepEqual([...new Set(lazy)].sort(), ["encoder.js", "engine.js"]);
});

test("a page view loads the UI modules only, each imported by ui.js at depth one", () => {
  assert.ok(uiModules.length > 1, uiModules.join());
  for (const file of uiModules) {
    for (const name of imports(file).stat) assert.match(name, /^ui-[a-z]+\.js$/, `${file} imports ${name}`);
  }
  assert.deepEqual(imports("ui.js").stat.sort(), uiModules.filter((name) => name !== "ui.js"));
  assert.deepEqual(uiModules.flatMap((file) => imports(file).lazy), ["worker.js"]); // ui-client.js, on intent
});
