"""The vocabulary in shards (bundle/vocab_shards.py): a partition of vocab.txt that joins back to
the same bytes, each entry in the shard of its key; the same bytes for every site (cacheable)."""

from __future__ import annotations

import orjson

from mkdocs_graphsearch.bundle.format import vocab_shard
from mkdocs_graphsearch.bundle.vocab_shards import (
    VOCAB_SHARDS,
    join_vocab,
    key_shard,
    read_vocab_shard,
    split_vocab,
    vocab_key,
)
from mkdocs_graphsearch.text.wordpiece import DEFAULT_VOCAB


def test_shards_join_back_to_the_vocabulary() -> None:
    text = DEFAULT_VOCAB.read_bytes()
    parts, vocab = split_vocab(text)
    assert vocab == {"shards": VOCAB_SHARDS, "size": text.count(b"\n")}
    manifest = {"encoder": {"vocab": vocab}}
    pairs = [
        pair for i in range(VOCAB_SHARDS) for pair in read_vocab_shard(orjson.loads(parts[vocab_shard(i)]), manifest, i)
    ]
    assert join_vocab(pairs, manifest) == text
    assert split_vocab(text)[0] == parts  # deterministic: the same names on every site


def test_keys_are_what_greedy_matching_looks_up() -> None:
    assert vocab_key("##ing") == "##i"
    assert vocab_key("theme") == "th"
    assert vocab_key("a") == "a"
    assert vocab_key("##") == "##"  # never looked up: "#" is punctuation, a word of its own
    assert key_shard("th", VOCAB_SHARDS) == key_shard(vocab_key("the"), VOCAB_SHARDS)
