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
