// @ts-check
/**
 * The reader's search UI. Loaded on every page by the plugin as
 *   <script type="module" src=".../assets/graphsearch/ui.js"
 *           data-graphsearch-bundle=".../search/" data-graphsearch-root=".../">
 *
 * - Takes over the search box of the `mkdocs`, `readthedocs` and Material themes (or adds a
 *   search button when the theme's own search plugin is off).
 * - Any other theme: `<div id="graphsearch"></div>` (or any element with `data-graphsearch`)
 *   gets an inline search box; `/` or `s` opens a search dialog on every page; any element with
 *   `data-graphsearch-open` opens the dialog when clicked.
 * - The engine runs in a module Web Worker (worker.js), or in the page when workers fail.
 * - Nothing of the bundle is fetched, and no worker starts, until the reader shows intent:
 *   pointer over, press or touch on (or focus in) a search box or opener, `/` or `s`, opening
 *   the dialog, `?q=` for an inline box, or `window.graphsearchUI.open()`. A page view that
 *   never searches costs ui.js and ui.css only.
 *
 * Everything from the docs is set as text, except snippets: engine-built HTML whose only tags
 * are <mark>/</mark>, checked again here before use. Links must stay on this site.
 */

const SVG_NS = "http://www.w3.org/2000/svg";
const SHORTCUT_KEYS = new Set(["/", "s"]);
/** Better results for the shown query wait this long after the pointer last moved over the list. */
const HOLD_MS = 1200;

// ---------------------------------------------------------------------------------- helpers

/**
 * A link target for a result URL, or null when it would leave the site or run script.
 * @param {unknown} url a URL from the bundle (relative to the site root)
 * @param {URL} root the site root
 * @returns {string | null}
 */
export function safeUrl(url, root) {
  if (typeof url !== "string") return null;
  // Control characters and whitespace are dropped or trimmed by URL parsers ("java\tscript:").
  if (/[\u0000-\u0020\u007f\\]/.test(url)) return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (scheme && !/^https?$/i.test(scheme[1])) return null;
  let resolved;
  try {
    resolved = new URL(url, root);
  } catch {
    return null;
  }
  if (!["http:", "https:", "file:"].includes(resolved.protocol)) return null;
  if (resolved.protocol !== root.protocol || resolved.host !== root.host) return null;
  return resolved.href;
}

/** Engine snippets: escaped text whose only tags are <mark> and </mark>. */
const SNIPPET_HTML = /^(?:[^<>]|<mark>|<\/mark>)*$/;

/** @param {unknown} html */
export function isSafeSnippet(html) {
  return typeof html === "string" && SNIPPET_HTML.test(html);
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

/** The magnifier icon, built node by node. @param {string} className */
function searchIcon(className) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", className);
  const circle = document.createElementNS(SVG_NS, "circle");
  for (const [k, v] of [["cx", "10.5"], ["cy", "10.5"], ["r", "6.5"]]) circle.setAttribute(k, v);
  const line = document.createElementNS(SVG_NS, "path");
  line.setAttribute("d", "M15.5 15.5 20.5 20.5");
  for (const shape of [circle, line]) {
    shape.setAttribute("fill", "none");
    shape.setAttribute("stroke", "currentColor");
    shape.setAttribute("stroke-width", "2.2");
    shape.setAttribute("stroke-linecap", "round");
    svg.append(shape);
  }
  return svg;
}

/** Is the reader typing somewhere (so a shortcut key is just a letter)? @param {EventTarget | null} target */
function isEditable(target) {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file"].includes(target.type);
  }
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable);
}

