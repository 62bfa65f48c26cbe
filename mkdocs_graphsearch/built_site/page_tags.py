"""The runtime's tags in every page of a built site, replaced rather than added on each run.

The plugin adds its tags while MkDocs writes a page; here the pages are already written, so
the tags go between two markers. A second run replaces what is between them (the same bytes
when nothing changed: the site stays byte-identical), a run after the host rebuilt the site
finds no markers and adds them. The MkDocs theme's stand-in search modal (theme_compat.py) is
taken out first and put back only where the theme still lacks its own.
"""

from __future__ import annotations

import re

from mkdocs_graphsearch.site_output.inject import error_page_tags, inject, runtime_tags
from mkdocs_graphsearch.site_output.theme_compat import MKDOCS_SEARCH_MODAL_STANDIN, patch_theme_page

__all__ = ["retag", "tags_for"]

_START, _END = "<!-- graphsearch -->", "<!-- /graphsearch -->"
_BLOCK_RE = re.compile(re.escape(_START) + ".*?" + re.escape(_END), re.S)
# Only the MkDocs theme has this keyboard-shortcuts modal (its base.html): the stand-in's theme.
_MKDOCS_THEME_MARK = 'id="mkdocs_keyboard_modal"'


def tags_for(page_url: str, error_page: bool, assets_dir: str, bundle_dir: str, site_url: str) -> str:
    """The tags of one page: relative URLs, or site-absolute ones for the error page."""
    if error_page:
        return error_page_tags(site_url, assets_dir, bundle_dir)
    return runtime_tags(page_url, assets_dir, bundle_dir)


def retag(html: str, tags: str | None) -> str:
    """The page with exactly one block of `tags` (None: with none), whatever runs came before."""
    html = _BLOCK_RE.sub("", html).replace(MKDOCS_SEARCH_MODAL_STANDIN, "")
    if tags is None:
        return html
    theme = "mkdocs" if _MKDOCS_THEME_MARK in html else None
    return inject(patch_theme_page(theme, False, html), _START + tags + _END)
