"""Results of pure build steps (the vectors' k-means, the known-word list) kept in the cache
folder, keyed by a sha256 over the step's inputs and the source of the code that computes it.

Why: a build whose inputs to such a step did not change (a warm CI build, an edit that adds no
new term) computed the same result last time; reading it back costs next to nothing, while
k-means over a large site's vectors and the known-word search were much of a warm build's CPU time.

File: `derived-<step>-<key>.cache`, framed by files/cache_store.py (the payload is the step's
own bytes). The key covers the inputs as the step reads them and its modules' source, so other
inputs or other code never read it. A damaged file is one warning naming it, then the step runs
and the file is replaced; the newest KEEP files of each step stay. A cache folder that cannot be
written is one warning, and the build goes on computing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from mkdocs_graphsearch.files import cache_store

__all__ = ["KEEP", "PATTERN", "DerivedCache", "code_digest"]

_KIND, _VERSION = "derived", 1
#: Results kept per step in one cache folder (newest first): sites sharing it don't evict each other.
KEEP = 4
PATTERN = "derived-*.cache"
T = TypeVar("T")


@cache
def code_digest(*modules: ModuleType) -> str:
    """sha256 of these modules' source: a step's result is only reused by the code that made it."""
    digest = hashlib.sha256()
    for module in modules:
        path = Path(str(module.__file__))
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class DerivedCache:
    """One build's use of the cache folder for derived results (None: no cache, always computed)."""

    def __init__(self, folder: Path | None, warn: Callable[[str], None]) -> None:
        self.folder, self.warn = folder, warn

    @staticmethod
    def key(step: str, inputs: Iterable[bytes], modules: tuple[ModuleType, ...]) -> str:
        """sha256 (hex) over the step, its modules' source and its inputs."""
        digest = hashlib.sha256(f"{step}\0{code_digest(*modules)}\0".encode())
        for part in inputs:
            digest.update(len(part).to_bytes(8, "little") + part)
        return digest.hexdigest()

    def newest(self, step: str, unpack: Callable[[bytes], T]) -> T | None:
        """The newest kept result of `step` that `unpack` accepts (for a step that can update an
        earlier result rather than start over); None if there is none."""
        for path in cache_store.newest(self.folder, f"derived-{step}-*.cache") if self.folder else []:
            try:
                payload = cache_store.read(path, _KIND, _VERSION)
                if payload is not None:
                    return unpack(payload)
            except (OSError, ValueError):  # removed meanwhile, another family's, or damaged: not this one
                continue
        return None

    def get_or_make(
        self,
        step: str,
        inputs: Iterable[bytes],
        modules: tuple[ModuleType, ...],
        make: Callable[[], T],
        pack: Callable[[T], bytes],
        unpack: Callable[[bytes], T],
    ) -> T:
        """`make()`, or the result a build with the same inputs and code kept; `unpack` raises
        ValueError on bytes that are not a result (warned about as damage, then recomputed)."""
        if self.folder is None:
            return make()
        path = self.folder / f"derived-{step}-{self.key(step, inputs, modules)}.cache"
        try:
            payload = cache_store.read(path, _KIND, _VERSION)
            if payload is not None:
                return unpack(payload)
        except ValueError as error:
            self.warn(f"the {step} cache {path} is damaged ({error}); recomputing it")
        except OSError:
            pass  # unreadable: recomputed, and the write below says what is wrong
        result = make()
        try:
            cache_store.write(path, _KIND, _VERSION, pack(result))
            cache_store.prune(self.folder, f"derived-{step}-*.cache", KEEP, spare=path)
        except OSError as error:
            self.warn(f"cannot write the cache folder {self.folder} ({error}); building without it")
            self.folder = None
        return result