/** Is the page dark where the search UI sits? Reads the real background, so any theme works. */
function pageIsDark() {
  for (const node of [document.body, document.documentElement]) {
    if (!node) continue;
    const match = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/.exec(getComputedStyle(node).backgroundColor);
    if (match && (match[4] === undefined || Number(match[4]) > 0.5)) {
      const [r, g, b] = [match[1], match[2], match[3]].map(Number);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
    }
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme || "";
  return scheme.includes("dark") && !scheme.includes("light") ||
    (scheme.includes("dark") && matchMedia("(prefers-color-scheme: dark)").matches);
}

/** @param {number} n @param {string} one @param {string} many */
function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// ------------------------------------------------------------------------------ the client

/**
 * @typedef {{state: "loading" | "ready" | "error", parts: string[], done: boolean, message: string,
 *            warnings: string[]}} Status
 * @typedef {{type: "results", channel: string, id: number, query: string, mode?: string,
 *            results: any[], parts: string[], complete: boolean, error?: string}} ResultsMessage
 */

/** Talks to the search service: a module worker, or the same code in the page. */
class SearchClient {
  /** @param {URL} bundleUrl */
  constructor(bundleUrl) {
    this.bundleUrl = bundleUrl;
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
    try {
      // worker.js comes from this file's own folder, which is named after the runtime's hash
      // (inject.py): an old ui.js can only ever start its own worker, never a newer one.
      const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      worker.addEventListener("message", (event) => {
        this.heard = true;
        this.receive(event.data);
      });
      worker.addEventListener("error", (event) => {
        if (this.heard) return; // the service reports its own errors as messages
        event.preventDefault();
        worker.terminate();
        this.worker = null;
        this.inPage();
      });
      worker.postMessage({ type: "init", bundleUrl: this.bundleUrl.href });
      this.worker = worker;
    } catch {
      this.inPage();
    }
  }

  /** No module workers here: run the service in the page. */
  inPage() {
    import("./worker.js").then(
      ({ createService }) => {
        const service = createService((message) => queueMicrotask(() => this.receive(message)));
        service.handle({ type: "init", bundleUrl: this.bundleUrl.href });
        for (const message of this.latest.values()) service.handle(message);
        this.service = service;
      },
      (error) => this.receive({ type: "status", state: "error", parts: [], done: true, warnings: [],
                                message: `the search runtime could not start (${error.message})` }),
    );
  }

  /** @param {any} message */
  send(message) {
    if (this.worker) this.worker.postMessage(message);
    else if (this.service) this.service.handle(message);
  }

  /** @param {any} message */
  receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "status") {
      this.status = message;
      for (const listener of this.statusListeners) listener(message);
    } else if (message.type === "results") {
      const handler = this.channels.get(message.channel);
      if (handler) handler(message);
    }
  }

  /** The box of this channel is empty again. @param {string} channel */
  clear(channel) {
    this.latest.delete(channel);
    this.send({ type: "clear", channel });
  }

  /**
   * Ask for results; the answer (and later, better answers for the same query) come to the
   * channel's handler with the returned id.
   * @param {string} channel @param {string} query @returns {number}
   */
  query(channel, query) {
    this.start();
    const message = { type: "query", channel, id: this.nextId++, query };
    this.latest.set(channel, message);
    this.send(message);
    return message.id;
  }
}

// -------------------------------------------------------------------------- the search box

let uid = 0;

