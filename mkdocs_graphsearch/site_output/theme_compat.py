"""Give a theme what its own scripts expect when the built-in `search` plugin is off.

The `mkdocs` theme's base.html renders the search modal (#mkdocs_search_modal with
#mkdocs-search-query and #mkdocs-search-results) only when `search` is in `plugins`, but its
js/base.js uses those elements unconditionally on DOMContentLoaded
(`new bootstrap.Modal(document.getElementById('mkdocs_search_modal'))`, then
`.addEventListener` on it). Replacing `search` with `graphsearch`, as the README recommends,
therefore threw a TypeError on every page, which stopped the rest of the theme's start-up:
tables unstyled, keyboard shortcuts and the help modal dead (issue 8).

The fix is the least the script needs: a hidden stand-in for that modal (never shown: the
runtime's takeover in js/src/ui/theme.js answers its `show.bs.modal` with our dialog, and `/` or `s`
never reach the theme). readthedocs and Material need nothing: their scripts check for their
search elements first.
"""

from __future__ import annotations

#: What js/base.js of the `mkdocs` theme looks up, and no more (Bootstrap's Modal wants .modal-dialog).
MKDOCS_SEARCH_MODAL_STANDIN = (
    '<div class="modal" id="mkdocs_search_modal" tabindex="-1" aria-hidden="true" hidden data-graphsearch-standin>'
    '<div class="modal-dialog"><div class="modal-content">'
    '<input type="search" id="mkdocs-search-query" tabindex="-1" aria-hidden="true">'
    '<div id="mkdocs-search-results"></div>'
    "</div></div></div>"
)


def patch_theme_page(theme_name: str | None, builtin_search: bool, html: str) -> str:
    """The rendered page with what the theme's scripts expect added (unchanged when nothing is missing).

    theme_name is `config.theme.name`; builtin_search is `"search" in config.plugins` (the same test
    the theme's templates make).
    """
    if theme_name != "mkdocs" or builtin_search or 'id="mkdocs_search_modal"' in html:
        return html
    at = html.rfind("</body>")
    if at < 0:
        return html
    return html[:at] + MKDOCS_SEARCH_MODAL_STANDIN + html[at:]
