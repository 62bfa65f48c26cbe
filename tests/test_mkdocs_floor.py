"""The oldest MkDocs pyproject.toml allows (`mkdocs>=1.6`: File.content_bytes is new in 1.6)
builds the example site with the plugin.

How, without a second full install: a fresh venv gets MkDocs 1.6.0 from the package index
(`pip install --no-deps`, the one download), and a .pth file then adds this environment's
site-packages *after* its own, so `mkdocs` is 1.6.0 while every other dependency (and this
package, editable or installed) comes from here. Marked slow: it runs in scripts/test.sh (CI),
which selects no markers, and needs the package index."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import keyword_only_example_site
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search

FLOOR = "1.6.0"


@pytest.mark.slow
def test_the_oldest_mkdocs_allowed_builds_the_example_site(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    own = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip())
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(own), f"mkdocs=={FLOOR}"],
        capture_output=True, text=True,
    )
    assert installed.returncode == 0, f"cannot install mkdocs {FLOOR} from the package index:\n{installed.stderr}"
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (own / "zz_graphsearch_floor.pth").write_text(
        "".join(f"import site; site.addsitedir({path!r})\n" for path in ours), encoding="utf-8"
    )
    config = keyword_only_example_site(tmp_path)
    version = subprocess.run([str(python), "-m", "mkdocs", "--version"], capture_output=True, text=True, check=True)
    assert f"version {FLOOR} " in version.stdout, version.stdout
    site = tmp_path / "site"
    done = subprocess.run(
        [str(python), "-m", "mkdocs", "build", "-f", str(config), "-d", str(site)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "mkdocs_graphsearch: search bundle:" in done.stderr
    assert len(list(site.glob("assets/graphsearch/*/ui/ui.js"))) == 1
    assert search(load_bundle(site), "visibility_timeout")["results"]
