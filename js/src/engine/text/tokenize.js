// @ts-check
/**
 * The shared tokenizer, JavaScript side. The specification lives in
 * mkdocs_graphsearch/text/tokenize.py; tests/vectors/tokenizer.json pins both implementations.
 * Every character fact comes from the generated table in unicode-table.js (never from the
 * engine's own Unicode data), so that both engines agree whatever Unicode version they carry.
 */
import { decodeRanges } from "./ranges.js";
import { UNICODE_TABLE } from "./unicode-table.js";

export const MAX_TOKEN_LENGTH = 64;
const CONNECTORS = new Set(["_", "-", "."]);
/** Identifier punctuation (rule 6): right before a word, right after it. */
const NAME_BEFORE = new Set(["_", ".", "-"]);
const NAME_AFTER = new Set(["_", "("]);
/** Katakana (rule 5), where the table says CJK. */
const KATAKANA = [[0x30a0, 0x30ff], [0x31f0, 0x31ff]];

export const STOP_WORDS = new Set(
  `a an the and or but nor of at by from as into about than
  i me my we our you your he him his she her it its they them their this that these those
  would should could might must shall will may how what which who whom whose where when why`
    .split(/\s+/)
    .filter(Boolean),
);

// Character classes (0: other, separates).
const LETTER = 1, UPPER = 2, LOWER = 3, MARK = 4, NUMBER = 5, CJK_CHAR = 6, CONNECTOR = 7;
/** Token kinds (rule 8 of the specification). */
export const WORD = "word", COMPOUND = "compound", PART = "part", CJK = "cjk";
/** @typedef {[string, number, number, string]} Span (token, start, end, kind) */

/** The Unicode version the table was generated from (every character fact comes from it). */
export const UNICODE_VERSION = UNICODE_TABLE.unicode_version;

/** The table's class of every code point (later lines win: upper and lower are letters). */
const CLASSES = new Uint8Array(0x110000);
for (const [key, value] of /** @type {["letter" | "upper" | "lower" | "mark" | "number" | "cjk", number][]} */ ([
  ["letter", LETTER], ["upper", UPPER], ["lower", LOWER], ["mark", MARK], ["number", NUMBER], ["cjk", CJK_CHAR],
])) {
  const ranges = decodeRanges(UNICODE_TABLE[key]);
  for (let i = 0; i < ranges.length; i += 2) CLASSES.fill(value, ranges[i], ranges[i + 1] + 1);
}

/** Code point -> its lowercase, for those that change (`gap[+length]:delta` items). */
const LOWERCASE = new Map(UNICODE_TABLE.lowercase_multiple.map(([cp, text]) => [Number(cp), String(text)]));
{
  const items = UNICODE_TABLE.lowercase.split(" ").map((item) => item.split(":"));
  const ranges = decodeRanges(items.map(([span]) => span).join(" "));
  items.forEach(([, delta], i) => {
    const shift = parseInt(delta, 16);
    for (let cp = ranges[2 * i]; cp <= ranges[2 * i + 1]; cp++) LOWERCASE.set(cp, String.fromCodePoint(cp + shift));
  });
}

/** Runs of code points not assigned in Unicode 3.2: NFKC keeps them and does not cross them. */
const KEPT = (() => {
  const assigned = decodeRanges(UNICODE_TABLE.nfkc);
  let pattern = "";
  let next = 0;
  for (let i = 0; i <= assigned.length; i += 2) {
    const end = i < assigned.length ? assigned[i] - 1 : 0x10ffff;
    if (next <= end) pattern += `\\u{${next.toString(16)}}-\\u{${end.toString(16)}}`;
    if (i < assigned.length) next = assigned[i + 1] + 1;
  }
  return new RegExp(`([${pattern}]+)`, "u");
})();
const ASCII = /^[\x00-\x7f]*$/;

/**
 * NFKC of each run of code points assigned in Unicode 3.2 (the same in every Unicode version
 * since 4.1); every other code point is kept as it is, and normalisation does not cross it.
 * @param {string} text
 */
