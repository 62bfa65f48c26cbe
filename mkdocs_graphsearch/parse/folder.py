"""Parse a plain folder of markdown (no mkdocs.yml): what `graphsearch index` and tests use."""

from __future__ import annotations

import gc
from pathlib import Path

from mkdocs_graphsearch.files.bounded import MAX_PAGE, read_bounded
from mkdocs_graphsearch.parse.markdown import DEFAULT_CHUNK_DEPTH, parse_page
from mkdocs_graphsearch.parse.model import Page


def markdown_files(docs_dir: Path) -> list[str]:
    """Docs-relative posix paths of every .md file below docs_dir, sorted (special files too:
    parse_folder refuses them by name rather than leave a page out unsaid)."""
    return sorted(
        path.relative_to(docs_dir).as_posix()
        for path in docs_dir.rglob("*.md")
        if not path.is_dir() and not any(part.startswith(".") for part in path.relative_to(docs_dir).parts)
    )


def parse_folder(docs_dir: Path, *, chunk_depth: int = DEFAULT_CHUNK_DEPTH) -> list[Page]:
    """Every page below docs_dir; RefusedInput for a page that is a special file or larger than
    MAX_PAGE, OSError for one that cannot be read."""
    paths = markdown_files(docs_dir)
    known = set(paths)
    # The cyclic GC is pure overhead here (a big page allocates millions of short-lived tokens,
    # no cycles) and costs a large share of the time on large pages. Paused only in this batch entry point
    # (the CLI's), never inside MkDocs' process, where it is not ours to change.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return [
            parse_page(read_bounded(docs_dir / path, MAX_PAGE, "page"), path, known, chunk_depth=chunk_depth)
            for path in paths
        ]
    finally:
        if gc_was_enabled:
            gc.enable()
