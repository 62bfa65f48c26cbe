"""Each chunk's keyword tokens as the last build counted them, so an unchanged chunk is not
tokenized and stemmed again (index/bm25.py `build_keyword_index`).

Why: tokenizing and stemming every chunk's fields is most of the keyword index's build, paid
again on every build although an edit changes a few chunks. What a chunk gives depends only on
its field texts and on the code that splits them (text/, index/bm25.py): an entry is keyed by a
sha256 of the texts, a stem by its word, and a file written by other code (the sha256 of that
code, in the file) is not used.

File: `keyword-tokens-<site key>.cache` beside the page state (page_state.state_file), framed by
files/cache_store.py; payload JSON: {"code": its digest, "chunks": {key: [term counts of each
field in FIELD_WEIGHTS order, the prose words]}, "stems": {word: stem}}. Only what a build used is
saved, so the file follows the site. A file that fails its checksum or its shape is damaged: one
warning naming it, every chunk tokenized again, and the next save replaces it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path

import orjson

from mkdocs_graphsearch import text
from mkdocs_graphsearch.files import cache_store

__all__ = ["ChunkTokens", "TokenCache", "tokens_file"]

_KIND, _VERSION = "keyword-tokens", 1
#: A chunk's term counts per field (in FIELD_WEIGHTS order) and its prose words.
ChunkTokens = tuple[list[dict[str, int]], list[str]]


def tokens_file(state_path: Path) -> Path:
    """Beside the page state, with its site key."""
    return state_path.with_name(state_path.name.replace("pages-", "keyword-tokens-"))


@cache
def _code_digest() -> str:
    """sha256 of the text modules' and bm25.py's source: tokens counted by other code are not reused."""
    digest = hashlib.sha256()
    folder = Path(text.__path__[0])
    for module in [*sorted(folder.glob("*.py")), Path(__file__).with_name("bm25.py")]:
        digest.update(module.name.encode() + b"\0" + module.read_bytes() + b"\0")
    return digest.hexdigest()


class TokenCache:
    """The tokens of the chunks (and the stems of the words) of the last build, and of this one."""

    def __init__(self, path: Path, warn: Callable[[str], None]) -> None:
        self.path, self.warn = path, warn
        self._chunks: dict[str, ChunkTokens] = {}
        self._stems: dict[str, str] = {}
        self._used: dict[str, ChunkTokens] = {}
        self._used_stems: dict[str, str] = {}
        try:
            payload = cache_store.read(path, _KIND, _VERSION)
            if payload is not None:
                self._chunks, self._stems = _unpack(payload)
        except OSError:
            return
        except (ValueError, KeyError, TypeError) as error:
            warn(f"the keyword tokens cache {path} is damaged ({error}); tokenizing every chunk again")

    def chunk(self, fields: dict[str, str], count: Callable[[dict[str, str]], ChunkTokens]) -> ChunkTokens:
        """The tokens of a chunk with these fields (name -> text); `count(fields)` makes them."""
        digest = hashlib.sha256()
        for name, value in fields.items():
            digest.update(f"{name}\0{value}\0".encode())
        key = digest.hexdigest()
        tokens = self._chunks.get(key)
        if tokens is None:
            tokens = self._chunks[key] = count(fields)
        self._used[key] = tokens
        return tokens

    def stem(self, word: str, stem: Callable[[str], str]) -> str:
        found = self._stems.get(word)
        if found is None:
            found = self._stems[word] = stem(word)
        self._used_stems[word] = found
        return found

    def save(self) -> None:
        """Write what this build used; a failure is one warning (a cache: the bundle is built)."""
        payload = orjson.dumps(
            {"code": _code_digest(), "chunks": self._used, "stems": self._used_stems}, option=orjson.OPT_SORT_KEYS
        )
        try:
            cache_store.write(self.path, _KIND, _VERSION, payload)
        except OSError as error:
            self.warn(f"cannot save the keyword tokens cache {self.path} ({error}); the next build tokenizes again")


def _unpack(payload: bytes) -> tuple[dict[str, ChunkTokens], dict[str, str]]:
    entries = orjson.loads(payload)
    if entries["code"] != _code_digest():  # written by other code: nothing in it applies
        return {}, {}
    chunks: dict[str, ChunkTokens] = {}
    for key, (counts, prose) in entries["chunks"].items():
        if not (isinstance(counts, list) and all(isinstance(c, dict) for c in counts) and isinstance(prose, list)):
            raise TypeError(f"bad entry {key}")
        chunks[key] = (counts, prose)
    stems = entries["stems"]
    if not (isinstance(stems, dict) and all(isinstance(s, str) for s in stems.values())):
        raise TypeError("bad stems")
    return chunks, stems
