// @ts-check
/**
 * The search UI's client of the search service (worker.js): starts it on the reader's first
 * sign of intent, in a module Web Worker or, when workers fail, in the page; sends queries and
 * hands each box's answers (and the service's status) to whoever listens.
 */

/**
 * @typedef {{state: "loading" | "ready" | "error", parts: string[], done: boolean, message: string,
 *            warnings: string[], top?: {path: string, title: string, url: string}[],
 *            facets?: import("./chips.js").Facets | null}} Status
 *   (`facets`: the manifest's, once the worker has read it)
 * @typedef {{bytes: Uint8Array | null, tried: number}} Fetched a file the page fetched for the service:
 *   its bytes, or null and whether that try counts (fetchHanded)
 * @typedef {Fetched & {warm: Map<string, Promise<Fetched>>}} Handed the page's manifest, and the
 *   files it fetches once it has it (engine/bundle/warm.js), by name
 * @typedef {{type: "results", channel: string, id: number, query: string, mode?: string,
 *            results: any[], parts: string[], complete: boolean, error?: string}} ResultsMessage
 */

import { MANIFEST } from "../engine/bundle/format.js";
import { fetchOnce, stallSeconds } from "../engine/bundle/http.js";
import { warmFilesOf } from "../engine/bundle/warm.js";

/** Talks to the search service: a module worker, or the same code in the page. */
export class SearchClient {
  /** @param {URL} bundleUrl @param {number} [timeout] seconds a bundle fetch may stall (engine/bundle/http.js stallSeconds) */
  constructor(bundleUrl, timeout) {
    this.bundleUrl = bundleUrl;
    this.timeout = timeout;
    /** @type {Status} */
    this.status = { state: "loading", parts: [], done: false, message: "", warnings: [] };
    /** @type {Map<string, (message: ResultsMessage) => void>} */
    this.channels = new Map();
    /** @type {Set<(status: Status) => void>} */
    this.statusListeners = new Set();
    /** Latest query per channel, replayed if the worker has to be replaced. @type {Map<string, any>} */
    this.latest = new Map();
    this.nextId = 1;
    /** @type {Worker | null} */
    this.worker = null;
    /** @type {{handle: (message: any) => void} | null} */
    this.service = null;
    this.heard = false;
    this.started = false;
    /** The manifest as the page fetched it (engine/worker.js: bytes null, the service fetches it).
     * @type {Promise<Handed>} */
    this.manifest = Promise.resolve({ bytes: null, tried: 0, warm: new Map() });
  }

  /**
   * Start loading when the reader shows intent on this element: pointer over it, press, touch
   * or focus (so loading is under way before the first keystroke).
   * @param {Element} element
   */
  warmOn(element) {
    const warm = () => this.start();
    for (const type of ["pointerenter", "pointerdown", "touchstart", "focusin"]) {
      element.addEventListener(type, warm, { once: true, passive: true });
    }
  }

  /** Start loading the bundle (on first use, so pages that never search fetch nothing). */
  start() {
    if (this.started) return;
    this.started = true;
    // The service posts its status as soon as it runs: silence means worker.js (or, in the
    // page, its import) never arrived, and "Loading…" must not stay on screen forever (it may
    // stall as long as any bundle fetch).
    const seconds = stallSeconds(this.timeout);
    setTimeout(() => {
      if (this.heard) return;
      this.setStatus({ state: "error", parts: [], done: true, warnings: [],
                       message: `the search runtime did not start: no response for ${seconds} s` });
    }, seconds * 1000);
    // The manifest downloads beside worker.js, not once the worker runs (a round trip less
    // before the query's files), and the files every query needs as soon as it is in: the
    // service takes these bytes, or without them fetches each itself, this try counted (a
    // stalled file is still tried twice in all).
    this.manifest = fetchHanded(this.bundleUrl, MANIFEST, this.timeout).then((manifest) => {
      const names = manifest.bytes ? warmFilesOf(manifest.bytes) : [];
      return { ...manifest, warm: new Map(names.map((name) => [name, fetchHanded(this.bundleUrl, name, this.timeout)])) };
    });
    try {
      // worker.js comes from this runtime's own folder (engine/ next to ui/), named after its hash
      // (inject.py): an old page can only ever start its own worker, never a newer one.
      const worker = new Worker(new URL("../engine/worker.js", import.meta.url), { type: "module" });
      worker.addEventListener("message", (event) => this.receive(event.data));
      worker.addEventListener("error", (event) => {
        if (this.heard) return; // the service reports its own errors as messages
        event.preventDefault();
        worker.terminate();
        this.worker = null;
        this.inPage();
      });
      worker.postMessage(this.initMessage());
      this.hand((message) => worker.postMessage(message));
      this.worker = worker;
    } catch {
      this.inPage();
    }
  }

