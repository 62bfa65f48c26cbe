"""Snippets with the matched characters marked (mirrored by js/src/engine/snippet.js).

What a query marks (`highlight`, from the dictionary terms each query token matched):
- A query word (a token of one part, or a CJK token) marks each text token that is one of its
  terms: the whole token, or for a term that extends the query token (a prefix match: typing
  `retr` matched `retries`) only the query token's length of it.
- A query identifier (a compound of several parts: `HTTPTransportError`, `use_directory_urls`)
  marks its whole token where the text has it, and where its parts occur in order as
  consecutive parts of one text compound (`errors.HTTPTransportError`): first part to last; so
  does each dotted piece of it (`RetryPolicy` and `delay_for` of `RetryPolicy.delay_for`).
- Its parts mark where they occur as words on their own ("the transport failed", never `Error`
  in `ValueError`), and only in a text where the identifier itself occurs nowhere.
- Tokens in the query stop-word list never mark on their own (inside an identifier they do).
Marks cover token characters only, never punctuation around them. Offsets map back to the text
through each code point's own normalised form (the tokenizer's NFKC); where those do not add up
to the word's normalised form (composed characters), the whole whitespace-separated word is
marked instead.

The snippet is the window of `window` words (split at runs of ASCII whitespace) that holds the
most distinct marking query tokens, then the most marked words; the first such start wins;
"… " / " …" where text was cut. Text is HTML-escaped (& < > " ') and marks are <mark></mark>,
so the snippet is safe HTML.

Tables (text/cells.py: a table row is one line, CELL between its cells): a run of lines holding
CELL is a table, its first line the header. A text with tables is read as pieces: its prose
(the other lines, in order) and each body row, written as `first cell — Header: cell, Header:
cell` (cells without their ASCII spaces, empty ones left out; a cell under an empty header without
`Header: `). The snippet is
the best window of the piece with the most distinct marking tokens, then marked words: the
prose unless a row has strictly more, so a table never shows as a run of cells (`… s 3 2 s 4
4 s`) and a row that answers shows with its headers (`concurrency — Type: integer, Default:
4`). A row's snippet starts with "… " and ends with " …" when text follows it. A part marked
alone counts over the whole text, as without tables.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.engine.keyword import KeywordScores
from mkdocs_graphsearch.text.blank import ASCII_SPACE, has_text
from mkdocs_graphsearch.text.cells import CELL
from mkdocs_graphsearch.text.tokenize import lower, normalize, query_spans, token_spans

_WHITESPACE = re.compile(f"[{ASCII_SPACE}]+")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
BREADCRUMB_SEPARATOR = " › "

# A mark rule: (the query token it counts for, code points to mark: 0 = the whole text token).
Rule = tuple[str, int]


@dataclass
class Highlight:
    """What one query marks: text token -> rule, and identifiers as sequences of parts."""

    anywhere: dict[str, Rule] = field(default_factory=dict)
    # Parts of identifiers, marked only as words of their own: token -> (rule, identifier).
    alone: dict[str, tuple[Rule, str]] = field(default_factory=dict)
    # (identifier, per part: term -> code points to mark), for identifiers of 2+ kept parts.
    identifiers: list[tuple[str, list[dict[str, int]]]] = field(default_factory=list)

    def needles(self) -> list[str]:
        """Every term that can mark: a word marks only if its folded form contains one."""
        found = set(self.anywhere) | set(self.alone)
        for _, parts in self.identifiers:
            for terms in parts:
                found.update(terms)
        return sorted(found)


def escape_html(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _fold(text: str) -> str:
    return lower(normalize(text))


def _terms(token: str, matched: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """The terms a query token matched, each with how much of it to mark."""
    return {
        term: len(token) if term != token and term.startswith(token) else 0
        for term in matched.get(token, ())
    }


def _add(table: dict[str, Rule], terms: dict[str, int], key: str) -> None:
    # A term two query tokens matched marks the most: whole (0) beats any prefix.
    for term, length in terms.items():
        old = table.get(term)
        if old is None or (old[1] and (not length or length > old[1])):
            table[term] = (key, length)


def highlight(query: str, matched: Mapping[str, Iterable[str]], stop_words: Collection[str]) -> Highlight:
    """What `query` marks, given the dictionary terms each of its tokens matched."""
    result = Highlight()
    alone: dict[str, Rule] = {}
    owner: dict[str, str] = {}
    normalized = normalize(query)
    compound = ("", -1, -1)
    parts: list[tuple[dict[str, int], int, int]] = []

    def close() -> None:
        # The identifier, and each dotted piece of it (`RetryPolicy` of `RetryPolicy.delay_for`).
        pieces = [[parts[0][0]]] if parts else []
        for (_, _, end), (terms, start, _) in pairwise(parts):
            if "." in normalized[end:start]:
                pieces.append([])
            pieces[-1].append(terms)
        sequences = [[terms for terms, _, _ in parts]] + (pieces if len(pieces) > 1 else [])
        result.identifiers.extend((compound[0], seq) for seq in sequences if len(seq) > 1)
        parts.clear()

    for token, start, end, kind in query_spans(query):
        if kind == "compound":
            close()
            compound = (token, start, end)
            _add(result.anywhere, _terms(token, matched), token)
        elif kind == "part" and compound[1] <= start and end <= compound[2]:
            parts.append((_terms(token, matched), start, end))
            if token not in stop_words:
                _add(alone, _terms(token, matched), token)
                owner.setdefault(token, compound[0])
        elif kind != "part":
            close()
            if token not in stop_words:
                _add(result.anywhere, _terms(token, matched), token)
    close()
    result.alone = {
        term: (rule, owner[rule[0]]) for term, rule in alone.items() if term not in result.anywhere
    }
    return result


def keyword_highlight(bundle: Bundle, query: str, keyword: KeywordScores) -> Highlight:
    """What a query marks in the results: the terms the keyword side matched per query token.
    A bundle that names no query stop words (format 1) has none."""
    matched = {
        token: [bundle.terms[expansion.term] for expansion in expansions]
        for token, expansions in zip(keyword.tokens, keyword.expansions, strict=True)
    }
    return highlight(query, matched, bundle.settings.get("query_stop_words", ()))


# A mark in a word: (start, end) code points, the query token it counts for, and the
# identifier it stands in for when it is a part marked alone (else "").
Mark = tuple[int, int, str, str]


def _cut(token: str, start: int, end: int, length: int) -> int:
    """Where a mark of `length` code points (0: all) ends; lowercasing may have changed the
    token's length, and then the whole token is marked."""
    return start + length if length and len(token) == end - start else end


