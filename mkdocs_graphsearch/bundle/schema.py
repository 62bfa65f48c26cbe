"""Shape checks of a bundle's JSON: every value either engine reads has the type and range it needs.

The manifest's checksum (format.py) catches any damage to a manifest that has one, and each
part's CRC-32 any damage to a part; these checks catch the rest: a manifest without a checksum
(format 1, or a format-2 build older than the checksum) damaged, or a malformed bundle that
passes its checksums (a buggy or hostile writer). Each is a BundleError naming the file and the
value (`keyword.json: chunks.page[3] must be a whole number from 0 to 2`), never a traceback at
load or query time. js/src/engine/bundle/schema.js makes the same checks in the same order, with
the same messages (tests/test_bundle_integrity.py feeds both the same broken bundles).

A JSON number with an integral value is a whole number whatever its spelling (`3`, `3.0`, `3e0`:
JavaScript cannot tell them apart), and is stored as an int here, so both engines read the same
values. Only `format` must be spelled as an integer (read.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NoReturn

from mkdocs_graphsearch.bundle.display import Run, display_starts, page_range
from mkdocs_graphsearch.bundle.display_groups import display_count
from mkdocs_graphsearch.bundle.format import (
    COMPACT_DISPLAY_FORMAT,
    DERIVED_FORMAT,
    ENCODER,
    ENCODER_MODEL,
    GRAPH,
    GROUPED_DISPLAY_FORMAT,
    INLINE_PARTS,
    INNER_TEXT_FORMAT,
    KEYWORD,
    MANIFEST,
    MAX_VARINT,
    TERMS,
    VECTORS,
    WORDS,
    BundleError,
    display_fragment,
    encoder_shard,
    file_key,
    graph_shard,
    postings_shard,
    text_fragment,
    vocab_shard,
    word_shard,
)
from mkdocs_graphsearch.bundle.graph_shards import graph_count, graph_starts
from mkdocs_graphsearch.bundle.settings import MODES
from mkdocs_graphsearch.bundle.vector_shards import semantic_vector_parts

#: The parts every bundle has, then those of the semantic part (present with `vectors`), in the
#: order both engines read them.
KEYWORD_PARTS = (KEYWORD, GRAPH, TERMS)
SEMANTIC_PARTS = (VECTORS, ENCODER)  # then the encoder shards, ENCODER_MODEL, the vocab shards
MAX_CRC32 = 2**32 - 1

#: Search settings by kind: whole numbers with their least value, and finite numbers.
SETTING_WHOLE = {
    "default_limit": 0, "fuzzy_long_length": 0, "fuzzy_min_length": 0, "graph_depth": 0,
    "max_expansions": 0, "page_top_n": 1, "rrf_k": 0, "sections_per_page": 0, "seeds": 0,
    "snippet_source_chars": 0, "snippet_words": 1,
}  # fmt: skip
SETTING_NUMBER = (
    "keyword_weight", "min_score", "page_max_weight", "page_top_weight", "prefix_weight",
    "vector_only_threshold", "vector_threshold", "vector_weight",
)  # fmt: skip
#: Settings an older manifest lacks (each engine has its *_IF_ABSENT value, or never needs it):
#: `stem_weight` is needed when keyword.json has stems, `stop_word_weight` with `query_stop_words`.
OPTIONAL_WHOLE = {"max_query_chars": 0}
OPTIONAL_NUMBER = (
    "stem_weight", "stop_word_weight", "fusion_coverage_base", "fusion_coverage_span", "fusion_gap_span"
)


def _fail(file: str, where: str, problem: str) -> NoReturn:
    raise BundleError(f"{file}: {where} {problem}")


def _object(file: str, value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        _fail(file, where, "must be an object")
    return value


def _whole(file: str, value: Any, where: str, low: int = 0, high: int = MAX_VARINT) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if type(value) is not int or not low <= value <= high:
        _fail(file, where, f"must be a whole number from {low} to {high}")
    return value


def _number(file: str, value: Any, where: str) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        _fail(file, where, "must be a finite number")
    return value  # type: ignore[no-any-return]


def _string(file: str, value: Any, where: str) -> str:
    if not isinstance(value, str):
        _fail(file, where, "must be a string")
    return value


def _list(file: str, value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        _fail(file, where, "must be a list")
    if length is not None and len(value) != length:
        _fail(file, where, f"has {len(value)} items, not {length}")
    return value


def _strings(file: str, value: Any, where: str, length: int | None = None) -> list[str]:
    items = _list(file, value, where, length)
    for i, item in enumerate(items):
        _string(file, item, f"{where}[{i}]")
    return items


def _lists_of_strings(file: str, value: Any, where: str, length: int) -> None:
    for i, item in enumerate(_list(file, value, where, length)):
        _strings(file, item, f"{where}[{i}]")


def _wholes(file: str, value: Any, where: str, length: int | None, low: int, high: int) -> list[int]:
    """A list of whole numbers in low..high, normalised to ints in place."""
    items = _list(file, value, where, length)
    for i, item in enumerate(items):
        items[i] = _whole(file, item, f"{where}[{i}]", low, high)
    return items



def _check_clusters(vectors: dict[str, Any], n_chunks: int) -> None:
    """vectors.clusters (bundle/vector_shards.py): each cluster's size, the probe rule, the code
    widths, the group files' first clusters, and for two levels the cells."""
    clusters = _object(MANIFEST, vectors["clusters"], "vectors.clusters")
    sizes = _wholes(MANIFEST, clusters.get("sizes"), "vectors.clusters.sizes", None, 1, max(n_chunks, 1))
    if not sizes:
        _fail(MANIFEST, "vectors.clusters.sizes", "must list at least one cluster")
    if sum(sizes) != n_chunks:
        _fail(MANIFEST, "vectors.clusters.sizes", "must add up to counts.chunks")
    clusters["probe"] = _whole(MANIFEST, clusters.get("probe"), "vectors.clusters.probe", 1, len(sizes))
    where = "vectors.clusters.probe_chunks"
    clusters["probe_chunks"] = _whole(MANIFEST, clusters.get("probe_chunks"), where, 0, n_chunks)
    for key in ("bits", "centroid_bits"):  # code widths: 2 (-1..1) to 8 (int8)
        clusters[key] = _whole(MANIFEST, clusters.get(key), f"vectors.clusters.{key}", 2, 8)
    if "groups" in clusters:  # each group file's first cluster: 0 first, rising (format 3: none)
        groups = _list(MANIFEST, clusters["groups"], "vectors.clusters.groups")
        if not groups:
            _fail(MANIFEST, "vectors.clusters.groups", "must list at least one group")
        previous = -1
        for i, start in enumerate(groups):
            where = f"vectors.clusters.groups[{i}]"
            groups[i] = previous = _whole(MANIFEST, start, where, previous + 1, len(sizes) - 1 if i else 0)
    if "hood_chunks" in clusters:  # hoods (format 6): each cluster's file holds its hood, no groups or cells
        where = "vectors.clusters.hood_chunks"
        clusters["hood_chunks"] = _whole(MANIFEST, clusters["hood_chunks"], where, 1, max(n_chunks, 1))
        if "groups" in clusters or "cells" in clusters:
            _fail(MANIFEST, where, "must not come with groups or cells")
    if "cells" in clusters:  # two levels: clusters per cell, then the chunks the cells taken cover
        cells = _wholes(MANIFEST, clusters["cells"], "vectors.clusters.cells", None, 1, len(sizes))
        if not cells:
            _fail(MANIFEST, "vectors.clusters.cells", "must list at least one cell")
        if sum(cells) != len(sizes):
            _fail(MANIFEST, "vectors.clusters.cells", "must add up to the clusters")
        where = "vectors.clusters.cell_chunks"
        clusters["cell_chunks"] = _whole(MANIFEST, clusters.get("cell_chunks"), where, 0, n_chunks)


