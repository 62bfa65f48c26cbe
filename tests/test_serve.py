"""`mkdocs serve` (plain and `--dirty`) rebuilds a complete bundle after an edit: the same pages
and answers as a full `mkdocs build` of the edited docs. Real `mkdocs serve` processes on
127.0.0.1, stopped by the test."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson
import pytest

from mkdocs_graphsearch.bundle.format import file_name, listed_parts
from mkdocs_graphsearch.bundle.read import load_bundle
from test_plugin_rendered import QUERIES, _answers, build_harbor, copy_site

EDIT = "\n## Pilot boats\n\nA pilot boat meets every ship.\n"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(project: Path, *flags: str) -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-q", "-f", str(project / "mkdocs.yml"),
         "-a", f"127.0.0.1:{port}", *flags],
        cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - 127.0.0.1 only
        return response.read()


def fetch_bundle(base: str, target: Path, *, unlike: bytes | None = None, timeout: float = 90) -> Path:
    """Download the served bundle (waiting for a manifest other than `unlike`) into target."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            manifest = _get(base + "search/manifest.json")
            if manifest != unlike:
                break
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError("mkdocs serve did not serve a (new) bundle in time")
        time.sleep(0.5)
    target.mkdir(parents=True)
    (target / "manifest.json").write_bytes(manifest)
    parsed = orjson.loads(manifest)
    for part in listed_parts(parsed):
        name = file_name(parsed, part)
        (target / name).write_bytes(_get(base + "search/" + name))
    return target


@pytest.mark.parametrize("flags", [(), ("--dirty",)], ids=["serve", "serve-dirty"])
def test_serve_rebuild_equals_a_full_build(tmp_path: Path, flags: tuple[str, ...]) -> None:
    project = copy_site(tmp_path / "harbor")
    with serving(project, *flags) as base:
        before = fetch_bundle(base, tmp_path / "before")
        mooring = project / "docs" / "guide" / "mooring.md"
        mooring.write_text(mooring.read_text("utf-8") + EDIT, "utf-8")
        after = fetch_bundle(base, tmp_path / "after", unlike=(before / "manifest.json").read_bytes())

    full = copy_site(tmp_path / "full")
    (full / "docs" / "guide" / "mooring.md").write_text(mooring.read_text("utf-8"), "utf-8")
    full_site = build_harbor(full)
    assert load_bundle(after).pages["path"] == load_bundle(full_site).pages["path"]
    assert _answers(after, QUERIES) == _answers(full_site, QUERIES)
    assert _answers(after, ["pilot boat"])[0][0][0] == "guide/mooring.md"
