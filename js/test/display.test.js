// @ts-check
// Format-6 display fragments read back as the Python reader reads them (spec:
// bundle/display.py; the shared cases: tests/vectors/display.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { expandDisplay, slug } from "../src/engine/bundle/display.js";

const cases = JSON.parse(readFileSync(new URL("../../tests/vectors/display.json", import.meta.url), "utf8"));

test("slug: Markdown's default heading id of an ASCII title, null for any other", () => {
  for (const [title, expected] of cases.slug) assert.equal(slug(title), expected, title);
});

for (const c of cases.fragments) {
  test(`compact display fragment read back: ${c.name}`, () => {
    assert.deepEqual(expandDisplay(c.fragment, cases.chunks, cases.paths, c.start, c.index), c.expected);
  });
}
