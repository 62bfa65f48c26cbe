"""Bundle format v10: the files the plugin writes under `search/` and both engines read.

    manifest.json   format, generator, counts, search settings, facets (optional: the values
                    each filter facet has, for UI chips: index/facets.py), site_name (optional:
                    mkdocs.yml's; its home page defines it, index/documents.py), and each part's
                    CRC-32 (which names its file: see below)                     -- fetched first
    keyword.json    stems (stem -> its prose terms' indexes, optional: index/bm25.py), pages
                    and chunks (columnar, what ranking and filters read: pages.path, chunks.kind,
                    language, page; optional pages.tags, pages.language and chunks.defines:
                    index/documents.py)
                                                                                 -- first keystroke
    postings.<i>.bin  term shard i: the compact JSON list of its terms (UTF-8, no newline), a
                    newline byte, then varints: its T per-term posting counts, then its P
                    chunk-index deltas (restarting at each term), then its P quantized impacts
                                                  -- the shards of the query's terms, when typed
    terms.json      {"terms": every term, "postings": each one's posting count, "words": the
                    known words never typo-matched (optional; index/known_words.py)}: the term
                    dictionary typo (fuzzy) matching scans -- only for a token with no exact,
                    prefix or stem match
    graph.json      the chunk graph's edge types (index/graph.py)     -- vector and hybrid answers
    graph.<i>.json  the typed edges from chunks graph_starts[i] .. graph_starts[i + 1] - 1
                    (format 5 and older: those text.<i>.json covers; since format 10 on a
                    clustered site, no graph_starts: the chunks of display.<i>.json's pages),
                    CSR form (bundle/graph_shards.py)
                                                  -- the shards of the chunks an answer expands
    display.<i>.json  the display columns (chunk ids, anchors, titles, levels, parents; page
                    urls and titles: bundle/display.py) of chunks display_starts[i] ..
                    display_starts[i + 1] - 1 (format 4: text_starts, the chunks text.<i>.json
                    covers) and their pages; since format 6 compact (ids derived, a title or
                    anchor equal to its parent's null), since format 8 parents, page titles
                    and urls derived too; since format 10 on a clustered site the pages of
                    keyword.json's `pages.display` = i instead (bundle/display_groups.py)
                                                  -- the fragments of the results shown
    text.<i>.json   fragment i of the chunks' plain text snippets are cut from: the texts of
                    chunks text_starts[i] .. text_starts[i + 1] - 1 (the last: to the end) -- the
                    fragments of the results shown, when they are shown
    vectors.bin     passage vectors (chunks x dim, row-major) as rows of `vectors.bits`-bit
                    codes (bundle/vector_shards.py; no `bits`, format 4 and older: int8
                    bytes), then one float32 little-endian scale per chunk; format 10: by
                    columns (bundle/vector_shards.py table_bytes)                 -- semantic part
                    (a big site has instead centroids.bin -- semantic part -- and one
                    vectors.<i>.bin per group of clusters, fetched when a query probes one of
                    its clusters, or since format 6 per cluster, holding its hood, fetched
                    when a query takes it, both as compact codes, described by the manifest's
                    vectors.clusters: bundle/vector_shards.py)
    encoder.json    the static query encoder's shapes and row scales           -- semantic part
    encoder.<i>.bin  encoder shard i: the token rows and weights of a token range (manifest
                    `encoder.shards`: bundle/encoder_shards.py)      -- the query's pieces' shards
    encoder-model.bin  the PCA components (`--query-encoder model` only) -- never by the browser
    vocab.<i>.json  vocabulary shard i: the WordPiece entries whose key hashes to i (manifest
                    `encoder.vocab`: bundle/vocab_shards.py)         -- the query's words' shards
    words.bin       the site's commonest words with their WordPiece ids and rows (manifest
                    `encoder.words`, format 6: bundle/word_rows.py)             -- semantic part
    words.<i>.bin   word shard i: the other words hashing to i, their ids and rows
                                                               -- the shards of a pasted query's words
    related.json    optional (bundle/related.py): per page, its related pages     -- never by the browser
Terms are sorted by code point and numbered 0..T-1 in that order (stems and the engines use these
numbers); shard i holds terms term_shards.start[i] .. term_shards.start[i + 1] - 1 (the last: to
the end), the manifest's `term_shards` = {"first": each shard's first term ("" for shard 0),
"start": its first term's number, "postings": its first posting's number over all terms}. A term
t is in the last shard whose `first` is <= t; a shard ends near TERM_SHARD_BYTES, where the
writer chooses (bundle/term_cuts.py: readers take `term_shards` as written; at least one shard,
[""], [0], [0] for a site without terms).
Fragments end at page boundaries, each once it holds TEXT_FRAGMENT_BYTES (so a snippet, whose
text may come from a chunk's descendants, never needs two; a site whose texts hold at most
WHOLE_TEXT_BYTES: after a text not blank, once it holds SMALL_TEXT_FRAGMENT_BYTES), and the
manifest's `text_starts` lists each one's first chunk
(at least one fragment: [0] for an empty site). Display fragments likewise end at page boundaries,
each once it holds DISPLAY_FRAGMENT_BYTES (the manifest's `display_starts`, since format 5).
The semantic parts are present only when the bundle was built with embeddings
(manifest.vectors / manifest.encoder describe them). The manifest's optional `top` lists the
site's most connected pages (path, title, url) for an empty search box (bundle/related.py).

Layout on disk (v3 to v8): the names above are the parts' logical names. Every part is stored
under a content-hashed name, its logical name with its CRC-32 as eight lowercase hex digits before the
extension (`keyword.json` -> `keyword.3f9a1c2b.json`, `text.3.json` -> `text.3.0a1b2c3d.json`);
only manifest.json keeps its name. The manifest's `files` lists each part's CRC-32 (its name
follows from it): a single part under its logical name, the numbered parts of a kind as one list
by number under the kind's key (`{"keyword.json": <crc>, "text.#.json": [<crc of text.0.json>,
...], ...}`: file_key, compact_files), a few bytes gzipped a file. So a host may cache the parts
forever while readers fetch manifest.json fresh: a deploy can never mix the parts of two builds
(short of two builds' versions of a part sharing a CRC-32: 1 in 2^32).
Formats 1 and 2 (one text.json; format 1 without `name`) are refused with a message naming their
version: rebuild the site. Format 3 is read (its clustered vectors one cluster a file).

The manifest checks itself: it starts with `{"checksum":"` and eight lowercase hex digits, the
CRC-32 of the manifest's bytes with those eight digits read as `00000000` (`manifest_checksum`).
The writer puts it first (sorted keys do), so a reader finds it without parsing. A CRC-32 catches
every change of up to 32 bits in a row, so no single damaged byte (a bit flip, a torn write) of
a manifest or a part goes unnoticed; a truncated manifest is not JSON. A format-3 to -8 manifest
without it at its start is refused as corrupted, whatever its keys say (format 1 and older format-2
manifests lacked it: they are refused for their version), so no damaged byte can switch the check
off; every later format keeps this definition, so any reader tells a damaged manifest from a
newer one.

Every file is written deterministically (sorted keys, no floats beyond fixed rounding), so the
same docs give byte-identical bundles, file names included. A reader checks `format`, the
manifest's checksum, each file's CRC-32, then the shape of every value it reads
(schema.py), and reports which file is wrong. The writer (write.py) writes parts
first and the manifest last, each through a temporary file and an atomic rename, and removes
only the parts its previous manifest listed.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mkdocs_graphsearch.files.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np
else:  # loaded on first use (files/lazy.py)
    np = lazy_module("numpy")

#: The format this package writes; readers accept MIN_FORMAT_VERSION up to it. Format 5 stores
#: vectors.bin as codes of `vectors.bits` bits (format 4: int8, read as 8 bits); format 4 stores a
#: clustered bundle's vectors by groups of clusters (the manifest's `vectors.clusters.groups`);
#: format 3 (no `groups`: one cluster a file) is read as groups of one cluster. Format 5 also
#: sizes display fragments apart from text fragments (the manifest's `display_starts`); formats 3
#: and 4 (none) are read with display fragments over the text fragments' ranges. Format 6 adds
#: the word files (the manifest's `encoder.words`); without them a query's words are looked up
#: in the vocabulary shards alone. Format 6 may store a clustered bundle's vectors by hoods (the
#: manifest's `vectors.clusters.hood_chunks`). Format 7: a small site's text fragments may end
#: inside a page (INNER_TEXT_FORMAT). Format 8 derives more display columns and stores graph
#: shards compact (DERIVED_FORMAT). Format 9 stores the small fixed parts INLINE_PARTS in the
#: manifest (its `inline`) rather than as files. Format 10 may group display fragments by
#: meaning (GROUPED_DISPLAY_FORMAT) and stores the vector files by columns (COLUMN_FORMAT).
FORMAT_VERSION = 10
MIN_FORMAT_VERSION = 3
#: Format 6 stores display fragments compact (bundle/display.py: ids derived, a title equal to
#: its parent's and an anchor derived left out) and sizes graph shards apart from the text
#: fragments (the manifest's `graph_starts`: bundle/graph_shards.py); formats 3 to 5 are read as
#: they were written.
COMPACT_DISPLAY_FORMAT = 6
#: Format 7 text fragments may start inside a page (a small site's: SMALL_TEXT_FRAGMENT_BYTES);
#: formats 3 to 6 start each at a page, as display fragments and graph shards still do.
INNER_TEXT_FORMAT = 7
#: Format 8 display fragments leave out a chunk's parent derived from the levels, a page's title
#: equal to its top chunk's and a url derived from its path (bundle/display.py), and graph shards
#: store edge counts and targets relative to their source (bundle/graph_shards.py); formats 6 and
#: 7 store them as they are.
DERIVED_FORMAT = 8
#: Format 10 display fragments of a clustered site hold pages that rank together, not a range of
#: chunks (keyword.json's `pages.display`, the manifest's `display_count`:
#: bundle/display_groups.py); formats 3 to 9, and format 10 without `display_count`, hold ranges.
GROUPED_DISPLAY_FORMAT = 10
#: Format 10 stores each file of vector codes (vectors.bin, centroids and cluster files) as one
#: table by columns, which gzip packs smaller (bundle/vector_shards.py table_bytes); formats 3 to
#: 9 store them by rows.
COLUMN_FORMAT = 10
BUNDLE_DIR = "search"
MANIFEST = "manifest.json"
KEYWORD = "keyword.json"
TERMS = "terms.json"
GRAPH = "graph.json"
VECTORS = "vectors.bin"
ENCODER = "encoder.json"
ENCODER_BIN = "encoder.bin"  # the build's (and its cache's) whole table: no bundle part
ENCODER_MODEL = "encoder-model.bin"
WORDS = "words.bin"
VOCAB = "vocab.txt"  # the vocabulary joined from its shards (bundle/read.py): no bundle part
RELATED = "related.json"
#: Format 9: parts of a few hundred bytes to a few KiB that every answer they serve fetches, held
#: in the manifest's `inline` (part -> its text; `files` still lists their CRC-32): a request
#: each saved where a search's budget is counted in requests (issue 23). graph.json: every
#: expanding answer; encoder.json: every semantic answer.
INLINE_PARTS = (GRAPH, ENCODER)
#: The term shards store each BM25F impact as round(impact * IMPACT_SCALE), at least 1 (index/bm25.py);
#: the engines divide a summed score by the manifest's `impact_scale`.
IMPACT_SCALE = 256
#: A text fragment ends at the first page boundary once it holds this many bytes of JSON (a
#: bigger page is one fragment of its own); graph shards cover the same
#: chunks. Four times the size that sent the fewest bytes (benchmarks/results/history/
#: format3-work-log.md): each fragment is a request, and a search's budget is counted in requests
#: too (issue 23, docs/performance.md).
TEXT_FRAGMENT_BYTES = 32 * 1024
#: A site whose snippet texts hold at most this many bytes of JSON has one graph shard, and text
#: fragments of SMALL_TEXT_FRAGMENT_BYTES that may end inside a page (after a text that is not
#: blank, so a snippet still never needs two): the results of a query there show most of its
#: pages, so page-aligned fragments were each needed, but only a few sections of each page.
WHOLE_TEXT_BYTES = 256 * 1024
#: The fragments of such a site: a query's shown snippets need about half of them (issue 23:
#: bytes before the first hybrid result, at a request each; benchmarks/results/).
SMALL_TEXT_FRAGMENT_BYTES = 16 * 1024
#: A display fragment ends at the first page boundary once it holds this many bytes of JSON
#: (bundle/display.py): coarser than the text fragments, since every answer shown while the
#: reader types needs its pages' titles (a request per fragment), and the snippet texts only the
#: answer the reader stops at. Yet an answer's ten pages lie all over a large site, so an answer
#: on one fetched most of its fragments whatever their size: smaller ones cost it a request or
#: two more and save more bytes than those cost (issue 23; benchmarks/display_layout.py).
DISPLAY_FRAGMENT_BYTES = 24 * 1024
#: A graph shard ends at the first page boundary once its edges hold this many bytes of JSON
#: (since format 6: bundle/graph_shards.py shard_starts): an expansion fetches its seeds'
#: shards, and its seeds are a few pages, mostly near one another in the site.
GRAPH_SHARD_BYTES = 16 * 1024


#: A term shard ends near this many bytes (terms and varints; where: bundle/term_cuts.py): a query
#: fetches a few shards, not every posting of the site. Twice the size that sent the fewest bytes
#: (benchmarks/results/history/format3-work-log.md): a typed word costs fewer requests (issue 23,
#: docs/performance.md); cutting where adjacent terms share the shortest prefix keeps a typed
#: word's prefix range in as few shards as the larger size did.
TERM_SHARD_BYTES = 16 * 1024
#: A site whose postings fill fewer than TERM_SHARDS shards of TERM_SHARD_BYTES has smaller ones
#: (its postings over TERM_SHARDS, at least MIN_TERM_SHARD_BYTES): a session on it can never fetch
#: more than its few shards, so a query's words cost fewer bytes there at little cost in requests;
#: a large site keeps TERM_SHARD_BYTES, where a typed question's prefixes would touch many shards.
TERM_SHARDS = 32
MIN_TERM_SHARD_BYTES = 4 * 1024


def postings_shard(index: int) -> str:
    """The logical name of term shard `index`: `postings.0.bin`, `postings.1.bin`, ..."""
    return f"postings.{index}.bin"


def encoder_shard(index: int) -> str:
    """The logical name of encoder shard `index`: `encoder.0.bin`, ... (bundle/encoder_shards.py)."""
    return f"encoder.{index}.bin"


def vocab_shard(index: int) -> str:
    """The logical name of vocabulary shard `index`: `vocab.0.json`, ... (bundle/vocab_shards.py)."""
    return f"vocab.{index}.json"


def word_shard(index: int) -> str:
    """The logical name of word shard `index`: `words.0.bin`, ... (bundle/word_rows.py)."""
    return f"words.{index}.bin"


def text_fragment(index: int) -> str:
    """The logical name of text fragment `index`: `text.0.json`, `text.1.json`, ..."""
    return f"text.{index}.json"


def graph_shard(index: int) -> str:
    """The logical name of graph shard `index` (bundle/graph_shards.py): `graph.0.json`, ..."""
    return f"graph.{index}.json"


def display_fragment(index: int) -> str:
    """The logical name of display fragment `index` (bundle/display.py): `display.0.json`, ..."""
    return f"display.{index}.json"


#: A numbered part (`text.3.json`): its kind's key in the manifest's `files` is `text.#.json`.
_NUMBERED = re.compile(r"(.+)\.(\d+)\.([^.]+)")


class BundleError(Exception):
    """A bundle that is missing, newer than this reader, truncated or corrupted."""


def file_key(part: str) -> tuple[str, int | None]:
    """A part's key in the manifest's `files` and its number there: `text.3.json` -> (`text.#.json`,
    3), `keyword.json` -> (`keyword.json`, None)."""
    match = _NUMBERED.fullmatch(part)
    return (f"{match[1]}.#.{match[3]}", int(match[2])) if match else (part, None)


def stored_name(part: str, crc: int) -> str:
    """The file a part with this CRC-32 is stored under: its logical name with the CRC's eight
    lowercase hex digits before the extension (`text.3.json` -> `text.3.0a1b2c3d.json`)."""
    stem, dot, ext = part.rpartition(".")
    return f"{stem}.{crc:08x}.{ext}" if dot else f"{part}.{crc:08x}"


def hashed_name(part: str, data: bytes) -> str:
    """The file name a part is stored under: `keyword.json` -> `keyword.<crc32>.json`."""
    return stored_name(part, checksum(data))


def compact_files(crcs: dict[str, int]) -> dict[str, int | list[int]]:
    """The manifest's `files`: per single part its CRC-32, per kind of numbered part the list of
    its parts' CRC-32s by number (`{"keyword.json": c, "text.#.json": [c0, c1, ...]}`)."""
    files: dict[str, int | list[int]] = {}
    numbered: dict[str, dict[int, int]] = {}
    for part, crc in sorted(crcs.items()):
        key, index = file_key(part)
        if index is None:
            files[key] = crc
        else:
            numbered.setdefault(key, {})[index] = crc
    for key, by_number in numbered.items():
        if sorted(by_number) != list(range(len(by_number))):
            raise ValueError(f"the parts {key} are not numbered 0, 1, ...")
        files[key] = [by_number[i] for i in range(len(by_number))]
    return files


