"""Stems of prose words: Snowball English (Porter2), mirrored by js/src/engine/text/stem.js.

A token is a *prose word* when the tokenizer marks it a word (text/tokenize.py rule 7: a whole
compound of one part, so never `use_directory_urls`, `mkdocs.yml`, `v2` or a camelCase part)
and it is lowercase a-z only. Only prose words are stemmed, on both sides: the index groups the
prose words of titles, heading paths and body text by stem (never symbols or code), and a query
word finds the other words of its group (engine/keyword.py). tests/vectors/stem.json pins the
stems both engines compute.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from mkdocs_graphsearch.text.tokenize import tokenize_words

_PROSE = re.compile("[a-z]+")


@cache
def _stemmer() -> Any:
    """The reference implementation (pure Python, generated from Snowball's own english.sbl; the
    JavaScript port is checked against it word by word). Imported on first use: the package
    imports every language's stemmer, and a build whose words are all in the keyword
    tokens cache (index/token_cache.py) stems none."""
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def is_prose_word(token: str) -> bool:
    return _PROSE.fullmatch(token) is not None


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """The Porter2 stem of a lowercase a-z word."""
    return str(_stemmer().stemWord(word))


def prose_words(text: str) -> list[str]:
    """The tokens of `text` that are prose words, in order."""
    return [token for token, word in tokenize_words(text) if word and is_prose_word(token)]
