// @ts-check
/** Typo matching's rules: bounded optimal-string-alignment distance over code points, the edit
 * budget, the first code point of short tokens, strong typos (spec: engine/fuzzy.py). */

/** An older manifest's search settings have no `fuzzy_strong_length`: every typo is strong. */
const FUZZY_STRONG_LENGTH_IF_ABSENT = 0;

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

/** How many edits a token (code points) may be from a term it is a typo of.
 * @param {ArrayLike<number>} token @param {any} settings */
export function typoBudget(token, settings) {
  return token.length >= settings.fuzzy_long_length ? 2 : 1;
}

/** The token's distance to `term` when within its budget (a short token keeps its first code
 * point), else null. @param {ArrayLike<number>} token @param {ArrayLike<number>} term
 * @param {any} settings @returns {number | null} */
export function typoDistance(token, term, settings) {
  if (token.length < settings.fuzzy_long_length && term[0] !== token[0]) return null;
  return osaWithin(token, term, typoBudget(token, settings));
}

/** At least `fuzzy_strong_length` code points of the token per edit.
 * @param {ArrayLike<number>} token @param {number} distance @param {any} settings */
export function strongTypo(token, distance, settings) {
  return token.length >= distance * (settings.fuzzy_strong_length ?? FUZZY_STRONG_LENGTH_IF_ABSENT);
}
