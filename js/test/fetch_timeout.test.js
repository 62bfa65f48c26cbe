// @ts-check
// Bundle fetches over HTTP (bundle/read.js httpFetcher, its rule in bundle/http.js): a response or body that stalls is given up
// after the timeout and tried once more (or not, if tried elsewhere first), then reported; a 404
// is not retried. Against a local
// server that never answers some paths (tests/test_browser_loading.py checks the UI in a browser).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { httpFetcher } from "../src/engine/bundle/read.js";

// Seconds: a stalled request costs this (twice: it is retried), an answered one nothing. Generous
// for the answered ones, which must arrive within it on a loaded machine too.
const TIMEOUT = 3;

test("stalls are retried once, then reported; a 404 is not retried", { timeout: 120_000 }, async () => {
  /** @type {Map<string, number>} */
  const requests = new Map();
  /** @type {import("node:http").ServerResponse[]} */
  const held = [];
  const server = createServer((request, response) => {
    const path = request.url ?? "";
    const count = (requests.get(path) ?? 0) + 1;
    requests.set(path, count);
    if (path === "/never.json" || path === "/tried.json" || (path === "/once.json" && count === 1)) {
      held.push(response); // no headers, no body: stalled
    } else if (path === "/half.bin") {
      response.writeHead(200, { "Content-Length": "8" });
      response.write("abcd"); // half the body, then nothing
      held.push(response);
    } else if (path === "/missing.json") {
      response.writeHead(404).end();
    } else {
      response.writeHead(200).end("ok");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(null)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  const fetchFile = httpFetcher(`http://127.0.0.1:${address.port}/`, TIMEOUT);
  const text = async (/** @type {string} */ name) => new TextDecoder().decode(await fetchFile(name));
  try {
    const [plain, once, never, half, missing, tried] = await Promise.allSettled([
      text("plain.json"), text("once.json"), text("never.json"), text("half.bin"), text("missing.json"),
      fetchFile("tried.json", 1), // tried once elsewhere (the page's manifest fetch): once more here
    ]);
    assert.deepEqual(plain, { status: "fulfilled", value: "ok" });
    assert.deepEqual(once, { status: "fulfilled", value: "ok" }); // the retry got it
    const reason = (/** @type {PromiseSettledResult<string>} */ result) =>
      result.status === "rejected" ? result.reason.message : `fulfilled: ${result.value}`;
    assert.equal(reason(never), `no response for ${TIMEOUT} s for never.json (tried twice)`);
    assert.equal(reason(half), `no response for ${TIMEOUT} s for half.bin (tried twice)`);
    assert.equal(reason(missing), "HTTP 404 for missing.json");
    assert.equal(tried.status === "rejected" && tried.reason.message, `no response for ${TIMEOUT} s for tried.json (tried twice)`);
    assert.deepEqual(Object.fromEntries(requests), {
      "/plain.json": 1, "/once.json": 2, "/never.json": 2, "/half.bin": 2, "/missing.json": 1, "/tried.json": 1,
    });
  } finally {
    for (const response of held) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve(null)));
  }
});

test("one stall limit: a page's timeout above 0, else FETCH_TIMEOUT_SECONDS", async () => {
  const { FETCH_TIMEOUT_SECONDS, stallSeconds } = await import("../src/engine/bundle/http.js");
  assert.equal(stallSeconds(undefined), FETCH_TIMEOUT_SECONDS);
  assert.equal(stallSeconds(0), FETCH_TIMEOUT_SECONDS);
  assert.equal(stallSeconds(3), 3);
});
