"""Shared fixtures: paths to the repository, the shared corpora and node."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
EVAL = SHARED / "eval"
VECTORS = ROOT / "tests" / "vectors"
EXAMPLE_SITE = ROOT / "example-site"


def require_shared(path: Path) -> Path:
    """Skip the calling test with a reason when ../shared (CI only) is not beside the clone."""
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared is only beside CI's clone)")
    return path


@pytest.fixture(scope="session")
def node() -> str:
    exe = shutil.which("node")
    if exe is None:
        pytest.skip("node is not installed")
    return exe


#: Embeddings cache shared by the test session (and kept between local runs: .cache is ignored).
EMBED_CACHE = ROOT / ".cache" / "test-embeddings"


def build_bundle_dir(out: Path, docs: Path, *, embeddings: bool) -> Path:
    """Parse a docs folder and write its bundle (with the default model when embeddings)."""
    from mkdocs_graphsearch.bundle.write import write_bundle
    from mkdocs_graphsearch.index.builder import build_files
    from mkdocs_graphsearch.parse.folder import parse_folder

    semantic = None
    if embeddings:
        from mkdocs_graphsearch.index.embed import Embedder
        from mkdocs_graphsearch.index.semantic import SemanticOptions

        # One cache folder per docs tree: a cache keeps one fitted query encoder, so trees
        # sharing a folder would refit (run the model over every passage) on each build.
        semantic = SemanticOptions(Embedder(), EMBED_CACHE / f"{docs.resolve().parent.name}-{docs.name}")

    def fail(message: str) -> None:
        raise AssertionError(message)

    write_bundle(out, build_files(parse_folder(docs), semantic=semantic, warn=fail))
    return out


#: The one headless chromium of a test session: [sync_playwright() manager, browser, users].
_CHROMIUM: list = [None, None, 0]


@contextlib.contextmanager
def shared_chromium(executable: Path, args: list[str]) -> Iterator[object]:
    """Launch chromium once however many test modules hold a `browser` fixture at a time (the
    session fixture of test_browser.py, imported by other modules, becomes one per module, and
    Playwright's sync API cannot start a second instance on the same thread); closed with its last user."""
    from playwright.sync_api import sync_playwright

    if _CHROMIUM[2] == 0:
        manager = sync_playwright()
        playwright = manager.__enter__()
        try:
            _CHROMIUM[1] = playwright.chromium.launch(executable_path=str(executable), args=args)
        except BaseException:
            manager.__exit__(None, None, None)
            raise
        _CHROMIUM[0] = manager
    _CHROMIUM[2] += 1
    try:
        yield _CHROMIUM[1]
    finally:
        _CHROMIUM[2] -= 1
        if _CHROMIUM[2] == 0:
            _CHROMIUM[1].close()
            _CHROMIUM[0].__exit__(None, None, None)
            _CHROMIUM[:] = [None, None, 0]