export function normalize(text) {
  if (ASCII.test(text)) return text;
  return text.split(KEPT).map((piece, i) => (i % 2 ? piece : piece.normalize("NFKC"))).join("");
}

/**
 * The table's lowercase of every code point (full mappings, final sigma folded to sigma).
 * @param {string} text
 */
export function lower(text) {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = "";
  for (const ch of text) out += LOWERCASE.get(/** @type {number} */ (ch.codePointAt(0))) ?? ch;
  return out;
}

/** @param {string} ch */
function charClass(ch) {
  if (CONNECTORS.has(ch)) return CONNECTOR;
  const cls = CLASSES[/** @type {number} */ (ch.codePointAt(0))];
  return cls === UPPER || cls === LOWER ? LETTER : cls;
}

/** @param {string} ch */
const isUpper = (ch) => CLASSES[/** @type {number} */ (ch.codePointAt(0))] === UPPER;
/** @param {string} ch */
const isLower = (ch) => CLASSES[/** @type {number} */ (ch.codePointAt(0))] === LOWER;

/**
 * Split one connector-free word at case and letter/number boundaries.
 * @param {string[]} word @param {number[]} classes @returns {string[]}
 */
function splitWord(word, classes) {
  /** @type {string[]} */
  const pieces = [];
  let start = 0;
  for (let i = 1; i < word.length; i++) {
    if (classes[i] === MARK) continue;
    let prev = i - 1;
    while (prev > start && classes[prev] === MARK) prev--;
    const a = classes[prev], b = classes[i];
    let boundary = (a === LETTER && b === NUMBER) || (a === NUMBER && b === LETTER);
    if (!boundary && a === LETTER && b === LETTER) {
      if (isLower(word[prev]) && isUpper(word[i])) boundary = true;
      else if (isUpper(word[prev]) && isUpper(word[i]) && i + 1 < word.length && isLower(word[i + 1])) boundary = true;
    }
    if (boundary) {
      pieces.push(word.slice(start, i).join(""));
      start = i;
    }
  }
  pieces.push(word.slice(start).join(""));
  return pieces;
}

/** @param {string} token */
function keep(token) {
  return [...token].length > MAX_TOKEN_LENGTH ? "" : token;
}

/** Spans of one compound (at `offset`): whole (if several parts) then the parts.
 * @param {string[]} chars @param {number[]} classes @param {number} offset @returns {Span[]} */
function compoundTokens(chars, classes, offset) {
  /** @type {[string, number][]} (part, start) */
  const parts = [];
  let start = 0;
  for (let i = 0; i <= chars.length; i++) {
    if (i === chars.length || classes[i] === CONNECTOR) {
      if (i > start) {
        for (const piece of splitWord(chars.slice(start, i), classes.slice(start, i))) {
          parts.push([piece, offset + start]);
          start += [...piece].length;
        }
      }
      start = i + 1;
    }
  }
  const end = offset + chars.length;
  if (parts.length === 1) {
    const word = keep(lower(parts[0][0]));
    return word ? [[word, offset, end, WORD]] : [];
  }
  /** @type {Span[]} */
  const spans = [[keep(lower(chars.join(""))), offset, end, COMPOUND]];
  for (const [part, at] of parts) spans.push([keep(lower(part)), at, at + [...part].length, PART]);
  return spans.filter((span) => span[0]);
}

/** @param {string} ch */
const isKatakana = (ch) => {
  const cp = /** @type {number} */ (ch.codePointAt(0));
  return KATAKANA.some(([lo, hi]) => lo <= cp && cp <= hi);
};

/** @param {string[]} piece @param {number} offset @returns {Span[]} */
function bigrams(piece, offset) {
  if (piece.length === 1) return [[piece[0], offset, offset + 1, CJK]];
  /** @type {Span[]} */
  const out = [];
  for (let i = 0; i + 1 < piece.length; i++) out.push([piece[i] + piece[i + 1], offset + i, offset + i + 2, CJK]);
  return out;
}

/** Rule 5: katakana pieces whole, other pieces as bigrams.
 * @param {string[]} run @param {number} offset @returns {Span[]} */
