"""Helpers the benchmark scripts share (they run as `python benchmarks/NAME.py`)."""

from __future__ import annotations

import gzip
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
        die(Path(sys.argv[0]).stem, f"`{name}` not found next to {sys.executable} or on PATH (install the project in this venv)")
    return found
