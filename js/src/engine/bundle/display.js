// @ts-check
/**
 * A format-6 display fragment's columns in full (spec: mkdocs_graphsearch/bundle/display.py
 * derived_ids, slug, derived_anchor, expand_display): a chunk's id where the fragment leaves it
 * out is the one the build's chunk tree gives it, a null title is its parent's, a null anchor
 * a code block's parent's or the slug of the title; format 8 (derived_parents, derived_url,
 * expand_pages): a parent left out is the one the levels give, a null page title its top
 * chunk's, a null url the one its path gives.
 */
import { BundleError, displayFragment } from "./format.js";

/**
 * The ids the build gives chunks start, start + 1, ...: a page's top chunk its path, a code
 * block `PARENT_ID::code-N` (its parent's Nth), any other `PATH::TITLE`, `::N` added for its
 * page's Nth of that title; null where it names a parent outside them.
 * @param {string[]} titles @param {number[]} parents (both from chunk `start`)
 * @param {string[]} kinds @param {number[]} chunkPages @param {string[]} paths (over every chunk, page)
 * @param {number} start @returns {(string | null)[]}
 */
export function derivedIds(titles, parents, kinds, chunkPages, paths, start) {
  /** @type {(string | null)[]} */
  const ids = [];
  /** @type {Map<number, number>} */
  const codes = new Map();
  /** @type {Map<string, number>} by page and title */
  const titled = new Map();
  titles.forEach((title, i) => {
    const chunk = start + i, page = chunkPages[chunk], parent = parents[i];
    if (parent < 0) ids.push(paths[page]);
    else if (kinds[chunk] === "code") {
      const n = (codes.get(parent) ?? 0) + 1;
      codes.set(parent, n);
      const above = start <= parent && parent < chunk ? ids[parent - start] : null;
      ids.push(above === null ? null : `${above}::code-${n}`);
    } else {
      const key = `${page}\u0000${title}`;
      const n = (titled.get(key) ?? 0) + 1;
      titled.set(key, n);
      ids.push(n === 1 ? `${paths[page]}::${title}` : `${paths[page]}::${title}::${n}`);
    }
  });
  return ids;
}

/**
 * Python-Markdown's default heading id for a title of printable ASCII; null for any other.
 * @param {string} title @returns {string | null}
 */
export function slug(title) {
  if (!/^[ -~]*$/.test(title)) return null;
  return title.replace(/[^A-Za-z0-9_ -]/g, "").replace(/^ +| +$/g, "").toLowerCase().replace(/[- ]+/g, "-");
}

/**
 * The parents the build gives chunks start, start + 1, ...: the nearest chunk before it on its
 * page, from `start` on, that is no code block and has a lower level; -1 where there is none.
 * @param {number[]} levels (from chunk `start`) @param {string[]} kinds @param {number[]} chunkPages
 * (over every chunk) @param {number} start @returns {number[]}
 */
export function derivedParents(levels, kinds, chunkPages, start) {
  /** @type {number[]} */
  const parents = [];
  /** @type {number[]} the chunks a later one on the page may hang from, levels increasing */
  const heads = [];
  levels.forEach((level, i) => {
    const chunk = start + i;
    if (i && chunkPages[chunk] !== chunkPages[chunk - 1]) heads.length = 0;
    let above = heads.length;
    while (above && levels[heads[above - 1] - start] >= level) above--;
    parents.push(above ? heads[above - 1] : -1);
    if (kinds[chunk] !== "code") { // a code block hangs from them, but hides none of them
      heads.length = above;
      heads.push(chunk);
    }
  });
  return parents;
}

/**
 * MkDocs' directory url of a Markdown page's path (`a/b.md` -> `a/b/`, `a/index.md` and
 * `a/README.md` -> `a/`, `index.md` -> ``); null for a path that is no `.md` file.
 * @param {string} path @returns {string | null}
 */
export function derivedUrl(path) {
  if (!path.endsWith(".md")) return null;
  const stem = path.slice(0, -3);
  const cut = stem.lastIndexOf("/");
  const name = stem.slice(cut + 1);
  if (name === "index" || name === "README") return stem.slice(0, cut + 1);
  return `${stem}/`;
}

