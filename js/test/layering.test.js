// @ts-check
// Layering of the runtime (read from the sources' import statements). Two halves, as in Python:
// engine/ (bundle reading, tokenizer, search, worker.js: what the Python reference engine
// mirrors) and ui/ (the page's UI). The engine never imports the UI; the UI imports the engine
// only through the worker boundary: ui/client.js imports engine/worker.js lazily, on intent (or
// starts it as a Web Worker by URL), so a page view never pulls the engine in (but for
// bundle/http.js, the one fetch rule both use, and bundle/warm.js, the files every query needs,
// which the page fetches beside worker.js, and the format.js they name files by). In the engine,
// bundle/format.js, schema.js, http.js, warm.js and read.js read files only (worker.js composes
// them with the encoder).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";

const src = new URL("../src/", import.meta.url);

/** Every .js module under a folder of src/, as paths relative to src/. @param {string} folder */
function modules(folder) {
  return readdirSync(new URL(folder, src), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".js"))
    .map((name) => posix.join(folder, name.split("\\").join("/")))
    .sort();
}

/** Relative modules a file imports, statically and dynamically, as paths relative to src/.
 * @param {string} file */
function imports(file) {
  // Without comments: JSDoc's import("./x.js") types are no imports.
  const text = readFileSync(new URL(file, src), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const resolve = (/** @type {string} */ name) => posix.normalize(posix.join(posix.dirname(file), name));
  const stat = [...text.matchAll(/^import\s+(?:[^"';]*?\s+from\s+)?"(\.\.?\/[^"]+)"/gm)].map((m) => resolve(m[1]));
  const lazy = [...text.matchAll(/\bimport\("(\.\.?\/[^"]+)"\)/g)].map((m) => resolve(m[1]));
  return { stat, lazy };
}

const engineModules = modules("engine");
const uiModules = modules("ui");

test("src/ has two halves only: engine/ and ui/", () => {
  assert.deepEqual(readdirSync(src).sort(), ["engine", "ui"]);
  assert.ok(engineModules.length > 10 && uiModules.length > 1, [...engineModules, ...uiModules].join());
});

test("the engine half never imports the UI half", () => {
  for (const file of engineModules) {
    const { stat, lazy } = imports(file);
    for (const name of [...stat, ...lazy]) assert.match(name, /^engine\//, `${file} imports ${name}`);
  }
});

test("bundle reading reads files only: format.js, schema.js, display.js, display-groups.js, http.js, warm.js and read.js import one another only", () => {
  assert.deepEqual(imports("engine/bundle/format.js"), { stat: [], lazy: [] });
  assert.deepEqual(imports("engine/bundle/display-groups.js"), { stat: [], lazy: [] });
  assert.deepEqual(imports("engine/bundle/http.js"), { stat: [], lazy: [] });
  assert.deepEqual(imports("engine/bundle/warm.js"), { stat: ["engine/bundle/format.js"], lazy: [] });
  assert.deepEqual(imports("engine/bundle/schema.js"), { stat: ["engine/bundle/format.js"], lazy: [] });
  assert.deepEqual(imports("engine/bundle/display.js"), { stat: ["engine/bundle/format.js"], lazy: [] });
  assert.deepEqual(imports("engine/bundle/read.js"),
    { stat: ["engine/bundle/format.js", "engine/bundle/schema.js", "engine/bundle/display.js",
             "engine/bundle/display-groups.js", "engine/bundle/http.js"], lazy: [] });
});

test("worker.js composes the bundle with the encoder", () => {
  const { stat, lazy } = imports("engine/worker.js");
  assert.deepEqual(stat, ["engine/bundle/format.js", "engine/bundle/read.js", "engine/bundle/encoder-shards.js",
                          "engine/bundle/http.js", "engine/bundle/warm.js"]);
  assert.deepEqual([...new Set(lazy)].sort(), ["engine/bundle/vector-shards.js", "engine/encoder.js", "engine/engine.js"]);
});

test("a page view loads the UI modules only, each imported by ui.js at depth one, and the fetch rule", () => {
  for (const file of uiModules) {
    for (const name of imports(file).stat) {
      if (file === "ui/client.js" && name.startsWith("engine/")) continue; // the three below
      assert.match(name, /^ui\/[a-z]+\.js$/, `${file} imports ${name}`);
    }
  }
  assert.deepEqual(imports("ui/client.js").stat, ["engine/bundle/format.js", "engine/bundle/http.js", "engine/bundle/warm.js"]);
  assert.deepEqual(imports("ui/ui.js").stat.sort(), uiModules.filter((name) => name !== "ui/ui.js"));
  // The one way into the engine: client.js, on intent (in the page when there are no module workers).
  assert.deepEqual(uiModules.flatMap((file) => imports(file).lazy.map((name) => `${file} -> ${name}`)),
    ["ui/client.js -> engine/worker.js"]);
  const client = readFileSync(new URL("ui/client.js", src), "utf8");
  assert.match(client, /new Worker\(new URL\("\.\.\/engine\/worker\.js", import\.meta\.url\)/);
});