def _check_starts(manifest: dict[str, Any], key: str, n_chunks: int) -> list[int]:
    """A list of fragments' first chunks: 0 first, then rising, each a chunk."""
    starts = _list(MANIFEST, manifest.get(key), key)
    if not starts:
        _fail(MANIFEST, key, "must list at least one fragment")
    previous = -1
    for i, start in enumerate(starts):
        starts[i] = previous = _whole(MANIFEST, start, f"{key}[{i}]", previous + 1, n_chunks - 1 if i else 0)
    return starts


def check_manifest(data: Any) -> dict[str, Any]:
    """Everything either engine reads from manifest.json (after its format and checksum)."""
    manifest = _object(MANIFEST, data, "the file")
    counts = _object(MANIFEST, manifest.get("counts"), "counts")
    for key in ("chunks", "pages", "postings", "terms"):
        counts[key] = _whole(MANIFEST, counts.get(key), f"counts.{key}")
    if _number(MANIFEST, manifest.get("impact_scale"), "impact_scale") <= 0:
        _fail(MANIFEST, "impact_scale", "must be above 0")
    starts = _check_starts(manifest, "text_starts", counts["chunks"])
    if "display_count" in manifest:  # format 10 grouped (keyword.json's pages.display)
        if manifest["format"] < GROUPED_DISPLAY_FORMAT or "display_starts" in manifest:
            _fail(MANIFEST, "display_count", "needs format 10 and no display_starts")
        manifest["display_count"] = _whole(MANIFEST, manifest["display_count"], "display_count", 1)
    elif "display_starts" in manifest:  # format 5 (else the text fragments' ranges: display_starts)
        _check_starts(manifest, "display_starts", counts["chunks"])
    if "graph_starts" in manifest:  # format 6 (else the text fragments' ranges: graph_starts)
        _check_starts(manifest, "graph_starts", counts["chunks"])
    shards = _check_term_shards(manifest, counts)
    files = _object(MANIFEST, manifest.get("files"), "files")
    semantic = "vectors" in manifest
    fragments = tuple(text_fragment(i) for i in range(len(starts)))
    vector_parts = semantic_vector_parts(manifest) if semantic else ()
    semantic_parts = vector_parts + SEMANTIC_PARTS[1:] + _check_encoder_parts(manifest) if semantic else ()
    displays = tuple(display_fragment(i) for i in range(display_count(manifest)))
    graphs = tuple(graph_shard(i) for i in range(graph_count(manifest)))
    _check_files(files, KEYWORD_PARTS + shards + fragments + displays + graphs + semantic_parts)
    _check_settings(_object(MANIFEST, manifest.get("search"), "search"))
    if semantic:
        vectors = _object(MANIFEST, manifest["vectors"], "vectors")
        vectors["dim"] = _whole(MANIFEST, vectors.get("dim"), "vectors.dim", low=1)
        if "query_levels" in vectors:
            vectors["query_levels"] = _whole(MANIFEST, vectors["query_levels"], "vectors.query_levels", low=1)
        if "bits" in vectors:  # vectors.bin's code width (format 5; absent: int8)
            vectors["bits"] = _whole(MANIFEST, vectors["bits"], "vectors.bits", 2, 8)
        if "clusters" in vectors:
            _check_clusters(vectors, counts["chunks"])
        encoder = _object(MANIFEST, manifest.get("encoder"), "encoder")
        if "max_query_pieces" in encoder:
            encoder["max_query_pieces"] = _whole(MANIFEST, encoder["max_query_pieces"], "encoder.max_query_pieces")
        if "stop_pieces" in encoder:  # optional (index/semantic.py stop_pieces)
            _wholes(MANIFEST, encoder["stop_pieces"], "encoder.stop_pieces", None, 0, MAX_VARINT)
    if "facets" in manifest:  # optional (index/facets.py): the UI's filter chips
        for facet, entries in _object(MANIFEST, manifest["facets"], "facets").items():
            for i, entry in enumerate(_list(MANIFEST, entries, f"facets.{facet}")):
                where = f"facets.{facet}[{i}]"
                _object(MANIFEST, entry, where)
                for key in ("value", "label"):
                    _string(MANIFEST, entry.get(key), f"{where}.{key}")
                entry["count"] = _whole(MANIFEST, entry.get("count"), f"{where}.count")
    if "top" in manifest:  # optional (bundle/related.py): the start list of an empty box
        for i, entry in enumerate(_list(MANIFEST, manifest["top"], "top")):
            _object(MANIFEST, entry, f"top[{i}]")
            for key in ("path", "title", "url"):
                _string(MANIFEST, entry.get(key), f"top[{i}].{key}")
    if "inline" in manifest:  # format 9 (format.py INLINE_PARTS)
        for part, text in _object(MANIFEST, manifest["inline"], "inline").items():
            if part not in INLINE_PARTS:
                _fail(MANIFEST, f"inline.{part}", "is no part a manifest holds")
            _string(MANIFEST, text, f"inline.{part}")
    return manifest


