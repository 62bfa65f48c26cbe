"""The project's own documentation site (root mkdocs.yml, pages in docs/) builds with --strict,
with this plugin, and its search checks pass: a broken link, a page missing from the nav, a
generated reference that no longer renders or a search answer the docs lost fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search


def test_the_docs_site_builds_strict_with_its_own_search(tmp_path: Path) -> None:
    site = tmp_path / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-4000:]
    assert (site / "search" / "manifest.json").is_file()
    options = (site / "configuration" / "index.html").read_text(encoding="utf-8")
    assert "<code>chunk_depth</code>" in options and "graphsearch:options" not in options
    cli = (site / "cli" / "index.html").read_text(encoding="utf-8")
    assert "graphsearch query" in cli and "graphsearch:cli" not in cli
    results = search(load_bundle(site), "chunk_depth", mode="keyword")["results"]
    assert results and results[0]["page"] == "configuration.md"
