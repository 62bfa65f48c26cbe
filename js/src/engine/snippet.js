// @ts-check
/** Snippets with the matched characters marked (spec: mkdocs_graphsearch/engine/snippet.py). */
import { lower, normalize, querySpans, tokenSpans, COMPOUND, PART, WORD } from "./text/tokenize.js";

const ESCAPES = /** @type {Record<string, string>} */ ({
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
});
export const BREADCRUMB_SEPARATOR = " › ";

/** @typedef {[string, number]} Rule (the query token it counts for, code points to mark: 0 = all) */
/**
 * @typedef {{anywhere: Map<string, Rule>, alone: Map<string, [Rule, string]>,
 *   identifiers: [string, Map<string, number>[]][]}} Highlight
 */
/** @typedef {[number, number, string, string]} Mark (start, end, query token, identifier if alone) */

/** @param {string} text */
export function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/** @param {string} text */
const codePoints = (text) => Array.from(text).length;

/** @param {string} text */
const fold = (text) => lower(normalize(text));

/** The terms a query token matched, each with how much of it to mark.
 * @param {string} token @param {Map<string, string[]>} matched @returns {Map<string, number>} */
function terms(token, matched) {
  const length = codePoints(token);
  return new Map(
    (matched.get(token) ?? []).map((term) => [term, term !== token && term.startsWith(token) ? length : 0]),
  );
}

/** A term two query tokens matched marks the most: whole (0) beats any prefix.
 * @param {Map<string, Rule>} table @param {Map<string, number>} found @param {string} key */
function add(table, found, key) {
  for (const [term, length] of found) {
    const old = table.get(term);
    if (old === undefined || (old[1] && (!length || length > old[1]))) table.set(term, [key, length]);
  }
}

/**
 * What `query` marks, given the dictionary terms each of its tokens matched.
 * @param {string} query @param {Map<string, string[]>} matched @param {Iterable<string>} stopWords
 * @returns {Highlight}
 */
export function highlight(query, matched, stopWords) {
  const stop = new Set(stopWords);
  /** @type {Highlight} */
  const result = { anywhere: new Map(), alone: new Map(), identifiers: [] };
  /** @type {Map<string, Rule>} */
  const alone = new Map();
  /** @type {Map<string, string>} */
  const owner = new Map();
  const normalized = Array.from(normalize(query));
  let compound = /** @type {[string, number, number]} */ (["", -1, -1]);
  /** @type {[Map<string, number>, number, number][]} */
  const parts = [];
  const close = () => {
    // The identifier, and each dotted piece of it (`RetryPolicy` of `RetryPolicy.delay_for`).
    const pieces = parts.length ? [[parts[0][0]]] : [];
    for (let i = 1; i < parts.length; i++) {
      if (normalized.slice(parts[i - 1][2], parts[i][1]).includes(".")) pieces.push([]);
      pieces[pieces.length - 1].push(parts[i][0]);
    }
    const sequences = [parts.map(([found]) => found), ...(pieces.length > 1 ? pieces : [])];
    for (const sequence of sequences) if (sequence.length > 1) result.identifiers.push([compound[0], sequence]);
    parts.length = 0;
  };
  for (const [token, start, end, kind] of querySpans(query)) {
    if (kind === COMPOUND) {
      close();
      compound = [token, start, end];
      add(result.anywhere, terms(token, matched), token);
    } else if (kind === PART && compound[1] <= start && end <= compound[2]) {
      parts.push([terms(token, matched), start, end]);
      if (!stop.has(token)) {
        add(alone, terms(token, matched), token);
        if (!owner.has(token)) owner.set(token, compound[0]);
      }
    } else if (kind !== PART) {
      close();
      if (!stop.has(token)) add(result.anywhere, terms(token, matched), token);
    }
  }
  close();
  for (const [term, rule] of alone) {
    if (!result.anywhere.has(term)) result.alone.set(term, [rule, /** @type {string} */ (owner.get(rule[0]))]);
  }
  return result;
}

/**
 * What a query marks in the results: the terms the keyword side matched per query token.
 * A bundle that names no query stop words (format 1) has none.
 * @param {import("./bundle/read.js").Bundle} bundle @param {string} query
 * @param {import("./keyword.js").KeywordScores} keyword
 */
