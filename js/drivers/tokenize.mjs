// Reads a JSON array of strings on stdin, prints the JSON array of their token lists.
// Used by tests/test_tokenize.py for the Python <-> JS property test.
import { tokenize } from "../src/tokenize.js";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map(tokenize)));
});
