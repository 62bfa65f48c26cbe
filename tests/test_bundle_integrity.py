"""Broken bundles in both engines (issue 11): a damaged, truncated, wrong-version or malformed
bundle is a BundleError naming the file, with the same message in Python and JS, or the same
answers as the pristine bundle; never a traceback, a JS TypeError, or a different answer.

The manifest carries its own checksum (bundle/format.py), so no single damage to it changes an
answer; a manifest without one could only be shape-checked (bundle/schema.py): damage to it is
an error or an answer, the same in both engines.

The property tests (marked slow) draw lists of mutations, so one node process loads many
bundles (js/drivers/bundles.mjs); GRAPHSEARCH_INTEGRITY_EXAMPLES runs more than CI's few.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, VECTORS, build_bundle_dir, bundle_part, bundle_part_bytes, groups_layout, rewrite_bundle_file
from mkdocs_graphsearch.bundle.format import (
    CHECKSUM_PREFIX,
    MANIFEST,
    BundleError,
    file_name,
    listed_parts,
    manifest_checksum,
    seal_manifest,
    verify_manifest,
)
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.settings import MODES
from mkdocs_graphsearch.bundle.vocab_shards import VOCAB_SHARDS
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index import kmeans

FROZEN = VECTORS / "engine" / "bundle"  # format 3, re-laid out from a format-1 bundle (its data)
WORDS = ("install", "retry policy", "how do I configure it", "timout")
QUERIES = [{"query": q, "mode": m} for q in WORDS for m in MODES]
PARTS = ("keyword.json", "postings.0.bin", "terms.json", "graph.json", "text.0.json", "display.0.json", "graph.0.json",
         "vectors.bin", "encoder.json", "encoder.0.bin", "encoder-model.bin", "vocab.txt")  # fmt: skip
EXAMPLES = int(os.environ.get("GRAPHSEARCH_INTEGRITY_EXAMPLES", "6"))


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small format-2 bundle with vectors, as built today (its manifest has a checksum)."""
    return build_bundle_dir(tmp_path_factory.mktemp("checked"), VECTORS / "engine" / "docs", embeddings=True)


Outcome = tuple[str, Any]  # ("error", message) or ("answers", [search output per query])


def python_outcome(folder: Path) -> Outcome:
    """Anything but a BundleError propagates: a traceback fails the test."""
    try:
        bundle = load_bundle(folder)
        return "answers", [search(bundle, q["query"], mode=q["mode"]) for q in QUERIES]
    except BundleError as error:
        return "error", str(error)


def js_outcomes(node: str, folders: list[Path]) -> list[Outcome]:
    done = subprocess.run(
        [node, str(ROOT / "js" / "drivers" / "bundles.mjs")],
        input=orjson.dumps({"bundles": [str(f) for f in folders], "queries": QUERIES}),
        capture_output=True,
        check=True,
    )
    outcomes: list[Outcome] = []
    for line in done.stdout.splitlines():
        item = orjson.loads(line)
        if "error" in item:
            name, message = item["error"]["name"], item["error"]["message"]
            assert name == "BundleError", f"JS threw {name}: {message}"
            outcomes.append(("error", message))
        else:
            outcomes.append(("answers", item["answers"]))
    assert len(outcomes) == len(folders)
    return outcomes


def gist(message: str) -> str:
    """What both engines must say alike: the JSON parsers' own words, the OS's wording of a
    missing file and each engine's advice on a newer format differ, the rest is identical."""
    if message.startswith(("cannot read", "no search bundle")):
        return "cannot read"
    for cut in (" is not valid JSON", ", newer than this"):
        if cut in message:
            return message[: message.index(cut) + len(cut)]
    return message


# ------------------------------------------------------------------ the manifest's checksum


def test_a_written_manifest_starts_with_its_checksum(checked: Path) -> None:
    data = (checked / MANIFEST).read_bytes()
    assert data.startswith(CHECKSUM_PREFIX)
    assert int(data[13:21], 16) == manifest_checksum(data)
    assert verify_manifest(data) is True
    assert seal_manifest(b"{" + data[len(b'{"checksum":"00000000",') :]) == data
    old = VECTORS / "engine" / "bundle-format-1" / MANIFEST
    assert verify_manifest(old.read_bytes()) is False  # format 1 had none (refused anyway)


def test_every_single_bit_flip_of_a_manifest_is_caught_or_harmless(checked: Path) -> None:
    """Exhaustive: each of the manifest's bits flipped is a BundleError, invalid JSON, or renames
    the `checksum` key (then nothing else changed: the same manifest, read unchecked)."""
    data = (checked / MANIFEST).read_bytes()
    pristine = orjson.loads(data)
    del pristine["checksum"]
    harmless = 0
    for bit in range(len(data) * 8):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        try:
            if verify_manifest(bytes(flipped)):
                raise AssertionError(f"bit {bit}: a damaged manifest passed its checksum")
        except BundleError:
            continue
        try:
            parsed = orjson.loads(bytes(flipped))
        except orjson.JSONDecodeError:
            continue
        assert "checksum" not in parsed, bit
        renamed = [key for key in parsed if key not in pristine]
        assert len(renamed) == 1 and {k: v for k, v in parsed.items() if k not in renamed} == pristine, bit
        harmless += 1
    assert 0 < harmless <= 8 * len("checksum")


# ------------------------------------------------------------------ malformed, checksums valid


def _edit(path: str, value: Any = None, *, delete: bool = False):  # type: ignore[no-untyped-def]
    """Set (or delete) the value at a /-separated path of a JSON document (digits index lists)."""
    keys = [int(key) if key.isdigit() else key for key in path.split("/")]

    def change(document: Any) -> Any:
        parent = document
        for key in keys[:-1]:
            parent = parent[key]
        if delete:
            del parent[keys[-1]]
        else:
            parent[keys[-1]] = value
        return document

    return change