export function keywordHighlight(bundle, query, keyword) {
  const matched = new Map(
    keyword.tokens.map((token, i) => [token, keyword.expansions[i].map((e) => /** @type {string} */ (bundle.terms[e.term]))]),
  );
  return highlight(query, matched, bundle.settings.query_stop_words ?? []);
}

/** @type {WeakMap<Highlight, string[]>} needles by highlight: a query's snippets share them */
const NEEDLES = new WeakMap();

/** The terms a word must contain one of, folded, to mark: every term that can mark, less those
 * that contain another (a word containing `start` contains `s`: a prefix ending in one letter
 * matches dozens of terms that all hold it, and each would be searched for in every text).
 * @param {Highlight} hl @returns {string[]} */
function needles(hl) {
  let found = NEEDLES.get(hl);
  if (found !== undefined) return found;
  const terms = new Set([...hl.anywhere.keys(), ...hl.alone.keys()]);
  for (const [, sequence] of hl.identifiers) for (const part of sequence) for (const term of part.keys()) terms.add(term);
  /** @type {string[]} */
  const kept = [];
  for (const term of [...terms].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))) {
    if (!kept.some((shorter) => term.includes(shorter))) kept.push(term);
  }
  found = kept.sort();
  NEEDLES.set(hl, found);
  return found;
}

/** @type {WeakMap<Highlight, Map<string, Mark[]>>} each word's marks by highlight: a query's
 * snippets share the words they have in common (never changed once made) */
const WORD_MARKS = new WeakMap();

/** @param {Highlight} hl @returns {Map<string, Mark[]>} */
function wordMarks(hl) {
  let found = WORD_MARKS.get(hl);
  if (found === undefined) WORD_MARKS.set(hl, (found = new Map()));
  return found;
}

const ASCII_TEXT = /^[\x00-\x7f]*$/;

/** The words of `text` (its runs of characters other than space, \t, \n, \v, \f and \r) and
 * where each starts, in one pass. @param {string} text @returns {{words: string[], starts: number[]}} */
function splitWords(text) {
  /** @type {string[]} */
  const words = [];
  /** @type {number[]} */
  const starts = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (code === 32 || (code >= 9 && code <= 13)) {
      if (start >= 0) {
        words.push(text.slice(start, i));
        starts.push(start);
        start = -1;
      }
    } else if (start < 0) start = i;
  }
  return { words, starts };
}

/**
 * Which of `text`'s words (splitWords) contain a term once folded, found by searching the whole
 * text for each term, not by folding every word; null where that is not the same: a text not
 * all ASCII (folding it is not lowercasing it character by character), or an empty term.
 * @param {string} text @param {string[]} words @param {number[]} starts @param {string[]} terms
 * @returns {Uint8Array | null}
 */
function wordsWithTerms(text, words, starts, terms) {
  if (!terms.length || terms.includes("") || !ASCII_TEXT.test(text)) return null;
  const lowered = text.toLowerCase();
  const found = new Uint8Array(words.length);
  for (const term of terms) {
    let w = 0; // the last word starting at or before `at` (occurrences come in text order)
    for (let at = lowered.indexOf(term); at >= 0; at = lowered.indexOf(term, at + 1)) {
      while (w + 1 < words.length && starts[w + 1] <= at) w++;
      if (starts[w] <= at && at + term.length <= starts[w] + words[w].length) found[w] = 1;
    }
  }
  return found;
}

/** Where a mark of `length` code points (0: all) ends; lowercasing may have changed the
 * token's length, and then the whole token is marked.
 * @param {string} token @param {number} start @param {number} end @param {number} length */
function cut(token, start, end, length) {
  return length && codePoints(token) === end - start ? start + length : end;
}

/** Marks in one whitespace-free word (code point offsets), before the identifier rule drops any.
 * @param {string} word @param {Highlight} hl @returns {Mark[]} */
