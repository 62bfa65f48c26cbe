// @ts-check
/**
 * Material's `search.highlight`: a result link carries the query as `?h=` and the landed page
 * marks its words. Material does the marking itself when its own search is on the page (it
 * reads `?h=` once its index is in); with only ours, markLanding does it the same way
 * (`<mark data-md-highlight>` around the words in the content, so the theme's style applies).
 */
import { FACETS } from "./chips.js";
import { h } from "./dom.js";

/** Words of a query past this many are not carried (a pasted paragraph is not highlighted). */
const MAX_TERMS = 16;
const FILTER_WORD = new RegExp(`^(?:${FACETS.map(([facet]) => facet).join("|")}):`, "i");

/** Does the site turn on Material's `search.highlight` (its `__config` lists the feature)? */
export function highlightEnabled() {
  const config = document.getElementById("__config");
  if (!config) return false;
  try {
    const features = JSON.parse(config.textContent || "{}").features;
    return Array.isArray(features) && features.includes("search.highlight");
  } catch {
    return false;
  }
}

/** The words of a query to highlight: filter words (`kind:code`) left out. @param {string} query */
export function highlightTerms(query) {
  return query.split(/\s+/).filter((word) => word && !FILTER_WORD.test(word)).slice(0, MAX_TERMS).join(" ");
}

/** A result link with the words as `?h=` (before its #anchor). @param {string} href @param {string} terms */
export function withHighlight(href, terms) {
  if (!terms) return href;
  const url = new URL(href);
  url.searchParams.set("h", terms);
  return url.href;
}

/**
 * Mark the `?h=` words in the page's content, as Material would with its own search on (then it
 * does, and this does nothing). Only text nodes are split: nothing of the page is parsed as HTML.
 */
export function markLanding() {
  const terms = new URLSearchParams(location.search).get("h");
  if (!terms || !highlightEnabled() || document.forms.namedItem("search")) return;
  const words = terms.split(/\s+/).filter(Boolean).slice(0, MAX_TERMS)
    .map((word) => word.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&"));
  if (!words.length) return;
  // A word where one starts (not inside another word), in any case.
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.join("|")})`, "giu");
  for (const content of document.querySelectorAll('[data-md-component="content"]')) {
    const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
    /** @type {Text[]} */
    const found = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = /** @type {Text} */ (node);
      pattern.lastIndex = 0;
      if (text.parentElement?.closest("mark, script, style") || !pattern.test(text.data)) continue;
      found.push(text);
    }
    for (const node of found) node.replaceWith(...marked(node.data, pattern));
  }
}

/** `text` as text nodes and marks around each match. @param {string} text @param {RegExp} pattern */
function marked(text, pattern) {
  /** @type {(Node | string)[]} */
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(h("mark", { "data-md-highlight": "" }, [match[0]]));
    at = start + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}