def part_crc(manifest: dict[str, Any], part: str) -> int:
    """A part's CRC-32 as the manifest lists it (BundleError when it does not)."""
    files = manifest.get("files")
    key, index = file_key(part)
    value = files.get(key) if isinstance(files, dict) else None
    if index is not None:
        value = value[index] if isinstance(value, list) and index < len(value) else None
    if type(value) is not int or not 0 <= value <= 0xFFFFFFFF:
        raise BundleError(f"{MANIFEST} does not list {part}")
    return value


def file_name(manifest: dict[str, Any], part: str) -> str:
    """The file a manifest stores a part in (its name follows from its CRC-32: stored_name)."""
    return stored_name(part, part_crc(manifest, part))


def inline_part(manifest: dict[str, Any], part: str) -> bytes | None:
    """A part the manifest holds (its `inline`, format 9: INLINE_PARTS), or None: one in a file."""
    inline = manifest.get("inline")
    text = inline.get(part) if isinstance(inline, dict) else None
    return text.encode() if isinstance(text, str) else None


def listed_parts(manifest: dict[str, Any]) -> list[str]:
    """Every part a manifest's `files` lists as a file (what is not a CRC-32 or a list of them is
    skipped, and so is a part the manifest holds: inline_part)."""
    files = manifest.get("files")
    parts: list[str] = []
    for key, value in files.items() if isinstance(files, dict) else ():
        if "#" not in key:
            parts.append(key)
        elif isinstance(value, list):
            parts += [key.replace(".#.", f".{i}.", 1) for i in range(len(value))]
    return [part for part in parts if _lists(manifest, part) and inline_part(manifest, part) is None]


