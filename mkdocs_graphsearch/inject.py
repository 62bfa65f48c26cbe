"""Insert the search runtime's tags into a rendered page (no theme override needed)."""

from __future__ import annotations

import html
from urllib.parse import urlsplit

from mkdocs.utils import get_relative_url


def runtime_tags(page_url: str, assets_dir: str, bundle_dir: str) -> str:
    """<link> and <script> tags with URLs relative to the page, so any base path works."""
    return _tags(
        css=get_relative_url(f"{assets_dir}/ui.css", page_url),
        script=get_relative_url(f"{assets_dir}/ui.js", page_url),
        bundle=get_relative_url(f"{bundle_dir}/", page_url),
        root=get_relative_url(".", page_url).rstrip("/") + "/",  # result URLs are relative to the root
    )


def error_page_tags(site_url: str | None, assets_dir: str, bundle_dir: str) -> str:
    """Tags for 404.html, served at any depth: absolute paths, as MkDocs does for error pages
    (the path of site_url, or / without one)."""
    base = urlsplit(site_url or "/").path.rstrip("/") + "/"
    return _tags(
        css=f"{base}{assets_dir}/ui.css",
        script=f"{base}{assets_dir}/ui.js",
        bundle=f"{base}{bundle_dir}/",
        root=base,
    )


def _tags(*, css: str, script: str, bundle: str, root: str) -> str:
    return (
        f'<link rel="stylesheet" href="{html.escape(css)}">'
        f'<script type="module" src="{html.escape(script)}" '
        f'data-graphsearch-bundle="{html.escape(bundle)}" data-graphsearch-root="{html.escape(root)}"></script>'
    )


def inject(output: str, tags: str) -> str:
    """Put the tags before </head> (or </body>, or at the end for fragments)."""
    for closing in ("</head>", "</body>"):
        at = output.rfind(closing)
        if at >= 0:
            return output[:at] + tags + output[at:]
    return output + tags