function cjkTokens(run, offset) {
  /** @type {Span[]} */
  const out = [];
  let start = 0;
  for (let i = 1; i <= run.length; i++) {
    if (i < run.length && isKatakana(run[i]) === isKatakana(run[start])) continue;
    if (isKatakana(run[start])) {
      if (i - start <= MAX_TOKEN_LENGTH) out.push([run.slice(start, i).join(""), offset + start, offset + i, CJK]);
    } else {
      for (const span of bigrams(run.slice(start, i), offset + start)) out.push(span);
    }
    start = i;
  }
  return out;
}

/**
 * Split text into search tokens (rules: mkdocs_graphsearch/text/tokenize.py); `code`: the text
 * is code (rule 6).
 * @param {string} text @param {boolean} [code]
 * @returns {string[]}
 */
export function tokenize(text, code = false) {
  return tokenSpans(text, code).map((span) => span[0]);
}

/**
 * The tokens of `tokenize`, each with whether it is a word (rule 7).
 * @param {string} text @param {boolean} [code]
 * @returns {[string, boolean][]}
 */
export function tokenizeWords(text, code = false) {
  return tokenSpans(text, code).map(([token, , , kind]) => [token, kind === WORD]);
}

/** A title's (or a query's) tokens as one string: rule 9's tokens joined by single spaces
 * (spec: text/tokenize.py title_key). @param {string} text */
export function titleKey(text) {
  return querySpans(text).map((span) => span[0]).join(" ");
}

/** A query's tokens (rule 9): as text, else (stop words alone) as code.
 * @param {string} query @returns {Span[]} */
export function querySpans(query) {
  const spans = tokenSpans(query);
  return spans.length ? spans : tokenSpans(query, true);
}

/**
 * The tokens of `tokenize`, each with its code point offsets in the normalised text and its kind (rule 8).
 * @param {string} text @param {boolean} [code]
 * @returns {Span[]}
 */
export function tokenSpans(text, code = false) {
  const normal = normalize(text);
  const chars = Array.from(normal);
  const classes = chars.map(charClass);
  // Rule 6: identifier punctuation beside chars[i, j); a backtick before i that another closes
  // after it (the backticks before it are odd in number, and one follows).
  const ticks = normal.includes("`") ? chars.flatMap((ch, k) => (ch === "`" ? [k] : [])) : [];
  const namePunctuation = (/** @type {number} */ i, /** @type {number} */ j) =>
    (i > 0 && NAME_BEFORE.has(chars[i - 1])) || (j < chars.length && NAME_AFTER.has(chars[j]));
  const inCodeSpan = (/** @type {number} */ i) => {
    const before = ticks.filter((k) => k < i).length;
    return before % 2 === 1 && before < ticks.length;
  };
  /** @type {Span[]} */
  const tokens = [];
  const n = chars.length;
  let i = 0;
  while (i < n) {
    const cls = classes[i];
    if (cls === CJK_CHAR) {
      let j = i;
      while (j < n && classes[j] === CJK_CHAR) j++;
      for (const span of cjkTokens(chars.slice(i, j), i)) tokens.push(span);
      i = j;
    } else if (cls === LETTER || cls === NUMBER) {
      let j = i + 1;
      while (j < n) {
        const c = classes[j];
        if (c === LETTER || c === NUMBER || c === MARK) j++;
        else if (c === CONNECTOR) {
          // A connector joins only when a letter or number follows the connector run.
          let k = j;
          while (k < n && classes[k] === CONNECTOR) k++;
          if (k < n && (classes[k] === LETTER || classes[k] === NUMBER)) j = k;
          else break;
        } else break;
      }
      for (const span of compoundTokens(chars.slice(i, j), classes.slice(i, j), i)) {
        if (span[3] !== COMPOUND && STOP_WORDS.has(span[0])) {
          if (!(code || inCodeSpan(i) || (span[3] === WORD && namePunctuation(i, j)))) continue;
          if (span[3] === WORD) span[3] = COMPOUND;
        }
        tokens.push(span);
      }
      i = j;
    } else {
      i++; // separators, and marks with no letter or number before them
    }
  }
  return tokens;
}
