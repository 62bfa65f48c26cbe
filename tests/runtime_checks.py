"""Checks of a shipped copy of the runtime against js/src: every module parses under node, and
the copy answers the frozen bundle exactly as the source does (benchmarks/service_answers.mjs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from mkdocs_graphsearch.files.package_data import js_dir

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")


def assert_modules_parse(folder: Path) -> None:
    assert NODE is not None
    for module in sorted(folder.rglob("*.js")):
        run = subprocess.run([NODE, "--check", str(module)], capture_output=True, text=True, check=False)
        assert run.returncode == 0, f"{module.name}: {run.stderr}"


def assert_answers_as_the_source(folder: Path, mode: str) -> None:
    assert NODE is not None
    bundle = ROOT / "tests" / "vectors" / "engine" / "bundle"
    answers = ROOT / "benchmarks" / "service_answers.mjs"

    def run(src: Path) -> str:
        command = [NODE, str(answers), str(bundle), mode, str(src)]
        return subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT).stdout

    source = run(js_dir() / "src")
    assert '"install":[[' in source  # answers, not empty lists
    assert run(folder) == source
