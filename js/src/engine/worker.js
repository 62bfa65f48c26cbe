// @ts-check
/**
 * The search service: loads the bundle part by part and answers queries.
 *
 * Runs as a module Web Worker (started by ui/client.js); when workers are unavailable,
 * ui/client.js imports this module and runs the same service in the page (createService).
 * It also composes the bundle: bundle/read.js reads and checks files, encoder.js reads the query
 * encoder; PARTS (and loadBundle, for node) put them together.
 *
 * Protocol (plain objects through postMessage):
 *   in:  {type: "init", bundleUrl, timeout?, manifest?}   (timeout: bundle/http.js stallSeconds', in
 *        seconds; manifest: true when the page fetches manifest.json and sends it next, so it
 *        downloads beside this file: ui/client.js)
 *        {type: "manifest", bytes, tried, warm?}   (the page's manifest.json, or null: then the service
 *        fetches it, its try counted when `tried` is 1: bundle/http.js fetchTried; warm: the file
 *        names of bundle/warm.js the page fetches too, each handed likewise as
 *        {type: "file", name, bytes, tried})
 *        {type: "query", channel, id, query, mode?, limit?, settled?}
 *        {type: "clear", channel}   (the box is empty: nothing to re-run for it)
 *   out: {type: "status", state: "loading" | "ready" | "error", parts, done, message?, warnings, top,
 *         facets}
 *        {type: "results", channel, id, query, mode, results, parts, complete}   (query: the part
 *        the engine read, its first max_query_chars code points: engine.js boundedQuery)
 *   (`done` / `complete`: every part has been tried, nothing more will arrive; `top`: the site's
 *   most connected pages from the manifest, for an empty box (ui/start.js), [] until it is read;
 *   `facets`: the manifest's, for filter chips, null until the keyword part is in)
 *
 * Queries are answered as soon as every required part is in (the keyword part: the semantic part
 * is optional, so the first answer is by keyword only); each optional part that arrives
 * later re-runs the latest query of every channel and re-posts it under the same id, so the UI
 * can update the list in place (a new part of the bundle = one more entry in PARTS). Term
 * shards are no part: a query whose terms are in shards not loaded yet is not answered until
 * they are (fetched then, only those, with the term dictionary for a token that may be a typo;
 * one that fails ends search with an error, as the keyword part does: an answer without it could
 * say "No results" for words the site has). Display columns (titles, anchors, urls: display
 * fragments) and the graph (graph.json and its shards) are no parts either: an answer waits for
 * the display fragments of the pages it shows and, only if it expands (engine.js decides from the
 * answer), for graph.json and the graph shards of the chunks it expands from, fetched then, only
 * those (a display fragment that fails ends search likewise; a graph file that fails is a
 * warning: its chunks expand nowhere). Snippet texts are no part: an answer whose shown snippets need texts not loaded yet goes out with
 * those snippets empty, then the text fragments holding them are fetched (only those) and the
 * query is answered again (`complete` stays false until they are in, or failed); only for an
 * answer in its final mode, and for a typed query once its pause ended (answers the semantic part
 * or the next key replace fetch no texts; on a small site, oneGraphShard, a query entered whole
 * fetches its keyword answer's texts at once and its final answer waits for its own). The semantic
 * half's files (encoder rows and vocabulary, vector clusters, graph shards) never hold up the
 * keyword answer: while they are missing the query is answered in keyword mode (incomplete). The
 * query encoder's files (vocabulary and rows) are fetched at once; vector clusters and graph
 * shards only once the query has stayed the box's text for SEMANTIC_PAUSE_MS, or at once for a
 * query entered whole (`settled`: pasted, dropped, picked, set by a link: no more keys come).
 * While a query is typed, three things wait for that pause too: the term shards of a query whose
 * last word is one letter (its prefix spans the most terms), those and (on a site of more than
 * TYPED_ALL_DISPLAYS display files) the display fragments of a prefix that needs more than
 * TYPED_NEW_FILES of either (its answer on screen stays), and on a site of more than one graph
 * shard (oneGraphShard: where the vector clusters wait anyway) the
 * encoder rows of the word being typed and of its completions (encoder.js heldFrom): the next
 * key changes them all.
 */
import { BundleError, MANIFEST, fileName, graphCount, graphShard, oneGraphShard } from "./bundle/format.js";
import {
  fragmentOf,
  httpFetcher,
  inOrder,
  loadDictionary,
  loadDisplay,
  loadGraph,
  loadGraphShard,
  loadKeywordBundle,
  loadManifest,
  loadShard,
  loadTexts,
} from "./bundle/read.js";
import { HELD_ROWS } from "./bundle/encoder-shards.js";
import { stallSeconds } from "./bundle/http.js";
import { warmFiles } from "./bundle/warm.js";
// engine.js (and the modules it imports) is imported at init, not here: a static import would
// hold the worker's first fetch of the bundle until the whole module graph is in. Loading starts
// on the reader's first sign of intent, so the two now download side by side.

/** @typedef {import("./bundle/read.js").Bundle} Bundle */
/** @typedef {import("./bundle/read.js").FetchFile} FetchFile */

