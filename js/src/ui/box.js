// @ts-check
/**
 * A search box (an ARIA combobox: the input, its keys, filter chips and a results panel) and
 * the modal search dialog built around one.
 */
import { FilterChips } from "./chips.js";
import { h, matchScheme, searchIcon } from "./dom.js";
import { ResultsPanel } from "./panel.js";
import { StartList } from "./start.js";

/** @typedef {import("./client.js").SearchClient} SearchClient */

/** Input types of text entered whole, not typed: no more keys follow, so no typing pause. */
const WHOLE_INPUT = new Set(["insertFromPaste", "insertFromDrop", "insertReplacementText", "insertFromYank"]);

let uid = 0;

/** An input (ARIA combobox) with a listbox of results grouped by page. */
export class SearchBox {
  /**
   * @param {SearchClient} client @param {URL} root
   * @param {{inline: boolean, placeholder: string, highlight?: boolean, onNavigate?: () => void,
   *          onEscape?: () => void}} options highlight: result links carry the query as `?h=`
   */
  constructor(client, root, options) {
    this.client = client;
    this.options = options;
    this.channel = `box${++uid}`;
    this.sentId = 0;

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
    this.panel = new ResultsPanel(this.input, root, {
      id,
      inline: options.inline,
      highlight: options.highlight,
      // Nothing better will come for these results (every part of the bundle was tried).
      // data-gs-mode: the mode the shown answer really ran in (keyword until the vectors are in).
      onShow: (message) => {
        this.element.dataset.gsComplete = String(message.complete);
        this.element.dataset.gsMode = message.mode ?? "";
      },
    });
    // Shown once the worker has read the site's facets (the manifest).
    this.chips = new FilterChips(this.input, () => this.search(true), `${id}-chips`);
    this.element = h("div", { class: `gs-box ${options.inline ? "gs-inline" : "gs-modal"}` },
                     [this.bar, this.chips.element, ...this.panel.elements]);

    /** Enter pressed before the box's query had an answer (the list still showed an older
     * query's): its modifiers, to open the top result of the query in the box once it comes.
     * @type {{newTab: boolean} | null} */
    this.pendingEnter = null;
    client.channels.set(this.channel, (message) => {
      if (message.id !== this.sentId) return; // an older keystroke's answer
      this.panel.show(message);
      const pending = this.pendingEnter;
      if (pending && this.panel.shownId === this.sentId) {
        this.pendingEnter = null;
        this.openActive(pending.newTab);
      }
    });
    this.statusListener = () => this.refreshState();
    client.statusListeners.add(this.statusListener);
    this.input.addEventListener("input", (event) => {
      this.search(event instanceof InputEvent && WHOLE_INPUT.has(event.inputType));
    });
    this.input.addEventListener("keydown", (event) => this.keydown(event));
    client.warmOn(this.element);
    // After the input's own listeners: an emptied box is cleared first, then offered the list.
    this.start = new StartList(this, root);
    this.panel.list.addEventListener("click", (event) => {
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
    this.panel.dispose();
    this.start.dispose();
  }

  /**
   * Send the current text (every keystroke; stale answers are dropped by id).
   * @param {boolean} [settled] the text came whole (pasted, picked, set): not typed key by key
   */
  search(settled = false) {
    this.chips.sync();
    this.pendingEnter = null; // the text changed after Enter: that query is not the one to open
    const query = this.input.value;
    if (!query.trim()) {
      this.sentId = this.client.nextId++; // answers to older queries are now stale
      this.client.clear(this.channel);
      this.panel.clear();
      this.refreshState();
      return;
    }
    this.sentId = this.client.query(this.channel, query, settled);
    this.element.dataset.gsComplete = "false"; // until this query's own answer is complete
    this.refreshState();
  }

  /** @param {string} text */
  setQuery(text) {
    this.input.value = text;
    this.search(true);
  }

  /** Follow the service's status: spinner, loading / error / idle lines. */
  refreshState() {
    this.chips.show(this.client.status.facets);
    this.spinner.hidden = this.client.status.done || !this.client.started;
    this.panel.showState(this.client.status, this.input.value.trim());
  }

  /** @param {KeyboardEvent} event */
  keydown(event) {
    if (event.isComposing) return;
    const panel = this.panel;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        if (panel.move(event.key === "ArrowDown" ? 1 : -1)) event.preventDefault();
        break;
      case "Home":
      case "End":
        if (!event.ctrlKey) return;
        if (panel.moveTo(event.key === "Home" ? 0 : -1)) event.preventDefault();
        break;
      case "Enter": {
        event.preventDefault();
        const newTab = event.ctrlKey || event.metaKey || event.shiftKey;
        // The list may still be an older query's (a query pasted, Enter pressed at once): Enter
        // opens a result of the query in the box, so it waits for that query's answer.
        if (this.input.value.trim() && panel.shownId !== this.sentId) this.pendingEnter = { newTab };
        else this.openActive(newTab);
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

  /** Open the active option (in a new tab with a modifier key). @param {boolean} newTab */
  openActive(newTab) {
    const option = this.panel.activeOption();
    const href = option && option.getAttribute("href");
    if (!option || !href) return;
    if (newTab) {
      window.open(href, "_blank", "noopener");
      return;
    }
    if (this.options.onNavigate) this.options.onNavigate();
    option.click();
  }
}

/** A modal search dialog (native <dialog>: top layer, focus kept inside, page inert). */
export class SearchDialog {
  /**
   * @param {SearchClient} client @param {URL} root
   * @param {{highlight: boolean, onNavigate: () => void}} page highlight: result links carry `?h=`;
   *   onNavigate: a result was picked (the theme's navigation drawer closes)
   */
  constructor(client, root, page) {
    this.box = new SearchBox(client, root, {
      inline: false,
      placeholder: "Search the documentation",
      highlight: page.highlight,
      onNavigate: () => {
        this.close();
        page.onNavigate();
      },
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
    matchScheme(this.dialog);
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
    // Else the closed dialog's input keeps focus until the browser's next focus fixup, and a key
    // typed right after Esc (a shortcut) would go to that hidden field.
    else if (document.activeElement instanceof HTMLElement && this.dialog.contains(document.activeElement)) {
      document.activeElement.blur();
    }
  }
}
