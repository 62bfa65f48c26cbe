"""Screenshots for README: builds example-site with the `mkdocs` theme and with Material, serves
both locally and captures them in Debian chromium.

    .venv/bin/python scripts/screenshots.py [--query "exactly once delivery"] [--dark] [--shots ...]

Writes docs/screenshots/search-mkdocs.png and docs/screenshots/search-material.png, the results
panel (with --dark: search-*-dark.png, using each theme's dark scheme); start-list.png, the
dialog opened with nothing typed; related-pages.png, the related pages at the end of a page;
search-filters.png (the mkdocs theme, `--filter-query` with the `--chip` filter chip pressed).
`--shots search,start,related,filters` (the default: all) picks which to write.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import tempfile
import threading
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "example-site"
OUT = ROOT / "docs" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# highlight.js comes from a CDN in the mkdocs theme: off, so the page renders offline.
MKDOCS = "INHERIT: {site}/mkdocs.yml\ndocs_dir: {site}/docs\ntheme:\n  name: mkdocs\n  highlightjs: false\n{extra}"
MKDOCS_DARK = "  color_mode: dark\n  user_color_mode_toggle: false\n"
MATERIAL = "INHERIT: {site}/mkdocs-material.yml\ndocs_dir: {site}/docs\n{extra}"
MATERIAL_DARK = "theme:\n  name: material\n  font: false\n  palette:\n    scheme: slate\n"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _build(folder: Path, name: str, text: str) -> None:
    config = folder / f"{name}.yml"
    # The configs live in a temp folder: keep using example-site's embedding cache.
    plugins = (
        f"plugins:\n  - graphsearch:\n      cache_dir: {SITE / '.cache' / 'graphsearch'}\n      related_pages: true\n"
    )
    config.write_text(text + plugins, encoding="utf-8")
    build(load_config(config_file=str(config), site_dir=str(folder / "www" / name)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--query", default="exactly once delivery")
    parser.add_argument("--filter-query", default="retry policy")
    parser.add_argument("--chip", default="kind:code", help="the filter chip pressed for search-filters.png")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--shots", default="search,start,related,filters", help="which screenshots (default: all)")
    args = parser.parse_args()
    shots = set(args.shots.split(","))
    suffix = "-dark" if args.dark else ""
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _build(folder, "mkdocs", MKDOCS.format(site=SITE, extra=MKDOCS_DARK if args.dark else ""))
        _build(folder, "material", MATERIAL.format(site=SITE, extra=MATERIAL_DARK if args.dark else ""))
        handler = functools.partial(_Quiet, directory=str(folder / "www"))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                base = f"http://127.0.0.1:{server.server_port}/mkdocs/"
                if "start" in shots:
                    _start_list(browser.new_page(viewport={"width": 1200, "height": 760}), base, suffix)
                if "related" in shots:
                    _related_pages(browser.new_page(viewport={"width": 1200, "height": 760}), base, suffix)
                for theme in ("mkdocs", "material") if "search" in shots else ():
                    page = browser.new_page(viewport={"width": 1200, "height": 760})
                    page.goto(f"http://127.0.0.1:{server.server_port}/{theme}/user-guide/jobs/")
                    page.keyboard.press("/")
                    page.keyboard.type(args.query)
                    expect(page.locator(".gs-dialog .gs-box")).to_have_attribute("data-gs-complete", "true")
                    page.keyboard.press("ArrowDown")  # show the active option moving
                    page.mouse.move(5, 5)
                    path = OUT / f"search-{theme}{suffix}.png"
                    page.screenshot(path=str(path))
                    print(f"wrote {path.relative_to(ROOT)}")
                    page.close()
                if "filters" in shots:
                    _filters(browser.new_page(viewport={"width": 1200, "height": 760}), base, args, suffix)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()


def _start_list(page, base: str, suffix: str) -> None:
    """The dialog opened with nothing typed: the site's most connected pages, one chosen."""
    page.goto(f"{base}user-guide/jobs/")
    page.keyboard.press("/")
    expect(page.locator(".gs-dialog .gs-start")).to_be_visible()
    page.keyboard.press("ArrowDown")
    page.mouse.move(5, 5)
    _write(page, f"start-list{suffix}.png")


def _filters(page, base: str, args: argparse.Namespace, suffix: str) -> None:
    """The results of `--filter-query` with the `--chip` filter chip pressed."""
    page.goto(f"{base}user-guide/jobs/")
    page.keyboard.press("/")
    page.keyboard.type(args.filter_query)
    expect(page.locator(".gs-dialog .gs-box")).to_have_attribute("data-gs-complete", "true")
    page.locator(f'.gs-dialog .gs-chip[data-word="{args.chip}"]').click()
    expect(page.locator(".gs-dialog .gs-box")).to_have_attribute("data-gs-complete", "true")
    page.mouse.move(5, 5)
    _write(page, f"search-filters{suffix}.png")


def _related_pages(page, base: str, suffix: str) -> None:
    """The related pages block at the end of a page, with the text above it."""
    page.goto(f"{base}user-guide/retries/")
    block = page.locator(".gs-related")
    block.scroll_into_view_if_needed()
    box = block.bounding_box()
    assert box is not None
    top = max(0.0, box["y"] - 140)
    clip = {"x": 0, "y": top, "width": 1200, "height": box["y"] + box["height"] + 30 - top}
    _write(page, f"related-pages{suffix}.png", clip=clip)


def _write(page, name: str, **options: object) -> None:
    path = OUT / name
    page.screenshot(path=str(path), **options)
    print(f"wrote {path.relative_to(ROOT)}")
    page.close()


if __name__ == "__main__":
    main()