/** The rows of chunks whose graph file failed: expand.js goes on without edges from them. */
const NO_EDGES = { targets: [], types: [] };
/**
 * @typedef {{fetchFile: FetchFile, bundle: Bundle | null}} LoadContext
 * @typedef {{
 *   name: string, required: boolean,
 *   load: (context: LoadContext) => Promise<boolean | void>
 * }} Part
 * @typedef {{type: "query", channel: string, id: number, query: string,
 *            mode?: string | null, limit?: number | null, settled?: boolean}} QueryMessage
 */

/**
 * Parts of the bundle, loaded in this order (their files download at once: bundle/warm.js, so
 * they are often already there when their turn comes).
 * `load` may return false when it added nothing (then queries are not re-run).
 * @type {Part[]}
 */
export const PARTS = [
  {
    name: "keyword",
    required: true,
    load: async (context) => {
      context.bundle = await loadKeywordBundle(context.fetchFile);
    },
  },
  {
    // Passage vectors + query encoder (a no-op for keyword-only bundles). Loaded last, in the
    // background: results already on screen are re-posted when it arrives.
    name: "semantic",
    required: false,
    load: async (context) => loadSemantic(/** @type {Bundle} */ (context.bundle), context.fetchFile),
  },
];

/**
 * Add the semantic part: the passage vectors (vector-shards.js: all, or a clustered bundle's
 * centroids) and the query encoder (encoder.js), both imported only now: they and WordPiece stay
 * off the first keystroke's path. Both are set at once,
 * so a query never sees vectors without their encoder.
 * @param {Bundle} bundle @param {FetchFile} fetchFile
 * @returns {Promise<boolean>} false when the bundle has no semantic part (nothing new)
 */
export async function loadSemantic(bundle, fetchFile) {
  if (!bundle.manifest.vectors) return false;
  const [vectors, encoder] = await inOrder([
    import("./bundle/vector-shards.js").then(({ loadVectors }) => loadVectors(bundle, fetchFile)),
    import("./encoder.js").then(({ loadEncoder }) => loadEncoder(bundle, fetchFile)),
  ]);
  bundle.encoder = encoder;
  bundle.vectors = vectors;
  return true;
}

/**
 * Every part, every term shard, the dictionary and every text fragment, for node (drivers, tests, benchmarks), in the order
 * bundle/read.py reads them (so both report the same fault first): any that fails throws.
 * The graph is read for keyword-only bundles too (as bundle/read.py does: a fault is a fault).
 * @param {FetchFile} fetchFile @returns {Promise<Bundle>}
 */
export async function loadBundle(fetchFile) {
  /** @type {LoadContext} */
  const context = { fetchFile, bundle: null };
  // The graph is no part (an answer that expands fetches it: worker.js wantGraphs); it is read
  // between the keyword and semantic parts, as bundle/read.py reads it.
  for (const part of [PARTS[0], { name: "graph" }, ...PARTS.slice(1)]) {
    if ("load" in part) await part.load(context);
    const bundle = /** @type {Bundle} */ (context.bundle);
    if (part.name === "semantic" && bundle.vectors?.clusters) { // as bundle/read.py read_clustered
      await import("./bundle/vector-shards.js").then(({ loadAllClusters }) => loadAllClusters(bundle, fetchFile));
    }
    if (part.name === "graph") {
      await loadGraph(bundle, fetchFile);
      for (let index = 0; index < graphCount(bundle.manifest); index++) await loadGraphShard(bundle, fetchFile, index);
    }
    if (part.name === "keyword") {
      for (let index = 0; index < bundle.shardLoaded.length; index++) await loadShard(bundle, fetchFile, index);
      await loadDictionary(bundle, fetchFile);
      for (let index = 0; index < bundle.textStarts.length; index++) await loadTexts(bundle, fetchFile, index);
      for (let index = 0; index < bundle.displayLoaded.length; index++) await loadDisplay(bundle, fetchFile, index);
    }
    if (part.name === "semantic" && bundle.encoder) {
      await import("./encoder.js").then(({ loadAllEncoderParts }) => loadAllEncoderParts(bundle, fetchFile));
    }
  }
  return /** @type {Bundle} */ (context.bundle);
}

/**
 * @typedef {{bytes: ArrayBuffer | Uint8Array | null, tried: number}} HandedBytes
 * @typedef {{file: Promise<HandedBytes>, hand: (bytes: HandedBytes) => void}} Handed
 */

/** A file the page fetches for the service: its bytes once the page hands them. @returns {Handed} */
function handedFile() {
  /** @type {(bytes: HandedBytes) => void} */
  let hand = () => {};
  const file = new Promise((resolve) => { hand = resolve; });
  return { file: /** @type {Promise<HandedBytes>} */ (file), hand };
}

/**
 * A FetchFile that fetches each file once (so prefetching warms the cache).
 * @param {FetchFile} fetchFile @returns {FetchFile}
 */
export function cachingFetcher(fetchFile) {
  /** @type {Map<string, Promise<ArrayBuffer | Uint8Array>>} */
  const cache = new Map();
  return (name) => {
    let pending = cache.get(name);
    if (!pending) {
      pending = fetchFile(name);
      cache.set(name, pending);
    }
    return pending;
  };
}

/** How many text fragments a small site (format.js oneGraphShard) fetches before any query: those
 * of its most connected pages (topFragments). */
export const TOP_TEXT_FRAGMENTS = 4;