  /** No module workers here: run the service in the page, and replay the latest queries. */
  inPage() {
    import("../engine/worker.js").then(
      ({ createService }) => {
        const service = createService((message) => queueMicrotask(() => this.receive(message)));
        service.handle(this.initMessage());
        this.hand((message) => service.handle(message));
        for (const message of this.latest.values()) service.handle(message);
        this.service = service;
      },
      (error) => this.receive({ type: "status", state: "error", parts: [], done: true, warnings: [],
                                message: `the search runtime could not start (${error.message})` }),
    );
  }

  /** Hand the service what the page fetched for it: the manifest (with the names of the files
   * that follow), then each of those files as it arrives. @param {(message: any) => void} send */
  hand(send) {
    this.manifest.then(({ bytes, tried, warm }) => {
      send({ type: "manifest", bytes, tried, warm: [...warm.keys()] });
      for (const [name, file] of warm) file.then((fetched) => send({ type: "file", name, ...fetched }));
    });
  }

  initMessage() {
    return { type: "init", bundleUrl: this.bundleUrl.href, timeout: this.timeout, manifest: true };
  }

  /** @param {any} message */
  send(message) {
    if (this.worker) this.worker.postMessage(message);
    else if (this.service) this.service.handle(message);
  }

  /** @param {any} message */
  receive(message) {
    if (!message || typeof message !== "object") return;
    this.heard = true;
    if (message.type === "status") {
      this.setStatus(message);
    } else if (message.type === "results") {
      const handler = this.channels.get(message.channel);
      if (handler) handler(message);
    }
  }

  /** @param {Status} status */
  setStatus(status) {
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  /** The box of this channel is empty again. @param {string} channel */
  clear(channel) {
    this.latest.delete(channel);
    this.send({ type: "clear", channel });
  }

  /**
   * Ask for results; the answer (and later, better answers for the same query) come to the
   * channel's handler with the returned id.
   * @param {string} channel @param {string} query
   * @param {boolean} [settled] the text came whole (pasted, set by a link): no typing pause to
   *   wait for before the semantic half (engine/worker.js SEMANTIC_PAUSE_MS)
   * @returns {number}
   */
  query(channel, query, settled = false) {
    this.start();
    const message = { type: "query", channel, id: this.nextId++, query, settled };
    this.latest.set(channel, message);
    this.send(message);
    return message.id;
  }
}

/**
 * A bundle file's bytes, fetched by the page by engine/bundle/http.js's rule, as the service
 * fetches it (the manifest revalidated: a new build's files are named in the new manifest); null
 * when that fails, with the try counted (`tried` 1) unless the failure is permanent (a 4xx: the
 * service then fetches it itself and reports why it cannot).
 * @param {URL} bundleUrl @param {string} name @param {number | undefined} timeout how long it may stall (stallSeconds)
 * @returns {Promise<Fetched>}
 */
function fetchHanded(bundleUrl, name, timeout) {
  return fetchOnce(new URL(name, bundleUrl), { revalidate: name === MANIFEST, timeoutSeconds: timeout }).then(
    (bytes) => ({ bytes, tried: 1 }),
    (failure) => ({ bytes: null, tried: failure?.permanent ? 0 : 1 }),
  );
}