/** An input (ARIA combobox) with a listbox of results grouped by page. */
class SearchBox {
  /**
   * @param {SearchClient} client @param {URL} root
   * @param {{inline: boolean, placeholder: string, onNavigate?: () => void, onEscape?: () => void}} options
   */
  constructor(client, root, options) {
    this.client = client;
    this.root = root;
    this.options = options;
    this.channel = `box${++uid}`;
    this.sentId = 0;
    this.shownId = 0;
    this.shownQuery = "";
    /** @type {HTMLAnchorElement[]} */
    this.items = [];
    this.active = -1;
    /** Has the reader moved the active option (keys or pointer) since the query changed? */
    this.chosen = false;
    /** An update for the shown query, held while the reader moves the pointer over the list.
     * @type {ResultsMessage | null} */
    this.held = null;
    this.pointerInside = false;
    this.lastPointer = "";
    this.lastPointerMove = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.holdTimer = undefined;

    const id = `graphsearch-${uid}`;
    this.input = h("input", {
      type: "search",
      class: "gs-input",
      role: "combobox",
      "aria-autocomplete": "list",
      "aria-expanded": "false",
      "aria-controls": `${id}-list`,
      "aria-label": "Search the documentation",
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      enterkeyhint: "go",
      placeholder: options.placeholder,
    });
    // Shown while parts of the index are still loading (results may still improve).
    this.spinner = h("span", { class: "gs-spinner", "aria-hidden": "true", title: "Loading the search index", hidden: "" });
    this.bar = h("div", { class: "gs-bar" }, [searchIcon("gs-icon"), this.input, this.spinner]);
    this.status = h("div", { class: "gs-status", role: "status", "aria-live": "polite", "aria-atomic": "true" });
    this.warning = h("div", { class: "gs-warning", hidden: "" });
    this.list = h("div", { class: "gs-list", id: `${id}-list`, role: "listbox", "aria-label": "Search results" });
    this.element = h("div", { class: `gs-box ${options.inline ? "gs-inline" : "gs-modal"}` },
                     [this.bar, this.status, this.warning, this.list]);
    this.idPrefix = id;

    client.channels.set(this.channel, (message) => this.receive(message));
    this.statusListener = () => this.refreshState();
    client.statusListeners.add(this.statusListener);
    this.input.addEventListener("input", () => this.search());
    this.input.addEventListener("keydown", (event) => this.keydown(event));
    client.warmOn(this.element);
    this.list.addEventListener("pointermove", (event) => this.hover(event));
    this.list.addEventListener("pointerenter", () => { this.pointerInside = true; });
    this.list.addEventListener("pointerleave", () => {
      this.pointerInside = false;
      this.release();
    });
    this.list.addEventListener("mousedown", (event) => event.preventDefault()); // keep focus in the input
    this.list.addEventListener("click", (event) => {
      const option = event.target instanceof Element ? event.target.closest("a.gs-option") : null;
      if (!option || !option.hasAttribute("href")) return;
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return; // new tab
      if (this.options.onNavigate) this.options.onNavigate();
    });
    this.refreshState();
  }

  /** The box left the page for good (a page swapped by instant navigation). */
  dispose() {
    this.client.channels.delete(this.channel);
    this.client.statusListeners.delete(this.statusListener);
    this.client.clear(this.channel);
    clearTimeout(this.holdTimer);
  }

  /** Send the current text (every keystroke; stale answers are dropped by id). */
  search() {
    const query = this.input.value;
    if (!query.trim()) {
      this.sentId = this.client.nextId++; // answers to older queries are now stale
      this.client.clear(this.channel);
      this.clear();
      return;
    }
    this.sentId = this.client.query(this.channel, query);
    this.refreshState();
  }

  /** @param {string} text */
  setQuery(text) {
    this.input.value = text;
    this.search();
  }

  clear() {
    this.shownId = 0;
    this.shownQuery = "";
    this.held = null;
    this.items = [];
    this.list.replaceChildren();
    this.setActive(-1, false);
    this.input.setAttribute("aria-expanded", "false");
    this.refreshState();
  }

  /** Loading / error / idle, shown when no results are on screen for the current text. */
  refreshState() {
    const { state, message, warnings, done } = this.client.status;
    const query = this.input.value.trim();
    this.spinner.hidden = done || !this.client.started;
    this.list.setAttribute("aria-busy", String(state === "loading" && query !== ""));
    // An optional part failed (e.g. semantic): keyword search works, say what is missing.
    const warning = warnings.length ? `Some results may be missing: ${warnings.join("; ")}` : "";
    if (this.warning.textContent !== warning) this.warning.textContent = warning;
    this.warning.hidden = !warning || state === "error";
    if (state === "error") this.say("error", message, "Search is unavailable: ");
    else if (!query) this.say("hint", this.options.inline ? "" : "Type to search the documentation.");
    else if (state === "loading" && this.shownId === 0) this.say("loading", "Loading the search index…");
  }

  /**
   * Show (and announce, politely) the state line: a count, no results, loading or an error.
   * @param {"count" | "empty" | "loading" | "error" | "hint"} kind @param {string} text @param {string} [lead]
   */
  say(kind, text, lead = "") {
    this.status.className = `gs-status gs-state-${kind}`;
    if (this.status.textContent === lead + text) return; // unchanged: no re-announcement
    this.status.replaceChildren();
    if (lead) this.status.append(h("strong", {}, [lead]));
    this.status.append(text);
    this.status.hidden = !lead && !text;
  }

