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
  const marked = words.map((word) => matched.size > 0 && tokenize(word).some((t) => matched.has(t)) ? 1 : 0);
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
