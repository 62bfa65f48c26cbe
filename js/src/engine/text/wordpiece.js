// @ts-check
/**
 * BERT uncased WordPiece, dependency-free: the tokenizer of the embedding model, used in the
 * browser to turn a query into vocabulary ids for the static query encoder.
 *
 * It reproduces the `tokenizers` library (mkdocs_graphsearch/text/wordpiece.py) exactly:
 *
 * 1. Clean text: drop U+0000, U+FFFD and "other" characters (controls, format characters, private
 *    use) except tab, LF and CR; every white-space character becomes a space.
 * 2. Put spaces around CJK ideographs (the fixed blocks in CHINESE_RANGES).
 * 3. NFD, then drop nonspacing marks (Mn).
 * 4. Lowercase, one code point at a time (no context: final sigma stays sigma).
 * 5. Split on white space; every punctuation character (ASCII punctuation or Unicode P*) is a
 *    word of its own.
 * 6. Per word: `[UNK]` if longer than 100 code points, else greedy longest-match-first pieces,
 *    continuation pieces prefixed with `##`; a word with an unmatched rest is one `[UNK]`.
 * 7. `[CLS]` + the first maxTokens - 2 pieces + `[SEP]`.
 *
 * The character classes of steps 1, 3 and 5 come from the Unicode tables compiled into
 * `tokenizers` (older than any browser's), so they are embedded below rather than read from
 * `\p{...}`. NFD and lowercasing use the engine's own Unicode data, except around the characters
 * of TABLE_NFD_BARRIER (newer than `tokenizers`' data: it neither decomposes nor reorders them).
 * tests/test_wordpiece.py regenerates the tables and checks this file against the installed
 * `tokenizers` on every code point (alone, and in runs of assigned code points) under node.
 * Special-token strings in the text (`[SEP]`) are plain text.
 */
import { decodeRanges, inRanges } from "./ranges.js";

/* BEGIN GENERATED TABLES (python tests/test_wordpiece.py --write-js-tables) */
// Probed from tokenizers 0.23.3: code points it removes when cleaning,
// its nonspacing marks, its punctuation, and NFD barriers (what node decomposes or reorders
// and it does not: characters its Unicode data does not know).
const TABLE_REMOVE = "0+8 2+1 1+11 5f+20 d 552+5 16 c0 31 10fe 7fc+4 1a+4 31+4 1+9 bf90+18ff 5ff f9+2 1 10bf abe2+3 14cf+7 c2e86 1e+5f ff80+fffd 2+fffd";
const TABLE_MN = "300+3f 2 2+2a 113+4 109+2c 1 1+1 1+1 1 48+a 30+14 10 65+6 2+5 2+1 1+3 23 1e+1a 5b+a 3a+8 22+3 1+8 1+2 1+4 2b+2 87+1f 37 1 4+7 4 3+6 a+1 1d 3a 4+3 8 14+1 1d+1 39 4+1 4+1 2+2 3 1e+1 3 b+1 39 4+4 1+1 4 14+1 1d 3a 2 1+3 8 8 b+1 1e 3d c 32 3d+2 5+1 2+3 7+1 b+1 1d 3a 2 6 5+1 14+1 1d 3f+3 8 14+1 66 7+2 1 5a 2+6 c+7 62 2+5 1+1 b+5 4a+1 1b 1 1 37+1 1 2 1+5 1 1+2 1+1 5+5 1+3 1+3 1+3 1+3 1+3 1+b 1+2 9 66+3 1+5 1+1 2+1 19+1 4+2 10+3 d 2+1 6 f 2bf+2 3b2+2 1d+2 1d+1 1e+1 40+1 1+6 8 2+a 9 2d+2 9b 76+2 4+1 9 6+2 db+1 2 3a 1+6 1 1 2+7 6+9 2 30+d 42+3 30 1+4 1 5 28+8 c+1 20+3 2+1 1+2 38 1+1 3 1+2 3a+7 2+1 98+2 1+c 1+6 4 6 3+1 c6+35 6+3 2d0+c 4 3+b bfe+2 8d 60+1f 22a+3 6b+1 75d4 4+9 20+1 50+1 110 3 4 19+1 9d 1b+11 34+7 19+a 2e+2 30 2+3 2 28 43+5 2+1 2+1 c 8 2f 33 1+2 2+1 5+1 1 2a+1 8 ee 2 4 4f30 2e1+f 10+f 3cd e2 95+4 686+2 1+1 5+3 28+2 4 a5+1 51a 36+e 38+2 31+3 2+1 45+2 24+4 1 2+4 3e c+1 34+8 b+2 62+2 2 1+1 a7 3+7 15+1 3a 3 25+6 3+4 13e+5 1 4+1 1+1 ee+3 6+1 1+1 1b+1 55+7 2 1+1 6a 1 2+5 1 65+2 2+3 1+4 53c4+4 3b+6 458+3 4d0a+1 14c8+2 11+7 2+6 1e+3 94+2 7bb+36 4+31 8 e 16+4 1+e e20+6 c1829+ef";
const TABLE_PUNCT = "21+e a+6 1a+5 1a+3 22 5 3 a+1 3 3 2be 8 1d2+5 29+1 33 1 2 2 2c+1 14+1 1+1 d 2+1 4a+3 66 2b+d e9+2 36+e 1f 105+1 a 17f 303 5a a+1 a8+e 1 25+3 47 4a+4 4+1 6f+5 ab 264+8 97 26c+1 2c+1 4e+2 47+1 9d+2 1+2 25+a 139+1 d8+1 80+6 1+5 ac+6 9b+3 3b+4 3e+1 40+7 b 33c+17 8+13 1+c 1+b 1e+1 e+1 279+3 1d+1 43d+d 4f+1 1f+9 193+15 3f+3 20+1 2fb+3 1+1 70 8f+2e 1+12 1be+2 4+9 2+b 10 c 62 5a 7402+1 10d+2 63 a 73+5 17c+3 56+1 28+2 1 31+1 2f 61+c 10+1 7c+3 7e+1 10+1 f9 5152+1 d0+9 16+22 1+d 1 4 1+1 95+2 1+5 1+3 a+1 3+1 1a+2 1 1b 1 1+6 19a+2 29c 30 19e 2e7 c7 1f 110+8 26 70+6 42+6 59+3 4aa+6 6d+1 1+3 7e+3 30+1 4f+4 3 d 1+2 58+5 6b 21c fa+16 69+2 f8+2 d31+4 45f9+1 85 41+4 8 515a 1de7+4";
const TABLE_NFD_BARRIER = "7fd 99+8 2a+9 12a 23d fe+1 17d 85a 3a9+1e 2+b 30a+4 8a31 5d9c 1a 73f+3 41+4 13d+1 4d+1 1+2 46+a 31+3 ea 2ca 47 1 8 2 33 1+1 5+2 8d 3da+1 fd 4+1 4 9c 53 12 51 2a8 1+1 51 1a9+1 41de+7 6 c38+2 285+1 709d a0+6 177 3d+3 1fc+3 fe+1 f3 2 7+1 5";
/* END GENERATED TABLES */