def _check_files(files: dict[str, Any], parts: tuple[str, ...]) -> None:
    """`files` (format.py compact_files): each kind's CRC-32s, in the order of their first part:
    a whole number for a single part, a list of one per part for numbered parts."""
    numbered: dict[str, int | None] = {}  # key -> how many parts it lists (None: a single part)
    for part in parts:
        key, index = file_key(part)
        numbered[key] = None if index is None else numbered.get(key, 0) + 1  # type: ignore[operator]
    for key, count in numbered.items():
        value = files.get(key)
        if value is None:
            _fail(MANIFEST, f"files.{key}", "is missing")
        if count is None:
            files[key] = _whole(MANIFEST, value, f"files.{key}", high=MAX_CRC32)
        else:
            _wholes(MANIFEST, value, f"files.{key}", count, 0, MAX_CRC32)


def _check_term_shards(manifest: dict[str, Any], counts: dict[str, int]) -> tuple[str, ...]:
    """`term_shards`: parallel lists, shard 0 first at "" / 0 / 0, then starts and postings rising
    (a shard may hold no posting, never no term); the shards' logical names."""
    shards = _object(MANIFEST, manifest.get("term_shards"), "term_shards")
    first = _strings(MANIFEST, shards.get("first"), "term_shards.first")
    if not first or first[0] != "":
        _fail(MANIFEST, "term_shards.first", 'must start with ""')
    start = _list(MANIFEST, shards.get("start"), "term_shards.start", len(first))
    posted = _list(MANIFEST, shards.get("postings"), "term_shards.postings", len(first))
    for i in range(len(first)):
        low, high = (start[i - 1] + 1, counts["terms"] - 1) if i else (0, 0)
        start[i] = _whole(MANIFEST, start[i], f"term_shards.start[{i}]", low, high)
        low, high = (posted[i - 1], counts["postings"]) if i else (0, 0)
        posted[i] = _whole(MANIFEST, posted[i], f"term_shards.postings[{i}]", low, high)
    return tuple(postings_shard(i) for i in range(len(first)))


