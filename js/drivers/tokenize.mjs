// Reads a JSON array of strings on stdin, prints the JSON array of what one function of the
// shared tokenizer gives for each: `tokenize` (the default), `code` (tokenize as code), `spans`
// (tokenSpans), `query` (querySpans), `normalize` or `lower`, named by the first argument.
// Used by tests/test_tokenize.py and tests/test_unicode_table.py (Python <-> JS).
import { lower, normalize, querySpans, tokenize, tokenSpans } from "../src/engine/text/tokenize.js";

const FUNCTIONS = {
  tokenize: (/** @type {string} */ text) => tokenize(text),
  code: (/** @type {string} */ text) => tokenize(text, true),
  spans: (/** @type {string} */ text) => tokenSpans(text),
  query: querySpans,
  normalize,
  lower,
};
const name = process.argv[2] ?? "tokenize";
const run = FUNCTIONS[name];
if (!run) {
  process.stderr.write(`error: unknown function ${name} (${Object.keys(FUNCTIONS).join(", ")})\n`);
  process.exit(2);
}
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map((text) => run(text))));
});
