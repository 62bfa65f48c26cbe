"""The tags the plugin puts into every page: URLs relative to the page, absolute on 404.html."""

from __future__ import annotations

import pytest

from mkdocs_graphsearch.inject import error_page_tags, inject, runtime_tags


@pytest.mark.parametrize(
    ("page_url", "prefix", "root"),
    [("", "", "./"), ("guide/install/", "../../", "../../"), ("guide/install.html", "../", "../")],
)
def test_runtime_tags_are_relative_to_the_page(page_url, prefix, root):
    tags = runtime_tags(page_url, "assets/graphsearch", "search")
    assert f'href="{prefix}assets/graphsearch/ui.css"' in tags
    assert f'<script type="module" src="{prefix}assets/graphsearch/ui.js"' in tags
    assert f'data-graphsearch-bundle="{prefix}search/"' in tags
    assert f'data-graphsearch-root="{root}"' in tags


@pytest.mark.parametrize(
    ("site_url", "base"),
    [(None, "/"), ("", "/"), ("https://example.org/docs", "/docs/"), ("https://example.org/docs/", "/docs/")],
)
def test_error_page_tags_are_absolute(site_url, base):
    tags = error_page_tags(site_url, "assets/graphsearch", "search")
    assert f'src="{base}assets/graphsearch/ui.js"' in tags
    assert f'data-graphsearch-bundle="{base}search/"' in tags
    assert f'data-graphsearch-root="{base}"' in tags


def test_inject_before_head_end():
    assert inject("<html><head></head><body></body></html>", "<x>") == "<html><head><x></head><body></body></html>"
    assert inject("<p>fragment</p>", "<x>") == "<p>fragment</p><x>"
