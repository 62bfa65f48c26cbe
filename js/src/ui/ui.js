// @ts-check
/**
 * The reader's search UI. Loaded on every page by the plugin as
 *   <script type="module" src=".../assets/graphsearch/<hash>/ui/ui.js"
 *           data-graphsearch-bundle=".../search/" data-graphsearch-root=".../">
 * (a page may add `data-graphsearch-timeout="<seconds>"`: how long a bundle fetch may receive
 * nothing before it is tried once more, then reported; 15 by default)
 *
 * This entry wires the parts (one concern each):
 *   client.js  the worker client (../engine/worker.js in a module Web Worker, or in the page)
 *   box.js     a search box (ARIA combobox, keys) and the search dialog
 *   panel.js   the results panel of a box (list, states, safe links and snippets)
 *   start.js   the start list of an empty, focused box (the site's most connected pages)
 *   chips.js   filter chips of a box (`kind:code`, from the manifest's facets)
 *   theme.js   the takeover of the mkdocs / readthedocs / Material search UI, their drawers
 *   highlight.js  Material's search.highlight: `?h=` on result links, the landed page marked
 *   dom.js     DOM helpers
 *
 * - Any theme: `<div id="graphsearch"></div>` (or any element with `data-graphsearch`) gets an
 *   inline search box; `/` or `s` opens a search dialog on every page; any element with
 *   `data-graphsearch-open` opens the dialog when clicked.
 * - Nothing of the bundle is fetched, and no worker starts, until the reader shows intent:
 *   pointer over, press or touch on (or focus in) a search box or opener, `/` or `s`, opening
 *   the dialog, `?q=` for an inline box, or `window.graphsearchUI.open()`. A page view that
 *   never searches costs the modules of ui/ and ui.css only.
 */
// Every module of the UI is imported here, at depth one, so the browser fetches them side by side
// (a module imported only by another would wait for that one). All by relative URLs: they resolve
// inside this runtime's versioned folder (inject.py says why), as ../engine/worker.js does.
import { SearchBox, SearchDialog } from "./box.js";
import "./chips.js";
import { SearchClient } from "./client.js";
import { matchScheme } from "./dom.js";
import { highlightEnabled, markLanding } from "./highlight.js";
import "./panel.js";
import "./start.js";
import { adoptResultsPage, closeNavigation, redirectClicks, takeOverTheme } from "./theme.js";

const SHORTCUT_KEYS = new Set(["/", "s"]);

/** Is the reader typing somewhere (so a shortcut key is just a letter)? @param {EventTarget | null} target */
function isEditable(target) {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(target.type);
  }
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable);
}

/** Inline boxes on the page. @type {SearchBox[]} */
const inlineBoxes = [];

/**
 * Put a search box into every mount point and bind every opener (idempotent: run again after
 * instant navigation).
 * @param {SearchClient} client @param {URL} root @param {SearchDialog} dialog
 */
function mountInline(client, root, dialog) {
  for (const box of inlineBoxes.splice(0)) {
    if (box.element.isConnected) inlineBoxes.push(box);
    else box.dispose();
  }
  const query = new URLSearchParams(location.search).get("q");
  adoptResultsPage();
  markLanding();
  for (const mount of document.querySelectorAll("#graphsearch, [data-graphsearch]")) {
    if (mount.querySelector(".gs-box")) continue;
    const box = new SearchBox(client, root, {
      inline: true,
      highlight: highlightEnabled(),
      onNavigate: closeNavigation,
      placeholder: mount.getAttribute("data-placeholder") || "Search the documentation",
    });
    matchScheme(box.element);
    box.input.addEventListener("focus", () => matchScheme(box.element));
    mount.append(box.element);
    inlineBoxes.push(box);
    if (query) box.setQuery(query);
  }
  for (const opener of document.querySelectorAll("[data-graphsearch-open]:not([data-gs-bound])")) {
    opener.setAttribute("data-gs-bound", "");
    redirectClicks(opener, () => dialog.open());
    client.warmOn(opener);
  }
}

function start() {
  const scope = /** @type {any} */ (window);
  const started = Symbol.for("mkdocs-graphsearch");
  if (scope[started]) return; // loaded twice
  scope[started] = true;
  const script = document.querySelector("script[data-graphsearch-bundle]");
  const bundleUrl = new URL(script?.getAttribute("data-graphsearch-bundle") || "search/", document.baseURI);
  const rootAttr = script?.getAttribute("data-graphsearch-root");
  const root = rootAttr ? new URL(rootAttr, document.baseURI) : new URL("../", bundleUrl);
  // Seconds a bundle fetch may stall before its one retry (default: engine/bundle/http.js FETCH_TIMEOUT_SECONDS).
  const timeout = Number(script?.getAttribute("data-graphsearch-timeout")) || undefined;
  const client = new SearchClient(bundleUrl, timeout);
  const dialog = new SearchDialog(client, root, { highlight: highlightEnabled(), onNavigate: closeNavigation });
  // For theme authors: `window.graphsearchUI.open("query")` opens the dialog.
  // (Not `window.graphsearch`: that name is taken by <div id="graphsearch"> mounts.)
  scope.graphsearchUI = { open: (/** @type {string | undefined} */ text) => dialog.open(text) };

  takeOverTheme((text) => dialog.open(text), (element) => client.warmOn(element));
  mountInline(client, root, dialog);
  // Material's instant navigation swaps pages without a reload and announces each one.
  const pages = scope.document$;
  if (pages && typeof pages.subscribe === "function") pages.subscribe(() => mountInline(client, root, dialog));

  // `/` and `s` open search from anywhere (captured first, so the theme's own shortcut is not run).
  window.addEventListener("keydown", (event) => {
    if (!SHORTCUT_KEYS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (dialog.isOpen || isEditable(event.target) || event.defaultPrevented) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    dialog.open();
  }, true);
  // No prefetch on idle: loading starts on intent only (SearchClient.warmOn and the top of this file).
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
}