/** Blocks treated as Chinese characters (inclusive), as `tokenizers`' BertNormalizer has them. */
const CHINESE_RANGES = [
  [0x4e00, 0x9fff],
  [0x3400, 0x4dbf],
  [0x20000, 0x2a6df],
  [0x2a700, 0x2b73f],
  [0x2b740, 0x2b81f],
  [0x2b920, 0x2ceaf],
  [0xf900, 0xfaff],
  [0x2f800, 0x2fa1f],
];

/** Unicode White_Space (what Rust's char::is_whitespace tests), stable across versions. */
const WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

export const MAX_INPUT_CHARS_PER_WORD = 100;
const CONTINUATION = "##";

const REMOVE = decodeRanges(TABLE_REMOVE);
const NONSPACING_MARK = decodeRanges(TABLE_MN);
const PUNCTUATION = decodeRanges(TABLE_PUNCT);
const NFD_BARRIER = decodeRanges(TABLE_NFD_BARRIER);

/** @param {number} cp */
function isChinese(cp) {
  for (const [lo, hi] of CHINESE_RANGES) if (cp >= lo && cp <= hi) return true;
  return false;
}

/**
 * NFD as `tokenizers` does it. Its Unicode data is older than the engine's: a barrier (a character
 * the engine decomposes or reorders and `tokenizers` does not know) is left as it is, and marks
 * are never reordered across it.
 * @param {string} text
 */
function nfd(text) {
  let out = "";
  let run = "";
  for (const ch of text) {
    const cp = /** @type {number} */ (ch.codePointAt(0));
    if (cp >= 0x300 && inRanges(NFD_BARRIER, cp)) {
      out += run.normalize("NFD") + ch;
      run = "";
    } else run += ch;
  }
  return out + run.normalize("NFD");
}

/** @type {Map<string, string>} */
const lowerCache = new Map();

/** @param {string} ch one code point */
function lowerChar(ch) {
  let lower = lowerCache.get(ch);
  if (lower === undefined) {
    lower = ch.toLowerCase();
    if (lowerCache.size < 4096) lowerCache.set(ch, lower);
  }
  return lower;
}

/**
 * Steps 1-4: BertNormalizer(clean_text, handle_chinese_chars, strip_accents, lowercase).
 * @param {string} text
 * @returns {string}
 */
export function normalize(text) {
  let cleaned = "";
  for (const ch of text) {
    const cp = /** @type {number} */ (ch.codePointAt(0));
    if (cp < 0x80) {
      // fast path: ASCII controls other than \t \n \r are removed, \t \n \r \v \f... handled below
      if (cp >= 0x20 && cp < 0x7f) {
        cleaned += ch;
        continue;
      }
    }
    if ((cp >= 0xd800 && cp <= 0xdfff) || inRanges(REMOVE, cp)) continue; // lone surrogates too
    if (WHITESPACE.has(cp)) cleaned += " ";
    else if (isChinese(cp)) cleaned += " " + ch + " ";
    else cleaned += ch;
  }
  let out = "";
  for (const ch of nfd(cleaned)) {
    const cp = /** @type {number} */ (ch.codePointAt(0));
    if (cp < 0x80) out += cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : ch;
    else if (!inRanges(NONSPACING_MARK, cp)) out += lowerChar(ch);
  }
  return out;
}

