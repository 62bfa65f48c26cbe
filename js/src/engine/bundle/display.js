// @ts-check
/**
 * A format-6 display fragment's columns in full (spec: mkdocs_graphsearch/bundle/display.py
 * derived_ids, slug, derived_anchor, expand_display): a chunk's id where the fragment leaves it
 * out is the one the build's chunk tree gives it, a null title is its parent's, a null anchor
 * a code block's parent's or the slug of the title.
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
 * Checked display fragment `index`'s chunk columns in full (format 6: its compact columns
 * undone; before: as stored), its first chunk `start`.
 * @param {any} fragment @param {{kind: string[], page: number[]}} chunks @param {string[]} paths
 * @param {number} start @param {number} index @returns {Record<string, any[]>}
 */
export function expandDisplay(fragment, chunks, paths, start, index) {
  const stored = fragment.chunks;
  if (!Object.hasOwn(stored, "ids")) return stored;
  const name = displayFragment(index);
  /** @type {number[]} */
  const parents = stored.parent;
  /** @type {string[]} schema.js checked a null title's parent is before it */
  const titles = [...stored.title];
  titles.forEach((title, i) => { if (title === null) titles[i] = titles[parents[i] - start]; });
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
