"""MkDocs hooks -> the modules that do the work (mkdocs_plugin/, site_output/). Nothing else lives here.

Hooks whose order among plugins matters carry an `event_priority`: the rendered pages are read
after autorefs (mkdocstrings' cross-references) has turned its references into links, and the
runtime's tags go into each page before a minifier (default priority) rewrites it.
With `enabled: false` every hook returns at once: the site builds as if the plugin were absent.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.utils import is_error_template

from mkdocs_graphsearch.files.cache_store import usable_folder
from mkdocs_graphsearch.index.token_cache import tokens_file
from mkdocs_graphsearch.mkdocs_plugin.bundle_reuse import record_file
from mkdocs_graphsearch.mkdocs_plugin.config import GraphSearchConfig, check_cache_dir
from mkdocs_graphsearch.mkdocs_plugin.gc_hold import GcHold
from mkdocs_graphsearch.mkdocs_plugin.page_state import state_file
from mkdocs_graphsearch.mkdocs_plugin.site_index import (
    SiteIndex,
    check_bundle_dir,
    keep_bundle,
    search_settings,
    semantic_options,
)
from mkdocs_graphsearch.mkdocs_plugin.site_pages import SitePages
from mkdocs_graphsearch.mkdocs_plugin.source_facts import facts_file
from mkdocs_graphsearch.mkdocs_plugin.toc_slugs import toc_slugify
from mkdocs_graphsearch.parse.wikilinks import markdown_start_line, rewrite_wiki_links
from mkdocs_graphsearch.site_output.assets import ASSETS_DIR, runtime_dir
from mkdocs_graphsearch.site_output.inject import error_page_tags, inject, runtime_tags
from mkdocs_graphsearch.site_output.theme_compat import patch_theme_page

if TYPE_CHECKING:
    from mkdocs_graphsearch.index.semantic_options import SemanticOptions

log = get_plugin_logger(__name__)

#: After autorefs' on_env (-50), where `<autoref>` elements become links to what defines them.
AFTER_AUTOREFS = -100
#: Before plugins of default priority (0): minifiers rewrite the page after our tags are in.
BEFORE_MINIFIERS = 50


class GraphSearchPlugin(BasePlugin[GraphSearchConfig]):
    """Builds the hybrid search bundle and ships the browser runtime with the site."""

    serving = dirty = False
    cache_dir: Path | None = None
    kept: Path | None = None
    runtime_folder: str | None = None  # the runtime's versioned folder in this build (on_pre_build)
    semantic: SemanticOptions | None = None  # the embedding model's options (on_nav)

    def __init__(self) -> None:
        super().__init__()
        self.gc_hold = GcHold()  # the plugin's phase: from the model's start or on_post_build to its end

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving, self.dirty = command == "serve", dirty

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # Before anything is read from or written to the cache folder.
        check_cache_dir(self._cache_dir(config), Path(config.site_dir), Path(config.docs_dir))
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        # MkDocs empties site_dir next: the last bundle's parts wait in the cache folder.
        self.kept = keep_bundle(self._cache_dir(config), Path(config.site_dir), self.config.bundle_dir, self.dirty)
        # Once a build (`serve` rebuilds see a changed runtime): every page's tags name this folder.
        self.runtime_folder = runtime_dir(ASSETS_DIR)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        if not self.config.enabled:
            return files
        check_bundle_dir(files, self.config.bundle_dir)
        return files

    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        if not self.config.enabled:
            return nav
        # After every plugin's on_files: pages generated there (mkdocs-gen-files) are known.
        # Checked once a build: an unusable cache folder is one warning, then no cache.
        self.cache_dir = cache_dir = usable_folder(self._cache_dir(config), log.warning, log.info)
        self.doc_files = {f.src_uri: f for f in files.documentation_pages()}
        # Wiki links may point at these as markdown links may: MkDocs reports them (INFO).
        self.excluded = [f.src_uri for f in files.documentation_pages(inclusion=InclusionLevel.is_excluded)]
        state_path = state_file(cache_dir, Path(config.site_dir)) if cache_dir else None
        self.pages = SitePages(
            order=[name for name, f in self.doc_files.items() if not f.inclusion.is_excluded()],
            urls={name: f.url for name, f in self.doc_files.items()},
            chunk_depth=self.config.chunk_depth,
            state_path=state_path,
            warn=log.warning,
            facts_path=facts_file(state_path) if state_path else None,
        )
        self.slugify = toc_slugify(config.mdx_configs)
        self.related_keys: dict[str, str] = {}
        self.semantic = None
        if self.config.embeddings:  # made here: a changed page starts its model (on_page_markdown)
            self.semantic = semantic_options(
                self.config.model, cache_dir, log.warning, _log_progress, self.serving, log.info
            )
        return nav

    def on_page_markdown(self, markdown: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
        if not self.config.enabled or page.file.inclusion.is_excluded():
            return markdown
        source = _source(page.file)
        for warning in self.pages.read_source(page.file.src_uri, source):
            log.warning(str(warning))
        if self.semantic is not None and self.pages.changed(page.file.src_uri):
            # an edited page most likely changes a passage to embed: the model starts while
            # MkDocs renders the pages, not after them
            self.semantic.embedder.start_in_background()
            self.gc_hold.hold()
        markdown, warnings = rewrite_wiki_links(
            markdown,
            page.file.src_uri,
            self.pages.urls.keys(),
            first_line=markdown_start_line(markdown, source),
            excluded_pages=self.excluded,
            slugify=self.slugify,
        )
        for warning in warnings:
            log.warning(str(warning))
        return markdown

    def on_page_content(self, html: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
        if not self.config.enabled or not self.config.related_pages:
            return html
        # Filled in on_post_build, when every page's related pages are known (related_block.py:
        # imported only for a site that shows them).
        from mkdocs_graphsearch.mkdocs_plugin.related_block import placeholder, placeholder_key

        key = self.related_keys[page.file.src_uri] = placeholder_key(page.file.src_uri, html)
        return html + placeholder(key)

    @event_priority(AFTER_AUTOREFS)
    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        """Index what each page rendered, its cross-references resolved as autorefs resolves them."""
        if not self.config.enabled:
            return env
        for file in files.documentation_pages():
            page = file.page  # content None: a page this (--dirty) build did not render
            if page is not None and page.content is not None and file.src_uri in self.pages.sources:
                self.pages.add_rendered(file.src_uri, page.content, page.meta.get("title"))
        return env

    @event_priority(BEFORE_MINIFIERS)
    def on_post_page(self, output: str, *, page: MkDocsPage, config: MkDocsConfig) -> str:
        if not self.config.enabled:
            return output
        output = patch_theme_page(config.theme.name, "search" in config.plugins, output)
        return inject(output, runtime_tags(page.url, ASSETS_DIR, self.config.bundle_dir, self.runtime_folder))

    @event_priority(BEFORE_MINIFIERS)
    def on_post_template(self, output_content: str, *, template_name: str, config: MkDocsConfig) -> str:
        # Theme pages that are not docs pages: 404.html (served at any depth) and search.html.
        if not self.config.enabled or not template_name.endswith(".html"):
            return output_content
        if is_error_template(template_name):
            tags = error_page_tags(config.site_url, ASSETS_DIR, self.config.bundle_dir, self.runtime_folder)
        else:
            tags = runtime_tags(template_name, ASSETS_DIR, self.config.bundle_dir, self.runtime_folder)
        output_content = patch_theme_page(config.theme.name, "search" in config.plugins, output_content)
        return inject(output_content, tags)

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not self.config.enabled:
            return
        self.gc_hold.hold()
        try:
            self._post_build(config)
        finally:
            self.gc_hold.release()

    def on_build_error(self, *, error: Exception) -> None:
        self.gc_hold.release()

    def _post_build(self, config: MkDocsConfig) -> None:
        settings = search_settings(self.config.mode, self.config.limit, self.config.sections_per_page)
        semantic = self.semantic
        try:
            pages = self.pages.finish(lambda path: _source(self.doc_files[path]), _log_fallback)
            state = self.pages.state_path
            index = SiteIndex(pages=pages, urls=self.pages.urls, token_cache=tokens_file(state) if state else None,
                              cache_dir=self.cache_dir, site_name=config.site_name or "",
                              pages_digest=self.pages.digest, record=record_file(state) if state else None)
            site_dir, related_count = Path(config.site_dir), self.config.related_count
            files = index.write(
                site_dir, self.config.bundle_dir, settings, semantic, log.warning, related_count, self.kept,
                self.runtime_folder,
            )
        except OSError as error:
            raise PluginError(f"graphsearch: cannot write the search bundle: {error}") from error
        size = sum(len(data) for data in files.values())
        log.info(f"search bundle: {size / 1024:.0f} KiB in {self.config.bundle_dir}/")
        bundle_dir = Path(config.site_dir) / self.config.bundle_dir
        if self.config.related_pages:
            from mkdocs_graphsearch.mkdocs_plugin.related_block import show_related

            show_related(bundle_dir, self.doc_files, self.config.related_template, log.warning, self.related_keys)
        if self.config.checks:  # checks.py imports the search engine: only for a site that has checks
            from mkdocs_graphsearch.common.checks import check_site

            check_site(bundle_dir, Path(self.config.checks), log.warning, log.info)

    def _cache_dir(self, config: MkDocsConfig) -> Path | None:
        if not self.config.cache_dir:
            return None
        return Path(config.config_file_path).parent / self.config.cache_dir


def _source(file: File) -> bytes:
    """A page's source as MkDocs reads it (generated pages included)."""
    try:
        return file.content_bytes
    except OSError as error:
        raise PluginError(f"graphsearch: cannot read {file.src_uri}: {error}") from error


def _log_fallback(path: str) -> None:
    log.info(f"{path}: not rendered in this --dirty build and not in the saved state; indexed from its markdown")


def _log_progress(done: int, total: int, rate: float) -> None:
    log.info(f"embedding: {done}/{total} chunks ({rate:.0f}/s)")