def _check_encoder_parts(manifest: dict[str, Any]) -> tuple[str, ...]:
    """`encoder.shards`: each encoder shard's first token, 0 first, then rising;
    `encoder.vocab`: {shards, size, key_chars?, specials?} (bundle/vocab_shards.py); `encoder.words`
    (optional): {shards} (bundle/word_rows.py). The names of the encoder shards,
    encoder-model.bin, the vocab shards, then words.bin and the word shards."""
    encoder = _object(MANIFEST, manifest.get("encoder"), "encoder")
    firsts = _list(MANIFEST, encoder.get("shards"), "encoder.shards")
    if not firsts:
        _fail(MANIFEST, "encoder.shards", "must list at least one shard")
    for i in range(len(firsts)):
        low, high = (firsts[i - 1] + 1, MAX_VARINT) if i else (0, 0)
        firsts[i] = _whole(MANIFEST, firsts[i], f"encoder.shards[{i}]", low, high)
    vocab = _object(MANIFEST, encoder.get("vocab"), "encoder.vocab")
    for key in ("shards", "size"):
        vocab[key] = _whole(MANIFEST, vocab.get(key), f"encoder.vocab.{key}", 1)
    if "key_chars" in vocab:  # absent: 2 (bundle/vocab_shards.py KEY_CHARS_IF_ABSENT)
        vocab["key_chars"] = _whole(MANIFEST, vocab["key_chars"], "encoder.vocab.key_chars", 1)
    if "specials" in vocab:  # absent: read from their shards (bundle/vocab_shards.py)
        specials = _object(MANIFEST, vocab["specials"], "encoder.vocab.specials")
        for token in specials:
            specials[token] = _whole(MANIFEST, specials[token], f"encoder.vocab.specials.{token}", 0, vocab["size"] - 1)
    words: tuple[str, ...] = ()
    if "words" in encoder:  # format 6 (bundle/word_rows.py)
        entry = _object(MANIFEST, encoder["words"], "encoder.words")
        entry["shards"] = _whole(MANIFEST, entry.get("shards"), "encoder.words.shards", 1)
        words = (WORDS, *(word_shard(i) for i in range(entry["shards"])))
    return (
        *(encoder_shard(i) for i in range(len(firsts))),
        ENCODER_MODEL,
        *(vocab_shard(i) for i in range(vocab["shards"])),
        *words,
    )