def _token_marks(word: str, hl: Highlight) -> list[Mark]:
    """Marks in one whitespace-free word, before the identifier rule drops any."""
    spans = token_spans(word)
    found: list[tuple[int, int, str, str]] = []  # in normalised code points


    compound = (-1, -1)
    parts: list[tuple[str, int, int]] = []
    groups: list[list[tuple[str, int, int]]] = []
    for token, start, end, kind in spans:
        if kind == "compound":
            compound = (start, end)
            parts = []
            groups.append(parts)
        elif kind == "part" and compound[0] <= start and end <= compound[1]:
            parts.append((token, start, end))
        rule = hl.anywhere.get(token)
        if rule is not None:
            found.append((start, _cut(token, start, end, rule[1]), rule[0], ""))
        if kind == "word" and token in hl.alone:
            (key, length), identifier = hl.alone[token]
            found.append((start, _cut(token, start, end, length), key, identifier))
    for key, sequence in hl.identifiers:
        size = len(sequence)
        for group in groups:
            for i in range(len(group) - size + 1):
                if all(group[i + j][0] in sequence[j] for j in range(size)):
                    token, start, end = group[i + size - 1]
                    found.append((group[i][1], _cut(token, start, end, sequence[-1][token]), key, ""))
    if not found:
        return []
    normalized = normalize(word)
    pieces = [normalize(ch) for ch in word]
    if "".join(pieces) != normalized:
        return [(0, len(word), key, of) for _, _, key, of in found]
    origin = [index for index, piece in enumerate(pieces) for _ in piece]
    return [(origin[start], origin[end - 1] + 1, key, of) for start, end, key, of in found]


def _render(word: str, marks: list[Mark]) -> str:
    """The escaped word with its marks (overlapping or touching ones merged) in <mark>."""
    if not marks:
        return escape_html(word)
    out: list[str] = []
    position = 0
    ranges = sorted((start, end) for start, end, _, _ in marks)
    merged = [list(ranges[0])]
    for start, end in ranges[1:]:
        if start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in merged:
        out.append(escape_html(word[position:start]))
        out.append(f"<mark>{escape_html(word[start:end])}</mark>")
        position = end
    out.append(escape_html(word[position:]))
    return "".join(out)


#: Where a table row's first cell ends and its other cells begin, and between those.
ROW_LEAD, CELL_SEPARATOR, HEADER_SEPARATOR = " — ", ", ", ": "


@dataclass
class Piece:
    """Words a snippet may show, and whether the text goes on before and after them."""

    words: list[str]
    before: bool
    after: bool


