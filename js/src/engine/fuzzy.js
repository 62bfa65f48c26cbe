// @ts-check
/** Bounded optimal-string-alignment distance over code points (spec: engine/fuzzy.py). */

/**
 * The OSA distance (insert, delete, substitute, swap two neighbours) if <= budget, else null.
 * @param {ArrayLike<number>} a code points @param {ArrayLike<number>} b code points @param {number} budget
 * @returns {number | null}
 */
export function osaWithin(a, b, budget) {
  if (Math.abs(a.length - b.length) > budget) return null;
  // Three reusable rows (the distance only needs the last two plus the one being filled).
  let previous2 = new Int32Array(b.length + 1);
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, previous2[j - 2] + 1);
      }
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > budget) return null;
    const spare = previous2;
    previous2 = previous;
    previous = current;
    current = spare;
  }
  return previous[b.length] <= budget ? previous[b.length] : null;
}
