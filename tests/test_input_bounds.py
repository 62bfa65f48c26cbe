"""Every input has a bound (issue 26): checks and query files, pages, front matter, rendered HTML
and bundle parts are refused up front when they are special files (/dev/zero grew past 20 GB; a
FIFO blocked forever) or larger than their bound (files/bounded.py), with a one-line error naming
the file (and its size): exit 2 on the CLI, a BundleError for a bundle, a warning in the plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir, bundle_part
from mkdocs_graphsearch.bundle.format import MANIFEST, BundleError
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.files.bounded import RefusedInput, read_bounded, size_text

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="POSIX only")


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("bounds"), EXAMPLE_SITE / "docs", embeddings=False)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    # A subprocess with a timeout: the faults under test used to block forever or eat all memory
    # (the timeout is a bound on a hang, not a measurement).
    return subprocess.run(
        [sys.executable, "-m", "mkdocs_graphsearch.commands.cli", *args],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300,
    )


def _special(tmp_path: Path, kind: str) -> Path:
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo")
        return tmp_path / "fifo"
    return Path("/dev/zero") if kind == "device" else tmp_path


SPECIAL = {"device": "a character device", "fifo": "a FIFO", "folder": "a folder"}


@needs_fifo
@pytest.mark.parametrize("kind", list(SPECIAL))
@pytest.mark.parametrize(
    ("command", "what"),
    [("check", "checks file"), ("query --queries", "query file"), ("eval", "query file")],
)
def test_a_special_file_as_checks_or_queries_is_refused_unread(
    bundle_dir: Path, tmp_path: Path, kind: str, command: str, what: str
) -> None:
    special = _special(tmp_path, kind)
    name, *flag = command.split()
    done = _cli(name, str(bundle_dir), *flag, str(special))
    assert done.returncode == 2
    assert done.stderr == f"error: {what} {special} is {SPECIAL[kind]}, not a regular file\n"


def test_an_oversized_query_file_is_refused_with_its_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_graphsearch.common import inputs
    from mkdocs_graphsearch.common.inputs import InputError, read_queries

    monkeypatch.setattr(inputs, "MAX_QUERY_FILE", 1024)
    queries = tmp_path / "q.jsonl"
    queries.write_bytes(b'{"query": "retries"}\n' * 100)  # 2,100 bytes
    with pytest.raises(InputError, match=rf"^query file {queries} is 2\.1 KiB, more than the 1\.0 KiB allowed$"):
        read_queries(str(queries), judged=False)


def test_read_bounded_stops_at_the_bound(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.write_bytes(b"x" * 100)
    assert read_bounded(data, 100, "file") == b"x" * 100
    with pytest.raises(RefusedInput, match="file .* is 100 bytes, more than the 99 bytes allowed"):
        read_bounded(data, 99, "file")
    assert [size_text(n) for n in (10, 2048, 3 << 20, 5 << 30)] == ["10 bytes", "2.0 KiB", "3.0 MiB", "5.0 GiB"]


@needs_fifo
@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_a_bundle_part_or_manifest_that_is_a_special_file_is_a_bundle_error(
    bundle_dir: Path, tmp_path: Path, kind: str
) -> None:
    import shutil

    for part in ("keyword.json", MANIFEST):
        copy = tmp_path / f"{kind}-{part}"
        shutil.copytree(bundle_dir, copy)
        target = copy / MANIFEST if part == MANIFEST else bundle_part(copy, part)
        target.unlink()
        if kind == "fifo":
            os.mkfifo(target)
        else:
            target.symlink_to("/dev/zero")
        with pytest.raises(BundleError, match=f"^bundle part {part}: {target} is {SPECIAL[kind]}, not a regular file$"):
            load_bundle(copy)


def test_a_bundle_part_past_its_bound_is_refused(bundle_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_graphsearch.bundle import read

    monkeypatch.setattr(read, "MAX_BUNDLE_PART", 64)
    with pytest.raises(BundleError, match=r"keyword\.json: .* more than the 64 bytes allowed"):
        load_bundle(bundle_dir)


@needs_fifo
def test_index_refuses_a_page_that_is_a_fifo(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    os.mkfifo(docs / "stuck.md")  # skipped without a word, or read forever, before
    done = _cli("index", str(docs), "--no-embeddings", "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr == f"error: page {docs / 'stuck.md'} is a FIFO, not a regular file\n"


def test_oversized_front_matter_is_ignored_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs_graphsearch.parse import frontmatter

    monkeypatch.setattr(frontmatter, "MAX_FRONT_MATTER", 100)
    lines = ["---", "title: Big", *[f"key{i}: value" for i in range(20)], "---", "# Page"]
    front = frontmatter.parse_front_matter(lines)
    assert front.title is None and front.line_count == 23  # not read, still not page text
    assert front.warnings == [(1, "front matter is 261 bytes, more than the 100 bytes read; ignored")]


def test_the_plugin_indexes_the_start_of_an_oversized_page_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs_graphsearch.mkdocs_plugin import site_pages
    from mkdocs_graphsearch.mkdocs_plugin.site_pages import SitePages

    monkeypatch.setattr(site_pages, "MAX_PAGE", 2048)
    monkeypatch.setattr(site_pages, "MAX_PAGE_HTML", 4096)
    warnings: list[str] = []
    pages = SitePages(order=["big.md"], urls={"big.md": "big/"}, chunk_depth=3, state_path=None,
                      warn=warnings.append)
    source = ("# Big\n\n" + "early words here. " * 100 + "\n\n" + "zebrafish " * 1000).encode()
    read = pages.read_source("big.md", source)
    assert [str(w) for w in read] == [f"big.md:1: the page's source is {size_text(len(source))}: only its first "
                                      "2.0 KiB are indexed"]
    html = "<h1>Big</h1><p>" + "early words here. " * 100 + "</p><p>" + "zebrafish " * 1000 + "</p>"
    pages.add_rendered("big.md", html, None)
    assert warnings == [f"big.md: the page's rendered HTML is {size_text(len(html))}: only its first 4.0 KiB are "
                        "indexed"]
    text = " ".join(chunk.text for chunk in pages.rendered["big.md"].chunks)
    assert "early words" in text and text.count("zebrafish") < 300


@needs_fifo
def test_a_related_pages_template_that_is_a_fifo_is_one_warning(tmp_path: Path) -> None:
    from mkdocs_graphsearch.mkdocs_plugin.related_block import load_template

    os.mkfifo(tmp_path / "related.html")  # the build waited for a writer forever
    warnings: list[str] = []
    assert load_template(tmp_path / "related.html", warnings.append) is None
    template = tmp_path / "related.html"
    assert warnings == [f"the related pages template {template} is a FIFO, not a regular file; not shown"]
