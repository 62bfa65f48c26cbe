"""Serialise the bundle's documents into bundle files (see format.py for the layout).

The writer takes plain data (the documents index/documents.py makes, the graph's JSON, the chunks'
texts): it knows the format, not the index's classes, so bundle/ imports nothing from index/.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from importlib.metadata import version
from itertools import accumulate
from pathlib import Path, PurePosixPath
from typing import Any

import orjson

from mkdocs_graphsearch.bundle.display import Run, compact_display, display_part, fragment_starts, grouped_pages
from mkdocs_graphsearch.bundle.display_groups import (
    fragment_runs,
    page_clusters,
    page_firsts,
    run_chunks,
)
from mkdocs_graphsearch.bundle.format import (
    FORMAT_VERSION,
    IMPACT_SCALE,
    INLINE_PARTS,
    KEYWORD,
    MANIFEST,
    MIN_TERM_SHARD_BYTES,
    SMALL_TEXT_FRAGMENT_BYTES,
    TERM_SHARD_BYTES,
    TERM_SHARDS,
    TERMS,
    TEXT_FRAGMENT_BYTES,
    WHOLE_TEXT_BYTES,
    checksum,
    compact_files,
    encode_varints,
    file_name,
    hashed_name,
    listed_parts,
    postings_shard,
    seal_manifest,
    text_fragment,
)
from mkdocs_graphsearch.bundle.graph_shards import graph_part, shard_starts
from mkdocs_graphsearch.bundle.kept import KeptParts, holds_bytes
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.bundle.term_cuts import shard_starts as term_shard_starts
from mkdocs_graphsearch.files.atomic import remove_stale_temporaries, write_atomic
from mkdocs_graphsearch.files.bounded import MAX_MANIFEST, read_bounded
from mkdocs_graphsearch.text.blank import has_text

_JSON_OPTIONS = orjson.OPT_SORT_KEYS

#: Per term, its postings: (chunk index, quantized impact) by ascending chunk index.
Postings = Sequence[Sequence[tuple[int, int]]]


def dumps(data: object) -> bytes:
    """Deterministic JSON: sorted keys, compact, UTF-8."""
    return orjson.dumps(data, option=_JSON_OPTIONS)


def postings_bytes(
    terms: Sequence[str], postings: Postings, stems: Mapping[str, Sequence[int]], defines: Mapping[str, Sequence[int]]
) -> bytes:
    """One term shard: its terms as compact JSON, a newline, the stems in its term range as a
    compact JSON object (stem -> term numbers), a newline, the definition names in its term range
    likewise (name -> chunk numbers: defines_index), a newline, then its postings' varints."""
    counts = [len(term_postings) for term_postings in postings]
    deltas: list[int] = []
    impacts: list[int] = []
    for term_postings in postings:
        previous = 0
        for chunk, impact in term_postings:
            deltas.append(chunk - previous)
            previous = chunk
            impacts.append(impact)
    lines = dumps(list(terms)) + b"\n" + dumps(dict(stems)) + b"\n" + dumps(dict(defines)) + b"\n"
    return lines + encode_varints(counts + deltas + impacts)


def defines_index(column: Sequence[Sequence[str]]) -> dict[str, list[int]]:
    """keyword.json's `chunks.defines` inverted: each name a chunk defines, and each part of it
    after a dot, -> those chunks, rising. So a token t has chunk c iff c defines a name that is
    t or ends in "." + t (engine/fuse.py defines)."""
    index: dict[str, set[int]] = {}
    for chunk, names in enumerate(column):
        for name in names:
            for key in {name, *(name[i + 1 :] for i, char in enumerate(name) if char == ".")}:
                index.setdefault(key, set()).add(chunk)
    return {key: sorted(chunks) for key, chunks in sorted(index.items())}