def _words(text: str) -> list[str]:
    return [word for word in _WHITESPACE.split(text) if word]


def _cells(line: str) -> list[str]:
    return [cell.strip(ASCII_SPACE) for cell in line.split(CELL)]


def table_row(header: list[str], cells: list[str]) -> str:
    """A body row as read: `first cell — Header: cell, ...` (empty cells left out)."""
    rest = [
        (f"{header[i]}{HEADER_SEPARATOR}{cell}" if i < len(header) and header[i] else cell)
        for i, cell in enumerate(cells)
        if i and cell
    ]
    joined = CELL_SEPARATOR.join(rest)
    return f"{cells[0]}{ROW_LEAD}{joined}" if cells[0] and joined else cells[0] or joined


def pieces(text: str) -> list[Piece]:
    """The text as one piece, or for a text with tables its prose and each body row."""
    if CELL not in text:
        return [Piece(_words(text), False, False)]
    lines = text.split("\n")
    prose: list[str] = []
    rows: list[tuple[int, str]] = []  # (line, row text)
    header: list[str] | None = None
    for number, line in enumerate(lines):
        if CELL not in line:
            prose.append(line)
            header = None
        elif header is None:
            header = _cells(line)
        else:
            rows.append((number, table_row(header, _cells(line))))
    last = max((number for number, line in enumerate(lines) if _WHITESPACE.sub("", line)), default=-1)
    found = [Piece(_words("\n".join(prose)), False, False)]
    found += [Piece(_words(row), True, number < last) for number, row in rows]
    return [piece for piece in found if piece.words]


def snippet(text: str, hl: Highlight, window: int) -> str:
    parts = pieces(text)
    if not parts:
        return ""
    needles = hl.needles()
    memo: dict[str, list[Mark]] = {}
    marked: list[list[list[Mark]]] = []
    for piece in parts:
        marks: list[list[Mark]] = []
        for word in piece.words:
            if word not in memo:
                folded = _fold(word) if needles else ""
                memo[word] = _token_marks(word, hl) if any(n in folded for n in needles) else []
            marks.append(memo[word])
        marked.append(marks)
    # A part marked alone stands only where its identifier occurs nowhere in this text.
    found = {key for marks in marked for word_marks in marks for _, _, key, of in word_marks if not of}
    marked = [[[m for m in word_marks if not m[3] or m[3] not in found] for word_marks in marks] for marks in marked]
    best: tuple[tuple[int, int], int, int, int] | None = None  # (score, piece, start, end)
    for index, marks in enumerate(marked):
        start, end, score = _best_window([{m[2] for m in word_marks} for word_marks in marks], window)
        if best is None or score > best[0]:
            best = (score, index, start, end)
    assert best is not None
    _, index, start, end = best
    piece, marks = parts[index], marked[index]
    body = " ".join(_render(piece.words[i], marks[i]) for i in range(start, end))
    before = "… " if start > 0 or piece.before else ""
    return before + body + (" …" if end < len(piece.words) or piece.after else "")


def _best_window(keys: list[set[str]], window: int) -> tuple[int, int, tuple[int, int]]:
    """The first window with the most distinct query tokens, then the most marked words: its
    start, end and (distinct tokens, marked words)."""
    counts: dict[str, int] = {}
    marked = 0

    def enter(i: int, step: int) -> None:
        nonlocal marked
        marked += step if keys[i] else 0
        for key in keys[i]:
            counts[key] = counts.get(key, 0) + step
            if not counts[key]:
                del counts[key]

    for i in range(min(window, len(keys))):
        enter(i, 1)
    best, best_score = 0, (len(counts), marked)
    for start in range(1, len(keys) - window + 1):
        enter(start - 1, -1)
        enter(start + window - 1, 1)
        if (len(counts), marked) > best_score:
            best, best_score = start, (len(counts), marked)
    return best, min(len(keys), best + window), best_score


def source_text(texts: Sequence[str], parents: Sequence[int], titles: Sequence[str], chunk: int) -> str:
    """What a chunk's snippet shows: its text; for a heading with none of its own, the first text
    among its descendants (document order); else its breadcrumb (titles from the page down)."""
    inside = {chunk}
    for index in range(chunk, len(texts)):
        if index != chunk and parents[index] not in inside:
            break
        if has_text(texts[index]):
            return texts[index]
        inside.add(index)
    trail: list[str] = []
    while chunk >= 0:
        trail.append(titles[chunk])
        chunk = parents[chunk]
    return BREADCRUMB_SEPARATOR.join(reversed(trail))
