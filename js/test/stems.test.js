// @ts-check
// Stem groups live in the term shards (bundle/write.py keyword_part): a group is in the shard of
// its stem's string, so expand asks for that shard (and no other, and not the typo dictionary)
// before it knows a token's stem terms, then for the shards of those terms.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DICTIONARY, expand } from "../src/engine/keyword.js";

/** Terms in two-and-a-bit shards: "configur" (the stem of "configure") sorts into shard 0,
 * "configure" itself is in shard 1. @returns {any} */
function shardedBundle() {
  const terms = ["apply", "configuration", "configure", "configured", "zeta"];
  return {
    terms: new Array(terms.length),
    termIndex: new Map(),
    stems: new Map(),
    termCounts: new Float64Array(terms.length).fill(1),
    termShards: { first: ["", "configure", "zeta"], start: [0, 2, 4] },
    shardLoaded: new Uint8Array(3),
    dictionary: false,
    settings: { prefix_weight: 0.5, stem_weight: 0.7, fuzzy_min_length: 4, max_expansions: 10 },
    /** Mark shard `index` loaded with its terms (and the stems it holds). @param {number} index */
    load(index) {
      const start = this.termShards.start[index], end = this.termShards.start[index + 1] ?? terms.length;
      for (let t = start; t < end; t++) {
        this.terms[t] = terms[t];
        this.termIndex.set(terms[t], t);
      }
      if (index === 0) this.stems.set("configur", [1, 2, 3]);
      this.shardLoaded[index] = 1;
    },
  };
}

test("a token's stem group is looked up only once its stem's shard is in, and no typo search before", () => {
  const bundle = shardedBundle();
  const wanted = new Set();
  expand(bundle, "configure", false, true, wanted);
  assert.deepEqual([...wanted], [1, 0], "the token's shard and its stem's, together; not shard 2");
  bundle.load(1);
  wanted.clear();
  assert.deepEqual(expand(bundle, "configure", false, true, wanted), [{ term: 2, weight: 1, distance: 0 }]);
  assert.deepEqual([...wanted], [0], "still the stem's shard, not the typo dictionary");
  assert.ok(!wanted.has(DICTIONARY));
  bundle.load(0);
  wanted.clear();
  assert.deepEqual(expand(bundle, "configure", false, true, wanted), [
    { term: 2, weight: 1, distance: 0 },
    { term: 1, weight: 0.7, distance: 0 },
    { term: 3, weight: 0.7, distance: 0 },
  ]);
  assert.deepEqual([...wanted], [], "the group's terms are in loaded shards");
});

test("a token that is no prose word needs no stem shard", () => {
  const bundle = shardedBundle();
  bundle.load(1);
  const wanted = new Set();
  expand(bundle, "configure", false, false, wanted); // a compound's part, not a word
  assert.deepEqual([...wanted], []);
});
