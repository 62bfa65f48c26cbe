"""The site's words with their WordPiece ids and encoder rows, sharded by word (format 6; mirrored
by js/src/engine/bundle/word-rows.js).

Without them a pasted query's rows are two round trips away: its words' vocabulary shards
(bundle/vocab_shards.py), then the encoder shards of the pieces they give (bundle/encoder_shards.py).
A word of the site's passages is found here in one: its own shard holds its pieces and their rows.

    words.bin        the site's COMMON_WORDS commonest words, and the rows of their pieces and of
                     the COMMON_ROWS pieces the other words use most       -- semantic part
    words.<i>.bin    every other word w with hash(w) mod n = i (vocab_shards.key_shard), and the
                     rows of its pieces that words.bin lacks       -- the shards of a query's words

Each file: the compact JSON {"pieces": each word's ids, "words": its words in code point order}
(UTF-8, no newline), a newline byte, then its rows in encoder shard layout (tokens rising:
encoder_shards.rows_block). A word's ids are WordPiece's over the whole vocabulary; each of them
that has a row in the encoder's table has it in the word's file or in words.bin. The manifest's
`encoder.words` = {"shards": n}. A word found in neither file (one the site never says) is
tokenized from the vocabulary shards as before, and its rows come from the encoder shards.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.encoder_file import EncoderArrays
from mkdocs_graphsearch.bundle.encoder_shards import read_rows, rows_block
from mkdocs_graphsearch.bundle.format import WORDS, BundleError, word_shard
from mkdocs_graphsearch.bundle.schema import _fail, _list, _object, _strings, _wholes
from mkdocs_graphsearch.bundle.vocab_shards import key_shard
from mkdocs_graphsearch.text.wordpiece import MAX_INPUT_CHARS_PER_WORD, WordPiece

#: Words in words.bin: a question's own small words (how, do, to, the...) cost no request.
COMMON_WORDS = 64
#: Rows of the pieces most words use (continuations such as ##s) kept once, in words.bin, rather
#: than in most word shards.
COMMON_ROWS = 32
#: Words a shard holds on average (a shard costs a request per query word, its rows the bytes),
#: and the most shards a site gets (the files of the deployed folder): a large site's shards
#: hold more words than WORDS_PER_SHARD, and a question's rare words each fetch a whole shard, so
#: the cap weighs a question's bytes against the manifest's file list (a CRC a shard) and the
#: files deployed.
WORDS_PER_SHARD = 16
MAX_WORD_SHARDS = 512

#: The encoder's table as a builder holds it: tokens, then per token its weight and int8 row.
Table = tuple[list[int], np.ndarray, np.ndarray]


def _file(
    words: Sequence[str], pieces: dict[str, list[int]], rows: set[int], table: Table, index: dict[int, int]
) -> bytes:
    """One word file; `index`: each of the table's tokens -> its row number."""
    _, weights, int8_rows = table
    picked = sorted(rows)
    at = [index[token] for token in picked]
    header = orjson.dumps({"pieces": [pieces[w] for w in words], "words": list(words)}, option=orjson.OPT_SORT_KEYS)
    return header + b"\n" + rows_block(picked, weights[at], int8_rows[at])


#: A word file's rows as read_words gives them: tokens, float64 weights, int8 rows.
Rows = tuple[list[int], np.ndarray, np.ndarray]