/**
 * Step 5: BertPreTokenizer on normalized text.
 * @param {string} text
 * @returns {string[]} words
 */
export function preTokenize(text) {
  /** @type {string[]} */
  const words = [];
  let word = "";
  for (const ch of text) {
    const cp = /** @type {number} */ (ch.codePointAt(0));
    if (WHITESPACE.has(cp)) {
      if (word) words.push(word);
      word = "";
    } else if (inRanges(PUNCTUATION, cp)) {
      if (word) words.push(word);
      words.push(ch);
      word = "";
    } else word += ch;
  }
  if (word) words.push(word);
  return words;
}

/**
 * @typedef {object} WordPiece
 * @property {(text: string, maxTokens?: number | null) => number[]} encode
 *   `[CLS]` + the first maxTokens - 2 word-piece ids + `[SEP]` (no limit when maxTokens is
 *   null/undefined).
 * @property {(text: string) => number[]} pieces word-piece ids without `[CLS]`/`[SEP]`
 * @property {(text: string) => string[]} tokenize word-piece strings without `[CLS]`/`[SEP]`
 * @property {(token: string) => number | undefined} tokenToId
 * @property {number} clsId
 * @property {number} sepId
 * @property {number} unkId
 * @property {number} vocabSize
 */

/**
 * Build a WordPiece tokenizer over a vocabulary.
 * @param {string[] | Map<string, number> | string} vocab vocab.txt lines (line number = id), a
 *   token -> id map, or the whole vocab.txt text
 * @param {boolean} [growing] the map gets entries later (vocab-shards.js: the shards a word needs
 *   are added before it is tokenized): every match length is tried, not only up to the longest
 *   entry in the map now (the same pieces: no entry is longer than the longest)
 * @returns {WordPiece}
 */
export function createWordPiece(vocab, growing = false) {
  /** @type {Map<string, number>} */
  let ids;
  if (vocab instanceof Map) ids = vocab;
  else {
    const lines = typeof vocab === "string" ? vocab.split("\n") : vocab;
    if (typeof vocab === "string" && lines.length && lines[lines.length - 1] === "") lines.pop();
    ids = new Map();
    lines.forEach((line, i) => ids.set(line.trimEnd(), i));
  }
  /** @param {string} t */
  const need = (t) => {
    const id = ids.get(t);
    if (id === undefined) throw new Error(`vocabulary lacks ${t}`);
    return id;
  };
  const clsId = need("[CLS]");
  const sepId = need("[SEP]");
  const unkId = need("[UNK]");
  const unkToken = "[UNK]";
  // Longest entry in code points (continuation entries counted without "##"): no match is longer.
  let maxLen = growing ? MAX_INPUT_CHARS_PER_WORD : 1;
  if (!growing) for (const token of ids.keys()) {
    const body = token.startsWith(CONTINUATION) ? token.slice(CONTINUATION.length) : token;
    let n = 0;
    for (const _ of body) n++;
    if (n > maxLen) maxLen = n;
  }
  /** @type {Map<string, string[]>} */
  const wordCache = new Map();

  /**
   * @param {string} word
   * @returns {string[]}
   */
  function wordPieces(word) {
    const cached = wordCache.get(word);
    if (cached) return cached;
    const chars = Array.from(word);
    /** @type {string[]} */
    let pieces = [];
    if (chars.length > MAX_INPUT_CHARS_PER_WORD) pieces = [unkToken];
    else {
      let start = 0;
      while (start < chars.length) {
        let end = Math.min(chars.length, start + maxLen);
        let found = "";
        while (start < end) {
          const sub = (start > 0 ? CONTINUATION : "") + chars.slice(start, end).join("");
          if (ids.has(sub)) {
            found = sub;
            break;
          }
          end--;
        }
        if (!found) {
          pieces = [unkToken];
          break;
        }
        pieces.push(found);
        start = end;
      }
    }
    if (wordCache.size < 10000) wordCache.set(word, pieces);
    return pieces;
  }

  /** @param {string} text */
  function tokenize(text) {
    return preTokenize(normalize(text)).flatMap(wordPieces);
  }

  /** @param {string} text */
  function pieces(text) {
    return tokenize(text).map((t) => /** @type {number} */ (ids.get(t)));
  }

  return {
    encode(text, maxTokens) {
      let p = pieces(text);
      if (maxTokens !== undefined && maxTokens !== null) {
        if (maxTokens < 2) throw new RangeError("maxTokens must be at least 2 ([CLS] and [SEP])");
        p = p.slice(0, maxTokens - 2);
      }
      return [clsId, ...p, sepId];
    },
    pieces,
    tokenize,
    tokenToId: (token) => ids.get(token),
    clsId,
    sepId,
    unkId,
    vocabSize: ids.size,
  };
}
