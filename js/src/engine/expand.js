// @ts-check
/** Graph expansion from the best chunks (spec: mkdocs_graphsearch/engine/expand.py). */

/** @typedef {{seed: number, edge: string, depth: number}} Origin */
/** What expansion reads of page languages: each chunk's page, each page's language.
 * @typedef {{page: ArrayLike<number>, language: string[]}} Languages */

/**
 * The bundle's page languages; null without them (older bundles: one language).
 * @param {{language?: string[]}} pages @param {{page: ArrayLike<number>}} chunks
 * @returns {Languages | null}
 */
export function languagesOf(pages, chunks) {
  return pages.language ? { page: chunks.page, language: pages.language } : null;
}

/**
 * Raise scores in place with expansions; returns where each raised score came from. With
 * filters, `allowed` says which chunks exist (an edge to another is not there); nor is an edge
 * to a chunk whose page is in another language than its seed's page (`languages`). The graph's
 * edges come in shards (bundle/read.js loadGraphShard): a chunk to expand from whose edges are not
 * loaded is added to `missing` (then the answer is incomplete: worker.js loads them, asks again).
 * The scores are fuse.js's (`fused.direct`: the directly found chunks).
 * @param {import("./fuse.js").Fused} fused @param {number[]} ranked
 * @param {NonNullable<import("./bundle/read.js").Bundle["graph"]>} graph
 * @param {any} settings @param {number} minScore @param {Uint8Array | null} [allowed]
 * @param {Set<number>} [missing] @param {Languages | null} [languages]
 * @returns {Map<number, Origin>}
 */
export function expand(fused, ranked, graph, settings, minScore, allowed = null, missing = new Set(), languages = null) {
  const { edges, edge_types: names } = graph;
  const decay = names.map((name) => settings.graph_decay[name]);
  /** @type {Map<number, Origin>} */
  const origins = new Map();
  // Expansion only adds related chunks: a directly found chunk keeps its own score.
  const { scores, direct } = fused;
  for (const seed of ranked.slice(0, settings.seeds)) {
    /** @type {[number, number][]} */
    let frontier = [[seed, scores[seed]]];
    const language = languages ? languages.language[languages.page[seed]] : "";
    for (let depth = 1; depth <= settings.graph_depth; depth++) {
      /** @type {[number, number][]} */
      const following = [];
      for (const [node, score] of frontier) {
        const row = edges[node];
        if (!row) {
          missing.add(node);
          continue;
        }
        const { targets, types } = row;
        for (let e = 0; e < targets.length; e++) {
          const target = targets[e];
          if (allowed && !allowed[target]) continue;
          if (languages && languages.language[languages.page[target]] !== language) continue;
          const value = score * decay[types[e]];
          if (value < minScore || direct[target] || value <= scores[target]) continue;
          scores[target] = value;
          origins.set(target, { seed, edge: names[types[e]], depth });
          following.push([target, value]);
        }
      }
      frontier = following;
    }
  }
  return origins;
}