  /** @param {ResultsMessage} message */
  receive(message) {
    if (message.id !== this.sentId) return; // an older keystroke's answer
    if (message.id === this.shownId && this.pointerBusy()) {
      this.held = message; // same query, better results: don't move the list under the pointer
      this.scheduleRelease();
      return;
    }
    this.render(message);
  }

  /** Is the reader using the pointer over the list right now? */
  pointerBusy() {
    return this.pointerInside && performance.now() - this.lastPointerMove < HOLD_MS;
  }

  scheduleRelease() {
    clearTimeout(this.holdTimer);
    this.holdTimer = setTimeout(() => this.release(), HOLD_MS);
  }

  /** Show a held update once the pointer has left or rested. */
  release() {
    if (!this.held) return;
    if (this.pointerBusy()) {
      this.scheduleRelease();
      return;
    }
    const held = this.held;
    this.held = null;
    this.render(held);
  }

  /** @param {ResultsMessage} message */
  render(message) {
    const sameQuery = message.id === this.shownId;
    // Better results for the same query keep the option the reader moved to (if they did).
    const keep = sameQuery && this.chosen && this.active >= 0 ? this.items[this.active]?.dataset.key : undefined;
    if (!sameQuery) this.chosen = false;
    this.shownId = message.id;
    this.shownQuery = message.query;
    this.element.dataset.gsComplete = String(message.complete); // nothing better will come
    this.held = null;
    this.items = [];
    const groups = [];
    let sections = 0;
    for (const [p, page] of (message.results || []).entries()) {
      const titleId = `${this.idPrefix}-p${p}`;
      const pageHref = safeUrl(page.url, this.root);
      const title = h("div", { class: "gs-page", id: titleId, role: "presentation" });
      title.append(h("span", { class: "gs-page-title" }, [String(page.title || page.url || "Untitled")]));
      if (pageHref) title.append(h("span", { class: "gs-page-path" }, [String(page.url)]));
      const group = h("div", { class: "gs-group", role: "group", "aria-labelledby": titleId }, [title]);
      for (const section of page.sections || []) {
        const option = this.option(section, page);
        group.append(option);
        this.items.push(option);
        sections++;
      }
      groups.push(group);
    }
    // Scroll before replacing the list: layout is still clean, so this forces no extra layout.
    if (!sameQuery) this.list.scrollTop = 0;
    this.list.replaceChildren(...groups);
    const found = groups.length;
    this.input.setAttribute("aria-expanded", String(found > 0));
    if (message.error) this.say("error", message.error, "Search failed: ");
    else if (found) this.say("count", `${plural(found, "page", "pages")}, ${plural(sections, "section", "sections")}`);
    else this.say("empty", `No results for “${message.query}”`);
    let active = this.items.length ? 0 : -1;
    if (keep !== undefined) {
      const again = this.items.findIndex((item) => item.dataset.key === keep);
      if (again >= 0) active = again;
    }
    this.setActive(active, sameQuery && this.chosen); // keep the reader's option in view
  }

  /** @param {any} section @param {any} page @returns {HTMLAnchorElement} */
  option(section, page) {
    const index = this.items.length;
    const option = h("a", {
      class: `gs-option gs-kind-${String(section.kind).replace(/[^a-z]/g, "") || "section"}`,
      id: `${this.idPrefix}-o${index}`,
      role: "option",
      "aria-selected": "false",
      tabindex: "-1",
    });
    const href = safeUrl(section.url, this.root);
    if (href) option.setAttribute("href", href);
    else option.setAttribute("aria-disabled", "true");
    option.dataset.key = String(section.url);
    const head = h("span", { class: "gs-section" }, [
      h("span", { class: "gs-section-title" }, [String(section.title || page.title || "")]),
    ]);
    // Why is a result here without the words typed? Say so.
    const via = Array.isArray(section.via) ? section.via : null;
    if (via && !via.includes("keyword")) {
      const semantic = via.includes("vector");
      head.append(h("span", {
        class: `gs-badge ${semantic ? "gs-badge-semantic" : "gs-badge-related"}`,
        title: semantic
          ? "Found by meaning: this section does not contain the words you typed"
          : "Related: linked from, or next to, a section that matches",
      }, [semantic ? "semantic match" : "related"]));
    }
    option.append(head);
    if (section.snippet) {
      const text = h("span", { class: "gs-snippet" });
      if (isSafeSnippet(section.snippet)) text.innerHTML = section.snippet;
      else text.textContent = String(section.snippet);
      option.append(text);
    }
    return option;
  }

