"""What bundle/word_rows.py reads of the passages, kept per passage text in the cache folder, so
a build after an edit cuts only the changed passages into words.

Why: the word files (bundle/word_rows.py) need every word of every passage and each word's
WordPiece ids; cutting all passages into words and tokenizing every word again was much of an
edit's CPU time, yet both depend only on a passage's text (a word's ids on the word) and the
vocabulary. `site_word_files` gives the same files with or without them.

File: `site-words-<key>.cache`, framed by files/cache_store.py; payload JSON {"passages": {sha256
of a passage text: {word: times it says it}}, "pieces": {word: its ids}}, holding the passages
and words of the build that wrote it. The key is a sha256 over the vocabulary's sha256, the
tokenizers version and the source of the modules that cut and tokenize (so another vocabulary or
other code never reads it). A damaged file is one warning naming it, then everything is cut again
and the file replaced; the newest KEEP files stay.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson
import tokenizers

from mkdocs_graphsearch.bundle import word_rows
from mkdocs_graphsearch.bundle.word_rows import Table, passage_words, split_words
from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.index.derived_cache import code_digest
from mkdocs_graphsearch.text import wordpiece as wordpiece_module
from mkdocs_graphsearch.text.wordpiece import WordPiece

__all__ = ["KEEP", "PATTERN", "site_word_files"]

_KIND, _VERSION = "site-words", 1
KEEP = 4
PATTERN = "site-words-*.cache"


def site_word_files(
    texts: Sequence[str], wordpiece: WordPiece, table: Table, folder: Path | None, warn: Callable[[str], None]
) -> tuple[dict[str, bytes], dict[str, int]]:
    """words.bin, the word shards and the manifest's `encoder.words` (word_rows.split_words) over
    the words of `texts` (word_rows.passage_words), each passage's words and each word's ids
    taken from the cache folder where it has them (`folder` None: no cache)."""
    path = _cache_file(folder, wordpiece) if folder is not None else None
    known, pieces = _load(path, warn) if path is not None else ({}, {})
    digests = [hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() for text in texts]
    passages: dict[str, dict[str, int]] = {}
    counts: Counter[str] = Counter()
    for digest, text in zip(digests, texts, strict=True):
        words = passages.get(digest)
        if words is None:
            words = known.get(digest)
            if words is None:
                words = dict(passage_words(text, wordpiece))
            passages[digest] = words
        counts.update(words)
    new_words = sorted(w for w in counts if w not in pieces)
    pieces.update(zip(new_words, wordpiece.pieces_batch(new_words), strict=True))
    parts = split_words(counts, lambda words: [pieces[w] for w in words], table)
    if path is not None and (passages.keys() != known.keys() or new_words):
        _save(path, passages, {w: pieces[w] for w in counts}, warn)
    return parts


def _cache_file(folder: Path, wordpiece: WordPiece) -> Path:
    code = code_digest(sys.modules[__name__], word_rows, wordpiece_module)
    key = hashlib.sha256(f"{wordpiece.sha256}\n{tokenizers.__version__}\n{code}".encode()).hexdigest()
    return folder / PATTERN.replace("*", key)


def _load(path: Path, warn: Callable[[str], None]) -> tuple[dict[str, dict[str, int]], dict[str, list[int]]]:
    try:
        payload = cache_store.read(path, _KIND, _VERSION)
        if payload is None:
            return {}, {}
        data: Any = orjson.loads(payload)
        passages, pieces = data["passages"], data["pieces"]
        if not (isinstance(passages, dict) and isinstance(pieces, dict)):
            raise TypeError("not a site words entry")
        return passages, pieces
    except OSError:
        return {}, {}
    except (ValueError, KeyError, TypeError) as error:
        warn(f"the site words cache {path} is damaged ({error}); cutting the passages into words again")
        return {}, {}


def _save(
    path: Path, passages: dict[str, dict[str, int]], pieces: dict[str, list[int]], warn: Callable[[str], None]
) -> None:
    try:
        cache_store.write(path, _KIND, _VERSION, orjson.dumps({"passages": passages, "pieces": pieces}))
        cache_store.prune(path.parent, PATTERN, KEEP, spare=path)
    except OSError as error:
        warn(f"cannot write the cache folder {path.parent} ({error}); building without it")
