// @ts-check
/**
 * The theme takeover: the search UI of the `mkdocs`, `readthedocs`, Material and Zensical themes,
 * and Sphinx themes' search forms, opens our dialog instead (or, when the theme's own search plugin
 * is off, a search button is added where the theme would have one). The theme's elements stay in
 * the page, so its own scripts, which expect them, keep working; they just never get a query to
 * answer.
 */
import { h, searchIcon } from "./dom.js";

/**
 * @typedef {(text?: string) => void} Open opens the search dialog (with text to start with)
 * @typedef {(element: Element) => void} Warm starts loading on the reader's intent on an element
 */

/**
 * Make an element open our dialog instead of whatever it did (captured before the theme sees it).
 * @param {Element} element @param {() => void} open
 */
export function redirectClicks(element, open) {
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
 * @param {Open} open @param {Warm} warm
 */
export function takeOverTheme(open, warm) {
  if (takeOverMaterial(open, warm)) return;
  if (takeOverMkdocs(open, warm)) return;
  if (takeOverReadthedocs(open, warm)) return;
  takeOverSphinx(open, warm);
}

/**
 * Zensical (Material's successor, same header; its search on or off): its `.md-search` holds only
 * a button, and its dialog (in an open shadow root) opens on a click anywhere in `.md-search`, on
 * the `__search` toggle, on `/` (by clicking that button) and on Ctrl/Cmd+K. Clicks are taken
 * first, `/` by ui.js, and Ctrl/Cmd+K here, in the capture phase on window, before Zensical's own
 * listener on window (which skips an event already handled) sees them.
 * @param {Open} open @param {Warm} warm
 */
function takeOverZensical(open, warm) {
  for (const search of document.querySelectorAll(".md-search")) {
    if (!search.querySelector(".md-search__button")) continue;
    redirectClicks(search, () => open());
    warm(search);
  }
  window.addEventListener("keydown", (event) => {
    if (event.key !== "k" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    open();
  }, true);
}

/**
 * Material for MkDocs and Zensical: .md-search exists only with their search plugin.
 * @param {Open} open @param {Warm} warm @returns {boolean} the page has Material's header
 */
function takeOverMaterial(open, warm) {
  const mdHeader = document.querySelector(".md-header__inner");
  if (!mdHeader) return false;
  const toggle = document.getElementById("__search");
  if (document.querySelector('.md-search__button, meta[name="generator"][content^="zensical"]')) {
    takeOverZensical(open, warm);
  }
  if (document.querySelector(".md-search__button") && toggle instanceof HTMLInputElement) {
    // Zensical toggles its dialog on every change of the toggle: it is never changed (labels
    // redirected), and nothing below (which resets the toggle) applies.
    for (const label of document.querySelectorAll('label[for="__search"]')) {
      redirectClicks(label, () => open());
      warm(label);
    }
  } else if (document.querySelector(".md-search") && toggle instanceof HTMLInputElement) {
    for (const label of document.querySelectorAll('label[for="__search"]')) {
      redirectClicks(label, () => open());
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
      open(text);
    };
    toggle.addEventListener("change", () => { if (toggle.checked) stop(); });
    document.addEventListener("focusin", (event) => {
      if (event.target instanceof Element && event.target.closest(".md-search")) stop();
    }, true);
  } else {
    // Shaped like Material's own header field on a wide screen, its icon on a narrow one (ui.css).
    const button = triggerButton("Search", "md-header__button md-icon gs-trigger-material");
    button.append(h("span", { class: "gs-trigger-label", "aria-hidden": "true" }, ["Search"]));
    button.addEventListener("click", () => open());
    warm(button);
    mdHeader.insertBefore(button, mdHeader.querySelector(".md-header__source"));
  }
  return true;
}

/**
 * The built-in `mkdocs` theme (Bootstrap): a navbar link + modal with the search plugin; without
 * it, theme_compat.py's stand-in modal (no link) and our own Search link in the navbar.
 * @param {Open} open @param {Warm} warm @returns {boolean} the page has (or now has) a Search link
 */
function takeOverMkdocs(open, warm) {
  const bsLink = document.querySelector('[data-bs-target="#mkdocs_search_modal"]');
  const bsModal = document.getElementById("mkdocs_search_modal");
  if (bsLink) {
    redirectClicks(bsLink, () => open());
    warm(bsLink);
  }
  if (bsModal) {
    // Anything else that tries to show the built-in modal (e.g. ?q= in the URL) opens ours.
    bsModal.addEventListener("show.bs.modal", (event) => {
      event.preventDefault();
      const typed = /** @type {HTMLInputElement | null} */ (document.getElementById("mkdocs-search-query"));
      // Its ?q= (the built-in script fills the field only later, and the stand-in never does).
      open((typed && typed.value) || new URLSearchParams(location.search).get("q") || undefined);
    });
    // The built-in script still sees its (never shown) modal, so the theme's own script,
    // which expects those elements, keeps working; it never gets a keystroke to answer.
  }
  if (bsLink) return true;
  // No link: the theme's search plugin is off (the modal, if any, is the stand-in): add ours.
  const bsNav = document.querySelector(".navbar .navbar-nav.ms-md-auto");
  if (!bsNav) return false;
  const link = h("a", { href: "#", class: "nav-link gs-trigger gs-trigger-mkdocs", role: "button",
                        "aria-haspopup": "dialog", "aria-keyshortcuts": "/ s", title: "Search (/)" },
                 [searchIcon("gs-trigger-icon"), " Search"]);
  redirectClicks(link, () => open());
  warm(link);
  bsNav.prepend(h("li", { class: "nav-item" }, [link]));
  return true;
}

/**
 * A theme's search form: typing in its field or sending it opens our dialog (with what was typed).
 * @param {Element} form @param {Open} open @param {Warm} warm
 */
function adoptSearchForm(form, open, warm) {
  warm(form);
  const field = form.querySelector("input");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    open();
  });
  if (field) {
    field.addEventListener("focus", () => {
      const text = field.value || undefined;
      field.value = "";
      field.blur();
      open(text);
    });
  }
}

