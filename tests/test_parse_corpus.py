"""Every page of the shared corpora parses: no exception, no fallback, lines owned once.

Needs ../shared/corpora (mkdocs-docs, fastapi-docs, k8s-docs, uv-docs...); skipped without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPORA
from mkdocs_graphsearch.parse import parse_page
from mkdocs_graphsearch.parse.markdown import decode_source

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not CORPORA.is_dir(), reason=f"corpora not found at {CORPORA}"),
]


def _corpora() -> list[Path]:
    if not CORPORA.is_dir():
        return []
    return sorted(
        p for p in CORPORA.iterdir()
        if p.is_dir() and not p.name.endswith(".provenance") and any(p.rglob("*.md"))
    )


@pytest.mark.parametrize("corpus", _corpora(), ids=lambda p: p.name)
def test_every_page_parses(corpus: Path) -> None:
    files = sorted(corpus.rglob("*.md"))
    known = {f.relative_to(corpus).as_posix() for f in files}
    sections = 0
    for file in files:
        rel = file.relative_to(corpus).as_posix()
        source = file.read_bytes()
        page = parse_page(source, rel, known)
        assert not [w for w in page.warnings if "internal parser error" in w.message], rel
        assert page.chunks[0].id == rel and page.title
        sections += sum(c.kind == "section" for c in page.chunks)

        # Each non-blank body line: one root/section owner (tiles), at most one code owner.
        text, _ = decode_source(source)
        lines = text.split("\n")
        tiles = [0] * (len(lines) + 2)
        codes = [0] * (len(lines) + 2)
        for chunk in page.chunks:
            counts = codes if chunk.kind == "code" else tiles
            for number in range(max(chunk.line, page.front_matter_lines + 1), chunk.end_line + 1):
                counts[number] += 1
        for number in range(page.front_matter_lines + 1, len(lines) + 1):
            if lines[number - 1].strip():
                assert tiles[number] == 1 and codes[number] <= 1, (rel, number)
    assert sections > 0
