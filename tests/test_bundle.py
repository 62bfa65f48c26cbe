"""Bundle v1: deterministic bytes, and clear errors for newer, truncated or corrupted bundles."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from conftest import EXAMPLE_SITE, ROOT
from mkdocs_graphsearch.bundle.format import BundleError, decode_varints, encode_varints
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.parse.folder import parse_folder


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle")
    write_bundle(out, build_files(parse_folder(EXAMPLE_SITE / "docs")))
    return out


def test_same_docs_give_identical_bytes(bundle_dir: Path) -> None:
    again = build_files(parse_folder(EXAMPLE_SITE / "docs"))
    for name, data in again.items():
        assert (bundle_dir / name).read_bytes() == data, name


def test_varints_round_trip() -> None:
    values = [0, 1, 127, 128, 255, 300, 16383, 16384, 2**31, 2**40 + 5]
    assert decode_varints(encode_varints(values)).tolist() == values
    with pytest.raises(BundleError):
        decode_varints(encode_varints([300])[:-1])


def test_excluded_page_is_not_in_the_bundle(bundle_dir: Path) -> None:
    bundle = load_bundle(bundle_dir)
    assert "drafts/notes.md" not in bundle.pages["path"]
    assert search(bundle, "marmalade", mode="keyword")["results"] == []


def _broken_copy(bundle_dir: Path, tmp_path: Path, name: str, change) -> Path:  # type: ignore[no-untyped-def]
    copy = tmp_path / "bundle"
    shutil.copytree(bundle_dir, copy)
    target = copy / name
    target.write_bytes(change(target.read_bytes()))
    return copy


CORRUPTIONS = {
    "newer format": ("manifest.json", lambda b: b.replace(b'"format":1', b'"format":99'), "newer than this"),
    "no format": ("manifest.json", lambda b: b.replace(b'"format":1', b'"formax":1'), "no format version"),
    "manifest not json": ("manifest.json", lambda b: b[:10], "not valid JSON"),
    "truncated postings": ("postings.bin", lambda b: b[: len(b) // 2], "truncated"),
    "corrupted postings": ("postings.bin", lambda b: bytes([b[0] ^ 0xFF]) + b[1:], "corrupted"),
    "truncated keyword": ("keyword.json", lambda b: b[:-5], "truncated"),
    "corrupted text": ("text.json", lambda b: b.replace(b"Tidewater", b"Tidewaver", 1), "corrupted"),
}


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_bad_bundles_give_a_clear_error_in_python(bundle_dir: Path, tmp_path: Path, case: str) -> None:
    name, change, message = CORRUPTIONS[case]
    with pytest.raises(BundleError, match=message):
        load_bundle(_broken_copy(bundle_dir, tmp_path, name, change))


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_bad_bundles_give_a_clear_error_in_js(bundle_dir: Path, tmp_path: Path, case: str, node: str) -> None:
    name, change, message = CORRUPTIONS[case]
    broken = _broken_copy(bundle_dir, tmp_path, name, change)
    done = subprocess.run(
        [node, str(ROOT / "js" / "drivers" / "query.mjs"), str(broken)],
        input=orjson.dumps([{"query": "retry"}]),
        capture_output=True,
    )
    assert done.returncode == 1
    assert message in done.stderr.decode(), done.stderr.decode()
    assert "    at " not in done.stderr.decode(), "a stack trace instead of a message"


def test_missing_bundle_is_a_clear_cli_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_graphsearch.cli", "query", str(tmp_path), "x"],
        capture_output=True,
    )
    assert done.returncode == 1
    assert b"no search bundle" in done.stderr
    assert b"Traceback" not in done.stderr


def test_semantic_bundle_is_deterministic_without_a_cache(tmp_path: Path) -> None:
    """Two cold builds (model run twice, no cache) give the same bytes, vectors and encoder included."""
    from conftest import VECTORS
    from mkdocs_graphsearch.index.embed import Embedder
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    docs = VECTORS / "engine" / "docs"
    first = build_files(parse_folder(docs), semantic=SemanticOptions(Embedder(), None))
    second = build_files(parse_folder(docs), semantic=SemanticOptions(Embedder(), None))
    assert "vectors.bin" in first and "encoder.bin" in first
    assert first == second


def test_cached_rebuild_gives_the_same_bytes(tmp_path: Path) -> None:
    from conftest import VECTORS
    from mkdocs_graphsearch.index.embed import Embedder
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    docs = VECTORS / "engine" / "docs"
    progress: list[tuple[int, int]] = []
    options = SemanticOptions(Embedder(), tmp_path / "cache", lambda done, total, rate: progress.append((done, total)))
    cold = build_files(parse_folder(docs), semantic=options)
    assert progress and progress[-1][0] == progress[-1][1] > 0
    progress.clear()
    warm = build_files(parse_folder(docs), semantic=options)
    assert warm == cold
    assert progress == [], "a cached rebuild embedded something"


def test_serve_reuses_the_last_encoder_and_embeds_only_changed_chunks(tmp_path: Path) -> None:
    import shutil

    from conftest import VECTORS
    from mkdocs_graphsearch.index.embed import Embedder
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    docs = tmp_path / "docs"
    shutil.copytree(VECTORS / "engine" / "docs", docs)
    embedder = Embedder()
    build_files(parse_folder(docs), semantic=SemanticOptions(embedder, tmp_path / "cache"))
    page = docs / "install.md"
    page.write_text(page.read_text() + "\nA new closing paragraph.\n")
    embedded: list[int] = []
    serving = SemanticOptions(embedder, tmp_path / "cache", lambda d, t, r: embedded.append(t), reuse_encoder=True)
    build_files(parse_folder(docs), semantic=serving)
    assert embedded and embedded[-1] == 1, embedded  # only the edited section
