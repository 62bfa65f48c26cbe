"""The WordPiece vocabulary in shards fetched by the query's words (mirrored by js/src/engine/bundle/vocab-shards.js).

Greedy longest-match WordPiece (text/wordpiece.py) looks a word's pieces up among the vocabulary
entries that share their start with it: at the word's start, strings beginning with its first two
characters (and the one-character string of its first), after that `##` + the word's character
at that position. So each entry has a key, and a query needs only the shards of its words' keys:

    key(s) = "##" + its third code point   when s starts with "##" and has more than 2 code points
           = its first two code points       otherwise (all of s when it is shorter)
    shard(s) = hash(key(s)) mod n            hash(k) = (h * 31 + code point) mod 1000003 over k's
                                              code points, from h = 0
    a word c0 c1 ... (at most MAX_INPUT_CHARS_PER_WORD code points; a longer one is [UNK]) needs
    the shards of key(c0), key(c0 c1), and "##" + ci for every i >= 1

`vocab.<i>.json` = {"tokens": its entries in id order, "gaps": each id minus the previous one's
(the first: the id)}. The manifest's `encoder.vocab` = {"shards": n, "size": the number of ids}.
The shards depend only on the vocabulary, so their content-hashed names are the same on every
site built with the same model (a reader's cache holds them across sites). VOCAB_SHARDS = 256
(docs/format3-status.md; 128 before): a query of a few words fetches 12-25 KiB gzip instead
of the whole 110 KiB (128 shards: 18-40 KiB on k8s-docs' benchmark queries); the manifest grows
by one entry per shard (~5.6 B gzip each).
"""

from __future__ import annotations

from typing import Any

import orjson

from mkdocs_graphsearch.bundle.format import BundleError, vocab_shard
from mkdocs_graphsearch.bundle.schema import _fail, _object, _strings, _wholes

#: Shards of the vocabulary.
VOCAB_SHARDS = 256
_HASH_MODULUS = 1000003


def vocab_key(entry: str) -> str:
    if entry.startswith("##") and len(entry) > 2:
        return entry[:3]
    return entry[:2]


def key_shard(key: str, n: int) -> int:
    h = 0
    for ch in key:
        h = (h * 31 + ord(ch)) % _HASH_MODULUS
    return h % n


def split_vocab(text: bytes, n: int = VOCAB_SHARDS) -> tuple[dict[str, bytes], dict[str, int]]:
    """vocab.txt bytes (one entry a line, line number = id) -> the shards by logical name, and
    the manifest's `encoder.vocab`."""
    lines = text.decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shards: list[tuple[list[str], list[int]]] = [([], []) for _ in range(n)]
    last = [0] * n
    shard_of: dict[str, int] = {}  # ~30,000 entries share a few thousand keys: each hashed once
    for i, entry in enumerate(lines):
        key = vocab_key(entry)
        index = shard_of.get(key)
        if index is None:
            index = shard_of[key] = key_shard(key, n)
        tokens, gaps = shards[index]
        gaps.append(i - last[index] if tokens else i)
        tokens.append(entry)
        last[index] = i
    parts = {vocab_shard(i): orjson.dumps({"tokens": t, "gaps": g}) for i, (t, g) in enumerate(shards)}
    return parts, {"shards": n, "size": len(lines)}


def read_vocab_shard(data: Any, manifest: dict[str, Any], index: int) -> list[tuple[str, int]]:
    """A parsed shard -> its (entry, id) pairs, checked (same messages as js/src/engine/bundle/vocab-shards.js)."""
    name, vocab = vocab_shard(index), manifest["encoder"]["vocab"]
    shard = _object(name, data, "the file")
    tokens = _strings(name, shard.get("tokens"), "tokens")
    gaps = _wholes(name, shard.get("gaps"), "gaps", len(tokens), 0, vocab["size"] - 1)
    pairs: list[tuple[str, int]] = []
    last = -1
    for i, (token, gap) in enumerate(zip(tokens, gaps, strict=True)):
        current = gap if i == 0 else last + gap
        if i and gap == 0 or current >= vocab["size"]:
            _fail(name, f"gaps[{i}]", f"must give rising ids below {vocab['size']}")
        if key_shard(vocab_key(token), vocab["shards"]) != index:
            _fail(name, f"tokens[{i}]", "belongs to another shard")
        pairs.append((token, current))
        last = current
    return pairs


def join_vocab(pairs: list[tuple[str, int]], manifest: dict[str, Any]) -> bytes:
    """Every shard's pairs -> vocab.txt bytes, checked: each id 0..size-1 exactly once."""
    size = manifest["encoder"]["vocab"]["size"]
    by_id: list[str | None] = [None] * size
    for token, i in pairs:
        by_id[i] = token
    if len(pairs) != size or any(token is None for token in by_id):  # so an id twice leaves one out
        raise BundleError(f"the vocab shards do not hold ids 0 to {size - 1} once each (corrupted)")
    return "".join(f"{token}\n" for token in by_id).encode("utf-8")
