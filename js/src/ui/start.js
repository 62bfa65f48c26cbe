// @ts-check
/**
 * The start list: what an empty, focused search box shows before the reader types, the site's
 * most connected pages (the manifest's `top`, chosen at build time by PageRank over the page
 * links: mkdocs_graphsearch/index/related.py), so a reader who does not know what to type has
 * somewhere to start. It needs the manifest only, which the search service reads first (it
 * comes with the service's status); typing replaces it with results, emptying the box brings
 * it back. The options are the panel's own (same keys, same safe links), none active until the
 * reader moves to one, so Enter in an empty box opens nothing by surprise.
 */
import { h } from "./dom.js";
import { optionLink } from "./panel.js";

/** @typedef {import("./box.js").SearchBox} SearchBox */
/** @typedef {{path: string, title: string, url: string}} StartPage */

export const START_TITLE = "Start here";

export class StartList {
  /** @param {SearchBox} box @param {URL} root the site root (links must stay under it) */
  constructor(box, root) {
    this.box = box;
    this.root = root;
    /** @type {HTMLElement | null} */
    this.group = null;
    this.listener = () => this.update();
    box.input.addEventListener("focus", this.listener);
    box.input.addEventListener("input", this.listener);
    box.input.addEventListener("blur", this.listener);
    box.client.statusListeners.add(this.listener);
  }

  /** The box left the page for good. */
  dispose() {
    this.box.client.statusListeners.delete(this.listener);
  }

  /** Is the start list on screen (results replace it in the same listbox)? */
  get showing() {
    return this.group !== null && this.group.isConnected;
  }

  /** Show the list when the box is focused, empty, and the pages are known; else take it away. */
  update() {
    const { input, client } = this.box;
    const pages = client.status.top ?? [];
    const wanted = document.activeElement === input && !input.value.trim() && pages.length > 0 &&
      client.status.state !== "error";
    if (wanted && !this.showing) this.show(pages);
    else if (!wanted && this.showing) this.hide();
  }

  /** @param {StartPage[]} pages */
  show(pages) {
    const panel = this.box.panel;
    panel.clear();
    const titleId = `${panel.options.id}-start`;
    const heading = h("div", { class: "gs-page", id: titleId, role: "presentation" }, [
      h("span", { class: "gs-page-title" }, [START_TITLE]),
    ]);
    const group = h("div", { class: "gs-group gs-start", role: "group", "aria-labelledby": titleId }, [heading]);
    const options = pages.map((page, index) => {
      const option = optionLink(`${panel.options.id}-s${index}`, "page", page.url, this.root);
      option.append(
        h("span", { class: "gs-section" }, [h("span", { class: "gs-section-title" }, [String(page.title || page.url)])]),
        h("span", { class: "gs-snippet" }, [String(page.url || page.path)]),
      );
      group.append(option);
      return option;
    });
    panel.list.replaceChildren(group);
    panel.items = options;
    panel.setActive(-1, false);
    this.box.input.setAttribute("aria-expanded", "true");
    this.group = group;
  }

  hide() {
    this.group = null;
    this.box.panel.clear();
  }
}
