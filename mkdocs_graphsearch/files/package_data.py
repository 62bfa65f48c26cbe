"""Where the package's own data lives: the JS runtime is package data in a wheel and `js/` in a
checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


def js_dir() -> Path:
    """The folder holding src/ (browser runtime: engine/ and ui/) and drivers/ (node drivers)."""
    for candidate in (_PACKAGE / "js", _PACKAGE.parent / "js"):
        if (candidate / "src" / "engine" / "engine.js").is_file():
            return candidate
    raise FileNotFoundError("the JS runtime is missing from this installation (expected mkdocs_graphsearch/js/src)")