def split_words(
    counts: Counter[str], pieces_of: Callable[[list[str]], list[list[int]]], table: Table
) -> tuple[dict[str, bytes], dict[str, int]]:
    """The site's words (each with how often its passages say it) -> words.bin and the word
    shards by logical name, and the manifest's `encoder.words`. `pieces_of`: WordPiece ids of
    each word; `table`: the encoder's tokens, weights and int8 rows."""
    words = sorted(counts)
    pieces = dict(zip(words, pieces_of(words), strict=True))
    index = {token: i for i, token in enumerate(table[0])}  # also: the tokens that have a row
    common = sorted(sorted(words, key=lambda w: (-counts[w], w))[:COMMON_WORDS])
    in_common = set(common)
    rest = [w for w in words if w not in in_common]
    uses = Counter(p for w in rest for p in set(pieces[w]) if p in index)
    common_rows = {p for w in common for p in pieces[w] if p in index}
    common_rows |= {p for p, _ in sorted(uses.items(), key=lambda item: (-item[1], item[0]))[:COMMON_ROWS]}
    n = max(1, min(MAX_WORD_SHARDS, math.ceil(len(rest) / WORDS_PER_SHARD)))
    shards: list[list[str]] = [[] for _ in range(n)]
    for w in rest:
        shards[key_shard(w, n)].append(w)
    parts = {WORDS: _file(common, pieces, common_rows, table, index)}
    for i, shard in enumerate(shards):
        rows = {p for w in shard for p in pieces[w] if p in index} - common_rows
        parts[word_shard(i)] = _file(shard, pieces, rows, table, index)
    return parts, {"shards": n}


def passage_words(text: str, wordpiece: WordPiece) -> Counter[str]:
    """A passage's words and how often it says each, as the word files count them (WordPiece's
    words, as the browser cuts a query: a longer one than MAX_INPUT_CHARS_PER_WORD is one [UNK],
    no lookup). The site's words are the sum over its passages (index/word_cache.py)."""
    return Counter(w for w in wordpiece.words(text) if len(w) <= MAX_INPUT_CHARS_PER_WORD)


def read_words(
    data: bytes, name: str, manifest: dict[str, Any], index: int | None
) -> tuple[dict[str, list[int]], Rows]:
    """words.bin (index None) or word shard `index` -> its words' ids and its rows (tokens,
    float32 weights, int8 rows), checked (same messages as js/src/engine/bundle/word-rows.js)."""
    cut = data.find(b"\n")
    if cut < 0:
        raise BundleError(f"{name} has no word list (corrupted)")
    try:
        header = _object(name, orjson.loads(data[:cut]), "the file")
    except orjson.JSONDecodeError as error:
        raise BundleError(f"{name} is not valid JSON: {error}") from error
    words = _strings(name, header.get("words"), "words")
    lists = _list(name, header.get("pieces"), "pieces", len(words))
    size = manifest["encoder"]["vocab"]["size"]
    n = manifest["encoder"]["words"]["shards"]
    for i, word in enumerate(words):
        _wholes(name, lists[i], f"pieces[{i}]", None, 0, size - 1)
        if i and word <= words[i - 1]:
            _fail(name, f"words[{i}]", "must come after the word before it")
        if index is not None and key_shard(word, n) != index:
            _fail(name, f"words[{i}]", "belongs to another shard")
    tokens, weights, rows = read_rows(data[cut + 1 :], manifest["vectors"]["dim"], name)
    if bool(np.any(np.diff(tokens) <= 0)):
        raise BundleError(f"{name} holds row tokens out of order (corrupted)")
    return dict(zip(words, lists, strict=True)), (tokens.tolist(), weights, rows)


def check_word_rows(
    files: list[tuple[str, dict[str, list[int]], Rows]], table: EncoderArrays, row_scales: np.ndarray
) -> None:
    """Every word file (words.bin first) as read_words gives it against the encoder's whole table:
    each row is the table's, and each word's pieces that have a row have it in its file or in
    words.bin (so the browser's answer from them is the one from the encoder shards)."""
    at = {token: i for i, token in enumerate(table.tokens)}
    common: set[int] = set()
    for number, (name, pieces, (tokens, weights, rows)) in enumerate(files):
        for j, token in enumerate(tokens):
            i = at.get(token)
            if i is None or weights[j] != table.weights[i] or not np.array_equal(rows[j] * row_scales, table.rows[i]):
                raise BundleError(f"{name}: the row of token {token} is not the encoder's (corrupted)")
        held = set(tokens) | common
        for i, ids in enumerate(pieces.values()):
            if any(p in at and p not in held for p in ids):
                raise BundleError(f"{name}: words[{i}] lacks a row of its pieces (corrupted)")
        if number == 0:
            common = set(tokens)
