"""Killed builds (issue 11): `graphsearch index` killed (SIGKILL) while embedding or while writing
the bundle; the next build writes exactly the bundle a clean build writes, and the cache is valid.

tests/kill_build.py holds the build at the point (it says "paused"), so the kill lands there on
every run: no sleep, no race.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, VECTORS
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.embed_cache import EmbeddingCache
from mkdocs_graphsearch.index.fit_cache import unpack_entry as unpack_entry_of_fit
from mkdocs_graphsearch.index.passages import passage_text
from mkdocs_graphsearch.index.semantic import unpack_encoder
from mkdocs_graphsearch.parse.folder import parse_folder

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL and the temporary-file cleanup are POSIX")

DOCS = VECTORS / "engine" / "docs"


def index(docs: Path, out: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    command = ["index", str(docs), "--out", str(out), "--cache-dir", str(cache)]
    graphsearch = [sys.executable, "-m", "mkdocs_graphsearch.commands.cli"]
    done = subprocess.run([*graphsearch, *command], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def killed_at(point: str, docs: Path, out: Path, cache: Path) -> None:
    """Run the build until it holds at `point`, then SIGKILL it."""
    command = [sys.executable, str(ROOT / "tests" / "kill_build.py"), point, str(docs), "--out", str(out),
               "--cache-dir", str(cache)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # blocks until the build holds (or ends: then "")
        assert line == "paused\n", (line, process.communicate()[1] if process.poll() is not None else "")
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.communicate()
    assert process.returncode == -signal.SIGKILL


def folder(path: Path) -> dict[str, bytes]:
    return {file.name: file.read_bytes() for file in sorted(path.iterdir())}


def passages(docs: Path) -> list[str]:
    return [passage_text(chunk) for chunk in Corpus.from_pages(parse_folder(docs)).chunks]


def damaged_records(cache: Path) -> int:
    store = EmbeddingCache(cache)
    len(store)  # read on first use
    return store.corrupt_records


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The bundle folder of a build with an empty cache, never interrupted."""
    root = tmp_path_factory.mktemp("clean")
    index(DOCS, root / "out", root / "cache")
    return folder(root / "out")


def test_killed_mid_embedding(tmp_path: Path, clean: dict[str, bytes]) -> None:
    cache, out = tmp_path / "cache", tmp_path / "out"
    killed_at("embedding", DOCS, out, cache)
    assert not out.exists(), "the killed build wrote a bundle"
    (vectors,) = cache.glob("vectors-f32-*.bin")
    kept = EmbeddingCache(cache)
    assert len(kept) == 2 and kept.corrupt_records == 1  # two flushed passages, the third torn
    (partial,) = cache.glob("fitstats-*.cache")  # the fit statistics of the same two passages
    assert sum(unpack_entry_of_fit(partial.read_bytes()).passages.values()) == 2
    again = index(DOCS, out, cache)
    assert folder(out) == clean
    warnings = [line for line in again.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and str(vectors) in warnings[0], again.stderr  # the torn record, recomputed
    rest = len(set(passages(DOCS))) - 2  # the model runs over the passages the killed build had not kept
    assert f"embedding: {rest}/{rest} chunks" in again.stderr, again.stderr
    assert damaged_records(cache) == 0 and not list(cache.glob(".*.tmp"))
    (entry,) = cache.glob("encoder-*.cache")
    unpack_encoder(entry.read_bytes())
    third = index(DOCS, out, cache)
    assert "warning" not in third.stderr and "embedding:" not in third.stderr, third.stderr  # all from the cache
    assert folder(out) == clean


@pytest.mark.parametrize("point", ["part", "manifest"])
def test_killed_mid_write(tmp_path: Path, clean: dict[str, bytes], point: str) -> None:
    """Over the bundle of other docs: the killed build leaves that bundle loading; the next build
    replaces it with exactly the clean bundle (no temporary file, no part of the old one left)."""
    cache, out = tmp_path / "cache", tmp_path / "out"
    other = tmp_path / "other"
    shutil.copytree(DOCS, other)
    (other / "index.md").write_text("# Marmoset\n\nA page about marmosets only.\n", encoding="utf-8")
    index(other, out, tmp_path / "other-cache")
    killed_at(point, DOCS, out, cache)
    assert [f for f in out.iterdir() if f.name.endswith(".tmp")], "the kill did not land mid-write"
    old = load_bundle(out)  # the previous bundle still loads and answers
    assert search(old, "marmoset", mode="keyword")["results"]
    index(DOCS, out, cache)
    assert folder(out) == clean
    assert damaged_records(cache) == 0 and not list(cache.glob(".*.tmp"))