WHOLE = "must be a whole number from"
M = MANIFEST
#: A writer's bug or a hostile bundle, checksums all valid: (part, change, how both messages start).
MALFORMED = {
    "counts a string": (M, _edit("counts/chunks", "9"), f"{M}: counts.chunks {WHOLE} 0 to "),
    "unknown default mode": (
        M, _edit("search/default_mode", "fast"), f"{M}: search.default_mode must be one of keyword, vector, hybrid"
    ),
    "rrf_k true": (M, _edit("search/rrf_k", True), f"{M}: search.rrf_k {WHOLE} 0 to "),
    "negative rrf_k": (M, _edit("search/rrf_k", -60), f"{M}: search.rrf_k {WHOLE} 0 to "),
    "one fuzzy weight": (M, _edit("search/fuzzy_weights", [0.6]), f"{M}: search.fuzzy_weights has 1 items, not 2"),
    "no decay for links": (
        M, _edit("search/graph_decay/link", delete=True),
        "graph.json: edge_types[3] (link) has no decay in manifest.json's search.graph_decay",
    ),
    "no stem weight": (
        M, _edit("search/stem_weight", delete=True), f"{M}: search.stem_weight is missing (postings.0.bin has stems)"
    ),
    "no stop word weight": (
        M, _edit("search/stop_word_weight", delete=True),
        f"{M}: search.stop_word_weight is missing (there are query_stop_words)",
    ),
    "text.0.json unlisted": (
        M, _edit("files/text.#.json/0", delete=True), f"{M}: files.text.#.json has 0 items, not 1"
    ),
    "a fusion setting a string": (
        M, _edit("search/fusion_gap_span", "0.2"), f"{M}: search.fusion_gap_span must be a finite number"
    ),
    "no text fragment listed": (M, _edit("files/text.#.json", delete=True), f"{M}: files.text.#.json is missing"),
    "a crc32 a string": (M, _edit("files/keyword.json", "1"), f"{M}: files.keyword.json {WHOLE} 0 to 4294967295"),
    "a part's crc32 a list": (M, _edit("files/terms.json", [1]), f"{M}: files.terms.json {WHOLE} 0 to 4294967295"),
    "a shard's crc32 negative": (
        M, _edit("files/postings.#.bin/0", -1), f"{M}: files.postings.#.bin[0] {WHOLE} 0 to 4294967295"
    ),
    "no text_starts": (M, _edit("text_starts", delete=True), f"{M}: text_starts must be a list"),
    "no fragment": (M, _edit("text_starts", []), f"{M}: text_starts must list at least one fragment"),
    "texts from chunk 1": (M, _edit("text_starts", [1]), f"{M}: text_starts[0] {WHOLE} 0 to 0"),
    "a fragment past the chunks": (M, _edit("text_starts", [0, 9]), f"{M}: text_starts[1] {WHOLE} 1 to 8"),
    "fragments not rising": (M, _edit("text_starts", [0, 4, 4]), f"{M}: text_starts[2] {WHOLE} 5 to 8"),
    "a crc32 too large": (M, _edit("files/graph.json", 2**32), f"{M}: files.graph.json {WHOLE} 0 to 4294967295"),
    "impact scale 0": (M, _edit("impact_scale", 0), f"{M}: impact_scale must be above 0"),
    "vectors dim 0": (M, _edit("vectors/dim", 0), f"{M}: vectors.dim {WHOLE} 1 to "),
    "encoder missing": (M, _edit("encoder", delete=True), f"{M}: encoder must be an object"),
    "query levels a list": (M, _edit("vectors/query_levels", [1]), f"{M}: vectors.query_levels {WHOLE} 1 to "),
    "vector bits 9": (M, _edit("vectors/bits", 9), f"{M}: vectors.bits {WHOLE} 2 to 8"),
    "vector bits not vectors.bin's": (M, _edit("vectors/bits", 8), "vectors.bin has "),
    "facets a list": (M, _edit("facets", []), f"{M}: facets must be an object"),
    "a facet not a list": (M, _edit("facets/kind", {}), f"{M}: facets.kind must be a list"),
    "a facet entry a string": (M, _edit("facets/lang/1", "shell"), f"{M}: facets.lang[1] must be an object"),
    "a facet label missing": (
        M, _edit("facets/tags/0/label", delete=True), f"{M}: facets.tags[0].label must be a string"
    ),
    "a facet count negative": (M, _edit("facets/in/0/count", -1), f"{M}: facets.in[0].count {WHOLE} 0 to "),
    "top an object": (M, _edit("top", {}), f"{M}: top must be a list"),
    "a top entry null": (M, _edit("top/2", None), f"{M}: top[2] must be an object"),
    "a top url a number": (M, _edit("top/0/url", 0), f"{M}: top[0].url must be a string"),
    "aliases a list": (M, _edit("search/language_aliases", []), f"{M}: search.language_aliases must be an object"),
    "an alias to null": (
        M, _edit("search/language_aliases/c++", None), f"{M}: search.language_aliases.c++ must be a string"
    ),
    "terms not a list": ("terms.json", _edit("terms", 5), "terms.json: terms must be a list"),
    "a term a number": ("terms.json", _edit("terms/0", 5), "terms.json: terms[0] must be a string"),
    "dictionary not the shards'": ("terms.json", _edit("postings/0", 0), "terms.json does not match the term shards"),
    "known words not a list": ("terms.json", _edit("words", 5), "terms.json: words must be a list"),
    "a known word a number": ("terms.json", _edit("words", ["pasta", 5]), "terms.json: words[1] must be a string"),
    "term shards not from \"\"": (M, _edit("term_shards/first/0", "a"), f'{M}: term_shards.first must start with ""'),
    "term shards a string": (M, _edit("term_shards/first", "a"), f"{M}: term_shards.first must be a list"),
    "term shards short": (M, _edit("term_shards/start", []), f"{M}: term_shards.start has 0 items, not 1"),
    "term shard postings off": (M, _edit("term_shards/postings/0", 3), f"{M}: term_shards.postings[0] {WHOLE} 0 to 0"),
    "a chunk on no page": ("keyword.json", _edit("chunks/page/2", 3), f"keyword.json: chunks.page[2] {WHOLE} 0 to 2"),
    "pages going back": ("keyword.json", _edit("chunks/page/5", 0), f"keyword.json: chunks.page[5] {WHOLE} 1 to 2"),
    "a parent -2": (
        "display.0.json", _edit("chunks/parents", {"1": -2}), f"display.0.json: chunks.parents[1] {WHOLE} 0 to 8"
    ),
    "a title a number": (
        "display.0.json", _edit("pages/title/0", 5), "display.0.json: pages.title[0] must be a string"
    ),
    "display parents a list": (
        "display.0.json", _edit("chunks/parents", []), "display.0.json: chunks.parents must be an object"
    ),
    "display.0.json unlisted": (
        M, _edit("files/display.#.json/0", delete=True), f"{M}: files.display.#.json has 0 items, not 1"
    ),
    "display chunks a list": ("display.0.json", _edit("chunks", []), "display.0.json: chunks must be an object"),
    "a top chunk's title null": (
        "display.0.json", _edit("chunks/title/0", None),
        "display.0.json: chunks.title[0] is null but its parent is not before it in the fragment",
    ),
    "display ids a list": ("display.0.json", _edit("chunks/ids", []), "display.0.json: chunks.ids must be an object"),
    "a display id under no chunk": (
        "display.0.json", _edit("chunks/ids/x9", "x"), "display.0.json: chunks.ids has a key that is no chunk number"
    ),
    "display urls short": (
        "display.0.json", _edit("pages/url/2", delete=True), "display.0.json: pages.url has 2 items, not 3"
    ),
    "a level a string": (
        "display.0.json", _edit("chunks/level/0", "1"), f"display.0.json: chunks.level[0] {WHOLE} 0 to "
    ),
    "tags a string": ("keyword.json", _edit("pages/tags", "home"), "keyword.json: pages.tags must be a list"),
    "tags short": ("keyword.json", _edit("pages/tags/2", delete=True), "keyword.json: pages.tags has 2 items, not 3"),
    "a tag a number": ("keyword.json", _edit("pages/tags/1/0", 5), "keyword.json: pages.tags[1][0] must be a string"),
    "a column short": (
        "display.0.json", _edit("chunks/anchor/0", delete=True), "display.0.json: chunks.anchor has 8 items, not 9"
    ),
    "a kind missing": (
        "keyword.json", _edit("chunks/kind/0", delete=True), "keyword.json: chunks.kind has 8 items, not 9"
    ),
    "an edge to nowhere": ("graph.0.json", _edit("targets/0", 99), f"graph.0.json: targets[0] {WHOLE} 0 to 8"),
    "an edge before chunk 0": ("graph.0.json", _edit("targets/0", -1), f"graph.0.json: targets[0] {WHOLE} 0 to 8"),
    "a degree negative": ("graph.0.json", _edit("degrees/2", -1), f"graph.0.json: degrees[2] {WHOLE} 0 to "),
    "graph degrees short": (
        "graph.0.json", _edit("degrees/8", delete=True), "graph.0.json: degrees has 8 items, not 9"
    ),
    "graph degrees past": (
        "graph.0.json", _edit("targets/16", delete=True), "graph.0.json: degrees must add up to the number of targets"
    ),
    "graph.0.json unlisted": (
        M, _edit("files/graph.#.json/0", delete=True), f"{M}: files.graph.#.json has 0 items, not 1"
    ),
    "edge types missing": ("graph.json", _edit("edge_types", delete=True), "graph.json: edge_types must be a list"),
    "an edge type unknown": ("graph.0.json", _edit("types/0", 7), f"graph.0.json: types[0] {WHOLE} 0 to 3"),
    "a text missing": ("text.0.json", _edit("8", delete=True), "text.0.json: texts has 8 items, not 9"),
    "a text a number": ("text.0.json", _edit("0", 5), "text.0.json: texts[0] must be a string"),
    "encoder of another dim": ("encoder.json", _edit("pca_dim", 5), f"encoder.json: pca_dim {WHOLE}"),
    "encoder rows a string": ("encoder.json", _edit("rows", "9"), f"encoder.json: rows {WHOLE} 0 to "),
    "row scales short": ("encoder.json", _edit("row_scales", [1.0]), "encoder.json: row_scales has 1 items, not "),
    "a row scale null": (
        "encoder.json", _edit("row_scales/0", None), "encoder.json: row_scales[0] must be a finite number"
    ),
    "encoder shards a string": (M, _edit("encoder/shards", "0"), f"{M}: encoder.shards must be a list"),
    "no encoder shard": (M, _edit("encoder/shards", []), f"{M}: encoder.shards must list at least one shard"),
    "encoder shards not from 0": (M, _edit("encoder/shards/0", 3), f"{M}: encoder.shards[0] {WHOLE} 0 to 0"),
    "encoder shards not rising": (M, _edit("encoder/shards/1", 0), f"{M}: encoder.shards[1] {WHOLE} 1 to "),
    "an encoder shard unlisted": (M, _edit("files/encoder.#.bin/0", delete=True), f"{M}: files.encoder.#.bin has "),
    "encoder model unlisted": (
        M, _edit("files/encoder-model.bin", delete=True), f"{M}: files.encoder-model.bin is missing"
    ),
    "vocab missing": (M, _edit("encoder/vocab", delete=True), f"{M}: encoder.vocab must be an object"),
    "no vocab shard": (M, _edit("encoder/vocab/shards", 0), f"{M}: encoder.vocab.shards {WHOLE} 1 to "),
    "vocab keys empty": (M, _edit("encoder/vocab/key_chars", 0), f"{M}: encoder.vocab.key_chars {WHOLE} 1 to "),
    "a vocab shard unlisted": (
        M,
        _edit("files/vocab.#.json/5", delete=True),
        f"{M}: files.vocab.#.json has {VOCAB_SHARDS - 1} items, not {VOCAB_SHARDS}",
    ),
    "a vocab shard a list": ("vocab.3.json", lambda shard: [], "vocab.3.json: the file must be an object"),
    "vocab gaps short": ("vocab.3.json", _edit("gaps/0", delete=True), "vocab.3.json: gaps has "),
    "vocab ids not rising": ("vocab.3.json", _edit("gaps/1", 0), "vocab.3.json: gaps[1] must give rising ids below "),
    "a vocab entry in another shard": (
        "vocab.3.json", _edit("tokens/1", "zzzz"), "vocab.3.json: tokens[1] belongs to another shard"
    ),
    "a vocab entry dropped": (
        "vocab.3.json", lambda shard: {"tokens": shard["tokens"][:-1], "gaps": shard["gaps"][:-1]},
        "the vocab shards do not hold ids 0 to ",
    ),
}  # fmt: skip

