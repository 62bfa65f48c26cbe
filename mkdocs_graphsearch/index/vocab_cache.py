"""The bundle's vocabulary shards (bundle/vocab_shards.py) as a build made them, so the next build
with the same vocabulary reads them instead of listing and splitting ~30,000 entries again.

Why: the shards depend only on the vocabulary and on the code that lists and splits it, yet
`WordPiece.vocab_text` and `split_vocab` were a noticeable share of every warm build's or
edit's CPU time; reading them back costs next to nothing.

File: `vocab-shards-<key>.cache` in the cache folder, framed by files/cache_store.py: JSON {"vocab": the
manifest's `encoder.vocab`, "parts": {name: the part's text}}. The key is a sha256 over the
vocabulary file's sha256 (text/wordpiece.py), the shard count, the tokenizers version and the
source of the modules that make the shards, so other code or another vocabulary never reads
them. A file that fails its checksum or its shape is one warning naming it; the shards are made
again and the file replaced. The newest KEEP files stay (sites sharing a folder with other models).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import tokenizers

from mkdocs_graphsearch.bundle import format as bundle_format
from mkdocs_graphsearch.bundle import vocab_shards
from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.text import wordpiece as wordpiece_module
from mkdocs_graphsearch.text.wordpiece import WordPiece

__all__ = ["KEEP", "PATTERN", "Shards", "cache_file", "load", "save"]

_KIND, _VERSION = "vocab-shards", 2
#: Vocabulary shard files kept in one cache folder (newest first), and their names.
KEEP = 4
PATTERN = "vocab-shards-*.cache"
Shards = tuple[dict[str, bytes], dict[str, Any]]


@cache
def _code_digest() -> str:
    """sha256 of the source that lists and splits a vocabulary, and the tokenizers version."""
    digest = hashlib.sha256(f"{tokenizers.__version__}\0{vocab_shards.VOCAB_SHARDS}\0".encode())
    for module in (vocab_shards, bundle_format, wordpiece_module):
        path = Path(str(module.__file__))
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_file(cache_dir: Path, wordpiece: WordPiece) -> Path:
    """Where the shards of this vocabulary are kept."""
    key = hashlib.sha256(f"{wordpiece.sha256}\n{_code_digest()}".encode()).hexdigest()
    return cache_dir / PATTERN.replace("*", key)


def load(path: Path, warn: Callable[[str], None]) -> Shards | None:
    """The shards kept in `path`; None when there are none (or damaged ones: one warning)."""
    try:
        payload = cache_store.read(path, _KIND, _VERSION)
        return None if payload is None else _unpack(payload)
    except OSError:
        return None
    except (ValueError, KeyError, TypeError) as error:
        warn(f"the vocabulary shards cache {path} is damaged ({error}); making them again")
        return None


def save(path: Path, shards: Shards) -> None:
    """Write the shards (atomically; the caller keeps the newest KEEP such files). OSError as the
    file system raises it (the caller warns)."""
    parts, vocab = shards
    payload = orjson.dumps({"vocab": vocab, "parts": {name: data.decode("utf-8") for name, data in parts.items()}})
    cache_store.write(path, _KIND, _VERSION, payload)


def _unpack(payload: bytes) -> Shards:
    entries = orjson.loads(payload)
    vocab, parts = entries["vocab"], entries["parts"]
    if not (
        isinstance(vocab, dict)
        and vocab.keys() == {"key_chars", "shards", "size", "specials"}
        and all(type(vocab[key]) is int and vocab[key] > 0 for key in ("key_chars", "shards", "size"))
        and isinstance(vocab["specials"], dict)
        and all(type(value) is int and value >= 0 for value in vocab["specials"].values())
    ):
        raise TypeError("bad vocab entry")
    names = {bundle_format.vocab_shard(i) for i in range(vocab["shards"])}
    if not (isinstance(parts, dict) and parts.keys() == names and all(isinstance(t, str) for t in parts.values())):
        raise TypeError("bad parts")
    return {name: text.encode("utf-8") for name, text in parts.items()}, vocab