/**
 * The first `count` text fragments holding the texts of the manifest's `top` pages, most
 * connected first (each page's fragments in order).
 * @param {Bundle} bundle @param {number} count @returns {number[]}
 */
export function topFragments(bundle, count) {
  const rank = new Map(topPages(bundle.manifest).map((entry, i) => [entry.path, i]));
  /** @type {Set<number>[]} each top page's fragments */
  const held = Array.from(rank, () => new Set());
  const { page } = bundle.chunks;
  for (let chunk = 0; chunk < bundle.nChunks; chunk++) {
    const at = rank.get(bundle.pages.path[page[chunk]]);
    if (at !== undefined) held[at].add(fragmentOf(bundle, chunk));
  }
  const chosen = new Set();
  for (const fragments of held) {
    for (const index of fragments) if (chosen.size < count) chosen.add(index);
  }
  return [...chosen];
}

/** Most start pages an empty box lists (the manifest's `top` is written with 8). */
const MAX_TOP = 20;

/**
 * The manifest's `top` (bundle/related.py; its shape checked by bundle/schema.js): [] for bundles
 * without one. Titles and URLs stay text: the UI sets them as text and checks every link.
 * @param {any} manifest @returns {{path: string, title: string, url: string}[]}
 */
export function topPages(manifest) {
  return (manifest.top ?? [])
    .slice(0, MAX_TOP)
    .map((/** @type {any} */ entry) => ({ path: entry.path, title: entry.title, url: entry.url }));
}