def _lists(manifest: dict[str, Any], part: str) -> bool:
    try:
        return bool(file_name(manifest, part))
    except BundleError:
        return False


#: The largest varint value: 2^53 - 1, the largest integer a JavaScript number holds exactly
#: (js/src/engine/bundle/format.js decodes into float64), so both engines read every value exactly.
MAX_VARINT = 2**53 - 1
#: Bytes a varint may take (9 x 7 bits; only zero-padded values reach 9 bytes below MAX_VARINT).
MAX_VARINT_BYTES = 9


def encode_varints(values: Iterable[int]) -> bytes:
    """Unsigned LEB128: 7 bits a byte, high bit set on every byte but a value's last."""
    out = bytearray()
    for value in values:
        if not 0 <= value <= MAX_VARINT:
            raise ValueError(f"varint must be in 0..2^53 - 1, got {value}")
        while value >= 0x80:
            out.append((value & 0x7F) | 0x80)
            value >>= 7
        out.append(value)
    return bytes(out)


def decode_varints(data: bytes) -> np.ndarray:
    """All varints in `data` as int64 (vectorised); raises BundleError on a cut-off value, one
    longer than MAX_VARINT_BYTES or above MAX_VARINT (tests/vectors/varints.json: same errors in JS)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if raw.size == 0:
        return np.zeros(0, dtype=np.int64)
    if raw[-1] & 0x80:
        raise BundleError("varint stream ends inside a value")
    last = (raw & 0x80) == 0
    value_of_byte = np.concatenate(([0], np.cumsum(last)[:-1]))
    starts = np.flatnonzero(np.concatenate(([True], last[:-1])))
    position = np.arange(raw.size) - starts[value_of_byte]
    if position.max() >= MAX_VARINT_BYTES:
        raise BundleError(f"varint longer than {MAX_VARINT_BYTES} bytes")
    parts = (raw & 0x7F).astype(np.int64) << (7 * position)
    values = np.add.reduceat(parts, starts)
    if values.max() > MAX_VARINT:
        raise BundleError("varint above 2^53 - 1")
    return values


def checksum(data: bytes) -> int:
    """CRC-32 (zlib's polynomial), the integrity check js/src/engine/bundle/format.js computes too."""
    return zlib.crc32(data) & 0xFFFFFFFF


#: A manifest with a checksum starts with this, then CHECKSUM_DIGITS lowercase hex digits and `"`.
CHECKSUM_PREFIX = b'{"checksum":"'
CHECKSUM_DIGITS = 8
_CHECKSUM_END = len(CHECKSUM_PREFIX) + CHECKSUM_DIGITS


def manifest_checksum(data: bytes) -> int:
    """The CRC-32 of a manifest's bytes with its checksum's digits read as zeros."""
    return checksum(data[: len(CHECKSUM_PREFIX)] + b"0" * CHECKSUM_DIGITS + data[_CHECKSUM_END:])


def seal_manifest(data: bytes) -> bytes:
    """A manifest (compact JSON, sorted keys, no `checksum`) with its checksum first."""
    if not data.startswith(b"{") or data.startswith(CHECKSUM_PREFIX):
        raise ValueError("seal_manifest takes a JSON object without a checksum")
    unsealed = CHECKSUM_PREFIX + b"0" * CHECKSUM_DIGITS + (b'",' if data != b"{}" else b'"') + data[1:]
    digits = f"{manifest_checksum(unsealed):08x}".encode()
    return unsealed[: len(CHECKSUM_PREFIX)] + digits + unsealed[_CHECKSUM_END:]


def verify_manifest(data: bytes) -> bool:
    """True when the manifest's checksum holds, False when it has none at its start (the caller
    refuses it once the format is known: too old, or corrupted); BundleError when it differs."""
    if not data.startswith(CHECKSUM_PREFIX):
        return False
    digits = data[len(CHECKSUM_PREFIX) : _CHECKSUM_END]
    if data[_CHECKSUM_END : _CHECKSUM_END + 1] != b'"' or not re.fullmatch(rb"[0-9a-f]{8}", digits):
        raise BundleError(f"{MANIFEST} is corrupted (its checksum is not {CHECKSUM_DIGITS} hex digits)")
    if int(digits, 16) != manifest_checksum(data):
        raise BundleError(f"{MANIFEST} is corrupted (its checksum differs from its content)")
    return True
