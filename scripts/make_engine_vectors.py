"""Regenerate tests/vectors/engine/cases.json: each engine's expected answers on the frozen
bundle in tests/vectors/engine/bundle/.

Both test suites (tests/test_engine_vectors.py and js/test/engine.test.js) check that each
engine gives these answers on this bundle. Regenerate the answers only on a deliberate change of
scoring, and say so in CHANGELOG.md. The bundle itself stays frozen (an old bundle must keep
loading); `--rebuild-bundle` replaces it with one in today's format, for a deliberate new freeze.

`--relayout` rewrites the frozen format-1 bundle (bundle-format-1/, kept as the fixture every
reader refuses) in today's layout with the same data, so the pinned answers still hold: the
frozen bundle was made this way for format 3 (one text fragment per page, so it has several).
Its manifest still lacks what format 1 lacked (tags, aliases, ...): each engine's fallbacks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from mkdocs_graphsearch.bundle.format import FORMAT_VERSION, MANIFEST, checksum, hashed_name
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.bundle.write import sealed_manifest, text_part, write_bundle
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


def relayout(old_dir: Path, bundle_dir: Path) -> None:
    manifest = orjson.loads((old_dir / MANIFEST).read_bytes())
    parts = {part: (old_dir / part).read_bytes() for part in manifest["files"] if part != "text.json"}
    texts = orjson.loads((old_dir / "text.json").read_bytes())
    pages = orjson.loads(parts["keyword.json"])["chunks"]["page"]
    settings = SearchSettings(snippet_source_chars=manifest["search"]["snippet_source_chars"])
    fragments, manifest["text_starts"] = text_part(texts, pages, settings, target=0)
    parts.update(fragments)
    manifest["format"] = FORMAT_VERSION
    manifest["files"] = {
        part: {"name": hashed_name(part, data), "bytes": len(data), "crc32": checksum(data)}
        for part, data in sorted(parts.items())
    }
    files = {hashed_name(part, data): data for part, data in parts.items()}
    files[MANIFEST] = sealed_manifest(manifest)
    for old in bundle_dir.glob("*"):
        old.unlink()
    write_bundle(bundle_dir, files)


def main() -> None:
    bundle_dir = HERE / "bundle"
    if "--rebuild-bundle" in sys.argv[1:]:
        rebuild_bundle(bundle_dir)
    if "--relayout" in sys.argv[1:]:
        relayout(HERE / "bundle-format-1", bundle_dir)
    bundle = load_bundle(bundle_dir)
    cases = [
        {"query": query, "mode": mode, "expected": search(bundle, query, mode=mode, explain=True)}
        for query, mode in QUERIES
    ]
    (HERE / "cases.json").write_bytes(orjson.dumps(cases, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"wrote {len(cases)} cases for the bundle in {bundle_dir}")


if __name__ == "__main__":
    main()