function tokenMarks(word, hl) {
  /** @type {Mark[]} in normalised code points */
  const found = [];
  let compound = [-1, -1];
  /** @type {[string, number, number][][]} */
  const groups = [];
  /** @type {[string, number, number][]} */
  let parts = [];
  for (const [token, start, end, kind] of tokenSpans(word)) {
    if (kind === COMPOUND) {
      compound = [start, end];
      parts = [];
      groups.push(parts);
    } else if (kind === PART && compound[0] <= start && end <= compound[1]) {
      parts.push([token, start, end]);
    }
    const rule = hl.anywhere.get(token);
    if (rule !== undefined) found.push([start, cut(token, start, end, rule[1]), rule[0], ""]);
    const alone = kind === WORD ? hl.alone.get(token) : undefined;
    if (alone !== undefined) {
      const [[key, length], identifier] = alone;
      found.push([start, cut(token, start, end, length), key, identifier]);
    }
  }
  for (const [key, sequence] of hl.identifiers) {
    const size = sequence.length;
    for (const group of groups) {
      for (let i = 0; i + size <= group.length; i++) {
        let match = true;
        for (let j = 0; j < size && match; j++) match = sequence[j].has(group[i + j][0]);
        if (!match) continue;
        const [token, start, end] = group[i + size - 1];
        const length = /** @type {number} */ (sequence[size - 1].get(token));
        found.push([group[i][1], cut(token, start, end, length), key, ""]);
      }
    }
  }
  if (!found.length) return [];
  const chars = Array.from(word);
  const pieces = chars.map(normalize);
  if (pieces.join("") !== normalize(word)) {
    return found.map(([, , key, of]) => [0, chars.length, key, of]);
  }
  /** @type {number[]} */
  const origin = [];
  pieces.forEach((piece, index) => {
    for (let k = codePoints(piece); k > 0; k--) origin.push(index);
  });
  return found.map(([start, end, key, of]) => [origin[start], origin[end - 1] + 1, key, of]);
}

/** The escaped word with its marks (overlapping or touching ones merged) in <mark>.
 * @param {string} word @param {Mark[]} marks */
