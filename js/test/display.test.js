// @ts-check
// Format-6 display fragments read back as the Python reader reads them (spec:
// bundle/display.py; the shared cases: tests/vectors/display.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { derivedParents, derivedUrl, expandDisplay, expandPages, slug } from "../src/engine/bundle/display.js";

const cases = JSON.parse(readFileSync(new URL("../../tests/vectors/display.json", import.meta.url), "utf8"));

test("slug: Markdown's default heading id of an ASCII title, null for any other", () => {
  for (const [title, expected] of cases.slug) assert.equal(slug(title), expected, title);
});

for (const c of cases.fragments) {
  test(`compact display fragment read back: ${c.name}`, () => {
    assert.deepEqual(expandDisplay(c.fragment, cases.chunks, cases.paths, c.start, c.index), c.expected);
  });
}

for (const c of cases.derived.fragments) {
  test(`format-8 display fragment read back: ${c.name}`, () => {
    const columns = expandDisplay(c.fragment, cases.chunks, cases.paths, c.start, c.index);
    assert.deepEqual(columns, c.expected);
    assert.deepEqual(expandPages(c.fragment, columns.title, cases.chunks.page, cases.paths, c.start, c.first, c.index), c.expected_pages);
  });
}

test("format 8 refuses what it cannot derive", () => {
  const c = structuredClone(cases.derived.fragments[0]);
  const titles = c.expected.title;
  c.fragment.chunks.title[0] = null;
  assert.throws(() => expandDisplay(c.fragment, cases.chunks, cases.paths, 0, 0), /display.0.json: chunks.title\[0\] is null but its parent is not before/);
  c.fragment.pages.url[1] = null;
  assert.throws(() => expandPages(c.fragment, titles, cases.chunks.page, ["guide/a.md", "b.html"], 0, 0, 0), /pages.url\[1\] is null but cannot be derived/);
  assert.throws(() => expandPages(c.fragment, titles.slice(7), cases.chunks.page, cases.paths, 7, 0, 0), /pages.title\[0\] is null but its page has no chunk/);
});

test("derivedUrl and derivedParents (spec: bundle/display.py derived_url, derived_parents)", () => {
  for (const [path, url] of [["index.md", ""], ["a/index.md", "a/"], ["a/README.md", "a/"], ["a/b.md", "a/b/"], ["READMEs.md", "READMEs/"], ["a/b.html", null]]) {
    assert.equal(derivedUrl(/** @type {string} */ (path)), url, /** @type {string} */ (path));
  }
  assert.deepEqual(derivedParents([1, 2, 3, 2, 3, 1, 2], ["page", "section", "code", "code", "section", "page", "section"], [0, 0, 0, 0, 0, 1, 1], 0), [-1, 0, 1, 0, 1, -1, 5]);
});