def _shard_stems(change, line: int = 1):  # type: ignore[no-untyped-def]
    """A change of a term shard's stem line (line 1), or of its definitions (line 2: bundle/write.py
    postings_bytes)."""

    def apply(data: bytes) -> bytes:
        cut = data.index(b"\n")
        for _ in range(line - 1):
            cut = data.index(b"\n", cut + 1)
        end = data.index(b"\n", cut + 1)
        found = json.dumps(change(json.loads(data[cut + 1 : end])), separators=(",", ":"), sort_keys=True)
        return data[: cut + 1] + found.encode() + data[end:]

    return apply


def _word_header(change, swap_rows: bool = False):  # type: ignore[no-untyped-def]
    """A change of a word file's JSON line; `swap_rows`: also its first two rows' tokens."""

    def apply(data: bytes) -> bytes:
        cut = data.index(b"\n")
        rows = data[cut + 1 :]
        if swap_rows:
            rows = rows[4:8] + rows[:4] + rows[8:]
        found = json.dumps(change(json.loads(data[:cut])), separators=(",", ":"), sort_keys=True)
        return found.encode() + b"\n" + rows

    return apply


#: Binary parts with valid checksums and a writer's bug inside (bytes, not JSON): (part, change, message start).
MALFORMED_BINARY = {
    "an encoder shard cut": ("encoder.0.bin", lambda data: data[:-1], "encoder.0.bin has "),
    "encoder shard tokens out of order": (
        "encoder.1.bin", lambda data: data[4:8] + data[:4] + data[8:],
        "encoder.1.bin holds tokens out of order or outside its range",
    ),
    "a token below its shard": (
        "encoder.1.bin", lambda data: b"\0\0\0\0" + data[4:], "encoder.1.bin holds tokens out of order or outside"
    ),
    "an encoder shard emptied": ("encoder.2.bin", lambda data: b"", "the encoder shards hold "),
    "encoder model short": ("encoder-model.bin", lambda data: data[:-4], "encoder-model.bin has "),
    # the term count is the bundle's: only the message's start is pinned
    "a stem to no term": (
        "postings.0.bin", _shard_stems(_edit("acm", [999])), f"postings.0.bin: stems.acm[0] {WHOLE} 0 to "
    ),
    "stems a list": ("postings.0.bin", _shard_stems(lambda stems: []), "postings.0.bin: stems must be an object"),
    "definitions a list": (
        "postings.0.bin", _shard_stems(lambda names: [], line=2), "postings.0.bin: defines must be an object"
    ),
    "a definition of no chunk": (
        "postings.0.bin", _shard_stems(_edit("md", [99]), line=2), f"postings.0.bin: defines.md[0] {WHOLE} 0 to 8"
    ),
    "a definition null": (
        "postings.0.bin", _shard_stems(_edit("md", None), line=2), "postings.0.bin: defines.md must be a list"
    ),
    "no definition list": (
        "postings.0.bin", lambda data: b"\n".join(data.split(b"\n", 2)[:2]) + b"\n",
        "postings.0.bin has no definition list (corrupted)",
    ),
    "no stem list": (
        "postings.0.bin", lambda data: data[: data.index(b"\n") + 1], "postings.0.bin has no stem list (corrupted)"
    ),
    # the word files (format 6: bundle/word_rows.py)
    "no word list": ("words.bin", lambda data: b"{}", "words.bin has no word list (corrupted)"),
    "word rows cut": ("words.bin", lambda data: data[:-1], "words.bin has "),
    "a word row changed": (
        "words.bin", lambda data: data[:-1] + bytes([data[-1] ^ 1]), "words.bin: the row of token "
    ),
    "word rows dropped": (
        "words.bin", lambda data: data[: data.index(b"\n") + 1], "words.bin: words[0] lacks a row of its pieces"
    ),
    "word row tokens out of order": (
        "words.bin", _word_header(lambda header: header, swap_rows=True), "words.bin holds row tokens out of order"
    ),
    "a word in another shard": (
        "words.0.bin",
        _word_header(lambda header: {"pieces": [*header["pieces"], [1]], "words": [*header["words"], "}"]}),
        "words.0.bin: words[",
    ),
    "a word's pieces not ids": (
        "words.0.bin", _word_header(lambda header: {**header, "pieces": [[-1]] * len(header["words"])}),
        f"words.0.bin: pieces[0][0] {WHOLE} 0 to ",
    ),
}  # fmt: skip


