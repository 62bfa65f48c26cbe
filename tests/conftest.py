"""Shared fixtures: paths to the repository, the shared corpora and node."""

from __future__ import annotations

import shutil
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

        semantic = SemanticOptions(Embedder(), EMBED_CACHE)

    def fail(message: str) -> None:
        raise AssertionError(message)

    write_bundle(out, build_files(parse_folder(docs), semantic=semantic, warn=fail))
    return out