/**
 * readthedocs: a search field in the side bar with the search plugin, else our button there.
 * @param {Open} open @param {Warm} warm @returns {boolean} the page has the theme's side bar
 */
function takeOverReadthedocs(open, warm) {
  const rtdForm = document.getElementById("rtd-search-form");
  if (rtdForm) {
    adoptSearchForm(rtdForm, open, warm);
    return true;
  }
  const rtdSide = document.querySelector(".wy-side-nav-search");
  if (!rtdSide) return false;
  const button = h("button", { type: "button", class: "gs-trigger gs-trigger-rtd", "aria-haspopup": "dialog",
                               "aria-keyshortcuts": "/ s" }, [searchIcon("gs-trigger-icon"), "Search docs"]);
  button.addEventListener("click", () => open());
  warm(button);
  const after = rtdSide.querySelector(".version") || rtdSide.querySelector("a");
  if (after) after.after(button);
  else rtdSide.append(button);
  return true;
}

/**
 * Sphinx themes (`graphsearch build` on a Sphinx site): their search boxes are forms that send the
 * query to search.html (basic and alabaster's #searchbox, furo, pydata...).
 * @param {Open} open @param {Warm} warm
 */
function takeOverSphinx(open, warm) {
  for (const form of document.querySelectorAll('form[action$="search.html"]')) adoptSearchForm(form, open, warm);
}

/**
 * Close the theme's navigation drawer (a reader who picked a result from it, on a small screen,
 * must see the page, not the menu over it): Material's, readthedocs' and the mkdocs theme's.
 */
export function closeNavigation() {
  const drawer = document.getElementById("__drawer");
  if (drawer instanceof HTMLInputElement && drawer.checked) {
    drawer.checked = false;
    drawer.dispatchEvent(new Event("change")); // Material follows the toggle's change event
  }
  for (const shifted of document.querySelectorAll(".wy-nav-side.shift, .wy-nav-content-wrap.shift")) {
    shifted.classList.remove("shift");
  }
  // The mkdocs theme's collapsed navbar (and table of contents): their own togglers close them,
  // so Bootstrap keeps its state.
  for (const toggler of document.querySelectorAll('.navbar-toggler[aria-expanded="true"]')) {
    if (toggler instanceof HTMLElement) toggler.click();
  }
}

/**
 * The built-in search plugin's results page (readthedocs' search.html) becomes ours: its form and
 * results are hidden (not removed: its script expects them) and a mount point for an inline box
 * goes after them.
 */
export function adoptResultsPage() {
  const builtinResults = document.getElementById("mkdocs-search-results");
  if (!builtinResults || builtinResults.closest(".modal") || builtinResults.hidden) return;
  const form = document.getElementById("content_search");
  if (form) form.hidden = true;
  builtinResults.hidden = true;
  builtinResults.after(h("div", { "data-graphsearch": "" }));
}
