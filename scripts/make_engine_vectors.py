"""Regenerate tests/vectors/engine/cases.json: each engine's expected answers on the frozen
bundle in tests/vectors/engine/bundle/.

Both test suites (tests/test_engine_vectors.py and js/test/engine.test.js) check that each
engine gives these answers on this bundle. Regenerate the answers only on a deliberate change of
scoring, and say so in CHANGELOG.md. The bundle itself stays frozen (an old bundle must keep
loading); `--rebuild-bundle` replaces it with one in today's format, for a deliberate new freeze.

`--relayout` rewrites the frozen bundle in today's layout with the same data, so the pinned
answers still hold: it was made from format 1 (bundle-format-1/ keeps that manifest, the fixture
every reader refuses) this way for format 3 (one text fragment per page), then again for term
shards (of 1 KiB, so it has several and queries cross their boundaries), then for encoder
shards (of ENGINE_ENCODER_ROWS rows, from its encoder.json + encoder.bin) and vocab shards (from its
vocab.txt).
Its manifest still lacks what format 1 lacked (tags, aliases, ...): each engine's fallbacks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from mkdocs_graphsearch.bundle.display import display_part
from mkdocs_graphsearch.bundle.encoder_shards import split_encoder
from mkdocs_graphsearch.bundle.format import (
    FORMAT_VERSION,
    MANIFEST,
    checksum,
    compact_files,
    decode_varints,
    file_name,
    hashed_name,
    listed_parts,
    postings_shard,
)
from mkdocs_graphsearch.bundle.graph_shards import graph_part
from mkdocs_graphsearch.bundle.read import load_bundle, read_vectors
from mkdocs_graphsearch.bundle.vector_shards import by_columns, stored_bits, table_bytes
from mkdocs_graphsearch.bundle.vocab_shards import split_vocab
from mkdocs_graphsearch.bundle.write import Postings, keyword_part, sealed_manifest, write_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.index.embed import Embedder
from mkdocs_graphsearch.index.semantic import SemanticOptions
from mkdocs_graphsearch.parse.folder import parse_folder

HERE = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "engine"
#: Rows per encoder shard of the frozen bundle: small, so a query's pieces span several shards.
ENGINE_ENCODER_ROWS = 8
QUERIES = [
    ("retry_policy", "keyword"), ("retry_policy", "hybrid"), ("what happens when a render fails", "hybrid"),
    ("what happens when a render fails", "vector"), ("instal", "keyword"), ("instal", "hybrid"),
    ("upgrade", "hybrid"), ("RetryPolicy.delay_for", "hybrid"), ("dashbords", "keyword"),
    ("banana smoothie recipe", "hybrid"), ("", "hybrid"), ("--version", "keyword"),
    ("dashbords retry backoff", "hybrid"),  # a misspelt word corrected: the keyword answer
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


def format_1_postings(data: bytes, n_terms: int) -> Postings:
    """Format 1's (and format 3's before term shards) postings.bin: all terms' counts, then
    deltas, then impacts -> each term's postings."""
    values = decode_varints(data).tolist()
    middle = (len(values) + n_terms) // 2
    deltas, impacts = iter(values[n_terms:middle]), iter(values[middle:])
    postings = []
    for count in values[:n_terms]:
        chunk, term_postings = 0, []
        for _ in range(count):
            chunk += next(deltas)
            term_postings.append((chunk, next(impacts)))
        postings.append(term_postings)
    return postings


def split_shard(data: bytes) -> tuple[list[str], list[dict[str, list[int]]], bytes]:
    """A term shard -> its terms, its JSON objects (stems, then definitions) and its varints, in
    any layout so far: terms, then up to two object lines (none before stems moved into the
    shards, one before definitions did), then varints."""
    cut = data.index(b"\n")
    objects: list[dict[str, list[int]]] = []
    while len(objects) < 2 and (end := data.find(b"\n", cut + 1)) > 0:
        try:
            found = orjson.loads(data[cut + 1 : end])
        except orjson.JSONDecodeError:
            break
        if not isinstance(found, dict):
            break
        objects.append(found)
        cut = end
    return orjson.loads(data[: data.index(b"\n")]), objects, data[cut + 1 :]


