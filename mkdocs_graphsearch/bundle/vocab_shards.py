"""The WordPiece vocabulary in shards fetched by the query's words (mirrored by js/src/engine/bundle/vocab-shards.js).

Greedy longest-match WordPiece (text/wordpiece.py) looks a word's pieces up among the vocabulary
entries that share their start with it: at the word's start, strings beginning with its first
character, after that `##` + the rest of the word. So each entry has a key, and a query needs only
the shards of its words' keys. With k = the manifest's `encoder.vocab.key_chars`:

    key(s) = "##" + its code points 3 .. k + 1   when s starts with "##" and has more than 2 code points
           = its first k code points              otherwise (all of s when it is shorter)
    shard(s) = hash(key(s)) mod n                 hash(k) = (h * 31 + code point) mod 1000003 over
                                                  k's code points, from h = 0
    a word c0 c1 ... (at most MAX_INPUT_CHARS_PER_WORD code points; a longer one is [UNK]) needs
    the shards of its first 1 .. k code points and, for every i >= 1, of "##" + its 1 .. k - 1
    code points from ci ("##" when k = 1)

`vocab.<i>.json` = {"tokens": its entries in id order, "gaps": each id minus the previous one's
(the first: the id)}. The manifest's `encoder.vocab` = {"shards": n, "size": the number of ids,
"key_chars": k, "specials": the ids of SPECIALS} (a bundle without key_chars has k =
KEY_CHARS_IF_ABSENT, 2; one without specials reads them from their shards: a reader needs the
special tokens' ids before any query, and their shard holds a thousand `[unused]` entries besides). The shards depend
only on the vocabulary, so their content-hashed names are the same on every site built with the
same model (a reader's cache holds them across sites).

KEY_CHARS = 1 and VOCAB_SHARDS = 32 (issue 23: requests): every continuation piece is in the
shard of "##", and a word needs that one and its first letter's; with two-letter keys a word
needed a shard per two-letter start and one per letter after its first (fewer bytes, many more
requests: docs/performance.md).
"""

from __future__ import annotations

from typing import Any

import orjson

from mkdocs_graphsearch.bundle.format import BundleError, vocab_shard
from mkdocs_graphsearch.bundle.schema import _fail, _object, _strings, _wholes

#: Shards of the vocabulary, and the code points of an entry's key (the module's docstring).
VOCAB_SHARDS = 32
KEY_CHARS = 1
#: WordPiece's special tokens, whose ids every query needs (`encoder.vocab.specials`).
SPECIALS = ("[CLS]", "[SEP]", "[UNK]")
#: The key length of bundles whose manifest has no `encoder.vocab.key_chars`.
KEY_CHARS_IF_ABSENT = 2
_HASH_MODULUS = 1000003


def vocab_key(entry: str, key_chars: int = KEY_CHARS) -> str:
    if entry.startswith("##") and len(entry) > 2:
        return entry[: 1 + key_chars]
    return entry[:key_chars]


def key_chars_of(manifest: dict[str, Any]) -> int:
    """The manifest's key length (KEY_CHARS_IF_ABSENT when it has none)."""
    vocab: dict[str, int] = manifest["encoder"]["vocab"]
    return vocab.get("key_chars", KEY_CHARS_IF_ABSENT)


def key_shard(key: str, n: int) -> int:
    h = 0
    for ch in key:
        h = (h * 31 + ord(ch)) % _HASH_MODULUS
    return h % n


def split_vocab(text: bytes, n: int = VOCAB_SHARDS) -> tuple[dict[str, bytes], dict[str, Any]]:
    """vocab.txt bytes (one entry a line, line number = id) -> the shards by logical name, and
    the manifest's `encoder.vocab`."""
    lines = text.decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shards: list[tuple[list[str], list[int]]] = [([], []) for _ in range(n)]
    last = [0] * n
    shard_of: dict[str, int] = {}  # ~30,000 entries share a few thousand keys: each hashed once
    for i, entry in enumerate(lines):
        key = vocab_key(entry, KEY_CHARS)
        index = shard_of.get(key)
        if index is None:
            index = shard_of[key] = key_shard(key, n)
        tokens, gaps = shards[index]
        gaps.append(i - last[index] if tokens else i)
        tokens.append(entry)
        last[index] = i
    parts = {vocab_shard(i): orjson.dumps({"tokens": t, "gaps": g}) for i, (t, g) in enumerate(shards)}
    ids = {entry: i for i, entry in enumerate(lines) if entry in SPECIALS}
    specials = {token: ids[token] for token in SPECIALS if token in ids}
    return parts, {"key_chars": KEY_CHARS, "shards": n, "size": len(lines), "specials": specials}


def read_vocab_shard(data: Any, manifest: dict[str, Any], index: int) -> list[tuple[str, int]]:
    """A parsed shard -> its (entry, id) pairs, checked (same messages as js/src/engine/bundle/vocab-shards.js)."""
    name, vocab, key_chars = vocab_shard(index), manifest["encoder"]["vocab"], key_chars_of(manifest)
    shard = _object(name, data, "the file")
    tokens = _strings(name, shard.get("tokens"), "tokens")
    gaps = _wholes(name, shard.get("gaps"), "gaps", len(tokens), 0, vocab["size"] - 1)
    pairs: list[tuple[str, int]] = []
    last = -1
    for i, (token, gap) in enumerate(zip(tokens, gaps, strict=True)):
        current = gap if i == 0 else last + gap
        if i and gap == 0 or current >= vocab["size"]:
            _fail(name, f"gaps[{i}]", f"must give rising ids below {vocab['size']}")
        if key_shard(vocab_key(token, key_chars), vocab["shards"]) != index:
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
    for token, i in manifest["encoder"]["vocab"].get("specials", {}).items():
        if token in SPECIALS and by_id[i] != token:
            raise BundleError(f"manifest.json: encoder.vocab.specials gives {token} the id of {by_id[i]!r} (corrupted)")
    return "".join(f"{token}\n" for token in by_id).encode("utf-8")
