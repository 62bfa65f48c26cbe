// @ts-check
/** DOM helpers shared by the search UI's modules (elements, the icon, the page's colour scheme). */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An element with attributes and children (text is set as text, never parsed as HTML).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, string>} [attrs] @param {(Node | string)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

/** The magnifier icon, built node by node. @param {string} className */
export function searchIcon(className) {
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

/** Is the page dark where the search UI sits? Reads the real background, so any theme works. */
export function pageIsDark() {
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

/** Mark a search UI element dark or light to match the page (ui.css reads data-gs-scheme). @param {HTMLElement} element */
export function matchScheme(element) {
  element.dataset.gsScheme = pageIsDark() ? "dark" : "light";
}