/**
 * A checked fragment's parents: its `parent` list (format 7 and older), or derivedParents with
 * its `parents` (format 8).
 * @param {any} stored the fragment's chunks @param {{kind: string[], page: number[]}} chunks
 * @param {number} start @returns {number[]}
 */
function fragmentParents(stored, chunks, start) {
  if (!Object.hasOwn(stored, "parents")) return stored.parent;
  const parents = derivedParents(stored.level, chunks.kind, chunks.page, start);
  for (const [i, parent] of Object.entries(stored.parents)) parents[Number(i)] = parent;
  return parents;
}

/**
 * Checked display fragment `index`'s chunk columns in full (format 6: its compact columns
 * undone; before: as stored), its first chunk `start`.
 * @param {any} fragment @param {{kind: string[], page: number[]}} chunks @param {string[]} paths
 * @param {number} start @param {number} index @returns {Record<string, any[]>}
 */
export function expandDisplay(fragment, chunks, paths, start, index) {
  const stored = fragment.chunks;
  if (!Object.hasOwn(stored, "ids")) return stored;
  const name = displayFragment(index);
  const parents = fragmentParents(stored, chunks, start);
  /** @type {string[]} */
  const titles = [...stored.title];
  titles.forEach((title, i) => {
    if (title !== null) return;
    if (!(start <= parents[i] && parents[i] < start + i)) {
      throw new BundleError(`${name}: chunks.title[${i}] is null but its parent is not before it in the fragment`);
    }
    titles[i] = titles[parents[i] - start];
  });
  /** @type {(string | null)[]} */
  const anchors = [...stored.anchor];
  anchors.forEach((anchor, i) => {
    if (anchor !== null) return;
    const parent = parents[i];
    const above = start <= parent && parent < start + i ? anchors[parent - start] : null;
    anchors[i] = chunks.kind[start + i] === "code" && parent >= 0 ? above : slug(titles[i]);
    if (anchors[i] === null) throw new BundleError(`${name}: chunks.anchor[${i}] is null but cannot be derived (corrupted)`);
  });
  const ids = derivedIds(titles, parents, chunks.kind, chunks.page, paths, start);
  for (const [i, id] of Object.entries(stored.ids)) ids[Number(i)] = id;
  const lacking = ids.indexOf(null);
  if (lacking >= 0) throw new BundleError(`${name}: chunks.ids lacks the id of chunk ${start + lacking} (corrupted)`);
  return { anchor: anchors, id: ids, level: stored.level, parent: parents, title: titles };
}

/**
 * Checked display fragment `index`'s page columns in full (format 8: a null title its top
 * chunk's, of the fragment's full chunk `titles`, a null url derivedUrl's; before: as stored),
 * its first chunk `start` and first page `first`.
 * @param {any} fragment @param {string[]} titles @param {number[]} chunkPages @param {string[]} paths
 * @param {number} start @param {number} first @param {number} index @returns {{title: string[], url: string[]}}
 */
export function expandPages(fragment, titles, chunkPages, paths, start, first, index) {
  const name = displayFragment(index);
  /** @type {Map<number, number>} each page's first chunk in the fragment */
  const tops = new Map();
  titles.forEach((_, i) => { if (!tops.has(chunkPages[start + i])) tops.set(chunkPages[start + i], i); });
  const title = fragment.pages.title.map((/** @type {string | null} */ value, /** @type {number} */ i) => {
    if (value !== null) return value;
    const top = tops.get(first + i);
    if (top === undefined) throw new BundleError(`${name}: pages.title[${i}] is null but its page has no chunk (corrupted)`);
    return titles[top];
  });
  const url = fragment.pages.url.map((/** @type {string | null} */ value, /** @type {number} */ i) => {
    if (value !== null) return value;
    const derived = derivedUrl(paths[first + i]);
    if (derived === null) throw new BundleError(`${name}: pages.url[${i}] is null but cannot be derived (corrupted)`);
    return derived;
  });
  return { title, url };
}