def _malformed_copy(checked: Path, folder: Path, part: str, change) -> Path:  # type: ignore[no-untyped-def]
    shutil.copytree(checked, folder)
    source = (folder / MANIFEST).read_bytes() if part == MANIFEST else bundle_part_bytes(folder, part)
    document = change(json.loads(source))
    rewrite_bundle_file(folder, part, json.dumps(document, separators=(",", ":"), sort_keys=True).encode())
    return folder


def test_malformed_encoder_parts_give_the_same_error_in_both_engines(checked: Path, tmp_path: Path, node: str) -> None:
    cases = sorted(MALFORMED_BINARY)
    folders = []
    for i, case in enumerate(cases):
        part, change, _ = MALFORMED_BINARY[case]
        folder = tmp_path / str(i)
        shutil.copytree(checked, folder)
        rewrite_bundle_file(folder, part, change(bundle_part(folder, part).read_bytes()))
        folders.append(folder)
    js = js_outcomes(node, folders)
    for case, folder, js_outcome in zip(cases, folders, js, strict=True):
        python = python_outcome(folder)
        assert python[0] == "error" and python[1].startswith(MALFORMED_BINARY[case][2]), (case, python)
        assert js_outcome == python, case


def test_a_stem_outside_its_shard_gives_the_same_error_in_both_engines(tmp_path: Path, node: str) -> None:
    """A query looks a stem up in the shard of the stem's string only (js/src/engine/keyword.js
    stemTerms): a stem elsewhere would be found by Python and not by JS, so both refuse it. On
    the frozen bundle (15 term shards; the checked one has a single shard)."""
    first = orjson.loads((FROZEN / MANIFEST).read_bytes())["term_shards"]["first"]
    cases = {  # (shard, stem): before the shard's first term, at the next shard's first term
        (1, "a"): "postings.1.bin: stems.a is outside the shard's term range",
        (0, first[1]): f"postings.0.bin: stems.{first[1]} is outside the shard's term range",
    }
    folders = []
    for i, (shard, stem) in enumerate(cases):
        folder = tmp_path / str(i)
        shutil.copytree(FROZEN, folder)
        part = f"postings.{shard}.bin"
        rewrite_bundle_file(folder, part, _shard_stems(_edit(stem, [0]))(bundle_part(folder, part).read_bytes()))
        folders.append(folder)
    for message, folder, js_outcome in zip(cases.values(), folders, js_outcomes(node, folders), strict=True):
        assert python_outcome(folder) == ("error", message) == js_outcome


