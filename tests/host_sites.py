"""Sites built by other hosts for `graphsearch build` (test_built_site.py, test_browser_hosts.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLE_SITE, ROOT
from mkdocs_graphsearch.commands.cli import main

SITES = ROOT / "tests" / "sites"


def zensical_build(folder: Path, extra: str = "") -> tuple[Path, Path]:
    """The example site built by Zensical from its Material config, as a new user would (Zensical
    reads mkdocs.yml and silently ignores the `graphsearch` plugin entry): (site, config). Zensical
    wants docs_dir and site_dir inside the config's folder: the example site is copied into `folder`.
    `extra`: more settings for the config (YAML)."""
    pytest.importorskip("zensical", reason="zensical is not installed")
    shutil.copytree(EXAMPLE_SITE, folder, ignore=shutil.ignore_patterns(".cache", "site"))
    config = folder / "zensical.yml"
    config.write_text(f"INHERIT: mkdocs-material.yml\n{extra}", encoding="utf-8")
    zensical = Path(sys.executable).with_name("zensical")
    subprocess.run([str(zensical), "build", "-f", str(config)], check=True, capture_output=True, cwd=folder)
    return folder / "site", config


def graphsearch_build(site: Path, *args: str) -> int:
    """`graphsearch build SITE --no-embeddings ARGS` in this process; its exit code."""
    return main(["build", str(site), "--no-embeddings", *args])


#: Zensical's own search turned off (its config allows no less): no header button of its own,
#: and its index (still written) is never fetched by a page.
ZENSICAL_SEARCH_OFF = "plugins:\n  search:\n    enabled: false\n"
