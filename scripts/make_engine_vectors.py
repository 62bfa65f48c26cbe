"""Regenerate tests/vectors/engine/: a frozen format-1 bundle of docs/ and the expected answers.

Both test suites (tests/test_engine_vectors.py and js/test/engine.test.js) check that each
engine gives these answers on this bundle. Regenerate only on a deliberate change of the
format or of scoring, and say so in CHANGELOG.md: an old bundle must keep loading.
"""

from __future__ import annotations

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
]


def main() -> None:
    files = build_files(parse_folder(HERE / "docs"), semantic=SemanticOptions(Embedder(), None))
    bundle_dir = HERE / "bundle"
    for old in bundle_dir.glob("*"):
        old.unlink()
    write_bundle(bundle_dir, files)
    bundle = load_bundle(bundle_dir)
    cases = [
        {"query": query, "mode": mode, "expected": search(bundle, query, mode=mode, explain=True)}
        for query, mode in QUERIES
    ]
    (HERE / "cases.json").write_bytes(orjson.dumps(cases, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"wrote {len(cases)} cases and {len(files)} bundle files under {HERE}")


if __name__ == "__main__":
    main()
