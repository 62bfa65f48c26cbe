"""Run the JS runtime under node on a bundle (for `graphsearch query --engine js` and parity)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson

from mkdocs_graphsearch.bundle.format import BundleError
from mkdocs_graphsearch.bundle.read import locate
from mkdocs_graphsearch.files.package_data import js_dir


def run_js_queries(
    path: Path,
    queries: list[dict[str, Any]],
    *,
    mode: str | None = None,
    limit: int | None = None,
    explain: bool = False,
    filters: list[str] | None = None,
) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        raise BundleError("--engine js needs node (Node.js >= 18) on PATH")
    command = [node, str(js_dir() / "drivers" / "query.mjs"), str(locate(path))]
    if mode:
        command += ["--mode", mode]
    if limit is not None:
        command += ["--limit", str(limit)]
    if explain:
        command.append("--explain")
    for value in filters or []:
        command += ["--filter", value]
    done = subprocess.run(command, input=orjson.dumps(queries), capture_output=True)
    if done.returncode != 0:
        # The driver says "error: ..." itself; the CLI adds its own prefix.
        message = done.stderr.decode("utf-8", "replace").strip().removeprefix("error: ")
        raise BundleError(message or "the JS engine failed")
    return [orjson.loads(line) for line in done.stdout.splitlines() if line.strip()]