  /** @param {number} index @param {boolean} scroll */
  setActive(index, scroll) {
    const previous = this.items[this.active];
    if (previous) {
      previous.classList.remove("gs-active");
      previous.setAttribute("aria-selected", "false");
    }
    this.active = index;
    const current = this.items[index];
    if (current) {
      current.classList.add("gs-active");
      current.setAttribute("aria-selected", "true");
      this.input.setAttribute("aria-activedescendant", current.id);
      if (scroll) {
        if (index === 0) this.list.scrollTop = 0; // show the first page's title too
        else current.scrollIntoView({ block: "nearest" });
      }
    } else {
      this.input.removeAttribute("aria-activedescendant");
    }
  }

  /** @param {PointerEvent} event */
  hover(event) {
    const where = `${event.clientX},${event.clientY}`;
    if (where === this.lastPointer) return; // layout moved, the pointer did not
    this.lastPointer = where;
    this.lastPointerMove = performance.now();
    const option = event.target instanceof Element ? event.target.closest("a.gs-option") : null;
    const index = option ? this.items.indexOf(/** @type {HTMLAnchorElement} */ (option)) : -1;
    if (index >= 0 && index !== this.active) {
      this.chosen = true;
      this.setActive(index, false); // never scroll on hover
    }
  }

  /** @param {KeyboardEvent} event */
  keydown(event) {
    if (event.isComposing) return;
    const count = this.items.length;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (!count) return;
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        const next = this.active < 0 ? (step > 0 ? 0 : count - 1) : (this.active + step + count) % count;
        this.chosen = true;
        this.setActive(next, true);
        break;
      }
      case "Home":
      case "End":
        if (!count || !event.ctrlKey) return;
        event.preventDefault();
        this.chosen = true;
        this.setActive(event.key === "Home" ? 0 : count - 1, true);
        break;
      case "Enter": {
        event.preventDefault();
        const option = this.items[this.active];
        const href = option && option.getAttribute("href");
        if (!option || !href) return;
        if (event.ctrlKey || event.metaKey || event.shiftKey) {
          window.open(href, "_blank", "noopener");
          return;
        }
        if (this.options.onNavigate) this.options.onNavigate();
        option.click();
        break;
      }
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        if (this.options.onEscape) this.options.onEscape();
        else if (this.input.value) this.setQuery("");
        break;
      default:
    }
  }
}

// ------------------------------------------------------------------------------ the dialog

