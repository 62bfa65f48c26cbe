"""ProperDocs (PyPI `properdocs`, the drop-in MkDocs 1.6 fork) runs the plugin: the example site
builds with it, bundle and runtime land in the site, and the bundle answers a query.

ProperDocs redirects every `mkdocs.*` import to `properdocs.*` once it runs, so the build runs
in its own process (`python -m properdocs`), never in the test's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import keyword_only_example_site
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search


def test_properdocs_builds_the_example_site_with_search(tmp_path: Path) -> None:
    # Keyword search only: this is about the host, not the model (test_plugin.py covers both).
    config = keyword_only_example_site(tmp_path)
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "properdocs", "build", "-f", str(config), "-d", str(site)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "mkdocs_graphsearch: search bundle:" in done.stderr  # our plugin ran, under ProperDocs
    assert (site / "search" / "manifest.json").is_file()
    assert len(list(site.glob("assets/graphsearch/*/ui/ui.js"))) == 1
    html = (site / "user-guide" / "retries" / "index.html").read_text(encoding="utf-8")
    assert 'data-graphsearch-bundle="../../search/"' in html and '<nav class="gs-related"' in html
    results = search(load_bundle(site), "visibility_timeout")["results"]
    assert results and results[0]["page"] == "reference/configuration.md"
