"""What the last build read from each page's source, so an unchanged page is not parsed again.

Why: the plugin parses every page's markdown (site_pages.py `read_source`) only for its front
matter facts (tags, search boost/exclude) and its source-level warnings: about as long as MkDocs'
own rendering of the page. Those facts depend only on the source bytes, the page's path, the
set of page paths (link checks), the chunk depth and the parser's code, so they are kept per page
under a key over all of these (`facts_key`) and reused while the key matches; a warning of an
unchanged page is still reported on every build (`mkdocs build --strict` fails the same way).

File: one per built site beside the page state, `source-facts-<site key>.cache`, framed by
files/cache_store.py; payload JSON: path -> key and facts. A file that fails its checksum or its
shape is damaged: one warning naming it, every page parsed again, and the next save replaces it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import orjson

from mkdocs_graphsearch import parse, text
from mkdocs_graphsearch.files import cache_store

__all__ = ["SourceFacts", "code_digest", "facts_file", "facts_key", "load_facts", "pages_digest", "save_facts"]

_KIND, _VERSION = "source-facts", 1


@dataclass(frozen=True)
class SourceFacts:
    """A page's facts from its source; `warnings`: (line, message), as read_source reports them."""

    key: str
    tags: list[str]
    boost: float
    exclude: bool
    warnings: list[tuple[int, str]]


def facts_file(state_path: Path) -> Path:
    """Beside the page state (page_state.state_file), with its site key."""
    return state_path.with_name(state_path.name.replace("pages-", "source-facts-"))


@cache
def code_digest() -> str:
    """sha256 of the parser's and the text modules' source: facts parsed by other code are not reused."""
    digest = hashlib.sha256()
    for package in (parse, text):
        folder = Path(package.__path__[0])
        for module in sorted(folder.glob("*.py")):
            digest.update(module.name.encode() + b"\0" + module.read_bytes() + b"\0")
    return digest.hexdigest()


def pages_digest(known_pages: Collection[str]) -> str:
    """sha256 of the set of page paths (once per build: the link checks depend on it)."""
    return hashlib.sha256("\n".join(sorted(known_pages)).encode("utf-8")).hexdigest()


def facts_key(source_sha256: str, path: str, pages_sha256: str, chunk_depth: int) -> str:
    parts = [code_digest(), source_sha256, path, pages_sha256, str(chunk_depth)]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def load_facts(path: Path, warn: Callable[[str], None]) -> dict[str, SourceFacts]:
    """Facts by page path; {} when there is no file, and after one warning when it is damaged."""
    try:
        payload = cache_store.read(path, _KIND, _VERSION)
        return {} if payload is None else _unpack(payload)
    except OSError:
        return {}
    except (ValueError, KeyError, TypeError) as error:
        warn(f"the page facts cache {path} is damaged ({error}); parsing every page again")
        return {}


def _unpack(payload: bytes) -> dict[str, SourceFacts]:
    entries = orjson.loads(payload)
    out = {}
    for name, entry in entries.items():
        key, tags, boost, exclude, warnings = (entry[k] for k in ("key", "tags", "boost", "exclude", "warnings"))
        if not (isinstance(key, str) and isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
            raise TypeError(f"bad entry for {name}")
        if not (isinstance(boost, (int, float)) and isinstance(exclude, bool)):
            raise TypeError(f"bad entry for {name}")
        pairs = [(int(line), str(message)) for line, message in warnings]
        out[name] = SourceFacts(key, tags, float(boost), exclude, pairs)
    return out


def save_facts(path: Path, facts: dict[str, SourceFacts]) -> None:
    """Write atomically; OSError to the caller (a cache: it warns and goes on)."""
    entries = {
        name: {"key": f.key, "tags": f.tags, "boost": f.boost, "exclude": f.exclude, "warnings": f.warnings}
        for name, f in sorted(facts.items())
    }
    cache_store.write(path, _KIND, _VERSION, orjson.dumps(entries, option=orjson.OPT_SORT_KEYS))