function render(word, marks) {
  if (!marks.length) return escapeHtml(word);
  const chars = Array.from(word);
  const ranges = marks.map(([start, end]) => [start, end]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged = [ranges[0].slice()];
  for (const [start, end] of ranges.slice(1)) {
    const last = merged[merged.length - 1];
    if (start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  let out = "";
  let position = 0;
  for (const [start, end] of merged) {
    out += escapeHtml(chars.slice(position, start).join(""));
    out += `<mark>${escapeHtml(chars.slice(start, end).join(""))}</mark>`;
    position = end;
  }
  return out + escapeHtml(chars.slice(position).join(""));
}

/** The first window with the most distinct query tokens, then the most marked words: its start,
 * end, distinct tokens and marked words.
 * @param {Set<string>[]} keys @param {number} window @returns {[number, number, number, number]} */
function bestWindow(keys, window) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  let marked = 0;
  /** @param {number} i @param {number} step */
  const enter = (i, step) => {
    if (keys[i].size) marked += step;
    for (const key of keys[i]) {
      const count = (counts.get(key) ?? 0) + step;
      if (count) counts.set(key, count);
      else counts.delete(key);
    }
  };
  for (let i = 0; i < Math.min(window, keys.length); i++) enter(i, 1);
  let best = 0, bestDistinct = counts.size, bestMarked = marked;
  for (let start = 1; start < keys.length - window + 1; start++) {
    enter(start - 1, -1);
    enter(start + window - 1, 1);
    if (counts.size > bestDistinct || (counts.size === bestDistinct && marked > bestMarked)) {
      best = start;
      bestDistinct = counts.size;
      bestMarked = marked;
    }
  }
  return [best, Math.min(keys.length, best + window), bestDistinct, bestMarked];
}

/** Between two cells of a table row (spec: text/cells.py CELL), and how a row reads. */
const CELL = "\x1f";
const ROW_LEAD = " — ", CELL_SEPARATOR = ", ", HEADER_SEPARATOR = ": ";
const EDGE_ASCII_SPACE = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g;
/** @param {string} line */
const cellsOf = (line) => line.split(CELL).map((cell) => cell.replace(EDGE_ASCII_SPACE, ""));

/** A body row as read: `first cell — Header: cell, ...` (spec: table_row).
 * @param {string[]} header @param {string[]} cells @returns {string} */
export function tableRow(header, cells) {
  const rest = [];
  for (let i = 1; i < cells.length; i++) {
    if (cells[i]) rest.push(i < header.length && header[i] ? header[i] + HEADER_SEPARATOR + cells[i] : cells[i]);
  }
  const joined = rest.join(CELL_SEPARATOR);
  return cells[0] && joined ? cells[0] + ROW_LEAD + joined : cells[0] || joined;
}

/** Text a snippet may show, and whether the text goes on before and after it (spec: Piece).
 * @typedef {{words: string[], starts: number[], text: string, before: boolean, after: boolean}} Piece */

/** The text as one piece, or for a text with tables its prose and each body row (spec: pieces).
 * @param {string} text @returns {Piece[]} */
function pieces(text) {
  /** @param {string} part @param {boolean} before @param {boolean} after @returns {Piece} */
  const piece = (part, before, after) => ({ ...splitWords(part), text: part, before, after });
  if (!text.includes(CELL)) return [piece(text, false, false)];
  const lines = text.split("\n");
  /** @type {string[]} */
  const prose = [];
  /** @type {[number, string][]} */
  const rows = [];
  /** @type {string[] | null} */
  let header = null;
  let last = -1;
  lines.forEach((line, number) => {
    if (/[^ \t\n\r\f\v]/.test(line)) last = number;
    if (!line.includes(CELL)) {
      prose.push(line);
      header = null;
    } else if (header === null) header = cellsOf(line);
    else rows.push([number, tableRow(header, cellsOf(line))]);
  });
  return [piece(prose.join("\n"), false, false), ...rows.map(([number, row]) => piece(row, true, number < last))]
    .filter((found) => found.words.length);
}

/**
 * @param {string} text @param {Highlight} hl @param {number} window
 * @returns {string} safe HTML: escaped text, matches in <mark>
 */
export function snippet(text, hl, window) {
  const parts = pieces(text);
  if (!parts.length) return "";
  const terms = needles(hl);
  /** @type {Mark[]} */
  const none = [];
  const memo = wordMarks(hl);
  let marked = parts.map(({ words, starts, text: part }) => {
    const candidates = wordsWithTerms(part, words, starts, terms);
    return words.map((word, i) => {
      if (candidates !== null && !candidates[i]) return none;
      let found = memo.get(word);
      if (found === undefined) {
        const folded = terms.length ? fold(word) : "";
        found = terms.some((term) => folded.includes(term)) ? tokenMarks(word, hl) : [];
        memo.set(word, found);
      }
      return found;
    });
  });
  // A part marked alone stands only where its identifier occurs nowhere in this text.
  // (Most words of a long text have no mark: they share one empty list and one empty set.)
  const occurs = new Set();
  for (const marks of marked) for (const found of marks) for (const m of found) if (!m[3]) occurs.add(m[2]);
  marked = marked.map((marks) => marks.map((found) => (found.length ? found.filter((m) => !m[3] || !occurs.has(m[3])) : none)));
  /** @type {Set<string>} */
  const unmarked = new Set();
  // The piece whose best window has the most distinct tokens, then marked words; the first on ties.
  let best = [-1, 0, 0, -1, -1];
  marked.forEach((marks, index) => {
    const [start, end, distinct, count] = bestWindow(marks.map((found) => (found.length ? new Set(found.map((m) => m[2])) : unmarked)), window);
    if (best[0] < 0 || distinct > best[3] || (distinct === best[3] && count > best[4])) best = [index, start, end, distinct, count];
  });
  const [index, start, end] = best;
  const { words, before, after } = parts[index];
  const body = [];
  for (let i = start; i < end; i++) body.push(render(words[i], marked[index][i]));
  return (start > 0 || before ? "… " : "") + body.join(" ") + (end < words.length || after ? " …" : "");
}

/**
 * What a chunk's snippet shows: its text; for a heading with none of its own, the first text
 * among its descendants (document order); else its breadcrumb (titles from the page down).
 * null when the walk meets a text whose fragment is not loaded (a hole in `texts`): that chunk
 * goes into `missing` (the Python engine reads every fragment: it never sees a hole).
 * @param {(string | undefined)[]} texts @param {number[]} parents @param {string[]} titles
 * @param {number} chunk @param {Set<number>} [missing] @returns {string | null}
 */
export function sourceText(texts, parents, titles, chunk, missing) {
  const inside = new Set([chunk]);
  for (let index = chunk; index < texts.length; index++) {
    if (index !== chunk && !inside.has(parents[index])) break;
    const text = texts[index];
    if (text === undefined) {
      missing?.add(index);
      return null;
    }
    if (/[^ \t\n\r\f\v]/.test(text)) return text;
    inside.add(index);
  }
  const trail = [];
  for (let at = chunk; at >= 0; at = parents[at]) trail.push(titles[at]);
  return trail.reverse().join(BREADCRUMB_SEPARATOR);
}
