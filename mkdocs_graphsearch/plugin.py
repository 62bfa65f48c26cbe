"""MkDocs hooks -> the modules that do the work (site.py, inject.py). Nothing else lives here."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.structure.toc import AnchorLink
from mkdocs.utils import is_error_template

from mkdocs_graphsearch.config import GraphSearchConfig
from mkdocs_graphsearch.inject import error_page_tags, inject, runtime_tags
from mkdocs_graphsearch.site import ASSETS_DIR, SiteIndex, search_settings, semantic_options
from mkdocs_graphsearch.theme_compat import patch_theme_page

log = get_plugin_logger(__name__)


def _heading_ids(items: list[AnchorLink]) -> list[str]:
    """Ids of all toc entries in document order (depth-first)."""
    ids: list[str] = []
    for item in items:
        ids.append(item.id)
        ids.extend(_heading_ids(item.children))
    return ids


class GraphSearchPlugin(BasePlugin[GraphSearchConfig]):
    """Builds the hybrid search bundle and ships the browser runtime with the site."""

    serving = False

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        known = {file.src_uri for file in files.documentation_pages()}
        self.index = SiteIndex(known_pages=known, chunk_depth=self.config.chunk_depth)
        return files

    def on_page_content(self, html: str, *, page: MkDocsPage, config: MkDocsConfig, files: Files) -> str:
        if page.file.inclusion.is_excluded() or page.file.abs_src_path is None:
            return html
        try:
            source = Path(page.file.abs_src_path).read_bytes()
        except OSError as error:
            raise PluginError(f"graphsearch: cannot read {page.file.src_uri}: {error}") from error
        for warning in self.index.add_page(page.file.src_uri, source, page.url, _heading_ids(list(page.toc))):
            log.warning(str(warning))
        return html

    def on_post_page(self, output: str, *, page: MkDocsPage, config: MkDocsConfig) -> str:
        output = patch_theme_page(config.theme.name, "search" in config.plugins, output)
        return inject(output, runtime_tags(page.url, ASSETS_DIR, self.config.bundle_dir))

    def on_post_template(self, output_content: str, *, template_name: str, config: MkDocsConfig) -> str:
        # Theme pages that are not docs pages: 404.html (served at any depth) and search.html.
        if not template_name.endswith(".html"):
            return output_content
        if is_error_template(template_name):
            tags = error_page_tags(config.site_url, ASSETS_DIR, self.config.bundle_dir)
        else:
            tags = runtime_tags(template_name, ASSETS_DIR, self.config.bundle_dir)
        output_content = patch_theme_page(config.theme.name, "search" in config.plugins, output_content)
        return inject(output_content, tags)

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        settings = search_settings(self.config.mode, self.config.limit, self.config.sections_per_page)
        semantic = None
        if self.config.embeddings:
            cache_dir = Path(config.config_file_path).parent / self.config.cache_dir if self.config.cache_dir else None
            semantic = semantic_options(self.config.model, cache_dir, log.warning, _log_progress, self.serving)
        try:
            files = self.index.write(Path(config.site_dir), self.config.bundle_dir, settings, semantic, log.warning)
        except OSError as error:
            raise PluginError(f"graphsearch: cannot write the search bundle: {error}") from error
        size = sum(len(data) for data in files.values())
        log.info(f"search bundle: {size / 1024:.0f} KiB in {self.config.bundle_dir}/")


def _log_progress(done: int, total: int, rate: float) -> None:
    log.info(f"embedding: {done}/{total} chunks ({rate:.0f}/s)")
