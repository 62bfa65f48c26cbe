"""The vocabulary in shards (bundle/vocab_shards.py): a partition of vocab.txt that joins back to
the same bytes, each entry in the shard of its key; the same bytes for every site (cacheable)."""

from __future__ import annotations

import orjson
import pytest

from mkdocs_graphsearch.bundle.format import BundleError, vocab_shard
from mkdocs_graphsearch.bundle.vocab_shards import (
    KEY_CHARS,
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
    specials = {"[CLS]": 101, "[SEP]": 102, "[UNK]": 100}  # bert-base-uncased's
    assert vocab == {"key_chars": KEY_CHARS, "shards": VOCAB_SHARDS, "size": text.count(b"\n"), "specials": specials}
    manifest = {"encoder": {"vocab": vocab}}
    pairs = [
        pair for i in range(VOCAB_SHARDS) for pair in read_vocab_shard(orjson.loads(parts[vocab_shard(i)]), manifest, i)
    ]
    assert join_vocab(pairs, manifest) == text
    assert split_vocab(text)[0] == parts  # deterministic: the same names on every site
    wrong = {"encoder": {"vocab": {**vocab, "specials": {**specials, "[SEP]": 103}}}}
    with pytest.raises(BundleError, match=r"encoder.vocab.specials gives \[SEP\] the id of '\[MASK\]'"):
        join_vocab(pairs, wrong)


def test_keys_are_what_greedy_matching_looks_up() -> None:
    assert KEY_CHARS == 1
    assert vocab_key("##ing") == "##"  # every continuation piece: one shard
    assert vocab_key("theme") == "t"
    assert vocab_key("##ing", 2) == "##i"  # bundles without key_chars (KEY_CHARS_IF_ABSENT)
    assert vocab_key("theme", 2) == "th"
    assert vocab_key("a", 2) == "a"
    assert vocab_key("##", 2) == "##"  # never looked up: "#" is punctuation, a word of its own
    assert key_shard("t", VOCAB_SHARDS) == key_shard(vocab_key("the"), VOCAB_SHARDS)


def test_a_manifest_without_key_chars_is_read_with_two() -> None:
    parts, vocab = split_vocab(DEFAULT_VOCAB.read_bytes())
    shard = orjson.loads(parts[vocab_shard(3)])
    assert read_vocab_shard(shard, {"encoder": {"vocab": vocab}}, 3)
    old = {key: value for key, value in vocab.items() if key != "key_chars"}
    with pytest.raises(BundleError, match="belongs to another shard"):  # read with the 2-letter rule
        read_vocab_shard(shard, {"encoder": {"vocab": old}}, 3)