def test_malformed_bundles_give_the_same_error_in_both_engines(checked: Path, tmp_path: Path, node: str) -> None:
    cases = sorted(MALFORMED)
    folders = [_malformed_copy(checked, tmp_path / str(i), *MALFORMED[case][:2]) for i, case in enumerate(cases)]
    js = js_outcomes(node, folders)
    for case, folder, js_outcome in zip(cases, folders, js, strict=True):
        expected = MALFORMED[case][2]
        python = python_outcome(folder)
        assert python[0] == "error" and python[1].startswith(expected), (case, python)
        assert js_outcome == python, case


def test_checksum_out_of_place_or_malformed(checked: Path, tmp_path: Path, node: str) -> None:
    data = (checked / MANIFEST).read_bytes()
    spaced = tmp_path / "spaced"  # the same manifest re-serialised with spaces: the checksum moved
    shutil.copytree(checked, spaced)
    (spaced / MANIFEST).write_text(json.dumps(json.loads(data)), encoding="utf-8")
    upper = tmp_path / "upper"  # eight hex digits, but not lowercase (whatever the checksum's digits were)
    shutil.copytree(checked, upper)
    (upper / MANIFEST).write_bytes(data[:13] + b"ABCDEF01" + data[21:])
    folders = [spaced, upper]
    expected = [f"{MANIFEST} is corrupted (its checksum is not at its start)",
                f"{MANIFEST} is corrupted (its checksum is not 8 hex digits)"]
    assert [python_outcome(f) for f in folders] == js_outcomes(node, folders) == [("error", e) for e in expected]


def test_a_damaged_checksum_key_does_not_switch_the_check_off(checked: Path, tmp_path: Path, node: str) -> None:
    """One byte of `"checksum"` damaged, and a setting changed too (rrf_k 60 -> 90): both
    engines refuse the manifest instead of reading it unchecked; so does one without the key."""
    data = (checked / MANIFEST).read_bytes()
    assert data.startswith(b'{"checksum":"') and b'"rrf_k":60' in data
    renamed = tmp_path / "renamed"
    shutil.copytree(checked, renamed)
    (renamed / MANIFEST).write_bytes(data.replace(b'"checksum"', b'"checksuM"', 1))
    edited = tmp_path / "edited"
    shutil.copytree(checked, edited)
    (edited / MANIFEST).write_bytes(data.replace(b'"checksum"', b'"checksuM"', 1).replace(b'"rrf_k":60', b'"rrf_k":90'))
    unsealed = tmp_path / "unsealed"  # the key taken out: what a writer without checksums would give
    shutil.copytree(checked, unsealed)
    (unsealed / MANIFEST).write_bytes(b"{" + data[len(b'{"checksum":"00000000",'):])
    folders = [renamed, edited, unsealed]
    expected = ("error", f"{MANIFEST} is corrupted (its checksum is not at its start)")
    assert [python_outcome(f) for f in folders] == js_outcomes(node, folders) == [expected] * 3


