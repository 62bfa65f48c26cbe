// @ts-check
/** Snippets with matched words marked (spec: mkdocs_graphsearch/engine/snippet.py). */
import { tokenize } from "./tokenize.js";

const ESCAPES = /** @type {Record<string, string>} */ ({
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
});

/** @param {string} text */
export function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/**
 * @param {string} text @param {Set<string>} matched @param {number} window
 * @returns {string} safe HTML: escaped words, matches in <mark>
 */
export function snippet(text, matched, window) {
  const words = text.split(/[ \t\n\r\f\v]+/).filter(Boolean);
  if (!words.length) return "";
  const terms = [...matched];
  /** @type {Map<string, number>} */
  const memo = new Map();
  /** @param {string} word */
  const isMarked = (word) => {
    let mark = memo.get(word);
    if (mark === undefined) {
      // Every token of a word is a substring of its folded form: tokenize only likely words.
      const folded = word.normalize("NFKC").toLowerCase().replaceAll("\u03c2", "\u03c3");
      mark = terms.some((t) => folded.includes(t)) && tokenize(word).some((t) => matched.has(t)) ? 1 : 0;
      memo.set(word, mark);
    }
    return mark;
  };
  const marked = words.map((word) => (terms.length ? isMarked(word) : 0));
  // Sliding window: the first start with the most marked words wins.
  let count = 0;
  for (let i = 0; i < Math.min(window, words.length); i++) count += marked[i];
  let bestStart = 0, bestCount = count;
  for (let start = 1; start < words.length - window + 1; start++) {
    count += marked[start + window - 1] - marked[start - 1];
    if (count > bestCount) {
      bestStart = start;
      bestCount = count;
    }
  }
  const end = Math.min(words.length, bestStart + window);
  const body = words
    .slice(bestStart, end)
    .map((word, i) => (marked[bestStart + i] ? `<mark>${escapeHtml(word)}</mark>` : escapeHtml(word)))
    .join(" ");
  return (bestStart > 0 ? "… " : "") + body + (end < words.length ? " …" : "");
}
