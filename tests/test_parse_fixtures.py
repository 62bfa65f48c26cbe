"""Fixture cases in the markdown-it-py style: a title, `.`, markdown, `.`, expected JSON, `.`.

The expected JSON is `page.to_json()` plus what it leaves out (line spans, warnings, front
matter), so a change in any of them fails a case. After a deliberate change, regenerate with
`GRAPHSEARCH_UPDATE_FIXTURES=1 pytest tests/test_parse_fixtures.py` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mkdocs_graphsearch.parse import Page, parse_page

FIXTURES = Path(__file__).parent / "fixtures" / "parse"
PAGE_PATH = "guide/page.md"
# The fixtures were written for sections down to h4 (deeper headings fold): pinned here, so
# they keep testing folding whatever the default depth is.
FIXTURE_CHUNK_DEPTH = 4
KNOWN_PAGES = frozenset({
    "index.md",
    "guide/page.md",
    "guide/other.md",
    "guide/other page.md",
    "guide/sub/index.md",
    "reference/api.md",
    "reference/other.md",
})
UPDATE = os.environ.get("GRAPHSEARCH_UPDATE_FIXTURES") == "1"


def read_cases(path: Path) -> list[tuple[str, str, str, int]]:
    """(title, markdown, expected, line of the title) for every case in a fixture file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    cases = []
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        title, start = lines[i], i + 1
        assert lines[i + 1] == ".", f"{path.name}:{i + 2}: expected '.' after the title"
        parts: list[list[str]] = [[], []]
        j = i + 2
        for part in parts:
            while lines[j] != ".":
                part.append(lines[j])
                j += 1
            j += 1
        cases.append((title, "\n".join(parts[0]) + "\n", "\n".join(parts[1]), start))
        i = j
    return cases


def snapshot(page: Page) -> dict[str, object]:
    data = page.to_json()
    data["meta"] = {"title": page.title, "tags": page.tags, "boost": page.boost, "exclude": page.exclude,
                    "front_matter_lines": page.front_matter_lines}
    data["spans"] = [[chunk.id, chunk.line, chunk.end_line] for chunk in page.chunks]
    data["heading_paths"] = [chunk.heading_path for chunk in page.chunks]
    data["link_lines"] = [[link.target, link.line] for chunk in page.chunks for link in chunk.links]
    data["warnings"] = [f"{w.line}: {w.message}" for w in page.warnings]
    return data


def _all_cases() -> list[object]:
    params = []
    for path in sorted(FIXTURES.glob("*.md")):
        for title, markdown, expected, line in read_cases(path):
            params.append(pytest.param(path, title, markdown, expected, id=f"{path.stem}:{line}"))
    return params


def _rewrite(path: Path, title: str, actual: str) -> None:
    out: list[str] = []
    for case_title, markdown, _expected, _line in read_cases(path):
        body = actual if case_title == title else _expected
        out += [case_title, ".", markdown.rstrip("\n"), ".", body, ".", ""]
    path.write_text("\n".join(out), encoding="utf-8")


@pytest.mark.parametrize(("path", "title", "markdown", "expected"), _all_cases())
def test_fixture(path: Path, title: str, markdown: str, expected: str) -> None:
    page = parse_page(markdown, PAGE_PATH, KNOWN_PAGES, chunk_depth=FIXTURE_CHUNK_DEPTH)
    actual = json.dumps(snapshot(page), indent=1, ensure_ascii=False)
    if UPDATE and actual != expected:
        _rewrite(path, title, actual)
        pytest.skip("fixture rewritten")
    assert json.loads(actual) == json.loads(expected or "null"), title


def test_fixture_reader_sees_every_case() -> None:
    # A broken separator would silently merge cases; count them against the titles written.
    assert sum(len(read_cases(p)) for p in FIXTURES.glob("*.md")) >= 20
