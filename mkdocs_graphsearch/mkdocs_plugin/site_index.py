"""What the plugin does with a site: collect parsed pages, write the bundle and the runtime.

Kept apart from plugin.py so the hooks stay one-liners and this logic is testable without MkDocs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files

from mkdocs_graphsearch.bundle.kept import set_aside
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.bundle.write import previous_files, write_bundle
from mkdocs_graphsearch.mkdocs_plugin.bundle_reuse import inputs_key, restore, save_record
from mkdocs_graphsearch.mkdocs_plugin.page_state import state_file
from mkdocs_graphsearch.parse.model import Page
from mkdocs_graphsearch.site_output.assets import ASSETS_DIR, copy_runtime

if TYPE_CHECKING:
    from mkdocs_graphsearch.index.semantic_options import Progress, SemanticOptions


@dataclass
class SiteIndex:
    """The pages of one build, in MkDocs' order, and their URLs."""

    pages: list[Page] = field(default_factory=list)
    urls: dict[str, str] = field(default_factory=dict)
    token_cache: Path | None = None  # index/token_cache.py (None: no cache folder)
    cache_dir: Path | None = None  # the plugin's cache folder (the shipped runtime is kept there)
    site_name: str = ""  # mkdocs.yml's site_name: a query of it finds the home page
    #: The pages' digest (SitePages.digest) and where the last bundle is recorded (bundle_reuse.py):
    #: a build whose inputs are the last build's writes that bundle again. None: always built.
    pages_digest: str = ""
    record: Path | None = None

    def write(
        self,
        site_dir: Path,
        bundle_dir: str,
        settings: SearchSettings,
        semantic: SemanticOptions | None,
        warn: Callable[[str], None],
        related_count: int,
        kept: Path | None = None,
        runtime_folder: str | None = None,
    ) -> dict[str, bytes]:
        """Write the bundle and the browser runtime into the built site (`kept`: keep_bundle's
        folder; `runtime_folder`: the build's runtime_dir, if known)."""
        out_dir = site_dir / bundle_dir
        key: str | None = None
        files: dict[str, bytes] | None = None
        if self.record is not None and self.pages_digest:
            options = {"settings": settings.to_json(), "semantic": _semantic_inputs(semantic),
                       "related_count": related_count, "site_name": self.site_name}
            key = inputs_key(self.pages_digest, self.urls, options, self.cache_dir)
            files = restore(self.record, key)
        if files is None:
            from mkdocs_graphsearch.index.builder import build_files  # the index's code: only to build one

            warned: list[str] = []

            def warn_and_note(message: str) -> None:  # a bundle built with a warning is not recorded
                warned.append(message)
                warn(message)

            files = build_files(
                self.pages,
                settings=settings,
                url_for=self.urls.__getitem__,
                semantic=semantic,
                warn=warn_and_note,
                related_count=related_count,
                token_cache=self.token_cache,
                site_name=self.site_name,
                cache_dir=self.cache_dir,
            )
            if key is not None and self.record is not None and not warned:
                try:
                    save_record(self.record, key, files)
                except OSError as error:
                    warn(f"cannot save {self.record} ({error}); the next build builds the bundle again")
        # write_bundle removes only the parts its previous manifest listed (other files stay).
        write_bundle(out_dir, files, kept)
        copy_runtime(site_dir, ASSETS_DIR, self.cache_dir, runtime_folder)
        return files


def _semantic_inputs(semantic: SemanticOptions | None) -> dict[str, object] | None:
    """What of the semantic options a bundle depends on (the model by its fingerprint)."""
    if semantic is None:
        return None
    return {
        "model": semantic.embedder.fingerprint,
        "reuse_encoder": semantic.reuse_encoder,
        "layout": [semantic.vector_clusters, semantic.vector_probe, semantic.vector_bits, semantic.vector_cells],
    }


def keep_bundle(cache_dir: Path | None, site_dir: Path, bundle_dir: str, dirty: bool) -> Path | None:
    """Before MkDocs empties site_dir: the cache's folder of the last bundle's parts
    (bundle/kept.py), with the parts only site_dir holds moved there; or None (no cache folder;
    a --dirty build, whose site_dir is not emptied)."""
    if cache_dir is None or dirty or not cache_dir.is_dir():
        return None
    state = state_file(cache_dir, site_dir)
    kept = state.with_name(state.name.replace("pages-", "kept-parts-").removesuffix(".json"))
    out_dir = site_dir / bundle_dir
    set_aside(out_dir, kept, previous_files(out_dir))
    return kept


def check_bundle_dir(files: Files, bundle_dir: str) -> None:
    """Refuse a bundle_dir that a page, asset or theme file of the site already uses: the plugin
    replaces what is in that folder. The built-in search plugin's own files may share it."""
    # Found, not imported: importing the built-in search plugin costs a build that does not use it.
    spec = find_spec("mkdocs.contrib.search")
    locations = spec.submodule_search_locations if spec is not None else None
    builtin_search = Path(locations[0]) if locations else None
    for file in files:
        dest = file.dest_uri
        if dest != bundle_dir and not dest.startswith(bundle_dir + "/"):
            continue
        if builtin_search and file.abs_src_path and Path(file.abs_src_path).is_relative_to(builtin_search):
            continue
        raise PluginError(
            f"graphsearch: bundle_dir '{bundle_dir}' is used by {file.src_uri} (written to {dest}); "
            "choose a folder of its own, e.g. bundle_dir: graphsearch-index"
        )


def search_settings(mode: str, limit: int, sections_per_page: int) -> SearchSettings:
    return replace(SearchSettings(), default_mode=mode, default_limit=limit, sections_per_page=sections_per_page)


def semantic_options(
    model: Mapping[str, Any],
    cache_dir: Path | None,
    warn: Callable[[str], None],
    progress: Progress,
    serving: bool = False,
    note: Callable[[str], None] | None = None,
) -> SemanticOptions | None:
    """The embedder for a build, or None (after one warning) when the model cannot load;
    `note`: what the model's start mends, at info level (embed.py `Embedder`)."""
    from mkdocs_graphsearch.index.embed import Embedder, ModelSpec, ModelUnavailable
    from mkdocs_graphsearch.index.semantic_options import SemanticOptions

    # An option the model config leaves out keeps ModelSpec's default (defined there only).
    tuning = {key: model[key] for key in ("pooling", "query_prefix", "passage_prefix", "max_tokens") if key in model}
    spec = ModelSpec(
        onnx_path=Path(model["path"]) if model.get("path") else None,
        vocab_path=Path(model["tokenizer"]) if model.get("tokenizer") else None,
        stamp_dir=cache_dir,
        **tuning,
    )
    try:
        return SemanticOptions(Embedder(spec, lazy=True, note=note), cache_dir, progress, reuse_encoder=serving)
    except ModelUnavailable as error:
        warn(f"semantic search is off, the embedding model cannot load ({error}); shipping keyword search only")
        return None