def test_integral_floats_read_as_whole_numbers_in_both(checked: Path, tmp_path: Path, node: str) -> None:
    """JSON.parse cannot tell 10.0 from 10: Python reads such a value as the int too."""
    folder = _malformed_copy(checked, tmp_path / "floats", MANIFEST, _edit("search/default_limit", 10.0))
    text = (folder / MANIFEST).read_text(encoding="utf-8")
    assert '"default_limit":10.0' in text
    (pristine_py,), (pristine_js, floats_js) = [python_outcome(checked)], js_outcomes(node, [checked, folder])
    assert python_outcome(folder) == pristine_py and floats_js == pristine_js


# ------------------------------------------------------------------ property tests (slow)


@dataclass(frozen=True)
class Mutation:
    """One damage to one file of a bundle folder (the others are hard links to the pristine)."""

    file: str  # the file's name on disk
    kind: str  # flip | truncate | append | missing | version
    at: int = 0  # flip: the bit; truncate: the new length
    value: bytes = b""  # append: the bytes; version: the `format` spelled in JSON
    sealed: bool = False  # version: checksum recomputed (as a writer of that version would)

    def apply(self, source: Path, folder: Path) -> None:
        folder.mkdir()
        for path in source.iterdir():
            if path.name != self.file:
                os.link(path, folder / path.name)
        if self.kind == "missing":
            return
        data = (source / self.file).read_bytes()
        if self.kind == "flip":
            flipped = bytearray(data)
            flipped[self.at // 8] ^= 1 << (self.at % 8)
            data = bytes(flipped)
        elif self.kind == "truncate":
            data = data[: self.at]
        elif self.kind == "append":
            data += self.value
        elif self.kind == "version":
            data = re.sub(rb'"format":\d+', b'"format":' + self.value, data, count=1)
            if self.sealed and data.startswith(CHECKSUM_PREFIX):
                data = seal_manifest(b"{" + data[len(b'{"checksum":"00000000",') :])
        (folder / self.file).write_bytes(data)


VERSIONS = [b"0", b"-1", b"1", b"2", b"3", b"99", b"1.0", b"2.0", b"1e0", b"1.5", b'"2"', b"null", b"true", b"[2]",
            b"-0", b"18446744073709551615", b"18446744073709551616", b"-9223372036854775809"]  # orjson: int, float


def mutations(source: Path) -> st.SearchStrategy[Mutation]:
    # related.json: read by the Python engine only (related pages, MCP), never by the browser
    read = [path for path in sorted(source.iterdir()) if not path.name.startswith("related.")]
    sizes = {path.name: path.stat().st_size for path in read}
    names = st.sampled_from(sorted(sizes))
    flip = names.flatmap(lambda n: st.integers(0, 8 * sizes[n] - 1).map(lambda bit: Mutation(n, "flip", bit)))
    truncate = names.flatmap(lambda n: st.integers(0, sizes[n] - 1).map(lambda size: Mutation(n, "truncate", size)))
    append = st.tuples(names, st.binary(min_size=1, max_size=8)).map(lambda t: Mutation(t[0], "append", value=t[1]))
    missing = names.map(lambda n: Mutation(n, "missing"))
    version = st.tuples(st.sampled_from(VERSIONS), st.booleans()).map(
        lambda t: Mutation(MANIFEST, "version", value=t[0], sealed=t[1])
    )
    return st.one_of(flip, flip, flip, truncate, append, missing, version)


def _names_a_file(message: str, mutation: Mutation, logical: dict[str, str], any_file: bool) -> bool:
    """The message names the damaged file (by its part name or its name on disk), or, for a
    manifest without a checksum, any file of the bundle (the fault shows where it is used)."""
    named = [mutation.file, logical.get(mutation.file, mutation.file)]
    if any_file:
        named += [*PARTS, MANIFEST]
    return any(name in message for name in named)


def _check_mutations(source: Path, node: str, tmp_path: Path, batch: list[Mutation], checked: bool) -> None:
    manifest = orjson.loads((source / MANIFEST).read_bytes())
    logical = {file_name(manifest, part): part for part in listed_parts(manifest)}
    tmp = Path(tempfile.mkdtemp(dir=tmp_path))  # one per example (tmp_path is the test's)
    folders = []
    for i, mutation in enumerate(batch):
        mutation.apply(source, tmp / str(i))
        folders.append(tmp / str(i))
    pristine_py = python_outcome(source)
    *outcomes_js, pristine_js = js_outcomes(node, [*folders, source])
    for mutation, folder, js in zip(batch, folders, outcomes_js, strict=True):
        python = python_outcome(folder)
        assert python[0] == js[0], (mutation, python[1] if python[0] == "error" else js[1])
        if python[0] == "error":
            assert _names_a_file(python[1], mutation, logical, any_file=not checked), (mutation, python[1])
            assert gist(python[1]) == gist(js[1]), mutation
        elif checked:  # a damage that is no error changed nothing
            assert python == pristine_py and js == pristine_js, mutation
        else:  # no checksum: the answers may differ, but alike in both engines
            assert (python == pristine_py) == (js == pristine_js), mutation
    shutil.rmtree(tmp)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
@given(data=st.data())
def test_damaged_checked_bundles(checked: Path, node: str, tmp_path: Path, data: st.DataObject) -> None:
    batch = data.draw(st.lists(mutations(checked), min_size=1, max_size=40))
    _check_mutations(checked, node, tmp_path, batch, checked=True)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
@given(data=st.data())
def test_damaged_frozen_bundles(node: str, tmp_path: Path, data: st.DataObject) -> None:
    """The frozen bundle: three text fragments (the checked one has a single one)."""
    batch = data.draw(st.lists(mutations(FROZEN), min_size=1, max_size=40))
    _check_mutations(FROZEN, node, tmp_path, batch, checked=True)


# ------------------------------------------------------------------ the clustered vector layout


@pytest.fixture(scope="module")
def clustered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The engine docs with their vectors in 3 clusters (bundle/vector_shards.py), probe 1."""
    folder = tmp_path_factory.mktemp("clustered")
    with groups_layout():
        return build_bundle_dir(folder, VECTORS / "engine" / "docs", embeddings=True, clusters=3, probe=1)


def _first_chunks_of(folder: Path, index: int) -> bytes:
    """Cluster `index`'s file with its chunk numbers replaced by cluster 0's (same size)."""
    ours = bundle_part(folder, f"vectors.{index}.bin").read_bytes()
    first = bundle_part(folder, "vectors.0.bin").read_bytes()
    size = json.loads((folder / M).read_bytes())["vectors"]["clusters"]["sizes"][index]
    return first[: 4 * size] + ours[4 * size :]


def _one_moved(manifest: Any) -> Any:
    """Cluster 0 said one chunk bigger, cluster 1 one smaller: the sizes still add up."""
    sizes = manifest["vectors"]["clusters"]["sizes"]
    sizes[0], sizes[1] = sizes[0] + 1, sizes[1] - 1
    return manifest


def _swapped_chunks(folder: Path) -> bytes:
    data = bundle_part(folder, "vectors.0.bin").read_bytes()
    return data[4:8] + data[:4] + data[8:]


#: (part, change, how both messages start) on the clustered bundle: a manifest change (as
#: MALFORMED), or for a binary part a function of the bundle folder giving its new bytes.
MALFORMED_CLUSTERED = {
    "clusters a list": (M, _edit("vectors/clusters", []), f"{M}: vectors.clusters must be an object"),
    "no cluster sizes": (M, _edit("vectors/clusters/sizes", []), f"{M}: vectors.clusters.sizes must list at least one"),
    "an empty cluster": (M, _edit("vectors/clusters/sizes/1", 0), f"{M}: vectors.clusters.sizes[1] {WHOLE} 1 to 9"),
    "sizes not the chunks": (
        M, _edit("vectors/clusters/sizes", [3, 3, 2]), f"{M}: vectors.clusters.sizes must add up to counts.chunks"
    ),
    "probe 0": (M, _edit("vectors/clusters/probe", 0), f"{M}: vectors.clusters.probe {WHOLE} 1 to 3"),
    "probe past the clusters": (M, _edit("vectors/clusters/probe", 4), f"{M}: vectors.clusters.probe {WHOLE} 1 to 3"),
    "no probe_chunks": (
        M, _edit("vectors/clusters/probe_chunks", delete=True), f"{M}: vectors.clusters.probe_chunks {WHOLE} 0 to 9"
    ),
    "probe_chunks past the chunks": (
        M, _edit("vectors/clusters/probe_chunks", 10), f"{M}: vectors.clusters.probe_chunks {WHOLE} 0 to 9"
    ),
    "bits 9": (M, _edit("vectors/clusters/bits", 9), f"{M}: vectors.clusters.bits {WHOLE} 2 to 8"),
    "no centroid bits": (
        M, _edit("vectors/clusters/centroid_bits", delete=True), f"{M}: vectors.clusters.centroid_bits {WHOLE} 2 to 8"
    ),
    # Another width than the files': their sizes say so (the first file read names itself).
    "bits not the files'": (M, _edit("vectors/clusters/bits", 8), "vectors.0.bin has "),
    "centroid bits not the file's": (M, _edit("vectors/clusters/centroid_bits", 8), "centroids.bin has "),
    "a cluster unlisted": (M, _edit("files/vectors.#.bin/2", delete=True), f"{M}: files.vectors.#.bin has "),
    "centroids unlisted": (M, _edit("files/centroids.bin", delete=True), f"{M}: files.centroids.bin is missing"),
    "cluster sizes off by one": (M, _one_moved, "vectors.0.bin has "),
    "chunks not rising": ("vectors.0.bin", _swapped_chunks, "vectors.0.bin: its chunk numbers must rise"),
    "a chunk in two clusters": (
        "vectors.1.bin", lambda f: _first_chunks_of(f, 1), "vectors.1.bin: a chunk in two clusters"
    ),
    "centroids cut": (
        "centroids.bin", lambda f: bundle_part(f, "centroids.bin").read_bytes()[:-1], "centroids.bin has "
    ),
    "groups an object": (M, _edit("vectors/clusters/groups", {}), f"{M}: vectors.clusters.groups must be a list"),
    "groups not rising": (
        M, _edit("vectors/clusters/groups", [0, 2, 1]), f"{M}: vectors.clusters.groups[2] {WHOLE} 3 to 2"
    ),
    "groups not from 0": (
        M, _edit("vectors/clusters/groups", [1, 1, 2]), f"{M}: vectors.clusters.groups[0] {WHOLE} 0 to 0"
    ),
    "groups of two clusters, files of one": (
        M, _edit("vectors/clusters/groups", [0, 2]), f"{M}: files.vectors.#.bin has "
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The engine docs with their vectors in 3 clusters and the default probe: a query reads
    every chunk, so with groups of half a query's reads (index/kmeans.py GROUPS_PER_READ) the
    group files (bundle/vector_shards.py) hold half the site each."""
    folder = tmp_path_factory.mktemp("grouped")
    with pytest.MonkeyPatch.context() as patch, groups_layout():
        patch.setattr(kmeans, "GROUPS_PER_READ", 2)
        return build_bundle_dir(folder, VECTORS / "engine" / "docs", embeddings=True, clusters=3)


def _first_two_resized(manifest: Any) -> Any:
    """Clusters 0 and 1 (one group file) said one chunk bigger and smaller: the file's size holds."""
    sizes = manifest["vectors"]["clusters"]["sizes"]
    sizes[0], sizes[1] = sizes[0] + 1, sizes[1] - 1
    return manifest


#: As MALFORMED_CLUSTERED, on the grouped bundle (clusters 0 and 1 in vectors.0.bin).
MALFORMED_GROUPED = {
    "no groups": (
        M, _edit("vectors/clusters/groups", []), f"{M}: vectors.clusters.groups must list at least one group"
    ),
    "a group cut": ("vectors.0.bin", lambda f: bundle_part(f, "vectors.0.bin").read_bytes()[:-1], "vectors.0.bin has "),
    "a group's clusters resized": (M, _first_two_resized, "vectors.0.bin: "),
}  # fmt: skip


def test_malformed_grouped_bundles_give_the_same_error_in_both_engines(
    grouped: Path, tmp_path: Path, node: str
) -> None:
    rule = json.loads((grouped / M).read_bytes())["vectors"]["clusters"]
    assert rule["groups"] == [0, 2] and len(rule["sizes"]) == 3
    _same_errors(grouped, MALFORMED_GROUPED, tmp_path, node)


def _same_errors(bundle: Path, malformed: dict[str, Any], tmp_path: Path, node: str) -> None:
    """Each case of `malformed` (as MALFORMED_CLUSTERED) gives its error, the same in both engines."""
    cases = sorted(malformed)
    folders = []
    for i, case in enumerate(cases):
        part, change, _ = malformed[case]
        if part == M:
            folders.append(_malformed_copy(bundle, tmp_path / str(i), part, change))
        else:
            folder = tmp_path / str(i)
            shutil.copytree(bundle, folder)
            rewrite_bundle_file(folder, part, change(folder))
            folders.append(folder)
    js = js_outcomes(node, folders)
    for case, folder, js_outcome in zip(cases, folders, js, strict=True):
        python = python_outcome(folder)
        assert python[0] == "error" and python[1].startswith(malformed[case][2]), (case, python)
        assert js_outcome == python, case


def test_malformed_clustered_bundles_give_the_same_error_in_both_engines(
    clustered: Path, tmp_path: Path, node: str
) -> None:
    rule = json.loads((clustered / M).read_bytes())["vectors"]["clusters"]
    assert (rule["probe"], rule["bits"], rule["centroid_bits"]) == (1, 4, 4)
    _same_errors(clustered, MALFORMED_CLUSTERED, tmp_path, node)


@pytest.fixture(scope="module")
def two_level(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The engine docs with their vectors in 3 clusters grouped in 2 cells (two levels), probe 1."""
    folder = tmp_path_factory.mktemp("two-level")
    return build_bundle_dir(folder, VECTORS / "engine" / "docs", embeddings=True, clusters=3, probe=1, cells=2)


def _cells_swapped(manifest: Any) -> Any:
    """The cells' cluster counts in the other order: they still add up to the clusters."""
    manifest["vectors"]["clusters"]["cells"].reverse()
    return manifest


#: As MALFORMED_CLUSTERED, on the two-level bundle (its cells hold 2 and 1 clusters).
MALFORMED_TWO_LEVEL = {
    "cells an object": (M, _edit("vectors/clusters/cells", {}), f"{M}: vectors.clusters.cells must be a list"),
    "no cells": (M, _edit("vectors/clusters/cells", []), f"{M}: vectors.clusters.cells must list at least one cell"),
    "an empty cell": (M, _edit("vectors/clusters/cells/0", 0), f"{M}: vectors.clusters.cells[0] {WHOLE} 1 to 3"),
    "cells not the clusters": (
        M, _edit("vectors/clusters/cells", [1, 1]), f"{M}: vectors.clusters.cells must add up to the clusters"
    ),
    "no cell_chunks": (
        M, _edit("vectors/clusters/cell_chunks", delete=True), f"{M}: vectors.clusters.cell_chunks {WHOLE} 0 to 9"
    ),
    "a cell unlisted": (M, _edit("files/centroids.#.bin/1", delete=True), f"{M}: files.centroids.#.bin has "),
    "cell counts swapped": (M, _cells_swapped, "centroids.0.bin has "),
    "cells' centroids cut": (
        "centroids.bin", lambda f: bundle_part(f, "centroids.bin").read_bytes()[:-1], "centroids.bin has "
    ),
    "a cell cut": (
        "centroids.1.bin", lambda f: bundle_part(f, "centroids.1.bin").read_bytes()[:-1], "centroids.1.bin has "
    ),
}  # fmt: skip


def test_malformed_two_level_bundles_give_the_same_error_in_both_engines(
    two_level: Path, tmp_path: Path, node: str
) -> None:
    rule = json.loads((two_level / M).read_bytes())["vectors"]["clusters"]
    assert (rule["cells"], rule["cell_chunks"]) == ([2, 1], 9)  # --vector-probe: every cell taken
    _same_errors(two_level, MALFORMED_TWO_LEVEL, tmp_path, node)