def term_shard_target(sizes: Sequence[int]) -> int:
    """The bytes a term shard holds before it ends, for terms of these sizes (format.py TERM_SHARDS)."""
    return min(TERM_SHARD_BYTES, max(MIN_TERM_SHARD_BYTES, -(-sum(sizes) // TERM_SHARDS)))


def keyword_part(
    keyword: Mapping[str, Any], postings: Postings, target: int | None = None
) -> tuple[dict[str, bytes], dict[str, list[Any]]]:
    """keyword.json (without its terms, stems and chunks.defines), the term shards, the term
    dictionary, and the manifest's `term_shards`: a shard ends near `target` bytes
    (term_shard_target by default) where bundle/term_cuts.py puts its boundary, and holds the
    stems and the definition names in its term range (a query's stem lookup needs the shard of
    the stem's string, usually the token's own; a definition lookup the shard of the token or
    completion, always loaded: format.py)."""
    terms: list[str] = list(keyword["terms"])
    sizes = [len(dumps(term)) + 3 * len(term_postings) + 1 for term, term_postings in zip(terms, postings, strict=True)]
    target = term_shard_target(sizes) if target is None else target
    starts = term_shard_starts(terms, sizes, target)
    posted = [0, *accumulate(len(term_postings) for term_postings in postings)]
    shards: dict[str, list[Any]] = {
        "first": ["", *(terms[start] for start in starts[1:])],
        "start": starts,
        "postings": [posted[start] for start in starts],
    }
    ends = [*shards["start"][1:], len(terms)]
    stems: list[dict[str, list[int]]] = [{} for _ in ends]
    for stem, stem_terms in keyword.get("stems", {}).items():  # str order is code point order
        stems[bisect_right(shards["first"], stem) - 1][stem] = stem_terms
    defines: list[dict[str, list[int]]] = [{} for _ in ends]
    for name, chunks in defines_index(keyword["chunks"].get("defines", [])).items():
        defines[bisect_right(shards["first"], name) - 1][name] = chunks
    parts = {
        postings_shard(i): postings_bytes(terms[start:end], postings[start:end], stems[i], defines[i])
        for i, (start, end) in enumerate(zip(shards["start"], ends, strict=True))
    }
    rest = {key: value for key, value in keyword.items() if key not in ("terms", "stems", "words")}
    rest["chunks"] = {key: value for key, value in keyword["chunks"].items() if key != "defines"}
    parts[KEYWORD] = dumps(rest)
    dictionary: dict[str, object] = {"terms": terms, "postings": [len(term_postings) for term_postings in postings]}
    if "words" in keyword:
        dictionary["words"] = keyword["words"]
    parts[TERMS] = dumps(dictionary)
    return parts, shards


def small_site(sizes: Sequence[int]) -> bool:
    """Whether a site is small: its texts (`sizes`: text_sizes') hold at most WHOLE_TEXT_BYTES.
    Its texts come in small fragments and its graph in one shard (worker.js oneGraphShard)."""
    return sum(sizes) <= WHOLE_TEXT_BYTES


def text_part(
    texts: Sequence[str],
    sizes: Sequence[int],
    pages: Sequence[int],
    settings: SearchSettings,
    target: int = TEXT_FRAGMENT_BYTES,
) -> tuple[dict[str, bytes], list[int]]:
    """The text fragments (each chunk's text cut to what snippets use) and each one's first chunk:
    a fragment ends at the first page boundary once it holds `target` bytes; where all the texts
    hold at most WHOLE_TEXT_BYTES, at the first chunk after a text that is not blank once it
    holds SMALL_TEXT_FRAGMENT_BYTES (format.py). `sizes`: text_sizes'."""
    small = small_site(sizes)
    cut = [text[: settings.snippet_source_chars] for text in texts]
    limit = SMALL_TEXT_FRAGMENT_BYTES if small else target
    starts = [0]
    size = 0
    for chunk, held in enumerate(sizes):
        # A snippet's text is its chunk's or the first not blank after it among its descendants
        # (engine/snippet.py source_text): after a text not blank, no snippet reads on.
        if chunk and size >= limit and (has_text(cut[chunk - 1]) if small else pages[chunk] != pages[chunk - 1]):
            starts.append(chunk)
            size = 0
        size += held
    ranges = enumerate(zip(starts, [*starts[1:], len(cut)], strict=True))
    fragments = {text_fragment(i): dumps(cut[start:end]) for i, (start, end) in ranges}
    return fragments, starts


def text_sizes(texts: Sequence[str], settings: SearchSettings) -> list[int]:
    """Each chunk's bytes in its text fragment (its text cut to what snippets use, as JSON)."""
    return [len(dumps(text[: settings.snippet_source_chars])) + 1 for text in texts]


def manifest(
    counts: Mapping[str, int],
    settings: SearchSettings,
    files: dict[str, bytes],
    extra: Mapping[str, object] | None = None,
) -> bytes:
    data: dict[str, object] = {
        "format": FORMAT_VERSION,
        "generator": f"mkdocs-graphsearch {version('mkdocs-graphsearch')}",
        "counts": dict(counts),
        "impact_scale": IMPACT_SCALE,
        "search": settings.to_json(),
        "files": compact_files({part: checksum(data) for part, data in files.items()}),
    }
    data.update(extra or {})
    return sealed_manifest(data)


def sealed_manifest(data: Mapping[str, object]) -> bytes:
    """manifest.json's bytes: `data` (less any stale `checksum`) with its checksum first."""
    return seal_manifest(dumps({key: value for key, value in data.items() if key != "checksum"}))


def build_bundle(
    *,
    keyword: Mapping[str, Any],
    postings: Postings,
    graph: Mapping[str, Any],
    texts: Sequence[str],
    settings: SearchSettings,
    extra_files: Mapping[str, bytes] | None = None,
    extra_manifest: Mapping[str, object] | None = None,
    chunk_clusters: Sequence[int] | None = None,
) -> dict[str, bytes]:
    """All bundle files by the name they are written under (parts content-hashed), manifest included.

    `keyword` is keyword.json's document (its `pages` and `chunks` columns give the counts),
    `graph` graph.json's, `texts` each chunk's text; `chunk_clusters`: each chunk's vector
    cluster, when clustered (its display fragments are then grouped: bundle/display_groups.py).
    """
    sizes = text_sizes(texts, settings)
    fragments, text_starts = text_part(texts, sizes, keyword["chunks"]["page"], settings)
    scoring, displays, layout, runs = display_layout(keyword, chunk_clusters)
    if runs is not None and not small_site(sizes):  # the graph grouped as the display fragments
        graph_parts = graph_part(graph, [], [run_chunks(each) for each in runs])
    else:  # a small site keeps one graph shard: worker.js fetches it with the manifest, as every
        # expansion there needs it
        graph_starts = [0] if small_site(sizes) else shard_starts(graph, keyword["chunks"]["page"])
        graph_parts, layout["graph_starts"] = graph_part(graph, graph_starts), graph_starts
    keyword_parts, term_shards = keyword_part(scoring, postings)
    parts = {
        **keyword_parts,
        **graph_parts,
        **fragments,
        **displays,
        **(extra_files or {}),
    }
    counts = {
        "pages": len(keyword["pages"]["path"]),
        "chunks": len(keyword["chunks"]["id"]),
        "terms": len(keyword["terms"]),
        "postings": sum(len(term_postings) for term_postings in postings),
    }
    inline = {part: parts[part].decode() for part in INLINE_PARTS if part in parts}
    files = {hashed_name(part, data): data for part, data in parts.items() if part not in inline}
    layout.update(text_starts=text_starts, term_shards=term_shards, inline=inline)
    files[MANIFEST] = manifest(counts, settings, parts, {**layout, **(extra_manifest or {})})
    return files


def display_layout(
    keyword: Mapping[str, Any], chunk_clusters: Sequence[int] | None
) -> tuple[dict[str, Any], dict[str, bytes], dict[str, object], list[list[Run]] | None]:
    """keyword.json's document without its display columns, the display fragments, their
    manifest entry and, grouped (`chunk_clusters` given: bundle/display_groups.py), each
    fragment's runs (else None)."""
    compact = compact_display(keyword)  # once for both
    if chunk_clusters is None:
        starts = fragment_starts(keyword, compact=compact)
        scoring, displays = display_part(keyword, starts, compact)
        return scoring, displays, {"display_starts": starts}, None
    chunk_pages, n_pages = keyword["chunks"]["page"], len(keyword["pages"]["path"])
    firsts = page_firsts(chunk_pages, n_pages)
    page_display = grouped_pages(compact, firsts, page_clusters(chunk_pages, chunk_clusters, n_pages))
    count = max(page_display, default=0) + 1
    runs = fragment_runs(firsts, page_display, count)
    scoring, displays = display_part(keyword, [], compact, runs)
    scoring["pages"] = {**scoring["pages"], "display": page_display}
    return scoring, displays, {"display_count": count}, runs


def previous_files(out_dir: Path) -> set[str]:
    """The parts the graphsearch manifest in out_dir lists (nothing when there is none, or it is
    someone else's manifest.json): the only parts write_bundle may ever remove."""
    try:
        data = orjson.loads(read_bounded(out_dir / MANIFEST, MAX_MANIFEST, MANIFEST))
    except (OSError, ValueError):  # unreadable, refused (a FIFO, too large: RefusedInput) or not JSON
        return set()
    if not (
        isinstance(data, dict)
        and isinstance(data.get("format"), int)
        and isinstance(data.get("files"), dict)
        and str(data.get("generator", "")).startswith("mkdocs-graphsearch ")
    ):
        return set()
    # Only names this writer would have written (listed_parts skips the rest: left alone), and
    # only files of out_dir itself: a manifest naming `../index.html` removes nothing outside it.
    names = {file_name(data, part) for part in listed_parts(data)}
    return {name for name in names if PurePosixPath(name).name == name and "\\" not in name and name != ".."}


def write_bundle(out_dir: Path, files: dict[str, bytes], kept: Path | None = None) -> None:
    """Write a bundle into out_dir: parts first, manifest last, each atomically, then remove the
    parts of the previous bundle that the new one no longer lists. `kept`: the cache's folder of
    the last bundle's parts (bundle/kept.py); those with the same bytes are linked, not written,
    and it is left holding this bundle's parts.

    Only files the previous manifest.json (a graphsearch manifest) names are ever removed, and
    the temporary files of a writer that was killed mid-write (atomic.remove_stale_temporaries):
    other files in the folder (MkDocs' search_index.json, a site's own data) stay. If any write
    fails, the previous manifest and all its parts are still there, so the old bundle keeps loading.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out_dir)  # of a build killed mid-write: never deployed
    stale = previous_files(out_dir)
    present = set(os.listdir(out_dir))  # one listing, not a stat per part (none after MkDocs' clean)
    parts = KeptParts(kept) if kept is not None else None
    folder = os.fspath(out_dir)  # str paths: pathlib's cost is felt over hundreds of parts
    for name in sorted(files, key=lambda n: (n == MANIFEST, n)):
        target = os.path.join(folder, name)
        # A content-hashed part already on disk has these very bytes: leave it (and its mtime).
        if name != MANIFEST and name in present and holds_bytes(target, files[name]):
            continue
        if name != MANIFEST and parts is not None and parts.take(name, files[name], target):
            continue
        write_atomic(target, files[name])
        if name != MANIFEST and parts is not None:
            parts.keep(name, target)
    for name in sorted(stale - set(files) - {MANIFEST}):
        (out_dir / name).unlink(missing_ok=True)
    if parts is not None:
        parts.prune(set(files))