def check_shard_keys(data: Any, manifest: dict[str, Any], index: int, field: str) -> dict[str, list[int]]:
    """The `stems` (stem -> term numbers) or `defines` (name -> chunk numbers) of term shard
    `index`: each key in the shard's term range (the shard a query looks it up in: js/src/
    keyword.js stemTerms, fuse.js definingChunks)."""
    name = postings_shard(index)
    found = _object(name, data, field)
    first = manifest["term_shards"]["first"]
    low, high = first[index], first[index + 1] if index + 1 < len(first) else None
    top = manifest["counts"]["terms" if field == "stems" else "chunks"] - 1
    for key, numbers in found.items():
        _wholes(name, numbers, f"{field}.{key}", None, 0, top)
        if key < low or (high is not None and key >= high):  # str order: code point order
            _fail(name, f"{field}.{key}", "is outside the shard's term range")
    if field == "stems" and found and "stem_weight" not in manifest["search"]:
        _fail(MANIFEST, "search.stem_weight", f"is missing ({name} has stems)")
    return found


def shard_range(manifest: dict[str, Any], index: int) -> tuple[int, int]:
    """The terms shard `index` holds: start, end (exclusive)."""
    starts = manifest["term_shards"]["start"]
    return starts[index], starts[index + 1] if index + 1 < len(starts) else manifest["counts"]["terms"]


def _check_settings(search: dict[str, Any]) -> None:
    for key, low in SETTING_WHOLE.items():
        search[key] = _whole(MANIFEST, search.get(key), f"search.{key}", low)
    for key in SETTING_NUMBER:
        _number(MANIFEST, search.get(key), f"search.{key}")
    for key, low in OPTIONAL_WHOLE.items():
        if key in search:
            search[key] = _whole(MANIFEST, search[key], f"search.{key}", low)
    for key in OPTIONAL_NUMBER:
        if key in search:
            _number(MANIFEST, search[key], f"search.{key}")
    if search.get("default_mode") not in MODES:
        _fail(MANIFEST, "search.default_mode", f"must be one of {', '.join(MODES)}")
    weights = _list(MANIFEST, search.get("fuzzy_weights"), "search.fuzzy_weights", 2)
    for i, weight in enumerate(weights):
        _number(MANIFEST, weight, f"search.fuzzy_weights[{i}]")
    decay = _object(MANIFEST, search.get("graph_decay"), "search.graph_decay")
    for edge, value in decay.items():
        _number(MANIFEST, value, f"search.graph_decay.{edge}")
    if "query_stop_words" in search:
        _strings(MANIFEST, search["query_stop_words"], "search.query_stop_words")
        if "stop_word_weight" not in search:
            _fail(MANIFEST, "search.stop_word_weight", "is missing (there are query_stop_words)")
    if "language_aliases" in search:  # absent: none (engine/filters.py LANGUAGE_ALIASES_IF_ABSENT)
        for key, language in _object(MANIFEST, search["language_aliases"], "search.language_aliases").items():
            _string(MANIFEST, language, f"search.language_aliases.{key}")


def check_keyword(data: Any, manifest: dict[str, Any]) -> dict[str, Any]:
    """keyword.json: the pages and chunks columns, consistent with the counts."""
    counts = manifest["counts"]
    n_pages, n_chunks = counts["pages"], counts["chunks"]
    keyword = _object(KEYWORD, data, "the file")
    pages = _object(KEYWORD, keyword.get("pages"), "pages")
    _strings(KEYWORD, pages.get("path"), "pages.path", n_pages)
    if "tags" in pages:  # optional: each page's front matter tags
        _lists_of_strings(KEYWORD, pages["tags"], "pages.tags", n_pages)
    if "language" in pages:  # optional: each page's language (engine/expand.py)
        _strings(KEYWORD, pages["language"], "pages.language", n_pages)
    grouped = "display_count" in manifest
    if grouped != ("display" in pages):  # format 10 grouped: each page's display fragment
        _fail(KEYWORD, "pages.display", f"must be there exactly when {MANIFEST} has display_count")
    if grouped:
        _wholes(KEYWORD, pages["display"], "pages.display", n_pages, 0, manifest["display_count"] - 1)
    chunks = _object(KEYWORD, keyword.get("chunks"), "chunks")
    for key in ("kind", "language"):
        _strings(KEYWORD, chunks.get(key), f"chunks.{key}", n_chunks)
    chunk_pages = _list(KEYWORD, chunks.get("page"), "chunks.page", n_chunks)
    previous = 0  # never decreasing, so a page's chunks are together (bundle/display.py)
    for i, page in enumerate(chunk_pages):
        chunk_pages[i] = previous = _whole(KEYWORD, page, f"chunks.page[{i}]", previous, n_pages - 1)
    starting = [("text", manifest["text_starts"])] if manifest["format"] < INNER_TEXT_FORMAT else []
    for kind, starts in (*starting, ("display", [] if grouped else display_starts(manifest))):
        for i, start in enumerate(starts[1:], 1):  # a fragment starts a page
            if chunk_pages[start] == chunk_pages[start - 1]:
                _fail(KEYWORD, f"chunks.page[{start}]", f"must start a page ({kind} fragment {i} starts there)")
    return keyword


