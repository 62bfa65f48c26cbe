// @ts-check
// Every runtime module type-checks under tsc --strict (their JSDoc is the type contract).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const js = fileURLToPath(new URL("..", import.meta.url));
const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));

test("js/src type-checks (tsc --strict)", { skip: !existsSync(tsc) && "typescript is not installed (npm install --prefix js)" }, () => {
  const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: js, encoding: "utf8" });
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
