// @ts-check
/**
 * The shared tokenizer, JavaScript side. The specification lives in
 * mkdocs_graphsearch/text/tokenize.py; tests/vectors/tokenizer.json pins both implementations.
 */

export const MAX_TOKEN_LENGTH = 64;
const CONNECTORS = new Set(["_", "-", "."]);

export const STOP_WORDS = new Set(
  `a an the and or but nor of at by from as into about than
  i me my we our you your he him his she her it its they them their this that these those
  would should could might must shall will may how what which who whom whose where when why`
    .split(/\s+/)
    .filter(Boolean),
);

/** Inclusive code point ranges treated as CJK (bigram-tokenised). */
export const CJK_RANGES = [
  [0x1100, 0x11ff],
  [0x3040, 0x30ff],
  [0x3130, 0x318f],
  [0x31f0, 0x31ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7af],
  [0xf900, 0xfaff],
  [0x20000, 0x3134f],
];

const LETTER = 0, NUMBER = 1, MARK = 2, CONNECTOR = 3, CJK_CHAR = 4, OTHER = 5;
/** Token kinds (rule 8 of the specification). */
export const WORD = "word", COMPOUND = "compound", PART = "part", CJK = "cjk";
/** @typedef {[string, number, number, string]} Span (token, start, end, kind) */
const RE_LETTER = /^\p{L}$/u;
const RE_NUMBER = /^\p{N}$/u;
const RE_MARK = /^\p{M}$/u;
const RE_UPPER = /^[\p{Lu}\p{Lt}]$/u;
const RE_LOWER = /^\p{Ll}$/u;

/** @param {number} code */
function isCjk(code) {
  for (const [lo, hi] of CJK_RANGES) if (code >= lo && code <= hi) return true;
  return false;
}

/** @param {string} ch */
function charClass(ch) {
  if (isCjk(/** @type {number} */ (ch.codePointAt(0)))) return CJK_CHAR;
  if (CONNECTORS.has(ch)) return CONNECTOR;
  if (RE_LETTER.test(ch)) return LETTER;
  if (RE_NUMBER.test(ch)) return NUMBER;
  if (RE_MARK.test(ch)) return MARK;
  return OTHER;
}

/** @param {string} token */
function lower(token) {
  return token.toLowerCase().replaceAll("\u03c2", "\u03c3");
}

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
      if (RE_LOWER.test(word[prev]) && RE_UPPER.test(word[i])) boundary = true;
      else if (
        RE_UPPER.test(word[prev]) && RE_UPPER.test(word[i]) &&
        i + 1 < word.length && RE_LOWER.test(word[i + 1])
      ) boundary = true;
    }
    if (boundary) {
      pieces.push(word.slice(start, i).join(""));
      start = i;
    }
  }
  pieces.push(word.slice(start).join(""));
  return pieces;
}

/** @param {string} token @param {boolean} wholeCompound */
function keep(token, wholeCompound) {
  if ([...token].length > MAX_TOKEN_LENGTH) return "";
  if (!wholeCompound && STOP_WORDS.has(token)) return "";
  return token;
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
    const word = keep(lower(parts[0][0]), false);
    return word ? [[word, offset, end, WORD]] : [];
  }
  /** @type {Span[]} */
  const spans = [[keep(lower(chars.join("")), true), offset, end, COMPOUND]];
  for (const [part, at] of parts) spans.push([keep(lower(part), false), at, at + [...part].length, PART]);
  return spans.filter((span) => span[0]);
}

/** @param {string[]} run @param {number} offset @returns {Span[]} */
function cjkTokens(run, offset) {
  if (run.length === 1) return [[run[0], offset, offset + 1, CJK]];
  /** @type {Span[]} */
  const out = [];
  for (let i = 0; i + 1 < run.length; i++) out.push([run[i] + run[i + 1], offset + i, offset + i + 2, CJK]);
  return out;
}

/**
 * Split text into search tokens (rules: mkdocs_graphsearch/text/tokenize.py).
 * @param {string} text
 * @returns {string[]}
 */
export function tokenize(text) {
  return tokenSpans(text).map((span) => span[0]);
}

/**
 * The tokens of `tokenize`, each with whether it is a word (a whole compound of one part).
 * @param {string} text
 * @returns {[string, boolean][]}
 */
export function tokenizeWords(text) {
  return tokenSpans(text).map(([token, , , kind]) => [token, kind === WORD]);
}

/**
 * The tokens of `tokenize`, each with its code point offsets in the NFKC text and its kind (rule 8).
 * @param {string} text
 * @returns {Span[]}
 */
export function tokenSpans(text) {
  const chars = Array.from(text.normalize("NFKC"));
  const classes = chars.map(charClass);
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
      for (const span of compoundTokens(chars.slice(i, j), classes.slice(i, j), i)) tokens.push(span);
      i = j;
    } else {
      i++; // separators, and marks with no letter or number before them
    }
  }
  return tokens;
}