def check_graph(data: Any, manifest: dict[str, Any]) -> dict[str, Any]:
    """graph.json: the edge types, each with its decay (the edges: check_graph_shard)."""
    graph = _object(GRAPH, data, "the file")
    edge_types = _strings(GRAPH, graph.get("edge_types"), "edge_types")
    decay = manifest["search"]["graph_decay"]
    for i, edge in enumerate(edge_types):
        if edge not in decay:
            _fail(GRAPH, f"edge_types[{i}]", f"({edge}) has no decay in {MANIFEST}'s search.graph_decay")
    return graph


def check_graph_shard(
    data: Any, manifest: dict[str, Any], n_types: int, index: int, chunks: Sequence[int] | None = None
) -> dict[str, Any]:
    """graph.<index>.json: CSR edges from its chunks (bundle/graph_shards.py; `chunks`: a grouped
    shard's, else its range's) to existing chunks; a format-8 shard's degrees and relative
    targets come back as offsets and chunk numbers."""
    name = graph_shard(index)
    n_chunks = manifest["counts"]["chunks"]
    if chunks is None:
        chunks = range(*text_range(manifest, index, graph_starts(manifest)))
    shard = _object(name, data, "the file")
    if manifest["format"] >= DERIVED_FORMAT:
        degrees = _wholes(name, shard.get("degrees"), "degrees", len(chunks), 0, MAX_VARINT)
        relative = _list(name, shard.get("targets"), "targets")
        if sum(degrees) != len(relative):
            _fail(name, "degrees", f"must add up to the number of targets ({len(relative)})")
        offsets, targets = [0], []
        for chunk, degree in zip(chunks, degrees, strict=True):
            for e in range(offsets[-1], offsets[-1] + degree):
                targets.append(_whole(name, relative[e], f"targets[{e}]", -chunk, n_chunks - 1 - chunk) + chunk)
            offsets.append(offsets[-1] + degree)
        shard = {"offsets": offsets, "targets": targets, "types": shard.get("types")}
    offsets = _list(name, shard.get("offsets"), "offsets", len(chunks) + 1)
    targets = _list(name, shard.get("targets"), "targets")
    previous = 0  # offsets[0] is 0, then they never decrease
    for i, offset in enumerate(offsets):
        offsets[i] = previous = _whole(name, offset, f"offsets[{i}]", previous, len(targets) if i else 0)
    if previous != len(targets):
        _fail(name, "offsets", f"must end at the number of targets ({len(targets)})")
    _wholes(name, targets, "targets", None, 0, n_chunks - 1)
    _wholes(name, shard.get("types"), "types", len(targets), 0, n_types - 1)
    return shard


def check_dictionary(data: Any, manifest: dict[str, Any]) -> tuple[list[str], list[int], list[str]]:
    """terms.json: every term and its posting count, and the known words that are no typos
    (optional: bundles before them lack them)."""
    n_terms = manifest["counts"]["terms"]
    dictionary = _object(TERMS, data, "the file")
    terms = _strings(TERMS, dictionary.get("terms"), "terms", n_terms)
    counts = _wholes(TERMS, dictionary.get("postings"), "postings", n_terms, 0, manifest["counts"]["postings"])
    words = _strings(TERMS, dictionary["words"], "words") if "words" in dictionary else []
    return terms, counts, words


def text_range(manifest: dict[str, Any], index: int, starts: list[int] | None = None) -> tuple[int, int]:
    """The chunks whose texts fragment `index` holds (of `starts`: display_starts for a display
    fragment): start, end (exclusive)."""
    starts = manifest["text_starts"] if starts is None else starts
    return starts[index], starts[index + 1] if index + 1 < len(starts) else manifest["counts"]["chunks"]


