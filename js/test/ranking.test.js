// @ts-check
// The ranking shortcuts of results.js give what sorting everything gives: rankChunks (a radix
// sort) the comparator sort's order, matchesOf its chunks and first two, firstK and bestChunks
// the first k of a full sort, and groupByPage the same pages whatever order its chunks come in
// (it ranks them itself).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { bestChunks, firstK, groupByPage, matchesOf, rankChunks } from "../src/engine/results.js";
import { highlight } from "../src/engine/snippet.js";

/** A seeded generator (mulberry32): the same numbers every run. @param {number} seed */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** @param {Float64Array} scores */
const sorted = (scores) => [...scores.keys()].filter((c) => scores[c] > 0).sort((a, b) => scores[b] - scores[a] || a - b);

test("rankChunks: the comparator sort's order, ties by chunk index", () => {
  const next = random(10);
  for (const n of [0, 1, 3, 50, 4000, 30000]) {
    for (const kind of ["spread", "ties", "one score", "tiny"]) {
      const pool = Array.from({ length: 7 }, () => next() * 20);
      const scores = Float64Array.from({ length: n }, () => {
        const r = next();
        if (r < 0.2) return 0;
        if (r < 0.25) return -next();
        if (kind === "ties") return pool[Math.floor(next() * pool.length)];
        if (kind === "one score") return 2.5;
        if (kind === "tiny") return r < 0.5 ? 5e-324 : r < 0.7 ? 1e-300 : next() * 1e300;
        return next() * 30;
      });
      assert.deepEqual(rankChunks(scores), sorted(scores), `${n} ${kind}`);
    }
  }
});

test("matchesOf: the chunks rankChunks ranks, in chunk order, and its first two", () => {
  const next = random(12);
  for (const n of [0, 1, 2, 3, 50, 4000]) {
    for (const kind of ["spread", "ties", "one score"]) {
      const pool = Array.from({ length: 3 }, () => next() * 20);
      const scores = Float64Array.from({ length: n }, () => {
        const r = next();
        if (r < 0.2) return 0;
        if (r < 0.25) return -next();
        if (kind === "ties") return pool[Math.floor(next() * pool.length)];
        return kind === "one score" ? 2.5 : next() * 30;
      });
      const ranked = sorted(scores);
      const { chunks, best, next: second } = matchesOf(scores);
      assert.deepEqual(Array.from(chunks), [...ranked].sort((a, b) => a - b), `${n} ${kind}`);
      assert.deepEqual([best, second], [ranked[0] ?? -1, ranked[1] ?? -1], `${n} ${kind}`);
    }
  }
});

test("firstK: the first k of a full sort", () => {
  const next = random(11);
  const items = Array.from({ length: 500 }, (_, i) => [Math.floor(next() * 40), i]);
  /** @param {number[]} a @param {number[]} b */
  const order = (a, b) => b[0] - a[0] || a[1] - b[1];
  for (const k of [0, 1, 3, 10, 499, 500, 800]) {
    assert.deepEqual(firstK(items, k, order), [...items].sort(order).slice(0, k), `k ${k}`);
  }
});

test("bestChunks: the first k of the flagged chunks sorted by score, ties by chunk index", () => {
  const next = random(13);
  const pool = [0, 1.5, 2.5, 7];
  const scores = Float64Array.from({ length: 3000 }, () => (next() < 0.5 ? pool[Math.floor(next() * pool.length)] : next() * 9));
  const among = Uint8Array.from(scores, () => (next() < 0.7 ? 1 : 0));
  const flagged = [...among.keys()].filter((c) => among[c]);
  /** @param {number} a @param {number} b */
  const order = (a, b) => scores[b] - scores[a] || a - b;
  for (const k of [0, 1, 3, 10, 50, flagged.length, flagged.length + 5]) {
    assert.deepEqual(bestChunks(scores, among, k), [...flagged].sort(order).slice(0, k), `k ${k}`);
  }
});

const results = JSON.parse(readFileSync(new URL("../../tests/vectors/results.json", import.meta.url), "utf8"));
for (const c of results.group_by_page) {
  test(`group by page, chunks in any order: ${c.name}`, () => {
    const bundle = /** @type {any} */ ({ settings: c.settings, chunks: c.chunks, pages: c.pages, texts: c.texts,
                                        textStarts: [0], displayStarts: [0], displayLoaded: Uint8Array.of(1) });
    const details = new Map(Object.entries(c.details).map(([chunk, info]) => [Number(chunk), info]));
    const marks = highlight(c.query, new Map(Object.entries(c.matched)), ["a", "do", "how", "i", "is", "the", "to"]);
    for (const ranked of [[...c.ranked].reverse(), [...c.ranked].sort((/** @type {number} */ a, /** @type {number} */ b) => a - b)]) {
      const got = groupByPage(bundle, ranked, Float64Array.from(c.scores), marks, c.limit, details, { explain: c.explain });
      assert.deepEqual(got, c.expected);
    }
  });
}
