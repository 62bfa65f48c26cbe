"""The shared tokenizer's Unicode data: one generated table for both engines.

js/src/engine/text/unicode-table.js (written by scripts/make_unicode_table.py from one Unicode
version) is read here and by js/src/engine/text/tokenize.js, so the Python and JS tokenizers
classify, lowercase and normalise every code point alike, whatever Unicode version `unicodedata`
or the browser's ICU carries (they differ: Python 3.11 has Unicode 14, Node 20 and Chromium
newer ones). Nothing
here asks the interpreter what a character is, except NFKC of code points assigned in Unicode
3.2, which is the same in every Unicode version since 4.1 (normalization stability).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import orjson

from mkdocs_graphsearch.files.package_data import js_dir

OTHER, LETTER, UPPER, LOWER, MARK, NUMBER, CJK = range(7)
_PREFIX = "export const UNICODE_TABLE = "


def table_file() -> Path:
    return js_dir() / "src" / "engine" / "text" / "unicode-table.js"


def decode_ranges(encoded: str) -> list[tuple[int, int]]:
    """Inclusive (start, end) ranges of `gap[+length]` hex items (js/src/engine/text/ranges.js decodeRanges)."""
    ranges: list[tuple[int, int]] = []
    previous = -1
    for item in encoded.split():
        gap, _, length = item.partition("+")
        start = previous + 1 + int(gap, 16)
        previous = start + int(length or "0", 16)
        ranges.append((start, previous))
    return ranges


@dataclass(frozen=True)
class UnicodeTable:
    unicode_version: str
    #: The class (OTHER .. CJK) of every code point, indexed by code point.
    classes: bytes
    #: str.translate table: code point -> its lowercase (only those that change).
    lowercase: dict[int, str]
    #: Runs of code points NFKC leaves alone and does not cross (not assigned in Unicode 3.2).
    kept: re.Pattern[str]


def parse_table(source: str) -> UnicodeTable:
    """The table in the text of js/src/engine/text/unicode-table.js (one JSON object after its export)."""
    start = source.index(_PREFIX) + len(_PREFIX)
    data = orjson.loads(source[start:].rstrip().removesuffix(";"))
    classes = bytearray(0x110000)
    # Later lines win: upper and lower are letters, CJK blocks override every category.
    for key, value in (("letter", LETTER), ("upper", UPPER), ("lower", LOWER), ("mark", MARK),
                       ("number", NUMBER), ("cjk", CJK)):
        for lo, hi in decode_ranges(data[key]):
            classes[lo : hi + 1] = bytes([value]) * (hi - lo + 1)
    lowercase = _decode_lowercase(data["lowercase"])
    lowercase.update({code: text for code, text in data["lowercase_multiple"]})
    # The code points between the ranges NFKC applies to.
    assigned = decode_ranges(data["nfkc"])
    bounds = zip([(-1, -1), *assigned], [*assigned, (0x110000, 0)], strict=True)
    gaps = [(end + 1, start - 1) for (_, end), (start, _) in bounds if end + 1 < start]
    ranges = "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in gaps)
    return UnicodeTable(data["unicode_version"], bytes(classes), lowercase, re.compile(f"([{ranges}]+)"))


def _decode_lowercase(encoded: str) -> dict[int, str]:
    """`gap[+length]:delta` items: each code point of the range maps to code point + delta."""
    items = [item.partition(":") for item in encoded.split()]
    ranges = decode_ranges(" ".join(span for span, _, _ in items))
    return {
        code: chr(code + int(delta, 16))
        for (lo, hi), (_, _, delta) in zip(ranges, items, strict=True)
        for code in range(lo, hi + 1)
    }


@lru_cache(maxsize=1)
def unicode_table() -> UnicodeTable:
    return parse_table(table_file().read_text(encoding="utf-8"))


def normalize(text: str) -> str:
    """NFKC of each run of code points assigned in Unicode 3.2; every other code point is kept
    as it is, and normalisation does not cross it (what an engine that does not know it does)."""
    if text.isascii():
        return text
    pieces = unicode_table().kept.split(text)
    pieces[::2] = [unicodedata.normalize("NFKC", piece) for piece in pieces[::2]]
    return "".join(pieces)


def lower(text: str) -> str:
    """The table's lowercase of every code point (full mappings, final sigma folded to sigma)."""
    return text.lower() if text.isascii() else text.translate(unicode_table().lowercase)