/** A modal search dialog (native <dialog>: top layer, focus kept inside, page inert). */
class SearchDialog {
  /** @param {SearchClient} client @param {URL} root */
  constructor(client, root) {
    this.box = new SearchBox(client, root, {
      inline: false,
      placeholder: "Search the documentation",
      onNavigate: () => this.close(),
      onEscape: () => this.close(),
    });
    const close = h("button", { type: "button", class: "gs-close", "aria-label": "Close search" }, ["Esc"]);
    close.addEventListener("click", () => this.close());
    this.box.bar.append(close);
    const footer = h("div", { class: "gs-footer", "aria-hidden": "true" }, [
      h("span", {}, [h("kbd", {}, ["↑"]), h("kbd", {}, ["↓"]), " to select"]),
      h("span", {}, [h("kbd", {}, ["↵"]), " to open"]),
      h("span", {}, [h("kbd", {}, ["esc"]), " to close"]),
    ]);
    this.dialog = h("dialog", { class: "gs-dialog", "aria-label": "Search" }, [this.box.element, footer]);
    this.dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      this.close();
    });
    // A click on the backdrop (the dialog itself, outside its content) closes.
    this.dialog.addEventListener("click", (event) => {
      if (event.target === this.dialog) this.close();
    });
    /** @type {Element | null} */
    this.returnFocus = null;
    document.body.append(this.dialog);
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** @param {string} [text] text to start with (e.g. typed into the theme's box) */
  open(text) {
    this.box.client.start(); // first: the worker loads while the dialog is laid out
    this.dialog.dataset.gsScheme = pageIsDark() ? "dark" : "light";
    if (!this.dialog.open) {
      this.returnFocus = document.activeElement;
      this.dialog.showModal();
    }
    if (text !== undefined && text !== this.box.input.value) this.box.setQuery(text);
    this.box.input.focus();
    this.box.input.select();
  }

  close() {
    if (!this.dialog.open) return;
    this.dialog.close();
    const back = this.returnFocus;
    this.returnFocus = null;
    if (back instanceof HTMLElement && back !== document.body) back.focus({ preventScroll: true });
  }
}

// ------------------------------------------------------------------------- theme takeover

/**
 * Make an element open our dialog instead of whatever it did (captured before the theme sees it).
 * @param {Element} element @param {() => void} open
 */
function redirectClicks(element, open) {
  element.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    open();
  }, true);
}

/** @param {string} label @param {string} className */
function triggerButton(label, className) {
  const button = h("button", { type: "button", class: `gs-trigger ${className}`, "aria-label": label,
                               title: `${label} (/)`, "aria-haspopup": "dialog", "aria-keyshortcuts": "/ s" });
  button.append(searchIcon("gs-trigger-icon"));
  return button;
}

/**
 * Hook the theme's own search UI, or add a search button where the theme would have one.
 * @param {SearchDialog} dialog
 */
function takeOverTheme(dialog) {
  const open = () => dialog.open();
  /** @param {Element | null} element */
  const warm = (element) => { if (element) dialog.box.client.warmOn(element); };

  // Material for MkDocs: .md-search exists only with its search plugin.
  const mdHeader = document.querySelector(".md-header__inner");
  if (mdHeader) {
    const toggle = document.getElementById("__search");
    if (document.querySelector(".md-search") && toggle instanceof HTMLInputElement) {
      for (const label of document.querySelectorAll('label[for="__search"]')) {
        redirectClicks(label, open);
        warm(label);
      }
      for (const search of document.querySelectorAll(".md-search")) warm(search);
      const stop = () => {
        const typed = /** @type {HTMLInputElement | null} */ (document.querySelector(".md-search__input"));
        const text = typed && typed.value ? typed.value : undefined;
        if (typed) {
          typed.value = "";
          typed.blur();
        }
        toggle.checked = false;
        toggle.dispatchEvent(new Event("change"));
        dialog.open(text);
      };
      toggle.addEventListener("change", () => { if (toggle.checked) stop(); });
      document.addEventListener("focusin", (event) => {
        if (event.target instanceof Element && event.target.closest(".md-search")) stop();
      }, true);
    } else {
      const button = triggerButton("Search", "md-header__button md-icon gs-trigger-material");
      button.addEventListener("click", open);
      warm(button);
      mdHeader.insertBefore(button, mdHeader.querySelector(".md-header__source"));
    }
    return;
  }

  // The built-in `mkdocs` theme (Bootstrap): a navbar link + modal with the search plugin.
  const bsLink = document.querySelector('[data-bs-target="#mkdocs_search_modal"]');
  const bsModal = document.getElementById("mkdocs_search_modal");
  if (bsLink || bsModal) {
    if (bsLink) {
      redirectClicks(bsLink, open);
      warm(bsLink);
    }
    if (bsModal) {
      // Anything else that tries to show the built-in modal (e.g. ?q= in the URL) opens ours.
      bsModal.addEventListener("show.bs.modal", (event) => {
        event.preventDefault();
        const typed = /** @type {HTMLInputElement | null} */ (document.getElementById("mkdocs-search-query"));
        // Its ?q= (the built-in script fills the field only later, and the stand-in never does).
        dialog.open((typed && typed.value) || new URLSearchParams(location.search).get("q") || undefined);
      });
      // The built-in script still sees its (never shown) modal, so the theme's own script,
      // which expects those elements, keeps working; it never gets a keystroke to answer.
    }
    // No link: the modal is the stand-in theme_compat.py adds without `search`; add our link below.
    if (bsLink) return;
  }
  const bsNav = document.querySelector(".navbar .navbar-nav.ms-md-auto");
  if (bsNav) {
    const link = h("a", { href: "#", class: "nav-link gs-trigger gs-trigger-mkdocs", role: "button",
                          "aria-haspopup": "dialog", "aria-keyshortcuts": "/ s", title: "Search (/)" },
                   [searchIcon("gs-trigger-icon"), " Search"]);
    redirectClicks(link, open);
    warm(link);
    bsNav.prepend(h("li", { class: "nav-item" }, [link]));
    return;
  }

  // readthedocs: a search field in the side bar with the search plugin.
  const rtdForm = document.getElementById("rtd-search-form");
  if (rtdForm) {
    warm(rtdForm);
    const field = rtdForm.querySelector("input");
    rtdForm.addEventListener("submit", (event) => {
      event.preventDefault();
      open();
    });
    if (field) {
      field.addEventListener("focus", () => {
        const text = field.value || undefined;
        field.value = "";
        field.blur();
        dialog.open(text);
      });
    }
    return;
  }
  const rtdSide = document.querySelector(".wy-side-nav-search");
  if (rtdSide) {
    const button = h("button", { type: "button", class: "gs-trigger gs-trigger-rtd", "aria-haspopup": "dialog",
                                 "aria-keyshortcuts": "/ s" }, [searchIcon("gs-trigger-icon"), "Search docs"]);
    button.addEventListener("click", open);
    warm(button);
    const after = rtdSide.querySelector(".version") || rtdSide.querySelector("a");
    if (after) after.after(button);
    else rtdSide.append(button);
  }
}

