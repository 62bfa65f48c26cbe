"""Run `graphsearch index` and hold it at a chosen point, for tests/test_killed_builds.py.

    python tests/kill_build.py POINT [graphsearch index arguments...]

POINT, where the process prints "paused" and waits to be killed:
  embedding  passage vectors reach the cache after each passage (FLUSH_SECONDS = 0, so the kill
             needs no 30 s wait); the third append has written half its bytes
  part       the bundle's first new part is whole in its temporary file, not yet renamed
  manifest   every part in place, the manifest whole in its temporary file, not yet renamed
The test kills the process (SIGKILL) as soon as it reads "paused": no sleeping, no race. Nothing
here changes what is written, only when the process stops.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any

PART = re.compile(r"[a-z]+\.[0-9a-f]{8}\.[a-z]+")  # a bundle part's content-hashed name (its CRC-32)


def pause() -> None:
    print("paused", flush=True)
    threading.Event().wait()


class _TornOnThirdAppend:
    """The embedding cache's file: the third append stops halfway (as a kill mid-write would)."""

    appends = 0

    def __init__(self, file: Any) -> None:
        self.file = file

    def __enter__(self) -> _TornOnThirdAppend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.file, name)

    def write(self, data: bytes) -> int:
        type(self).appends += 1
        if type(self).appends == 3:
            self.file.write(data[: len(data) // 2])
            self.file.flush()
            pause()
        return int(self.file.write(data))


def main() -> int:
    point, args = sys.argv[1], sys.argv[2:]
    if point == "embedding":
        import mkdocs_graphsearch.index.embed_cache as embed_cache
        import mkdocs_graphsearch.index.semantic as semantic

        semantic.FLUSH_SECONDS = 0.0
        embed_cache.open = lambda *a, **k: _TornOnThirdAppend(builtins.open(*a, **k))  # type: ignore[attr-defined]  # noqa: SIM115
    elif point in ("part", "manifest"):
        replace = os.replace

        def paused_replace(src: Any, dst: Any) -> None:
            name = Path(dst).name
            if (name == "manifest.json") if point == "manifest" else PART.fullmatch(name):
                pause()
            replace(src, dst)

        os.replace = paused_replace
    else:
        raise SystemExit(f"unknown point {point}")
    from mkdocs_graphsearch.commands.cli import main as graphsearch

    return graphsearch(["index", *args])


if __name__ == "__main__":
    sys.exit(main())
