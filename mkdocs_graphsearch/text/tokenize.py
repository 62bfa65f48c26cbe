"""The shared tokenizer: the one specification both engines implement (js/src/engine/text/tokenize.js).

Specification (pinned by tests/vectors/tokenizer.json, run by pytest and node --test):

Every character fact comes from the generated Unicode table (js/src/engine/text/unicode-table.js, read by
text/unicode_table.py; one Unicode version, named in the file), never from the interpreter's
own Unicode data, so that both engines agree whatever Unicode version they carry.

1. Normalise the text: NFKC of each run of code points assigned in Unicode 3.2 (the same in
   every Unicode version since 4.1); other code points are kept and normalisation does not
   cross them (`normalize`).
2. Walk code points. The table's CJK blocks form CJK runs; letters, marks and numbers (general
   categories L*, M*, N*) form words; `_`, `-` and `.` join two words into one compound
   (`use_directory_urls`, `mkdocs.yml`, `kebab-case`); everything else separates.
3. A compound emits, in order: the whole compound (when it has more than one part), then each
   part. Parts are the pieces between connectors, each split further at lower->Upper (camelCase),
   Upper->Upper+lower (acronyms: `HTTPException` -> `HTTP`, `Exception`) and letter<->number
   boundaries. Marks stay with the code point before them.
4. Every token is lowercased with the table's full lowercase mappings, one code point at a time
   (final sigma folded to sigma) (`lower`).
5. A CJK run is cut where katakana (U+30A0-U+30FF, U+31F0-U+31FF) starts and ends: a katakana
   piece is one word of a loan (`スケジュール`, `キュー`), emitted whole, so that `キュー` is no
   hit inside `スケジュール`; any other piece emits its overlapping bigrams, or its single code
   point when it has one.
6. A token in STOP_WORDS is dropped unless it is a whole compound (`out-of-the-box`) or written
   as code: `code=True` (a code block, a symbol, an API name: every token kept), between two
   backticks (`` `where` ``, `` `from_dict` ``), or, for a word (rule 7), with identifier
   punctuation beside it: right after `_`, `.` or `-`, or right before `_` or `(` (`or_`,
   `.where()`, `_from`, `--as`). A word so kept is a name, not a word: its kind is COMPOUND
   (rule 8). Tokens longer than MAX_TOKEN_LENGTH code points are dropped.
7. A token is a *word* when it is a whole compound of one part (no connector, no case or
   letter/number split) and not a stop word kept as a name (rule 6): `Deploying` is a word, the
   parts of `TimeoutStopSec`, `is_valid` or `v2` are not (`tokenize_words` says which; stemming
   and query stop words apply to words only).
8. `token_spans` gives each token with its code point offsets [start, end) in the normalised
   text and its kind: WORD (rule 7), COMPOUND (a whole compound of several parts, or a stop
   word kept as a name), PART (one of a compound's parts) or CJK.
9. A query is tokenized as text, and as code when that leaves no token (`query_spans`): a query
   of stop words alone (`where`) looks for them as names. A title is tokenized the same way
   (`title_words`): a heading of stop words alone (`where`, `Or` on an API page) is a name.

Case is read from the table's general category (Lu, Lt upper; Ll lower).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from functools import lru_cache

from mkdocs_graphsearch.text import unicode_table as _table
from mkdocs_graphsearch.text.unicode_table import lower, normalize

__all__ = [
    "iter_token_spans", "iter_words", "lower", "normalize", "query_spans", "title_key", "title_words", "token_spans",
    "tokenize", "tokenize_words",
]

MAX_TOKEN_LENGTH = 64
WORD, COMPOUND, PART, CJK = "word", "compound", "part", "cjk"
# (token, start, end, kind): see rule 8.
Span = tuple[str, int, int, str]
CONNECTORS = frozenset("_-.")
#: Identifier punctuation (rule 6): right before a word (`_or`, `.where`, `--from`), right after it (`or_`, `where(`).
NAME_BEFORE = frozenset("_.-")
NAME_AFTER = frozenset("_(")
#: Katakana (rule 5): U+30A0-U+30FF and U+31F0-U+31FF, where the table says CJK.
KATAKANA = ((0x30A0, 0x30FF), (0x31F0, 0x31FF))

# Articles, conjunctions, common prepositions and pronouns, modals and question words. Programming
# words (for, do, if, not, is, has, can, on, in, to, with) are kept: they are parts of identifiers
# and carry meaning in code ("for loop", "on_page_markdown", "is not").
STOP_WORDS = frozenset(
    """a an the and or but nor of at by from as into about than
    i me my we our you your he him his she her it its they them their this that these those
    would should could might must shall will may how what which who whom whose where when why""".split()
)

_LETTER, _NUMBER, _MARK, _CONNECTOR, _CJK, _OTHER = range(6)
# The table's classes as the tokenizer sees them (case is asked separately).
_CLASS_OF = {
    _table.OTHER: _OTHER, _table.LETTER: _LETTER, _table.UPPER: _LETTER, _table.LOWER: _LETTER,
    _table.MARK: _MARK, _table.NUMBER: _NUMBER, _table.CJK: _CJK,
}


def _char_classes(chars: list[str]) -> list[int]:
    table = _table.unicode_table().classes
    return [_CONNECTOR if ch in CONNECTORS else _CLASS_OF[table[ord(ch)]] for ch in chars]


def _is_upper(ch: str) -> bool:
    return _table.unicode_table().classes[ord(ch)] == _table.UPPER


def _is_lower(ch: str) -> bool:
    return _table.unicode_table().classes[ord(ch)] == _table.LOWER


def _split_word(word: list[str], classes: list[int]) -> list[str]:
    """Split one connector-free word at case and letter/number boundaries."""
    pieces: list[str] = []
    start = 0
    for i in range(1, len(word)):
        if classes[i] == _MARK:
            continue
        prev = i - 1
        while prev > start and classes[prev] == _MARK:
            prev -= 1
        a, b = classes[prev], classes[i]
        boundary = (a == _LETTER and b == _NUMBER) or (a == _NUMBER and b == _LETTER)
        if not boundary and a == _LETTER and b == _LETTER:
            # camelCase (lower, upper), or the last upper of a run before a lower (HTTPServer).
            boundary = (_is_lower(word[prev]) and _is_upper(word[i])) or (
                _is_upper(word[prev]) and _is_upper(word[i]) and i + 1 < len(word) and _is_lower(word[i + 1])
            )
        if boundary:
            pieces.append("".join(word[start:i]))
            start = i
    pieces.append("".join(word[start:]))
    return pieces


def _compound_tokens(chars: list[str], classes: list[int], offset: int) -> list[Span]:
    """Spans of one compound (at `offset`): whole (if several parts) then the parts."""
    parts: list[tuple[str, int]] = []  # (part, start)
    start = 0
    for i in range(len(chars) + 1):
        if i == len(chars) or classes[i] == _CONNECTOR:
            if i > start:
                for piece in _split_word(chars[start:i], classes[start:i]):
                    parts.append((piece, offset + start))
                    start += len(piece)
            start = i + 1
    end = offset + len(chars)
    if len(parts) == 1:
        word = _keep(lower(parts[0][0]))
        return [(word, offset, end, WORD)] if word else []
    spans = [(_keep(lower("".join(chars))), offset, end, COMPOUND)]
    spans.extend((_keep(lower(part)), at, at + len(part), PART) for part, at in parts)
    return [span for span in spans if span[0]]


@lru_cache(maxsize=1 << 16)
def _compound(compound: str) -> tuple[Span, ...]:
    """`_compound_tokens` of a compound at offset 0: a site repeats its compounds (the same
    names and words), so indexing a site splits each once (a third of build_keyword_index)."""
    chars = list(compound)
    return tuple(_compound_tokens(chars, _char_classes(chars), 0))


def _keep(token: str) -> str:
    return "" if len(token) > MAX_TOKEN_LENGTH else token


def _is_katakana(ch: str) -> bool:
    return any(lo <= ord(ch) <= hi for lo, hi in KATAKANA)


def _bigrams(piece: str, offset: int) -> list[Span]:
    if len(piece) == 1:
        return [(piece, offset, offset + 1, CJK)]
    return [(piece[i : i + 2], offset + i, offset + i + 2, CJK) for i in range(len(piece) - 1)]


def _cjk_tokens(run: str, offset: int) -> list[Span]:
    """Rule 5: katakana pieces whole, other pieces as bigrams."""
    tokens: list[Span] = []
    start = 0
    for i in range(1, len(run) + 1):
        if i == len(run) or _is_katakana(run[i]) != _is_katakana(run[start]):
            piece = run[start:i]
            if _is_katakana(piece[0]):
                if len(piece) <= MAX_TOKEN_LENGTH:
                    tokens.append((piece, offset + start, offset + i, CJK))
            else:
                tokens.extend(_bigrams(piece, offset + start))
            start = i
    return tokens


def tokenize(text: str, code: bool = False) -> list[str]:
    """Split text into search tokens (see the module docstring for the exact rules); `code`:
    the text is code (rule 6)."""
    return [token for token, _ in iter_words(text, code)]


def tokenize_words(text: str, code: bool = False) -> list[tuple[str, bool]]:
    """The tokens of `tokenize`, each with whether it is a word (rule 7)."""
    return list(iter_words(text, code))


def iter_words(text: str, code: bool = False) -> Iterator[tuple[str, bool]]:
    """`tokenize_words` one token at a time: a long section is counted without a list of its
    tokens (index/bm25.py), so memory grows with its distinct terms, not with its length."""
    return ((token, kind == WORD) for token, _, _, kind in iter_token_spans(text, code))


def query_spans(query: str) -> list[Span]:
    """A query's tokens (rule 9): as text, else (stop words alone) as code."""
    return token_spans(query) or token_spans(query, code=True)


