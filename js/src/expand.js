// @ts-check
/** Graph expansion from the best chunks (spec: mkdocs_graphsearch/engine/expand.py). */

/** @typedef {{seed: number, edge: string, depth: number}} Origin */

/**
 * Raise scores in place with expansions; returns where each raised score came from. With
 * filters, `allowed` says which chunks exist (an edge to another is not there).
 * @param {Map<number, number>} scores @param {number[]} ranked
 * @param {{edge_types: string[], offsets: number[], targets: number[], types: number[]}} graph
 * @param {any} settings @param {number} minScore @param {Uint8Array | null} [allowed]
 * @returns {Map<number, Origin>}
 */
export function expand(scores, ranked, graph, settings, minScore, allowed = null) {
  const { offsets, targets, types, edge_types: names } = graph;
  const decay = names.map((name) => settings.graph_decay[name]);
  /** @type {Map<number, Origin>} */
  const origins = new Map();
  // Expansion only adds related chunks: a directly found chunk keeps its own score.
  const direct = new Set(scores.keys());
  for (const seed of ranked.slice(0, settings.seeds)) {
    /** @type {[number, number][]} */
    let frontier = [[seed, /** @type {number} */ (scores.get(seed))]];
    for (let depth = 1; depth <= settings.graph_depth; depth++) {
      /** @type {[number, number][]} */
      const following = [];
      for (const [node, score] of frontier) {
        for (let e = offsets[node]; e < offsets[node + 1]; e++) {
          const target = targets[e];
          if (allowed && !allowed[target]) continue;
          const value = score * decay[types[e]];
          if (value < minScore || direct.has(target) || value <= (scores.get(target) ?? 0)) continue;
          scores.set(target, value);
          origins.set(target, { seed, edge: names[types[e]], depth });
          following.push([target, value]);
        }
      }
      frontier = following;
    }
  }
  return origins;
}
