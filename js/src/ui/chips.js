// @ts-check
/**
 * Filter chips of a search box: a toggle button per facet value of the site (the manifest's
 * `facets`, sent with the worker's status) that adds or removes its `facet:value` word. The
 * engine parses filters (filters.js); a chip looks for its own word only.
 */
import { h } from "./dom.js";

/** Facets in chip order, and their names in tooltips. */
export const FACETS = [["in", "Section"], ["kind", "Kind"], ["lang", "Language"], ["tags", "Tag"]];
const SPACES = /\s+/;

/** @typedef {Record<string, {value: string, label: string, count: number}[]>} Facets */

export class FilterChips {
  /**
   * @param {HTMLInputElement} input the search box @param {() => void} changed its text changed
   * @param {string} id the chips' element id
   */
  constructor(input, changed, id) {
    this.input = input;
    this.changed = changed;
    /** @type {HTMLButtonElement[]} */
    this.chips = [];
    this.group = h("div", { class: "gs-chips", role: "group", "aria-label": "Filters", id });
    // On a narrow screen (ui.css) the chips wait behind this toggle, which says how many there are.
    this.toggleButton = h("button", { type: "button", class: "gs-chips-toggle", "aria-expanded": "false",
                                      "aria-controls": this.group.id }, ["Filters"]);
    this.element = h("div", { class: "gs-filters", hidden: "" }, [this.toggleButton, this.group]);
    this.element.addEventListener("mousedown", (event) => event.preventDefault()); // a click keeps focus in the box
    this.toggleButton.addEventListener("click", () => {
      const open = this.toggleButton.getAttribute("aria-expanded") !== "true";
      this.toggleButton.setAttribute("aria-expanded", String(open));
    });
    this.group.addEventListener("click", (event) => {
      const chip = event.target instanceof Element ? event.target.closest("button.gs-chip") : null;
      if (chip instanceof HTMLButtonElement) this.toggle(String(chip.dataset.word));
    });
  }

  /** Make the chips once the site's facets are known. @param {Facets | null | undefined} facets */
  show(facets) {
    if (this.chips.length || !facets || typeof facets !== "object") return;
    for (const [facet, name] of FACETS) {
      const entries = Array.isArray(facets[facet]) ? facets[facet] : [];
      for (const { value, label, count } of entries) {
        if (typeof value !== "string" || !value || SPACES.test(value)) continue;
        const word = `${facet}:${value}`;
        this.chips.push(h("button", {
          type: "button",
          class: "gs-chip",
          "aria-pressed": "false",
          "data-word": word,
          title: `${name}: ${String(label)} (${Number(count)})`,
        }, [word]));
      }
    }
    this.group.append(...this.chips);
    this.element.hidden = !this.chips.length;
    this.sync();
  }

  /** Press the chips whose word is in the box. */
  sync() {
    const words = new Set(this.input.value.toLowerCase().split(SPACES));
    let pressed = 0;
    for (const chip of this.chips) {
      const on = words.has(String(chip.dataset.word));
      chip.setAttribute("aria-pressed", String(on));
      if (on) pressed++;
    }
    const count = pressed ? `${pressed} of ${this.chips.length} on` : String(this.chips.length);
    this.toggleButton.textContent = `Filters (${count})`;
  }

  /** Add the chip's word to the box, or take it out. @param {string} word */
  toggle(word) {
    const words = this.input.value.split(SPACES).filter(Boolean);
    const kept = words.filter((w) => w.toLowerCase() !== word);
    this.input.value = kept.length < words.length ? kept.join(" ") : `${[...words, word].join(" ")} `;
    this.sync();
    this.changed();
  }
}