/** @param {unknown} error */
function describe(error) {
  if (error instanceof BundleError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `the search index could not be loaded (${message})`;
}

/**
 * Why search stops: a part every keyword answer needs failed (the keyword part, a term shard,
 * the dictionary, a display fragment). Answering without it would say "No results" for words
 * the site has. A damaged file (not one that could not be fetched) is the build's to fix.
 * @param {unknown} error
 */
function unavailable(error) {
  const message = describe(error);
  const damaged = error instanceof BundleError && !message.startsWith("cannot read ");
  return damaged && !message.includes("rebuild the site") ? `${message}: rebuild the site` : message;
}


/**
 * A module import that has not settled after `seconds` is an error: a server that stalls a
 * runtime module must not leave "Loading…" on screen forever. (It cannot be retried: the
 * browser keeps the pending import under its URL.)
 * @template T @param {Promise<T>} promise @param {number} seconds @param {string} name
 * @returns {Promise<T>}
 */
function withinSeconds(promise, seconds, name) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no response for ${seconds} s for ${name}`)), seconds * 1000);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, late])).finally(() => clearTimeout(timer));
}
/**
 * Milliseconds a box's query must stay unchanged before the semantic half fetches the vector
 * clusters and graph edges it lacks for it (issue 23: typing a question fetched every prefix's
 * shards). Until then, and until those files are in, the query gets its keyword answer at once.
 * The query encoder's files are not held: a word's vocabulary shards follow from its first letter
 * (bundle/vocab-shards.js), so its prefixes need the same ones, and its rows come in small files;
 * fetched while the reader types, they leave the pause only arithmetic where nothing else is
 * missing (then there is no pause: the hybrid answer follows the keyword one at once). On a site
 * of more than one graph shard the rows of the word being typed are the exception (they wait
 * with the vector clusters, which need them).
 */
export const SEMANTIC_PAUSE_MS = 250;

/** What warmUp searches for: words of a question, one with a typo-prone length, a code-like one. */
const WARM_QUERY = "how do I configure search_index";

/**
 * Whether the site's snippet texts are one file: fetched while the reader types like the
 * encoder's files, as any prefix's answer needs the same one; where they are several files each
 * prefix would fetch others, so theirs wait for the typing pause.
 * @param {unknown} textStarts a bundle's textStarts (manifest text_starts)
 */
const oneTextFile = (textStarts) => Array.isArray(textStarts) && textStarts.length === 1;

/** How many of a typed query's words are finished: all but the last, unless a space follows it
 * (the encoder's words; any completions come after them; a filter's words count too, so a
 * query with filters may fetch a row early or at the pause, never a different answer).
 * @param {import("./encoder.js").StaticEncoder} encoder @param {string} query */
const typedWords = (encoder, query) => encoder.words(query).length - (/\s$/u.test(query) ? 0 : 1);

/** Whether a query's last word is one character (spaces after it or not). @param {string} query */
const oneLetterLast = (query) => /(?:^|\s)\S\s*$/u.test(query);

/**
 * Most files of one kind (term shards, display fragments) a typed prefix fetches for its keyword
 * answer before the typing pause (SEMANTIC_PAUSE_MS). A prefix that needs more (its range spans
 * several term shards, as a short prefix does on a large site; its pages' titles lie in several
 * display fragments) waits for the next key or the pause, and the answer on screen stays: the
 * next key changes both, and a question typed at speed would otherwise fetch every prefix's
 * (issue 23). A site of few display files (TYPED_ALL_DISPLAYS), or a word whose range is in a
 * shard or two, answers at once as before.
 */
export const TYPED_NEW_FILES = 2;

/**
 * A site of at most this many display fragments fetches a typed prefix's at once, however many
 * it needs: a typing session fetches at most all of them, within the typed request budget
 * (docs/performance.md), and a prefix whose term shards are in is answered.
 */
export const TYPED_ALL_DISPLAYS = 20;

/** Whether a typed prefix that needs these display fragments waits for the typing pause.
 * @param {Bundle} bundle @param {Map<number, string>} states @param {Set<number>} shown */
const displaysWait = (bundle, states, shown) =>
  bundle.displayLoaded.length > TYPED_ALL_DISPLAYS && unasked(states, shown) > TYPED_NEW_FILES;

/** How many of these files are not asked for yet (not loading, loaded or failed).
 * @param {Map<number, string>} states @param {Iterable<number>} indexes */
const unasked = (states, indexes) => {
  let count = 0;
  for (const index of indexes) if (!states.has(index)) count++;
  return count;
};

/** Whether a query extends or cuts its box's previous one ("" for none) by a key or two: it
 * is being typed (encoder.js `typing`). @param {string} previous @param {string} query */
const typedOn = (previous, query) =>
  Math.abs(query.length - previous.length) <= 2 && (query.startsWith(previous) || previous.startsWith(query));

/**
 * @param {(message: any) => void} post where answers go (postMessage of the worker or the page)
 * @param {{parts?: Part[], fetcher?: (bundleUrl: string, timeout?: number) => FetchFile,
 *          semanticPause?: number}} [options] (semanticPause: SEMANTIC_PAUSE_MS by default)
 */
export function createService(post, options = {}) {
  const parts = options.parts ?? PARTS;
  const makeFetcher = options.fetcher ?? httpFetcher;
  const semanticPause = options.semanticPause ?? SEMANTIC_PAUSE_MS;
  /** When each query message arrived (for its pause). @type {WeakMap<QueryMessage, number>} */
  const arrived = new WeakMap();
  /** Whether each query message was typed on its box's previous one (typedOn). @type {WeakMap<QueryMessage, boolean>} */
  const typed = new WeakMap();
  /** Each channel's timer for the end of its query's pause. @type {Map<string, ReturnType<typeof setTimeout>>} */
  const pauses = new Map();
  /** The query id each channel last got an early keyword answer for. @type {Map<string, number>} */
  const keywordPosted = new Map();
  /** @type {LoadContext | null} */
  let context = null;
  /** Files the page fetches (ui/client.js), when init said it sends the manifest: the manifest
   * (a "manifest" message) and the warm files it names (bundle/warm.js; each a "file" message):
   * their bytes, or null and how many tries the page made. @type {Map<string, Handed>} */
  const handed = new Map([[MANIFEST, handedFile()]]);
  /** @type {string[]} */
  const loaded = [];
  /** @type {string[]} */
  const warnings = [];
  let tried = 0;
  let state = "loading";
  let errorMessage = "";
  /** @type {{path: string, title: string, url: string}[]} */
  let top = [];
  /** Latest query of each channel (re-run when a part arrives). @type {Map<string, QueryMessage>} */
  const latest = new Map();
  /** Channels whose latest query has not been answered yet. @type {Set<string>} */
  const waiting = new Set();
  let scheduled = false;
  /** An answer went out before every part was tried: the final one must follow. */
  let answeredEarly = false;
  /** Text fragments by index: loading, loaded or failed (each is fetched once).
   * @type {Map<number, "loading" | "loaded" | "failed">} */
  const fragments = new Map();
  /** Term shards by index (keyword.js DICTIONARY: the dictionary): loading, loaded or failed.
   * @type {Map<number, "loading" | "loaded" | "failed">} */
  const shards = new Map();
  /** Vector clusters by index: loading, loaded or failed. @type {Map<number, "loading" | "loaded" | "failed">} */
  const clusterStates = new Map();
  /** Query encoder shards by index: loading, loaded or failed.
   * @type {Map<number, "loading" | "loaded" | "failed">} */
  const encoderShards = new Map();
  /** Display fragments by index: loading, loaded or failed.
   * @type {Map<number, "loading" | "loaded" | "failed">} */
  const displays = new Map();
  /** A small site's query whose final answer waits for these text fragments (answer). @type {Map<string, {message: QueryMessage, indexes: number[]}>} */
  const textsFor = new Map();
  /** Graph shards by index: loading, loaded or failed.
   * @type {Map<number, "loading" | "loaded" | "failed">} */
  const graphShards = new Map();
  /** The engine (search, and boundedQuery: the part of a query it reads), once engine.js is in
   * (imported at init, beside the first part). @type {typeof import("./engine.js") | null} */
  let engineModule = null;

  function postStatus() {
    post({ type: "status", state, parts: [...loaded], done: tried === parts.length || state === "error",
           message: errorMessage, warnings: [...warnings], top,
           facets: context?.bundle?.manifest.facets ?? null });
  }

  /** @param {QueryMessage} message */
  function answer(message) {
    if (!context || !context.bundle || !engineModule) return;
    // Its final answer waits for texts still on the way: searching again as each other file
    // arrives would only find that out again, on the worker's thread the last one is answered on.
    const waits = textsFor.get(message.channel);
    if (waits?.message === message && waits.indexes.some((index) => fragments.get(index) === "loading")) return;
    textsFor.delete(message.channel);
    if (tried < parts.length) answeredEarly = true;
    const bundle = context.bundle;
    const { search, boundedQuery } = engineModule;
    // Echoed as the engine read it: the UI's status line (announced) shows no more than that.
    const query = boundedQuery(bundle, message.query);
    /** @type {Set<number>} */
    const missing = new Set();
    /** @type {Set<number>} */
    const wanted = new Set();
    /** @type {Set<number>} */
    const clusters = new Set();
    const encoderWanted = new Set();
    const shown = new Set();
    /** @type {Set<number>} */
    const graphs = new Set();
    const left = message.settled ? 0 : semanticPause - (Date.now() - (arrived.get(message) ?? 0));
    const typing = typed.get(message) ?? false;
    if (bundle.encoder) {
      bundle.encoder.typing = typing;
      // A larger site's hybrid answer waits for the typing pause (its vector clusters): the rows
      // of the word being typed and of its completions wait with it (encoder.js HELD_ROWS).
      bundle.encoder.heldFrom = typing && left > 0 && !oneGraphShard(bundle.manifest)
        ? typedWords(bundle.encoder, message.query) : Infinity;
    }
    // A small site's answer in its final mode waits for all its snippets' texts (below): one
    // that lacks any is not shown, so its snippets are not worked out (`whole`), unless a text
    // fragment failed (then it goes out with the snippets there are).
    const requested = message.mode || bundle.settings.default_mode;
    const finalMode = tried === parts.length || requested === "keyword" || Boolean(bundle.vectors);
    const whole = oneGraphShard(bundle.manifest) && finalMode && ![...fragments.values()].includes("failed");
    let output;
    try {
      output = search(bundle, message.query, { mode: message.mode, limit: message.limit, missing, shards: wanted,
                                               clusters, encoderShards: encoderWanted, displays: shown, graphs, whole });
    } catch (error) {
      post({ type: "results", channel: message.channel, id: message.id, query,
             error: describe(error), results: [], parts: [...loaded], complete: tried === parts.length });
      return;
    }
    // A one-letter word being typed matches most as a prefix, over several term shards, and the
    // next key narrows it: its term shards wait for the typing pause (the answer on screen stays),
    // as do those of any typed prefix that needs more than TYPED_NEW_FILES of them.
    const beforePause = typing && left > 0;
    if (beforePause && wanted.size && (oneLetterLast(message.query) || unasked(shards, wanted) > TYPED_NEW_FILES)) {
      return pauseThen(message, left);
    }
    const terms = wantShards(bundle, wanted); // requested first: the keyword answer waits on them
    // The query encoder's files download beside them, typing or not (SEMANTIC_PAUSE_MS), but
    // for the rows held back.
    const heldRows = encoderWanted.delete(HELD_ROWS);
    const encoding = wantEncoderShards(bundle, encoderWanted);
    // A site's one text file holds every answer's snippets (any chunk's fragment is it): it
    // downloads as the query arrives, beside the term shards and the semantic half's files, not
    // a round trip after them (a pasted query's final answer waited for it).
    if (oneTextFile(bundle.textStarts)) wantTexts(bundle, [0]);
    if (terms) return; // answered when they are in
    if (encoding || heldRows || clusters.size || graphs.size) { // the semantic half lacks files
      const held = left > 0 && (heldRows || clusters.size > 0 || (graphs.size > 0 && !oneGraphShard(bundle.manifest)));
      if (held) pauseThen(message, left); // fetched once the reader stops typing
      if (encoding || held ||
          wantClusters(bundle, clusters) || // the vector clusters probed: answered when in
          wantGraphs(bundle, graphs)) { // the edges from the expansion's seeds: likewise
        if (message.mode !== "vector") answerByKeyword(bundle, message, beforePause ? left : 0); // meanwhile
        return;
      }
    }
    if (beforePause && displaysWait(bundle, displays, shown)) return pauseThen(message, left); // as term shards
    if (wantDisplays(bundle, shown)) return; // the titles and urls of the pages shown: likewise
    // Snippet texts only for an answer that stays: not for a typed prefix before its pause (the
    // next key replaces it; a small site's excepted: every prefix shows most of its pages, and
    // its texts are one file or a few) nor for a keyword answer the semantic part will re-rank.
    const final = tried === parts.length || output.mode === (message.mode || bundle.settings.default_mode);
    const textsLater = missing.size > 0 && ((left > 0 && !oneGraphShard(bundle.manifest)) || !final);
    if (textsLater && left > 0) pauseThen(message, left);
    // On a small site the final answer waits for its snippets (mostly in or on the way since its
    // keyword answer: answerByKeyword), which is shown meanwhile.
    if (!textsLater && missing.size > 0 && oneGraphShard(bundle.manifest) && wantTexts(bundle, missing)) {
      if (message.mode !== "vector") answerByKeyword(bundle, message, beforePause ? left : 0);
      textsFor.set(message.channel, { message, indexes: [...missing].map((chunk) => fragmentOf(bundle, chunk)) });
      return;
    }
    post({
      type: "results",
      channel: message.channel,
      id: message.id,
      query,
      mode: output.mode,
      results: output.results,
      parts: [...loaded],
      complete: tried === parts.length && !textsLater && !wantTexts(bundle, missing),
    });
  }

  /** Search stops with this error (no more answers: the UI shows it instead of any). @param {unknown} error */
  function fail(error) {
    state = "error";
    errorMessage = unavailable(error);
    postStatus();
  }

  /**
   * The keyword answer of a query whose semantic half is not ready (once per query; its pages'
   * display fragments first; its snippets' texts wait for the final answer), marked incomplete.
   * A typed prefix whose pages need more than TYPED_NEW_FILES display fragments not asked for
   * (on a site of more than TYPED_ALL_DISPLAYS) waits for its typing pause, `pause` ms away (0: it
   * has ended, or the query was not typed).
   * @param {Bundle} bundle @param {QueryMessage} message @param {number} pause
   */
  function answerByKeyword(bundle, message, pause) {
    if (keywordPosted.get(message.channel) === message.id || !engineModule) return;
    const { search, boundedQuery } = engineModule;
    const shown = new Set();
    /** @type {Set<number>} */
    const missing = new Set();
    // A small site's query entered whole: its final answer shows mostly these pages' snippets
    // (oneGraphShard), fetched now, beside the semantic half's files, not a round trip after them;
    // and not after working out the snippets of those in (`whole`: this answer shows them all or none).
    const early = !typed.get(message) && oneGraphShard(bundle.manifest);
    let output;
    try {
      output = search(bundle, message.query, { mode: "keyword", limit: message.limit, missing, shards: new Set(),
                                               displays: shown, whole: early });
    } catch {
      return; // the full answer reports it
    }
    if (early) wantTexts(bundle, missing);
    if (pause > 0 && displaysWait(bundle, displays, shown)) return pauseThen(message, pause);
    if (wantDisplays(bundle, shown)) return;
    keywordPosted.set(message.channel, message.id);
    post({ type: "results", channel: message.channel, id: message.id, query: boundedQuery(bundle, message.query),
           mode: output.mode, results: output.results, parts: [...loaded], complete: false });
  }

  /** Answer this channel again when its query's pause ends, if it is still its query.
   * @param {QueryMessage} message @param {number} ms */
  function pauseThen(message, ms) {
    if (pauses.has(message.channel)) return;
    pauses.set(message.channel, setTimeout(() => {
      pauses.delete(message.channel);
      if (latest.get(message.channel) !== message) return;
      waiting.add(message.channel);
      flush();
    }, ms));
  }

  /**
   * Load each of these parts once (`states` remembers loading, loaded or failed), then answer
   * again. One that fails is a warning under `label`, or with `required` (every keyword answer
   * needs it) the end of search. True while any of them is still loading.
   * @param {Map<number, string>} states @param {Iterable<number>} indexes
   * @param {(index: number) => Promise<unknown>} load @param {string} label @param {boolean} [required]
   */
  function fetchEach(states, indexes, load, label, required = false) {
    let loading = false;
    for (const index of indexes) {
      if (!states.has(index)) {
        states.set(index, "loading");
        load(index).then(
          () => states.set(index, "loaded"),
          (error) => {
            states.set(index, "failed");
            if (required) return fail(error);
            warnings.push(`${label}: ${describe(error)}`);
            postStatus();
          },
        ).then(rerunSoon);
      }
      loading ||= states.get(index) === "loading";
    }
    return loading;
  }

  /**
   * Fetch these term shards (DICTIONARY: the term dictionary), each once, then answer again;
   * one that fails ends search (an answer without its terms would miss their pages).
   * @param {Bundle} bundle @param {Set<number>} wanted
   */
  function wantShards(bundle, wanted) {
    const fetchFile = /** @type {LoadContext} */ (context).fetchFile;
    const load = (/** @type {number} */ index) =>
      index < 0 ? loadDictionary(bundle, fetchFile) : loadShard(bundle, fetchFile, index);
    return fetchEach(shards, wanted, load, "terms", true);
  }

  /**
   * Fetch these groups of vector clusters (vector-shards.js; two levels: cell g's centroids as
   * -1 - g), each once, then answer again; one that fails is a warning and marked failed
   * (answers go on without its clusters).
   * @param {Bundle} bundle @param {Set<number>} wanted
   */
  function wantClusters(bundle, wanted) {
    const fetchFile = /** @type {LoadContext} */ (context).fetchFile;
    const load = async (/** @type {number} */ index) => {
      const { loadCell, loadGroup } = await import("./bundle/vector-shards.js");
      await (index < 0 ? loadCell(bundle, fetchFile, -1 - index) : loadGroup(bundle, fetchFile, index));
    };
    return fetchEach(clusterStates, wanted, load, "vectors");
  }

  /**
   * Fetch these query encoder files (encoder.js loadEncoderPart: rows, vocab or word shards), each once, then answer again.
   * @param {Bundle} bundle @param {Set<number>} wanted
   */
  function wantEncoderShards(bundle, wanted) {
    const fetchFile = /** @type {LoadContext} */ (context).fetchFile;
    const load = async (/** @type {number} */ index) => {
      const { loadEncoderPart } = await import("./encoder.js");
      await loadEncoderPart(bundle, fetchFile, index);
    };
    return fetchEach(encoderShards, wanted, load, "encoder");
  }

  /** graph.json, read once (bundle/read.js loadGraph). @type {Promise<void> | null} */
  let graphHeader = null;

  /**
   * Fetch these graph files (engine.js GRAPH: graph.json; else the graph shard of the edges the
   * expansion needs), each once, then answer again. The shards download beside graph.json (they
   * are read once it is in); one that fails is a warning and its chunks expand nowhere
   * (bundle/read.js loadGraphShard), and a graph.json that fails, every chunk.
   * @param {Bundle} bundle @param {Set<number>} indexes
   */
  function wantGraphs(bundle, indexes) {
    const fetchFile = /** @type {LoadContext} */ (context).fetchFile;
    const header = () => (graphHeader ??= loadGraph(bundle, fetchFile).catch((error) => {
      bundle.graph = { edge_types: [], edges: new Array(bundle.nChunks).fill(NO_EDGES) };
      throw error;
    }));
    const load = async (/** @type {number} */ index) => {
      if (index < 0) return header();
      fetchFile(fileName(bundle.manifest, graphShard(index))).catch(() => {}); // errors surface below
      try {
        await header();
      } catch {
        return; // graph.json's own warning says it: nothing expands
      }
      await loadGraphShard(bundle, fetchFile, index);
    };
    return fetchEach(graphShards, indexes, load, "graph");
  }

  /**
   * Fetch these display fragments (titles, anchors, urls of the pages shown), each once, then
   * answer again; one that fails ends search (its pages could not be shown).
   * @param {Bundle} bundle @param {Set<number>} indexes
   */
  function wantDisplays(bundle, indexes) {
    const fetchFile = /** @type {LoadContext} */ (context).fetchFile;
    return fetchEach(displays, indexes, (index) => loadDisplay(bundle, fetchFile, index), "display", true);
  }

  /**
   * Fetch the text fragments holding these chunks' texts (each fragment once), then answer again.
   * @param {Bundle} bundle @param {Iterable<number>} chunks
   */
  function wantTexts(bundle, chunks) {
    const fetchFile = /** @type {LoadContext} */ (context).fetchFile;
    const indexes = [...chunks].map((chunk) => fragmentOf(bundle, chunk));
    return fetchEach(fragments, indexes, (index) => loadTexts(bundle, fetchFile, index), "texts");
  }

  /**
   * Read the display fragment and graph files init prefetched for a small site (oneGraphShard)
   * now, before any query: a query that needs them (most do) would otherwise be answered once
   * without them, only to learn that, then read them, then be answered again.
   * @param {Bundle} bundle
   */
  function readPrefetched(bundle) {
    if (!oneGraphShard(bundle.manifest)) return;
    wantDisplays(bundle, new Set([0]));
    if (bundle.manifest.vectors && engineModule) wantGraphs(bundle, new Set([engineModule.GRAPH, 0]));
    // Most answers on such a site show its most connected pages: their texts download now, so a
    // query's snippets wait on fewer fragments (and HTTP/1.1's few connections a round less).
    // Not once a query is waiting: its own files come first.
    if (latest.size) return;
    wantTexts(bundle, topFragments(bundle, TOP_TEXT_FRAGMENTS).map((index) => bundle.textStarts[index]));
  }

  /**
   * A query's first search runs code run never before (the tokenizer, the term lookup, the query
   * encoder's): before any query arrives, one search of WARM_QUERY runs it once, so a pasted
   * query's first search is not the slowest. Its answer and the files it names are dropped.
   * Then warmAnswer, as soon as the files readPrefetched fetches are in.
   * @param {Bundle} bundle
   */
  function warmUp(bundle) {
    if (latest.size || !engineModule) return;
    if (bundle.encoder) {
      bundle.encoder.typing = false;
      bundle.encoder.heldFrom = Infinity;
    }
    try {
      engineModule.search(bundle, WARM_QUERY, { missing: new Set(), shards: new Set(), clusters: new Set(),
                                                encoderShards: new Set(), displays: new Set(), graphs: new Set() });
    } catch {
      // a query's own search reports its errors
    }
    warmAnswer(bundle);
  }

  /** Whether warmAnswer started. */
  let answerWarmed = false;

  /**
   * The rest of an answer's code (engine.js answerWarmer: the vector side's scoring, snippets),
   * once, before any query, on the semantic part and the texts readPrefetched fetches (it waits
   * for those). The snippets go one answer's worth a task, and stop when a query comes: it never
   * waits for more than that.
   * @param {Bundle} bundle
   */
  function warmAnswer(bundle) {
    if (answerWarmed || latest.size || !engineModule || tried < parts.length) return;
    if ([...fragments.values()].includes("loading")) return; // warmed when they are in (flush)
    answerWarmed = true;
    const engine = engineModule;
    const { settings } = bundle;
    const slice = Math.max(1, settings.default_limit * settings.sections_per_page);
    /** @type {((count: number) => boolean) | null} */
    let warm = null;
    const step = () => {
      try {
        warm ??= engine.answerWarmer(bundle, WARM_QUERY);
        if (!latest.size && warm(slice)) setTimeout(step, 0);
      } catch {
        // a query's own search reports its errors
      }
    };
    step();
  }

  /** Answer only the newest query of each channel (keystrokes coalesce here). */
  function flush() {
    scheduled = false;
    if (state !== "ready") return;
    if (!latest.size) warmAnswer(/** @type {Bundle} */ (/** @type {LoadContext} */ (context).bundle)); // a prefetched file came in
    for (const channel of waiting) {
      const message = latest.get(channel);
      if (message) answer(message);
    }
    waiting.clear();
  }

  function schedule() {
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 0);
    }
  }

  /** Re-answer every channel's latest query now (more of the bundle is in). */
  function rerun() {
    for (const channel of latest.keys()) waiting.add(channel);
    flush();
  }

  /** Re-answer every channel's latest query once the files arriving now are in: a burst of them
   * (a query's vocabulary, its rows) costs one search, not one per file. */
  function rerunSoon() {
    for (const channel of latest.keys()) waiting.add(channel);
    schedule();
  }

  /** @param {string} bundleUrl @param {number | undefined} timeout @param {boolean} fromPage the page sends the manifest */
  async function init(bundleUrl, timeout, fromPage) {
    if (context) return;
    const fetcher = makeFetcher(bundleUrl, timeout);
    const fetchFile = cachingFetcher(fromPage
      ? (name) => handed.get(name)?.file.then(({ bytes, tried }) => bytes ?? fetcher(name, tried)) ?? fetcher(name)
      : fetcher);
    context = { fetchFile, bundle: null };
    postStatus();
    const engine = withinSeconds(import("./engine.js"), stallSeconds(timeout), "engine.js");
    engine.catch(() => {}); // a failure is reported below, when the engine is needed
    // The start list needs the manifest only (fetched once: the first part reads the same one).
    loadManifest(fetchFile).then((manifest) => {
      // (those the page fetches are waited for, not fetched again)
      for (const name of warmFiles(manifest)) fetchFile(name).catch(() => {}); // errors surface in load
      // The vocabulary shards of WordPiece's special tokens: the encoder reads them before any
      // query's files (encoder.js loadEncoder), so they download now, not after encoder.json.
      if (manifest.encoder) {
        import("./encoder.js").then(({ prefetchSpecials }) => prefetchSpecials(manifest, fetchFile)).catch(() => {});
      }
      top = topPages(manifest);
      if (top.length && state !== "error") postStatus();
    }, () => {}); // a manifest that cannot load is the first part's error to report
    for (const part of parts) {
      if (state === "error") return; // a required file failed meanwhile (fail): search has ended
      let changed;
      try {
        changed = await part.load(context);
        tried++;
      } catch (error) {
        tried++;
        if (part.required) return fail(error);
        warnings.push(`${part.name}: ${describe(error)}`);
        postStatus();
        continue;
      }
      loaded.push(part.name);
      if (state === "loading" && parts.every((p) => !p.required || loaded.includes(p.name))) {
        try {
          engineModule = await engine;
        } catch (error) {
          state = "error";
          errorMessage = `the search engine could not be loaded (${/** @type {Error} */ (error).message})`;
          postStatus();
          return;
        }
        state = "ready";
        readPrefetched(/** @type {Bundle} */ (context.bundle));
      }
      postStatus();
      // Re-answered after the keys that came while the part was read: its parse may hold the
      // thread longer than the typing pause, and answering the text before them at once would
      // take it for one the reader stopped at (fetching, say, a first letter's term shards).
      if (state === "ready" && changed !== false) rerunSoon();
      if (state === "ready" && part === parts[parts.length - 1]) warmUp(/** @type {Bundle} */ (context.bundle));
    }
    // Every part tried: re-answer once if the screen holds answers marked incomplete (the last
    // part failed or added nothing), so the UI knows the results are final.
    if (state === "ready" && answeredEarly) {
      answeredEarly = false;
      rerun();
    }
  }

  return {
    /** @param {any} message */
    handle(message) {
      if (!message || typeof message !== "object") return;
      if (message.type === "init") {
        init(String(message.bundleUrl), typeof message.timeout === "number" ? message.timeout : undefined,
             message.manifest === true);
      } else if (message.type === "manifest" || message.type === "file") {
        const name = message.type === "manifest" ? MANIFEST : String(message.name);
        if (message.type === "manifest" && Array.isArray(message.warm)) {
          for (const warm of message.warm) if (typeof warm === "string" && !handed.has(warm)) handed.set(warm, handedFile());
        }
        const bytes = message.bytes instanceof ArrayBuffer || message.bytes instanceof Uint8Array ? message.bytes : null;
        handed.get(name)?.hand({ bytes, tried: message.tried === 1 ? 1 : 0 });
      } else if (message.type === "query") {
        const query = /** @type {QueryMessage} */ (message);
        arrived.set(query, Date.now());
        typed.set(query, typedOn(latest.get(query.channel)?.query ?? "", String(query.query)));
        clearTimeout(pauses.get(query.channel));
        pauses.delete(query.channel);
        latest.set(query.channel, query);
        waiting.add(query.channel);
        if (state === "ready") schedule();
        else if (state === "error") postStatus();
      } else if (message.type === "clear") {
        clearTimeout(pauses.get(message.channel));
        pauses.delete(message.channel);
        latest.delete(message.channel);
        waiting.delete(message.channel);
      }
    },
  };
}

// Wire the service to the worker's messages (not when imported by the page as a fallback).
const scope = /** @type {any} */ (globalThis);
if (typeof scope.WorkerGlobalScope !== "undefined" && scope instanceof scope.WorkerGlobalScope) {
  const service = createService((message) => scope.postMessage(message));
  scope.addEventListener("message", (/** @type {MessageEvent} */ event) => service.handle(event.data));
}
