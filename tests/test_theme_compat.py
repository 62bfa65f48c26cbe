"""theme_compat.patch_theme_page: the mkdocs theme's search modal stand-in (issue 8), and nothing else."""

from __future__ import annotations

import pytest

from mkdocs_graphsearch.site_output.theme_compat import MKDOCS_SEARCH_MODAL_STANDIN, patch_theme_page

PAGE = "<html><body><p>x</p>\n<script src='js/base.js'></script></body></html>\n<!-- build date -->\n"


def test_mkdocs_theme_without_search_gets_the_standin_before_body_end() -> None:
    patched = patch_theme_page("mkdocs", False, PAGE)
    assert patched == PAGE.replace("</body>", MKDOCS_SEARCH_MODAL_STANDIN + "</body>")
    for needed in ('id="mkdocs_search_modal"', 'id="mkdocs-search-query"', 'id="mkdocs-search-results"'):
        assert patched.count(needed) == 1  # what js/base.js looks up
    assert patch_theme_page("mkdocs", False, patched) == patched  # idempotent


@pytest.mark.parametrize(
    ("theme", "search", "html"),
    [
        ("mkdocs", True, PAGE),  # the theme renders its own modal
        ("readthedocs", False, PAGE),
        ("material", False, PAGE),
        (None, False, PAGE),
        ("mkdocs", False, PAGE.replace("<p>", '<div id="mkdocs_search_modal"></div><p>')),  # a custom_dir has one
        ("mkdocs", False, "<p>a fragment</p>"),
    ],
)
def test_everything_else_is_left_alone(theme, search, html) -> None:
    assert patch_theme_page(theme, search, html) == html
