"""Helpers the benchmark scripts share (they run as `python benchmarks/NAME.py`)."""

from __future__ import annotations

import datetime as dt
import gzip
import os
import shutil
import sys
from pathlib import Path


def die(script: str, message: str) -> None:
    """Stop a benchmark with a message (exit 2: nothing was measured)."""
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(2)


def gz(data: bytes) -> int:
    """Bytes after gzip -9 (what a server would send)."""
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def tool(name: str) -> str:
    """A console script of this venv (beside sys.executable), else from PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if not found:
        die(
            Path(sys.argv[0]).stem,
            f"`{name}` not found next to {sys.executable} or on PATH (install the project in this venv)",
        )
    return found


HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def repo_path(path: Path | str) -> str:
    """How a report records a path: relative to the repository (`../shared/corpora/x` for the
    shared data beside it), so results committed from one machine name nothing of it. A path
    outside the repository's parent folder (a temporary build) is recorded by its name only."""
    resolved = Path(path).resolve()
    if not resolved.is_relative_to(REPO.parent):
        return resolved.name
    return Path(os.path.relpath(resolved, REPO)).as_posix()


def save_report(kind: str, body: str, out: Path | None, started: dt.datetime) -> Path:
    """Write a run's JSON to `out` or benchmarks/results/KIND-DATE.json, and say where."""
    path = out or HERE / "results" / f"{kind}-{started:%Y%m%d-%H%M%S}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
    return path


def bundle_parts(bundle: Path) -> dict[str, Path]:
    """A bundle folder's files by logical name (manifest.json, keyword.json, ...), whatever they are
    called on disk (content-hashed names: bundle/format.py file_name)."""
    import json

    from mkdocs_graphsearch.bundle.format import file_name, listed_parts

    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    parts = {part: bundle / file_name(manifest, part) for part in listed_parts(manifest)}
    return {"manifest.json": bundle / "manifest.json", **dict(sorted(parts.items()))}


def part_kind(part: str) -> str:
    """What a part holds, from its logical name's first word: `text.3.json` -> `text`,
    `encoder-model.bin` -> `encoder-model` (as benchmarks/first_query_bytes.mjs groups them)."""
    return part.split(".")[0]