// ------------------------------------------------------------------------------------ start

/** Inline boxes on the page. @type {SearchBox[]} */
const inlineBoxes = [];

/**
 * Put a search box into every mount point (idempotent: run again after instant navigation).
 * @param {SearchClient} client @param {URL} root @param {SearchDialog} dialog
 */
function mountInline(client, root, dialog) {
  for (const box of inlineBoxes.splice(0)) {
    if (box.element.isConnected) inlineBoxes.push(box);
    else box.dispose();
  }
  const query = new URLSearchParams(location.search).get("q");
  // The built-in search plugin's results page (readthedocs' search.html) becomes ours too:
  // its form and results are hidden (not removed: its script expects them) and ours go after.
  const builtinResults = document.getElementById("mkdocs-search-results");
  if (builtinResults && !builtinResults.closest(".modal") && !builtinResults.hidden) {
    const form = document.getElementById("content_search");
    if (form) form.hidden = true;
    builtinResults.hidden = true;
    builtinResults.after(h("div", { "data-graphsearch": "" }));
  }
  for (const mount of document.querySelectorAll("#graphsearch, [data-graphsearch]")) {
    if (mount.querySelector(".gs-box")) continue;
    const box = new SearchBox(client, root, {
      inline: true,
      placeholder: mount.getAttribute("data-placeholder") || "Search the documentation",
    });
    box.element.dataset.gsScheme = pageIsDark() ? "dark" : "light";
    box.input.addEventListener("focus", () => { box.element.dataset.gsScheme = pageIsDark() ? "dark" : "light"; });
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
  const client = new SearchClient(bundleUrl);
  const dialog = new SearchDialog(client, root);
  // For theme authors: `window.graphsearchUI.open("query")` opens the dialog.
  // (Not `window.graphsearch`: that name is taken by <div id="graphsearch"> mounts.)
  scope.graphsearchUI = { open: (/** @type {string | undefined} */ text) => dialog.open(text) };

  takeOverTheme(dialog);
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
  // No prefetch on idle: loading starts on intent only (see warmOn and the top of this file).
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
}
