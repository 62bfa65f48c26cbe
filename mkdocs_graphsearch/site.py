"""What the plugin does with a site: collect parsed pages, write the bundle and the runtime.

Kept apart from plugin.py so the hooks stay one-liners and this logic is testable without MkDocs.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs_graphsearch.assets import js_dir
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.parse.markdown import parse_page
from mkdocs_graphsearch.parse.model import Page, PageWarning

if TYPE_CHECKING:  # semantic.py imports onnxruntime: only when embeddings are on
    from mkdocs_graphsearch.index.semantic import Progress, SemanticOptions

#: Where the browser runtime is written inside the site.
ASSETS_DIR = "assets/graphsearch"


@dataclass
class SiteIndex:
    """Pages parsed during a build, in the order MkDocs rendered them."""

    known_pages: set[str]
    chunk_depth: int
    pages: list[Page] = field(default_factory=list)
    urls: dict[str, str] = field(default_factory=dict)

    def add_page(self, path: str, source: bytes, url: str, heading_ids: list[str]) -> list[PageWarning]:
        """Parse one page; returns its warnings (broken links, bad fences, front matter)."""
        page = parse_page(source, path, self.known_pages, chunk_depth=self.chunk_depth, heading_ids=heading_ids)
        self.pages.append(page)
        self.urls[path] = url
        return page.warnings

    def write(
        self,
        site_dir: Path,
        bundle_dir: str,
        settings: SearchSettings,
        semantic: SemanticOptions | None,
        warn: Callable[[str], None],
    ) -> dict[str, bytes]:
        """Write the bundle and the browser runtime into the built site."""
        files = build_files(
            self.pages, settings=settings, url_for=self.urls.__getitem__, semantic=semantic, warn=warn
        )
        # write_bundle removes only the parts its previous manifest listed (other files stay).
        write_bundle(site_dir / bundle_dir, files)
        from mkdocs_graphsearch.inject import runtime_dir  # the versioned folder pages link to

        copy_runtime(site_dir / runtime_dir(ASSETS_DIR))
        return files


def copy_runtime(target: Path) -> None:
    """Copy the browser runtime (ES modules and CSS) into the site: no CDN, ever."""
    target.mkdir(parents=True, exist_ok=True)
    for source in sorted((js_dir() / "src").iterdir()):
        if source.suffix in {".js", ".css"}:
            shutil.copyfile(source, target / source.name)


def search_settings(mode: str, limit: int, sections_per_page: int) -> SearchSettings:
    return replace(SearchSettings(), default_mode=mode, default_limit=limit, sections_per_page=sections_per_page)


def semantic_options(
    model: Mapping[str, Any],
    cache_dir: Path | None,
    warn: Callable[[str], None],
    progress: Progress,
    serving: bool = False,
) -> SemanticOptions | None:
    """The embedder for a build, or None (after one warning) when the model cannot load."""
    from mkdocs_graphsearch.index.embed import Embedder, ModelSpec, ModelUnavailable
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    spec = ModelSpec(
        onnx_path=Path(model["path"]) if model.get("path") else None,
        vocab_path=Path(model["tokenizer"]) if model.get("tokenizer") else None,
        pooling=model.get("pooling", "mean"),
        query_prefix=model.get("query_prefix", ""),
        passage_prefix=model.get("passage_prefix", ""),
        max_tokens=model.get("max_tokens", 256),
    )
    try:
        return SemanticOptions(Embedder(spec), cache_dir, progress, reuse_encoder=serving)
    except ModelUnavailable as error:
        warn(f"semantic search is off, the embedding model cannot load ({error}); shipping keyword search only")
        return None
