"""Regenerate tests/vectors/engine/cases.json: each engine's expected answers on the frozen
format-1 bundle in tests/vectors/engine/bundle/.

Both test suites (tests/test_engine_vectors.py and js/test/engine.test.js) check that each
engine gives these answers on this bundle. Regenerate the answers only on a deliberate change of
scoring, and say so in CHANGELOG.md. The bundle itself stays frozen (an old bundle must keep
loading); `--rebuild-bundle` replaces it with one in today's format, for a deliberate new freeze.
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.index.embed import Embedder
from mkdocs_graphsearch.index.semantic import SemanticOptions
from mkdocs_graphsearch.parse.folder import parse_folder

HERE = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "engine"
QUERIES = [
    ("retry_policy", "keyword"), ("retry_policy", "hybrid"), ("what happens when a render fails", "hybrid"),
    ("what happens when a render fails", "vector"), ("instal", "keyword"), ("instal", "hybrid"),
    ("upgrade", "hybrid"), ("RetryPolicy.delay_for", "hybrid"), ("dashbords", "keyword"),
    ("banana smoothie recipe", "hybrid"), ("", "hybrid"), ("--version", "keyword"),
    # Filters on a bundle made before them (no tags, no definitions): in, kind and lang still work.
    ("in:guide retry", "hybrid"), ("kind:code", "keyword"), ("lang:python retry", "hybrid"),
    ("retry kind:prose", "keyword"), ("tags:ops install", "hybrid"), ("lang:bash", "vector"),
    ("lang:py retry", "hybrid"),  # format 1 has no language aliases: `py` is not `python` there
]


def rebuild_bundle(bundle_dir: Path) -> None:
    files = build_files(parse_folder(HERE / "docs"), semantic=SemanticOptions(Embedder(), None))
    for old in bundle_dir.glob("*"):
        old.unlink()
    write_bundle(bundle_dir, files)


def main() -> None:
    bundle_dir = HERE / "bundle"
    if "--rebuild-bundle" in sys.argv[1:]:
        rebuild_bundle(bundle_dir)
    bundle = load_bundle(bundle_dir)
    cases = [
        {"query": query, "mode": mode, "expected": search(bundle, query, mode=mode, explain=True)}
        for query, mode in QUERIES
    ]
    (HERE / "cases.json").write_bytes(orjson.dumps(cases, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"wrote {len(cases)} cases for the bundle in {bundle_dir}")


if __name__ == "__main__":
    main()
