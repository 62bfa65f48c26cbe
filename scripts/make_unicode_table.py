"""Regenerate js/src/engine/text/unicode-table.js: the shared tokenizer's Unicode data, from ONE
Unicode version (this interpreter's `unicodedata`, recorded in the file).

Both engines read that one file (mkdocs_graphsearch/text/unicode_table.py and
js/src/engine/text/tokenize.js), so they classify, lowercase and normalise every code point
alike, whatever Unicode version Python's `unicodedata` or the browser's ICU carries. The output
depends only on the Unicode version (`unicodedata.unidata_version`): the same version always
writes the same bytes. A new
version changes what some characters are: regenerate on purpose, then the tokenizer vectors
(scripts/make_tokenizer_vectors.py), read both diffs and name the version in CHANGELOG.md.

    .venv/bin/python scripts/make_unicode_table.py
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import orjson

OUT = Path(__file__).resolve().parents[1] / "js" / "src" / "engine" / "text" / "unicode-table.js"
CODE_POINTS = range(0x110000)

#: Inclusive code point ranges the tokenizer treats as CJK (bigram-tokenised, rule 5), whatever
#: their general category. A fixed list of blocks: it does not move with the Unicode version.
CJK_BLOCKS: tuple[tuple[int, int, str], ...] = (
    (0x1100, 0x11FF, "Hangul Jamo"),
    (0x3005, 0x3007, "ideographic iteration mark, closing mark, number zero (々 〆 〇)"),
    (0x3040, 0x30FA, "Hiragana, Katakana (up to the middle dot ・, a separator)"),
    (0x30FC, 0x30FF, "Katakana prolonged sound mark ー, iteration marks, digraph"),
    (0x3130, 0x318F, "Hangul Compatibility Jamo"),
    (0x31F0, 0x31FF, "Katakana Phonetic Extensions"),
    (0x3400, 0x4DBF, "CJK Extension A"),
    (0x4E00, 0x9FFF, "CJK Unified Ideographs"),
    (0xA960, 0xA97F, "Hangul Jamo Extended-A"),
    (0xAC00, 0xD7FF, "Hangul Syllables, Hangul Jamo Extended-B"),
    (0xF900, 0xFAFF, "CJK Compatibility Ideographs"),
    (0x1AFF0, 0x1B16F, "Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana Extension"),
    (0x20000, 0x3FFFF, "planes 2 and 3: CJK Extensions B and later, Compatibility Supplement"),
)

#: Tokenizer rule 4 folds final sigma into sigma: part of the lowercase mapping.
FOLDS = {0x03C2: "\u03c3"}


def encode_ranges(code_points: list[int]) -> str:
    """Space-separated `gap[+length]` in hex: gap from the end of the previous range + 1
    (from -1 for the first), length = end - start (js/src/engine/text/ranges.js decodes it)."""
    parts: list[str] = []
    previous = -1
    for start, end in _runs(code_points):
        parts.append(f"{start - previous - 1:x}" + (f"+{end - start:x}" if end > start else ""))
        previous = end
    return " ".join(parts)


def _runs(code_points: list[int]) -> list[tuple[int, int]]:
    runs: list[list[int]] = []
    for c in code_points:
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return [(start, end) for start, end in runs]


def encode_lowercase(mapping: dict[int, int]) -> str:
    """Single code point mappings as `gap[+length]:delta` (hex, delta signed): each run of
    consecutive code points that all map to code point + delta is one entry."""
    parts: list[str] = []
    previous = -1
    items = sorted(mapping.items())
    i = 0
    while i < len(items):
        start, target = items[i]
        delta = target - start
        j = i
        while j + 1 < len(items) and items[j + 1][0] == items[j][0] + 1 and items[j + 1][1] - items[j + 1][0] == delta:
            j += 1
        end = items[j][0]
        length = f"+{end - start:x}" if end > start else ""
        parts.append(f"{start - previous - 1:x}{length}:{'-' if delta < 0 else ''}{abs(delta):x}")
        previous = end
        i = j + 1
    return " ".join(parts)


def table() -> dict[str, object]:
    chars = [chr(c) for c in CODE_POINTS]
    categories = [unicodedata.category(ch) for ch in chars]

    def where(test: object) -> str:
        return encode_ranges([c for c in CODE_POINTS if test(categories[c])])  # type: ignore[operator]

    single: dict[int, int] = {}
    multiple: list[list[object]] = []
    for c, ch in enumerate(chars):
        if categories[c] == "Cs":
            continue
        lowered = FOLDS.get(c, ch.lower())
        if lowered == ch:
            continue
        if len(lowered) == 1:
            single[c] = ord(lowered)
        else:
            multiple.append([c, lowered])
    cjk = [c for lo, hi, _ in CJK_BLOCKS for c in range(lo, hi + 1)]
    old = unicodedata.ucd_3_2_0
    return {
        "unicode_version": unicodedata.unidata_version,
        "cjk": encode_ranges(cjk),
        "letter": where(lambda cat: cat[0] == "L"),
        "upper": where(lambda cat: cat in ("Lu", "Lt")),
        "lower": where(lambda cat: cat == "Ll"),
        "mark": where(lambda cat: cat[0] == "M"),
        "number": where(lambda cat: cat[0] == "N"),
        "nfkc": encode_ranges([c for c in CODE_POINTS if old.category(chars[c]) != "Cn"]),
        "lowercase": encode_lowercase(single),
        "lowercase_multiple": multiple,
    }


HEADER = """\
// @ts-check
// GENERATED by scripts/make_unicode_table.py from Unicode {version}: do not edit.
// The shared tokenizer's Unicode data, read by js/src/engine/text/tokenize.js and by
// mkdocs_graphsearch/text/unicode_table.py, so that both engines classify, lowercase and
// normalise every code point alike whatever Unicode version their interpreter has:
// - cjk: the tokenizer's CJK blocks (a fixed list, in the script);
// - letter (L*), upper (Lu, Lt), lower (Ll), mark (M*), number (N*): general categories;
// - nfkc: code points assigned in Unicode 3.2, which NFKC normalises identically in every
//   Unicode version since 4.1 (normalization stability): others are kept as they are;
// - lowercase: full lowercase mappings (final sigma folded to sigma), `:delta` added to each
//   code point of a range; lowercase_multiple: [code point, lowercase] of the longer ones.
// Ranges are space-separated `gap[+length]` in hex (js/src/engine/text/ranges.js).
export const UNICODE_TABLE = """


def render() -> bytes:
    data = table()
    body = orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    return (HEADER.format(version=data["unicode_version"]) + body + ";\n").encode()


def main() -> None:
    OUT.write_bytes(render())
    print(f"wrote {OUT} from Unicode {unicodedata.unidata_version} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    sys.exit(main())