def relayout(bundle_dir: Path) -> None:
    """Re-lay the frozen bundle out in today's layout, same data: term shards of 64 bytes (so
    queries cross shard boundaries) from its postings.bin (format 3 before term shards) or its
    shards; its text fragments (one per page) stay."""
    manifest = orjson.loads((bundle_dir / MANIFEST).read_bytes())
    if all(isinstance(entry, dict) for entry in manifest["files"].values()):  # {name, bytes, crc32} each
        parts = {part: (bundle_dir / entry["name"]).read_bytes() for part, entry in manifest["files"].items()}
    else:  # compact: each part's CRC-32 (format.py compact_files)
        parts = {part: (bundle_dir / file_name(manifest, part)).read_bytes() for part in listed_parts(manifest)}
    keyword = orjson.loads(parts["keyword.json"])
    if "postings.bin" in parts:
        postings = format_1_postings(parts.pop("postings.bin"), len(keyword["terms"]))
    else:
        # The shards themselves (not load_bundle: the layout read may be older than the reader's).
        keyword["terms"], postings = [], []
        for index in range(len(manifest["term_shards"]["start"])):
            terms, objects, varints = split_shard(parts[postings_shard(index)])
            keyword["terms"] += terms
            keyword.setdefault("stems", {}).update(objects[0] if objects else {})
            if len(objects) > 1 and objects[1]:  # definitions: back to the column keyword_part inverts
                raise SystemExit("--relayout: a frozen bundle with definitions is not supported")
            postings += format_1_postings(varints, len(terms))
    parts = {part: data for part, data in parts.items() if not part.startswith("postings.")}
    if "encoder.bin" in parts:  # one table -> shards of a few rows (queries cross them)
        encoder_parts, manifest["encoder"]["shards"] = split_encoder(
            parts.pop("encoder.json"), parts.pop("encoder.bin"), ENGINE_ENCODER_ROWS
        )
        parts.update(encoder_parts)
    if "vocab.txt" in parts:
        vocab_parts, manifest["encoder"]["vocab"] = split_vocab(parts.pop("vocab.txt"))
        parts.update(vocab_parts)
    if "id" in keyword["chunks"]:  # display columns still in keyword.json: into display fragments
        keyword, displays = display_part(keyword, manifest["text_starts"])
        parts.update(displays)
    if "offsets" in orjson.loads(parts["graph.json"]):  # one graph.json: into graph shards
        parts.update(graph_part(orjson.loads(parts["graph.json"]), manifest["text_starts"]))
    keyword_parts, manifest["term_shards"] = keyword_part(keyword, postings, target=64)
    parts.update(keyword_parts)
    if not by_columns(manifest) and "vectors.bin" in parts:  # its rows: one table by columns
        dim, bits = manifest["vectors"]["dim"], stored_bits(manifest["vectors"])
        rows, scales = read_vectors(parts["vectors.bin"], manifest["counts"]["chunks"], dim, bits, columns=False)
        parts["vectors.bin"] = table_bytes(rows, scales, bits)
    manifest["format"] = FORMAT_VERSION
    manifest["files"] = compact_files({part: checksum(data) for part, data in parts.items()})
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
        relayout(bundle_dir)
    bundle = load_bundle(bundle_dir)
    cases = [
        {"query": query, "mode": mode, "expected": search(bundle, query, mode=mode, explain=True)}
        for query, mode in QUERIES
    ]
    (HERE / "cases.json").write_bytes(orjson.dumps(cases, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"wrote {len(cases)} cases for the bundle in {bundle_dir}")


if __name__ == "__main__":
    main()
