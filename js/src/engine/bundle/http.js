// @ts-check
/**
 * One rule for fetching a bundle file over HTTP, for the service (read.js httpFetcher) and the
 * page (ui/client.js fetches manifest.json beside worker.js): how long a fetch may stall, and
 * which failures are worth a second try. It imports nothing, so a page view that loads it
 * still loads none of the engine (js/test/layering.test.js).
 */

/** Seconds a bundle fetch may go without receiving anything (its response, or the next bytes of
 * its body) before it is given up and tried once more; a page may set another with the runtime
 * script's `data-graphsearch-timeout` attribute (ui.js). A stall, not a duration: a large part on
 * a slow connection keeps receiving, so it never times out. */
export const FETCH_TIMEOUT_SECONDS = 15;

/** The stall limit in seconds: a page's own when it gives one above 0, else FETCH_TIMEOUT_SECONDS.
 * @param {number | undefined} seconds */
export const stallSeconds = (seconds) => (seconds !== undefined && seconds > 0 ? seconds : FETCH_TIMEOUT_SECONDS);

class Stalled extends Error {}

/**
 * A failed try of a fetch: `permanent` when another try cannot help (the server answered
 * 1xx-4xx: a 404 stays a 404).
 */
export class FetchFailure extends Error {
  /** @param {string} message @param {boolean} permanent */
  constructor(message, permanent) {
    super(message);
    this.permanent = permanent;
  }
}

/**
 * @typedef {{revalidate?: boolean, timeoutSeconds?: number}} FetchOptions
 *   (revalidate: `no-cache`, for manifest.json: it names the current build's files; timeoutSeconds:
 *   how long the fetch may stall, stallSeconds)
 */

/**
 * One try of an HTTP GET of the whole body, aborted when nothing arrives for the stall limit.
 * @param {URL} url @param {FetchOptions} [options] @returns {Promise<Uint8Array>} rejects with a FetchFailure
 */
export async function fetchOnce(url, options = {}) {
  const seconds = stallSeconds(options.timeoutSeconds);
  const controller = new AbortController();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Stalled()), seconds * 1000);
  };
  arm();
  try {
    const cache = /** @type {RequestCache} */ (options.revalidate ? "no-cache" : "default");
    const response = await fetch(url, { cache, signal: controller.signal });
    if (!response.ok) throw new FetchFailure(`HTTP ${response.status}`, response.status < 500);
    if (!response.body) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    /** @type {Uint8Array[]} */
    const chunks = [];
    let length = 0;
    for (;;) {
      arm();
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    return bytes;
  } catch (error) {
    if (error instanceof FetchFailure) throw error;
    if (controller.signal.aborted) throw new FetchFailure(`no response for ${seconds} s`, false);
    throw new FetchFailure(/** @type {Error} */ (error).message, false);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A bundle file's bytes, tried twice in all (`tried`: tries made elsewhere, the page's of the
 * manifest) unless a failure is permanent; the error names the file.
 * @param {URL} url @param {string} name @param {FetchOptions} options @param {number} [tried]
 * @returns {Promise<Uint8Array>}
 */
export async function fetchTried(url, name, options, tried = 0) {
  for (let attempt = 1 + tried; ; attempt++) {
    try {
      return await fetchOnce(url, options);
    } catch (error) {
      const failure = /** @type {FetchFailure} */ (error);
      if (failure.permanent) throw new Error(`${failure.message} for ${name}`);
      if (attempt >= 2) throw new Error(`${failure.message} for ${name} (tried twice)`);
    }
  }
}
