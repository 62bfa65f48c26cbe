"""Insert the search runtime's tags into a rendered page (no theme override needed).

The runtime is served from a folder named after a hash of its files, `assets/graphsearch/<hash>/`
(assets.py names and copies it, its engine/ and ui/ halves as in js/src). Why a versioned folder
rather than `ui/ui.js?v=<hash>`: ui.js imports the other UI modules, whose client starts
../engine/worker.js, which imports bundle/read.js, engine.js..., all by relative URLs. A query
string on ui.js does not carry over to those imports, so a browser could pair a cached old
module with a new one (or an old ui.js with a new worker.js) after a deploy.
In a versioned folder every relative import resolves inside the same version: an old page can
only ever load its own modules (or get a 404 if they are gone, which the UI reports as "search is
unavailable": harmless, a reload fixes it), and a new page never sees old ones. The bundle itself
is versioned the same way (content-hashed parts, manifest.json fetched fresh: bundle/format.py).
"""

from __future__ import annotations

import html
from urllib.parse import urlsplit

from mkdocs.utils import get_relative_url

from mkdocs_graphsearch.site_output.assets import runtime_dir


def runtime_tags(page_url: str, assets_dir: str, bundle_dir: str, folder: str | None = None) -> str:
    """<link> and <script> tags with URLs relative to the page, so any base path works.
    `folder`: runtime_dir(assets_dir) if the caller has it already (it hashes the runtime's files:
    one build asks once, not once per page)."""
    folder = folder or runtime_dir(assets_dir)
    return _tags(
        css=get_relative_url(f"{folder}/ui/ui.css", page_url),
        script=get_relative_url(f"{folder}/ui/ui.js", page_url),
        bundle=get_relative_url(f"{bundle_dir}/", page_url),
        root=get_relative_url(".", page_url).rstrip("/") + "/",  # result URLs are relative to the root
    )


def error_page_tags(site_url: str | None, assets_dir: str, bundle_dir: str, folder: str | None = None) -> str:
    """Tags for 404.html, served at any depth: absolute paths, as MkDocs does for error pages
    (the path of site_url, or / without one). `folder`: as runtime_tags'."""
    base = urlsplit(site_url or "/").path.rstrip("/") + "/"
    folder = folder or runtime_dir(assets_dir)
    return _tags(
        css=f"{base}{folder}/ui/ui.css",
        script=f"{base}{folder}/ui/ui.js",
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
