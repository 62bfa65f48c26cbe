"""Every default is defined once: the plugin's options and the CLI take theirs from the search
settings (bundle/settings.py), the embedder's ModelSpec (index/embed.py), the chunker and the
cache, so changing a default there changes it everywhere."""

from __future__ import annotations

from dataclasses import fields

from mkdocs_graphsearch.bundle.settings import MODES, SearchSettings
from mkdocs_graphsearch.commands.cli import build_parser
from mkdocs_graphsearch.index.embed import POOLINGS, ModelSpec
from mkdocs_graphsearch.index.embed_cache import DEFAULT_CACHE_DIR
from mkdocs_graphsearch.mkdocs_plugin.config import GraphSearchConfig, ModelConfig
from mkdocs_graphsearch.parse.markdown import DEFAULT_CHUNK_DEPTH


def _defaults(schema: type) -> dict[str, object]:
    return {name: option.default for name, option in schema._schema}


def test_plugin_options_take_the_settings_defaults() -> None:
    search = SearchSettings()
    options = _defaults(GraphSearchConfig)
    assert options["mode"] == search.default_mode
    assert options["limit"] == search.default_limit
    assert options["sections_per_page"] == search.sections_per_page
    assert options["chunk_depth"] == DEFAULT_CHUNK_DEPTH
    assert options["cache_dir"] == DEFAULT_CACHE_DIR
    choices = dict(GraphSearchConfig._schema)["mode"].choices
    assert tuple(choices) == MODES


def test_model_options_take_the_embedder_defaults() -> None:
    spec = ModelSpec()
    options = _defaults(ModelConfig)
    # the files are `path` / `tokenizer`; stamp_dir is the plugin's cache_dir (model_stamp.py)
    tuning = {f.name for f in fields(ModelSpec) if f.init} - {"onnx_path", "vocab_path", "stamp_dir"}
    assert tuning == {"pooling", "query_prefix", "passage_prefix", "max_tokens"}
    for name in tuning:
        assert options[name] == getattr(spec, name), name
    assert tuple(dict(ModelConfig._schema)["pooling"].choices) == POOLINGS


def test_cli_takes_the_same_defaults() -> None:
    parser = build_parser()
    index = parser.parse_args(["index", "docs", "--out", "out"])
    assert index.cache_dir == DEFAULT_CACHE_DIR
    assert index.chunk_depth == DEFAULT_CHUNK_DEPTH
    query = parser.parse_args(["query", "site", "q"])
    assert query.mode is None and query.limit is None  # the bundle's settings decide
    for mode in MODES:
        assert parser.parse_args(["query", "site", "q", "--mode", mode]).mode == mode