def title_words(text: str) -> list[tuple[str, bool]]:
    """A title's tokens, each with whether it is a word (rule 9, as a query's): the title field
    keeps a heading of stop words alone as names, so the query `where` finds the section `where`."""
    return [(token, kind == WORD) for token, _, _, kind in query_spans(text)]


def title_key(text: str) -> str:
    """A title's (or a query's) tokens as one string (rule 9's tokens, joined by single spaces):
    a page root defines its title's key, so a query equal to a title finds it (engine/search.py)."""
    return " ".join(span[0] for span in query_spans(text))


def token_spans(text: str, code: bool = False) -> list[Span]:
    """The tokens of `tokenize`, each with where it is and what it is (rule 8)."""
    return list(iter_token_spans(text, code))


def iter_token_spans(text: str, code: bool = False) -> Iterator[Span]:
    """`token_spans` one token at a time."""
    normal = normalize(text)
    ticks = [i for i, ch in enumerate(normal) if ch == "`"] if "`" in normal else []
    # One class digit per code point, then runs by regular expression (rule 2): a CJK run, or a
    # compound (a letter or number, then letters, numbers and marks, connector runs joining only
    # when a letter or number follows them); anything else separates.
    for run in _RUNS.finditer(normal.translate(_CLASS_DIGITS)):
        i, j = run.span()
        if run.lastindex == 1:
            yield from _cjk_tokens(normal[i:j], i)
            continue
        for token, start, end, kind in _compound(normal[i:j]):
            if kind != COMPOUND and token in STOP_WORDS:
                if not (code or _in_code_span(i, ticks) or (kind == WORD and _name_punctuation(normal, i, j))):
                    continue
                kind = COMPOUND if kind == WORD else kind
            yield token, start + i, end + i, kind


def _name_punctuation(normal: str, i: int, j: int) -> bool:
    """Rule 6: identifier punctuation beside normal[i:j]."""
    return (i > 0 and normal[i - 1] in NAME_BEFORE) or (j < len(normal) and normal[j] in NAME_AFTER)


def _in_code_span(i: int, ticks: list[int]) -> bool:
    """Rule 6: a backtick before position i that another closes after it (the backticks before
    it are odd in number, and one follows)."""
    before = bisect_left(ticks, i)
    return before % 2 == 1 and before < len(ticks)


class _ClassDigits(dict[int, str]):
    """str.translate table: code point -> its tokenizer class as one digit, filled as met."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        digit = str(_CONNECTOR if ch in CONNECTORS else _CLASS_OF[_table.unicode_table().classes[code]])
        self[code] = digit
        return digit


_CLASS_DIGITS = _ClassDigits()
_WORD_RUN = f"[{_LETTER}{_NUMBER}][{_LETTER}{_NUMBER}{_MARK}]*"
_RUNS = re.compile(f"({_CJK}+)|({_WORD_RUN}(?:{_CONNECTOR}+{_WORD_RUN})*)")