def check_texts(texts: Any, manifest: dict[str, Any], index: int) -> list[str]:
    start, end = text_range(manifest, index)
    return _strings(text_fragment(index), texts, "texts", end - start)


def check_display(
    data: Any, manifest: dict[str, Any], chunk_pages: list[int], index: int, runs: Sequence[Run] | None = None
) -> dict[str, Any]:
    """display.<index>.json (bundle/display.py): the display columns of its chunks and pages (format
    6: compact, a null title its parent's, earlier in the fragment; ids where not derived; format
    8: parents where not derived, a null page title or url derived too; format 10 grouped: those
    of its `runs`, bundle/display_groups.py)."""
    name = display_fragment(index)
    if runs is None:
        starts = display_starts(manifest)
        start, end = text_range(manifest, index, starts)
        first, last = page_range(chunk_pages, starts, manifest["counts"]["pages"], index)
    else:  # only sizes count below (the title check before format 8 is for one run)
        start, end = 0, sum(run[1] - run[0] for run in runs)
        first, last = 0, sum(run[3] - run[2] for run in runs)
    fragment = _object(name, data, "the file")
    pages = _object(name, fragment.get("pages"), "pages")
    derived = manifest["format"] >= DERIVED_FORMAT
    for key in ("url", "title"):
        items = _list(name, pages.get(key), f"pages.{key}", last - first)
        for i, item in enumerate(items):
            if item is not None or not derived:
                _string(name, item, f"pages.{key}[{i}]")
    chunks = _object(name, fragment.get("chunks"), "chunks")
    compact = manifest["format"] >= COMPACT_DISPLAY_FORMAT
    for key in ("anchor", "title") if compact else ("id", "anchor", "title"):
        items = _list(name, chunks.get(key), f"chunks.{key}", end - start)
        for i, item in enumerate(items):
            if item is not None or not compact:
                _string(name, item, f"chunks.{key}[{i}]")
    _wholes(name, chunks.get("level"), "chunks.level", end - start, 0, MAX_VARINT)
    n_chunks = manifest["counts"]["chunks"]
    key = "chunks.parents" if derived else "chunks.parent"
    stored: Any = (_numbered(name, chunks.get("parents"), key, end - start) if derived
                   else _list(name, chunks.get("parent"), key, end - start))
    for i, parent in stored.items() if derived else enumerate(stored):  # -1: a page's top chunk
        stored[i] = -1 if parent == -1 else _whole(name, parent, f"{key}[{i}]", 0, n_chunks - 1)
    if compact:
        if not derived:  # a format-8 fragment's parents are derived first: expand_display checks
            for i, item in enumerate(chunks["title"]):
                if item is None and not start <= stored[i] < start + i:
                    _fail(name, f"chunks.title[{i}]", "is null but its parent is not before it in the fragment")
        for key, value in _numbered(name, chunks.get("ids"), "chunks.ids", end - start).items():
            _string(name, value, f"chunks.ids[{key}]")
    return fragment


def _numbered(name: str, value: Any, what: str, n: int) -> dict[str, Any]:
    """An object keyed by chunk numbers in a fragment of `n` chunks (decimal, from 0)."""
    items = _object(name, value, what)
    for key in items:
        if not (key.isascii() and key.isdigit() and str(int(key)) == key and int(key) < n):
            _fail(name, what, f"has a key that is no chunk number from 0 to {n - 1}")
    return items


def check_encoder(data: Any, manifest: dict[str, Any]) -> dict[str, Any]:
    """encoder.json: shapes, row count and row scales (bundle/encoder_shards.py); its pca_dim is
    the dimension of vectors.bin's rows."""
    meta = _object(ENCODER, data, "the file")
    dim = manifest["vectors"]["dim"]
    meta["pca_dim"] = _whole(ENCODER, meta.get("pca_dim"), "pca_dim", dim, dim)
    meta["dim"] = _whole(ENCODER, meta.get("dim"), "dim", 1)
    meta["rows"] = _whole(ENCODER, meta.get("rows"), "rows")
    scales = _list(ENCODER, meta.get("row_scales"), "row_scales", dim)
    for i, scale in enumerate(scales):
        _number(ENCODER, scale, f"row_scales[{i}]")
    return meta
