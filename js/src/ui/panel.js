// @ts-check
/**
 * The results panel of a search box: the state line (count, no results, loading, error), the
 * warning line and the listbox of results grouped by page, with its active option.
 *
 * Everything from the docs is set as text, except snippets: engine-built HTML whose only tags
 * are <mark>/</mark>, checked again here before use. Links must stay on this site.
 */
import { h } from "./dom.js";
import { highlightTerms, withHighlight } from "./highlight.js";

/** Better results for the shown query wait this long after the pointer last moved over the list. */
const HOLD_MS = 1200;

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

/**
 * A listbox option that links to `url` when it is safe (else marked disabled).
 * @param {string} id @param {string} kind a CSS class part (letters only) @param {unknown} url
 * @param {URL} root the site root @param {string} [terms] words for the landed page to highlight (`?h=`)
 * @returns {HTMLAnchorElement}
 */
export function optionLink(id, kind, url, root, terms = "") {
  const option = /** @type {HTMLAnchorElement} */ (
    h("a", { class: `gs-option gs-kind-${kind}`, id, role: "option", "aria-selected": "false", tabindex: "-1" })
  );
  const href = safeUrl(url, root);
  if (href) option.setAttribute("href", withHighlight(href, terms));
  else option.setAttribute("aria-disabled", "true");
  option.dataset.key = String(url);
  return option;
}

/** Engine snippets: escaped text whose only tags are <mark> and </mark>. */
const SNIPPET_HTML = /^(?:[^<>]|<mark>|<\/mark>)*$/;

/** @param {unknown} html */
export function isSafeSnippet(html) {
  return typeof html === "string" && SNIPPET_HTML.test(html);
}

/** @param {number} n @param {string} one @param {string} many */
function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** @typedef {import("./client.js").ResultsMessage} ResultsMessage */
/** @typedef {import("./client.js").Status} Status */

export class ResultsPanel {
  /**
   * @param {HTMLInputElement} input the combobox the list belongs to (its aria-expanded and
   *   aria-activedescendant follow the list)
   * @param {URL} root the site root (result links must stay under its origin)
   * @param {{id: string, inline: boolean, highlight?: boolean, onShow: (message: ResultsMessage) => void}} options
   *   id: prefix of the element ids; highlight: links carry the query as `?h=` (Material's
   *   search.highlight); onShow: a message's results are now on screen
   */
  constructor(input, root, options) {
    this.input = input;
    this.root = root;
    this.options = options;
    this.shownId = 0;
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

    this.status = h("div", { class: "gs-status", role: "status", "aria-live": "polite", "aria-atomic": "true" });
    this.warning = h("div", { class: "gs-warning", hidden: "" });
    this.list = h("div", { class: "gs-list", id: `${options.id}-list`, role: "listbox", "aria-label": "Search results" });
    this.list.addEventListener("pointermove", (event) => this.hover(event));
    this.list.addEventListener("pointerenter", () => { this.pointerInside = true; });
    this.list.addEventListener("pointerleave", () => {
      this.pointerInside = false;
      this.release();
    });
    this.list.addEventListener("mousedown", (event) => event.preventDefault()); // keep focus in the input
  }

  /** The panel's elements, in page order. */
  get elements() {
    return [this.status, this.warning, this.list];
  }

  /** The box left the page for good. */
  dispose() {
    clearTimeout(this.holdTimer);
  }

  /** No results on screen (the box is empty). */
  clear() {
    this.shownId = 0;
    this.held = null;
    this.items = [];
    this.list.replaceChildren();
    this.setActive(-1, false);
    this.input.setAttribute("aria-expanded", "false");
  }

  /**
   * Loading / error / idle, shown when no results are on screen for the current text.
   * @param {Status} status @param {string} query the box's text, trimmed
   */
  showState(status, query) {
    const { state, message, warnings } = status;
    this.list.setAttribute("aria-busy", String(state === "loading" && query !== ""));
    // An optional part failed (e.g. semantic): keyword search works, say what is missing.
    const warning = warnings.length ? `Some results may be missing: ${warnings.join("; ")}` : "";
    if (this.warning.textContent !== warning) this.warning.textContent = warning;
    this.warning.hidden = !warning || state === "error";
    if (state === "error") {
      // Search has ended (worker.js): an earlier query's results must not stand beside the error.
      if (this.shownId) this.clear();
      this.say("error", message, "Search is unavailable: ");
    } else if (!query) this.say("hint", this.options.inline ? "" : "Type to search the documentation.");
    // Nothing shown yet: the index is loading, or (ready) the first answer waits for the parts
    // its query needs (term shards, display fragments, graph shards: worker.js).
    else if (this.shownId === 0) this.say("loading", "Loading the search index…");
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

  /**
   * Show the answer to the box's current query (better answers for the query on screen wait
   * while the reader moves the pointer over the list).
   * @param {ResultsMessage} message
   */
  show(message) {
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
    this.held = null;
    this.items = [];
    const groups = [];
    let sections = 0;
    const terms = this.options.highlight ? highlightTerms(String(message.query)) : "";
    for (const [p, page] of (message.results || []).entries()) {
      const titleId = `${this.options.id}-p${p}`;
      const pageHref = safeUrl(page.url, this.root);
      const title = h("div", { class: "gs-page", id: titleId, role: "presentation" });
      title.append(h("span", { class: "gs-page-title" }, [String(page.title || page.url || "Untitled")]));
      if (pageHref) title.append(h("span", { class: "gs-page-path" }, [String(page.url)]));
      const group = h("div", { class: "gs-group", role: "group", "aria-labelledby": titleId }, [title]);
      for (const section of page.sections || []) {
        const option = this.option(section, page, terms);
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
    this.options.onShow(message);
  }

  /** @param {any} section @param {any} page @param {string} terms @returns {HTMLAnchorElement} */
  option(section, page, terms) {
    const index = this.items.length;
    const kind = String(section.kind).replace(/[^a-z]/g, "") || "section";
    const option = optionLink(`${this.options.id}-o${index}`, kind, section.url, this.root, terms);
    const head = h("span", { class: "gs-section" }, [
      h("span", { class: "gs-section-title" }, [String(section.title || page.title || "")]),
    ]);
    // What it is when not prose: a code block's language, an API entry.
    if (section.language) head.append(h("span", { class: "gs-badge gs-badge-kind" }, [String(section.language)]));
    else if (section.kind === "api") head.append(h("span", { class: "gs-badge gs-badge-kind" }, ["API"]));
    // Why is a result here without the words typed? Say so (a listing by filters alone needs no word).
    const via = Array.isArray(section.via) ? section.via : null;
    if (via && !via.includes("keyword") && (via.includes("vector") || via.includes("graph"))) {
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

  /** The active option, if any. */
  activeOption() {
    return this.items[this.active];
  }

  /**
   * Move the active option by step (wrapping; from none, down is the first and up the last).
   * @param {1 | -1} step @returns {boolean} false when there is nothing to move to
   */
  move(step) {
    const count = this.items.length;
    if (!count) return false;
    this.moveTo(this.active < 0 ? (step > 0 ? 0 : count - 1) : (this.active + step + count) % count);
    return true;
  }

  /** Make the option at index (negative: from the end) active, by the reader's choice.
   * @param {number} index @returns {boolean} false when there are no options */
  moveTo(index) {
    const count = this.items.length;
    if (!count) return false;
    this.chosen = true;
    this.setActive((index + count) % count, true);
    return true;
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
}
