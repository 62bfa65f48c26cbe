// @ts-check
// A helper of the tests, not a test: one query through the search service (worker.js
// createService) over a bundle's files, the way the page's worker runs it.
import { createService } from "../src/engine/worker.js";

/** @param {any} message */
const complete = (message) => message.type === "results" && message.complete;

/**
 * The service's messages for one query up to the first for which `last` holds (by default its
 * complete answer): its answers (`results` messages) in order and its last status (or null).
 * @param {(name: string) => Promise<Uint8Array>} fetchFile the bundle's files by name
 * @param {Record<string, any>} query the query message's own fields (query, mode, limit)
 * @param {(message: any) => boolean} [last]
 * @returns {Promise<{answers: any[], status: any}>}
 */
export function askService(fetchFile, query, last = complete) {
  /** @type {any[]} */
  const answers = [];
  /** @type {any} */
  let status = null;
  return new Promise((resolve) => {
    const service = createService((message) => {
      if (message.type === "results") answers.push(message);
      if (message.type === "status") status = message;
      if (last(message)) resolve({ answers: [...answers], status });
    }, { fetcher: () => fetchFile });
    service.handle({ type: "init", bundleUrl: "http://localhost/search/" });
    service.handle({ type: "query", channel: "box", id: 1, ...query });
  });
}
