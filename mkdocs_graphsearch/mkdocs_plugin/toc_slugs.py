"""The site's own heading-id rule, for `[[page#Heading]]` anchors.

Why: MkDocs' `toc` extension makes heading ids with the site's `slugify` and `separator`
settings (`pymdownx.slugs.slugify(case='lower')` keeps accents, `separator: _`...); a wiki link
anchored with the default rule would point at an id the built page does not have.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markdown.extensions.toc import slugify as markdown_slugify

#: The names the `toc` extension goes by in `markdown_extensions`.
_TOC_NAMES = ("toc", "markdown.extensions.toc")


def toc_slugify(mdx_configs: Mapping[str, Any]) -> Callable[[str], str]:
    """heading text -> id, as the site's toc makes it (MkDocs' `config.mdx_configs`)."""
    settings: Mapping[str, Any] = next((mdx_configs[name] for name in _TOC_NAMES if mdx_configs.get(name)), {})
    function = settings.get("slugify") or markdown_slugify
    separator = settings.get("separator", "-")
    return lambda text: str(function(text, separator))
