// @ts-check
/**
 * Test driver for js/src/engine/text/wordpiece.js, used by tests/test_wordpiece.py: one JSON request per
 * stdin line, one JSON answer per stdout line, until stdin closes.
 *
 *   {"op": "encode", "texts": [...], "max_tokens": 16 | null}  -> {"ids": [[...], ...]}
 *   {"op": "normalize", "texts": [...]}                        -> {"out": ["...", ...]}
 *   {"op": "pretokenize", "texts": [...]}                      -> {"out": [["word", ...], ...]}
 *
 * Usage: node js/drivers/wordpiece.mjs [path/to/vocab.txt]
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createWordPiece, normalize, preTokenize } from "../src/engine/text/wordpiece.js";

const vocabPath =
  process.argv[2] ??
  fileURLToPath(new URL("../../mkdocs_graphsearch/text/vocab.txt", import.meta.url));
const wp = createWordPiece(readFileSync(vocabPath, "utf8"));

/** @param {any} req */
function handle(req) {
  switch (req.op) {
    case "encode":
      return { ids: req.texts.map((/** @type {string} */ t) => wp.encode(t, req.max_tokens)) };
    case "normalize":
      return { out: req.texts.map(normalize) };
    case "pretokenize":
      return { out: req.texts.map(preTokenize) };
    default:
      return { error: `unknown op ${req.op}` };
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let answer;
  try {
    answer = handle(JSON.parse(line));
  } catch (err) {
    answer = { error: String(err && /** @type {Error} */ (err).stack) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
