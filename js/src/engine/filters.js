// @ts-check
/**
 * Query filters, `tags:deploy in:user-guide kind:code lang:python` (spec:
 * mkdocs_graphsearch/engine/filters.py for the syntax and what each facet matches,
 * mkdocs_graphsearch/text/facets.py for value keys; pinned by tests/vectors/filters.json).
 */

/** @typedef {import("./bundle/read.js").Bundle} Bundle */
/** @typedef {Map<string, string[]>} Filters facet -> keys, in order of first appearance */

export const FACETS = ["tags", "in", "kind", "lang"];
/** Whitespace that ends an unquoted value and starts a word (ASCII only, as Python's). */
const WHITESPACE = " \t\n\r\f\v";
const RUNS = /[ \t\n\r\f\v_-]+/g;
const EDGES = /^-+|-+$/g;
const ASCII = /^[\x00-\x7f]*$/;
/** A chunk kind -> its `kind:` facet value (spec: KIND_FACET). */
const KIND_FACET = new Map([["page", "prose"], ["section", "prose"], ["api", "api"], ["code", "code"]]);
/** An older manifest's search settings have no `language_aliases` (bundle/settings.py). */
const LANGUAGE_ALIASES_IF_ABSENT = {};

/** @param {string} ch */
const isSpace = (ch) => WHITESPACE.includes(ch);

/** @param {string} value */
export function facetKey(value) {
  const folded = value.normalize("NFKC").toLowerCase().replaceAll("\u03c2", "\u03c3").replaceAll('"', "");
  return folded.replace(RUNS, "-").replace(EDGES, "");
}

/** @param {string} path */
export function pathKey(path) {
  return path.split("/").map(facetKey).filter(Boolean).join("/");
}

/** The language a code block counts as for `lang:`. @param {string} language @param {Record<string, string>} aliases */
export function languageOf(language, aliases) {
  const key = facetKey(language);
  return Object.hasOwn(aliases, key) ? aliases[key] : key;
}

/** @param {Bundle} bundle @returns {Record<string, string>} */
export function languageAliases(bundle) {
  return bundle.settings.language_aliases ?? LANGUAGE_ALIASES_IF_ABSENT;
}

/** @param {string} facet @param {string} value */
function valueKey(facet, value) {
  return facet === "in" ? pathKey(value) : facetKey(value);
}

/** The facet whose `name:` starts at `start`, if any. @param {string} query @param {number} start */
function facetAt(query, start) {
  for (const facet of FACETS) {
    const head = query.slice(start, start + facet.length + 1);
    if (ASCII.test(head) && head.toLowerCase() === `${facet}:`) return facet;
  }
  return null;
}

/** @param {Filters} filters @param {string} facet @param {string} key */
function addFilter(filters, facet, key) {
  const keys = filters.get(facet);
  if (!keys) filters.set(facet, [key]);
  else if (!keys.includes(key)) keys.push(key);
}

/**
 * The query's text with its filters cut out (each replaced by one space), and the filters.
 * `spans` says where each filter was in the query (UTF-16 offsets), for a UI.
 * @param {string} query
 * @returns {{text: string, filters: Filters, spans: {start: number, end: number, facet: string, key: string}[]}}
 */
export function parseQuery(query) {
  /** @type {Filters} */
  const filters = new Map();
  const spans = [];
  let text = "";
  let done = 0;
  let i = 0;
  const n = query.length;
  while (i < n) {
    if (isSpace(query[i]) || (i > 0 && !isSpace(query[i - 1]))) {
      i++;
      continue;
    }
    const facet = facetAt(query, i);
    if (facet === null) {
      i++;
      continue;
    }
    const start = i + facet.length + 1;
    let end, value;
    if (start < n && query[start] === '"') {
      const close = query.indexOf('"', start + 1);
      end = close < 0 ? n : close + 1;
      value = query.slice(start + 1, close < 0 ? n : close);
    } else {
      end = start;
      while (end < n && !isSpace(query[end])) end++;
      value = query.slice(start, end);
    }
    const key = valueKey(facet, value);
    if (!key) {
      i++;
      continue;
    }
    addFilter(filters, facet, key);
    spans.push({ start: i, end, facet, key });
    text += query.slice(done, i) + " ";
    done = i = end;
  }
  return { text: text + query.slice(done), filters, spans };
}

/** One `facet:value` given apart from the query (spec: parse_filter). @param {string} argument
 * @returns {[string, string]} */
export function parseFilter(argument) {
  const colon = argument.indexOf(":");
  const name = colon < 0 ? argument : argument.slice(0, colon);
  const facet = ASCII.test(name) ? name.toLowerCase() : name;
  if (colon < 0 || !FACETS.includes(facet)) {
    throw new Error(`filter ${JSON.stringify(argument)} is not FACET:VALUE with FACET one of ${FACETS.join(", ")}`);
  }
  const key = valueKey(facet, argument.slice(colon + 1));
  if (!key) throw new Error(`filter ${JSON.stringify(argument)} has no value`);
  return [facet, key];
}

/** The query's filters and those given apart, as if all were typed.
 * @param {Filters} filters @param {[string, string][]} extra @returns {Filters} */
export function merged(filters, extra) {
  /** @type {Filters} */
  const result = new Map([...filters].map(([facet, keys]) => [facet, [...keys]]));
  for (const [facet, key] of extra) addFilter(result, facet, key);
  return result;
}

/** Per page, does the facet match? @param {Bundle} bundle @param {string} facet @param {string[]} keys */
function pageMask(bundle, facet, keys) {
  const { path, tags } = /** @type {{path: string[], tags?: string[][]}} */ (bundle.pages);
  if (facet === "tags") return path.map((_, p) => (tags?.[p] ?? []).some((tag) => keys.includes(facetKey(tag))));
  return path.map((page) => {
    const folder = pathKey(page.slice(0, Math.max(0, page.lastIndexOf("/"))));
    return folder !== "" && keys.some((key) => folder === key || folder.startsWith(`${key}/`));
  });
}

/** Per chunk, does the facet match? @param {Bundle} bundle @param {string} facet @param {string[]} keys */
function chunkMask(bundle, facet, keys) {
  const { kind: kinds, language: languages } = bundle.chunks;
  if (facet === "kind") return kinds.map((kind) => keys.includes(KIND_FACET.get(kind) ?? kind));
  const aliases = languageAliases(bundle);
  const wanted = new Set(keys.map((key) => (Object.hasOwn(aliases, key) ? aliases[key] : key)));
  return kinds.map((kind, c) => kind === "code" && wanted.has(languageOf(languages[c], aliases)));
}

/** True (1) for each chunk that every facet of `filters` matches.
 * @param {Bundle} bundle @param {Filters} filters @returns {Uint8Array} */
export function allowedChunks(bundle, filters) {
  const allowed = new Uint8Array(bundle.nChunks).fill(1);
  const pages = bundle.chunks.page;
  for (const [facet, keys] of filters) {
    if (facet === "tags" || facet === "in") {
      const mask = pageMask(bundle, facet, keys);
      for (let c = 0; c < allowed.length; c++) if (!mask[pages[c]]) allowed[c] = 0;
    } else {
      const mask = chunkMask(bundle, facet, keys);
      for (let c = 0; c < allowed.length; c++) if (!mask[c]) allowed[c] = 0;
    }
  }
  return allowed;
}

/** Filters as plain data (the engine's output): {facet: keys}. @param {Filters} filters */
export function filtersObject(filters) {
  return Object.fromEntries(filters);
}
