"""The real-browser tests' shared parts: site builds, a local server, and page helpers.

Imported by the browser test modules (after their `pytest.importorskip("playwright.sync_api")`)
and by conftest.py's browser fixtures; not a test module itself.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from conftest import EXAMPLE_SITE, bundle_part, cache_lock, rewrite_bundle_file
from mkdocs_graphsearch.bundle.display import display_starts, page_range
from mkdocs_graphsearch.bundle.format import MANIFEST, display_fragment

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

DIALOG = "dialog.gs-dialog"
OPTIONS = f"{DIALOG} .gs-option"
STATUS = f"{DIALOG} .gs-status"

# ------------------------------------------------------------------------------ site builds


def build_site(config_file: Path, site_dir: Path) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file=str(config_file), site_dir=str(site_dir))
    build(config)


def write_config(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def example_config(folder: Path, name: str, body: str, base: str = "mkdocs.yml") -> Path:
    return write_config(
        folder / f"{name}.yml",
        f"INHERIT: {EXAMPLE_SITE / base}\ndocs_dir: {EXAMPLE_SITE / 'docs'}\n{body}",
    )


# The mkdocs theme loads highlight.js from a CDN unless told not to: off, so the only
# requests left are the site's own.
MKDOCS_THEME = "theme:\n  name: mkdocs\n  highlightjs: false\n"
# With semantic search, sharing example-site's embedding cache (as its own builds do); the
# takeover and XSS sites don't need embeddings (keyword-only bundles, faster builds).
#: example-site's own builds' cache (the plugin's default cache_dir), used by the semantic sites:
#: one pytest-xdist worker at a time (conftest.cache_lock), so the second reuses the first's.
EXAMPLE_CACHE = EXAMPLE_SITE / ".cache" / "graphsearch"
SEMANTIC = f"plugins:\n  - graphsearch:\n      cache_dir: {EXAMPLE_CACHE}\n"
BUILTIN_SEARCH = "plugins:\n  - search\n  - graphsearch:\n      embeddings: false\n"
KEYWORD_ONLY = "plugins:\n  - graphsearch:\n      embeddings: false\n"
# Material's search.highlight (INHERIT merges it into the base file's theme options).
MATERIAL_HIGHLIGHT = "theme:\n  features: [search.highlight]\n"

XSS_TITLE = "<img src=x onerror=alert(1)>"
XSS_TAG = "<img src=x onerror=alert(5)>"  # becomes a filter chip
XSS_PAGES = {
    "index.md": "# Home\n\nWelcome, zebrafish lovers.\n",
    "evil.md": (
        f"---\ntitle: {XSS_TITLE}\ntags: ['{XSS_TAG}']\n---\n\n# Zebrafish page\n\nZebrafish intro paragraph.\n\n"
        "## The `<script>alert(2)</script>` zebrafish heading\n\n"
        "Zebrafish snippet bait &lt;img src=x onerror=alert(3)&gt; and a [x](javascript:alert(1)) link.\n"
    ),
    "find.md": '# Find\n\n<div id="graphsearch"></div>\n',
}


class Sites:
    """Builds each test site once, on first use, under one served folder."""

    def __init__(self, root: Path, base_url: str) -> None:
        self.root = root
        self.base_url = base_url
        self.configs = root.parent / "configs"
        self.configs.mkdir()
        self.built: set[str] = set()
        self.lock = threading.RLock()

    def url(self, name: str, path: str = "") -> str:
        with self.lock:
            if name not in self.built:
                getattr(self, f"_build_{name.replace('-', '_')}")(self.root / name)
                self.built.add(name)
        return f"{self.base_url}{name}/{path}"

    def _build_mkdocs(self, out: Path) -> None:
        with cache_lock(EXAMPLE_CACHE):
            build_site(example_config(self.configs, "mkdocs", MKDOCS_THEME + SEMANTIC), out)

    def _build_material(self, out: Path) -> None:
        pytest.importorskip("material", reason="mkdocs-material is not installed")
        with cache_lock(EXAMPLE_CACHE):
            build_site(EXAMPLE_SITE / "mkdocs-material.yml", out)

    def _build_mkdocs_builtin(self, out: Path) -> None:
        build_site(example_config(self.configs, "mkdocs-builtin", MKDOCS_THEME + BUILTIN_SEARCH), out)

    def _build_material_builtin(self, out: Path) -> None:
        pytest.importorskip("material", reason="mkdocs-material is not installed")
        config = example_config(self.configs, "material-builtin", BUILTIN_SEARCH, base="mkdocs-material.yml")
        build_site(config, out)

    def _build_material_highlight(self, out: Path) -> None:
        pytest.importorskip("material", reason="mkdocs-material is not installed")
        config = example_config(self.configs, "material-highlight", MATERIAL_HIGHLIGHT + KEYWORD_ONLY,
                                base="mkdocs-material.yml")
        build_site(config, out)

    def _build_material_builtin_highlight(self, out: Path) -> None:
        pytest.importorskip("material", reason="mkdocs-material is not installed")
        config = example_config(self.configs, "material-builtin-highlight", MATERIAL_HIGHLIGHT + BUILTIN_SEARCH,
                                base="mkdocs-material.yml")
        build_site(config, out)

    def _build_rtd_builtin(self, out: Path) -> None:
        theme = "theme:\n  name: readthedocs\n  highlightjs: false\n"
        build_site(example_config(self.configs, "rtd-builtin", theme + BUILTIN_SEARCH), out)

    def _build_corrupt(self, out: Path) -> None:
        self.url("mkdocs")
        shutil.copytree(self.root / "mkdocs", out)
        keyword = bundle_part(out / "search", "keyword.json")  # a part every query needs
        keyword.write_bytes(keyword.read_bytes()[: keyword.stat().st_size // 2])

    def _build_bad_postings(self, out: Path) -> None:
        self._flip_first_byte(out, "postings.")  # the term shards every keyword answer needs

    def _build_bad_display(self, out: Path) -> None:
        self._flip_first_byte(out, "display.")  # the titles and urls of every page shown

    def _flip_first_byte(self, out: Path, prefix: str) -> None:
        """The semantic site with the first byte of each bundle file named `prefix`... changed."""
        self.url("mkdocs")
        shutil.copytree(self.root / "mkdocs", out)
        for part in (out / "search").glob(f"{prefix}*"):
            data = part.read_bytes()
            part.write_bytes(bytes([data[0] ^ 1]) + data[1:])

    def _build_bad_vectors(self, out: Path) -> None:
        self.url("mkdocs")
        shutil.copytree(self.root / "mkdocs", out)
        vectors = bundle_part(out / "search", "vectors.bin")
        data = bytearray(vectors.read_bytes())
        data[:64] = bytes(64)  # same size, wrong CRC-32
        vectors.write_bytes(bytes(data))

    def _build_missing(self, out: Path) -> None:
        self.url("mkdocs")
        shutil.copytree(self.root / "mkdocs", out)
        shutil.rmtree(out / "search")

    def _build_xss(self, out: Path) -> None:
        """A readthedocs site with hostile titles, plus a bundle tampered with to point
        results at `javascript:` and another origin (what a broken or malicious build could do)."""
        docs = self.configs / "xss-docs"
        docs.mkdir()
        for name, text in XSS_PAGES.items():
            (docs / name).write_text(text, encoding="utf-8")
        # evil.md stays out of the nav: MkDocs puts page titles into the theme's nav as HTML,
        # which would fire before any search happens.
        config = write_config(
            self.configs / "xss.yml",
            f"site_name: XSS probe\ndocs_dir: {docs}\ntheme:\n  name: readthedocs\n  highlightjs: false\n"
            "plugins:\n  - graphsearch:\n      embeddings: false\nnav:\n  - index.md\n  - find.md\n",
        )
        build_site(config, out)
        bundle = out / "search"
        keyword = json.loads(bundle_part(bundle, "keyword.json").read_text(encoding="utf-8"))
        starts = display_starts(json.loads((bundle / MANIFEST).read_text(encoding="utf-8")))
        paths, chunk_pages = keyword["pages"]["path"], keyword["chunks"]["page"]
        evil = {paths.index("evil.md"): "javascript:alert(1)//", paths.index("index.md"): "//evil.example/"}
        for index in range(len(starts)):  # page urls are in the display fragments (bundle/display.py)
            first, last = page_range(chunk_pages, starts, len(paths), index)
            part = display_fragment(index)
            fragment = json.loads(bundle_part(bundle, part).read_text(encoding="utf-8"))
            for page, url in evil.items():
                if first <= page < last:
                    fragment["pages"]["url"][page - first] = url
            rewrite_bundle_file(bundle, part, json.dumps(fragment).encode())


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser closed a page (or its context) while a response was on its way
        super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(root: Path, handler: type[http.server.SimpleHTTPRequestHandler] = QuietHandler) -> Iterator[str]:
    """Serve a folder on 127.0.0.1 (a free port) for the duration; yields its base URL."""
    server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


# ------------------------------------------------------------------------------ page helpers


def open_search(page, key: str = "/") -> None:
    page.keyboard.press(key)
    expect(page.locator(DIALOG)).to_have_attribute("open", "")
    expect(page.locator(f"{DIALOG} .gs-input")).to_be_focused()


def search_for(page, text: str) -> None:
    page.keyboard.type(text)
    expect(page.locator(STATUS)).to_have_class("gs-status gs-state-count")


def wait_complete(page, scope: str = DIALOG) -> None:
    """Wait until every part of the bundle is in (results no longer change)."""
    expect(page.locator(f"{scope} .gs-box")).to_have_attribute("data-gs-complete", "true")


def option_ids(page) -> list[str]:
    """The ids of the dialog's options, in order (read once the results are final)."""
    return page.locator(OPTIONS).evaluate_all("options => options.map((o) => o.id)")


def assert_same_origin(page, sites) -> None:
    origin = urlsplit(sites.base_url)
    foreign = [
        url for url in page.requests
        if not url.startswith("data:") and urlsplit(url)[:2] != origin[:2]
    ]
    assert not foreign, f"requests beyond the site: {foreign}"
