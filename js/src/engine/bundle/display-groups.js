// @ts-check
/**
 * Display fragments grouped by meaning (format 10; spec: mkdocs_graphsearch/bundle/display_groups.py):
 * on a clustered site a fragment holds the pages keyword.json's `pages.display` gives it, run
 * after run (a run: pages next to one another in page order), not one range of chunks. Each run
 * reads back like a format-9 fragment starting at its first chunk (display.js).
 */

/** A run of a display fragment: its first chunk, end chunk (exclusive), first page, end page
 * (exclusive). @typedef {[number, number, number, number]} Run */

/** Each page's first chunk, then the chunk count (a page without chunks: the next page's).
 * @param {number[]} chunkPages @param {number} nPages @returns {Int32Array} */
export function pageFirsts(chunkPages, nPages) {
  const firsts = new Int32Array(nPages + 1).fill(chunkPages.length);
  for (let chunk = chunkPages.length - 1; chunk >= 0; chunk--) firsts[chunkPages[chunk]] = chunk;
  for (let page = nPages - 1; page >= 0; page--) firsts[page] = Math.min(firsts[page], firsts[page + 1]);
  return firsts;
}

/** Fragment `index`'s runs, in page order.
 * @param {Int32Array} firsts (pageFirsts) @param {number[]} pageDisplay @param {number} index @returns {Run[]} */
export function fragmentRuns(firsts, pageDisplay, index) {
  /** @type {Run[]} */
  const runs = [];
  pageDisplay.forEach((fragment, page) => {
    if (fragment !== index) return;
    const last = runs.at(-1);
    if (last && last[3] === page) {
      last[1] = firsts[page + 1];
      last[3] = page + 1;
    } else runs.push([firsts[page], firsts[page + 1], page, page + 1]);
  });
  return runs;
}

/** The part of a checked grouped fragment a run holds, as a fragment of its own (`at`,
 * `pageAt`: the run's first chunk and page in the fragment).
 * @param {any} fragment @param {number} at @param {number} pageAt @param {Run} run @returns {any} */
export function runFragment(fragment, at, pageAt, run) {
  const [start, end, first, last] = run;
  const n = end - start, stored = fragment.chunks;
  /** @type {Record<string, any>} */
  const chunks = {};
  for (const key of ["anchor", "level", "title"]) chunks[key] = stored[key].slice(at, at + n);
  for (const key of ["ids", "parents"]) {
    chunks[key] = Object.fromEntries(Object.entries(stored[key])
      .filter(([i]) => at <= Number(i) && Number(i) < at + n)
      .map(([i, value]) => [String(Number(i) - at), value]));
  }
  /** @type {Record<string, any>} */
  const pages = {};
  for (const key of ["title", "url"]) pages[key] = fragment.pages[key].slice(pageAt, pageAt + last - first);
  return { chunks, pages };
}
