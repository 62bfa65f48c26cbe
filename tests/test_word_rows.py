"""The word files (bundle/word_rows.py, format 6): each site word in words.bin or in the shard its
hash names, with its ids; each of its pieces that has a row, with that row in its file or in
words.bin; the commonest pieces' rows kept once, in words.bin."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import numpy as np
import orjson
import pytest

from conftest import ROOT, VECTORS, build_bundle_dir
from mkdocs_graphsearch.bundle import word_rows
from mkdocs_graphsearch.bundle.format import WORDS, BundleError, word_shard
from mkdocs_graphsearch.bundle.vocab_shards import key_shard
from mkdocs_graphsearch.bundle.word_rows import read_words, split_words

K = 4
#: A made-up tokenizer: a word's pieces are its letters' code points (each below VOCAB).
VOCAB = 200


def _pieces(words: list[str]) -> list[list[int]]:
    return [[ord(c) for c in w] for w in words]


def _table() -> tuple[list[int], np.ndarray, np.ndarray]:
    """Rows for the vowels and for "z": other letters have none."""
    tokens = [ord(c) for c in "aeiouz"]
    weights = np.arange(1, len(tokens) + 1, dtype="<f4")
    rows = np.arange(len(tokens) * K, dtype=np.int8).reshape(len(tokens), K)
    return tokens, weights, rows


def _manifest(shards: int) -> dict[str, object]:
    return {"encoder": {"vocab": {"size": VOCAB}, "words": {"shards": shards}}, "vectors": {"dim": K}}


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    monkeypatch.setattr(word_rows, "COMMON_WORDS", 2)
    monkeypatch.setattr(word_rows, "COMMON_ROWS", 1)
    monkeypatch.setattr(word_rows, "WORDS_PER_SHARD", 2)
    return Counter({"the": 9, "to": 8, "zebra": 1, "queue": 2, "tutu": 1, "audio": 3, "rhythm": 1})


def test_every_word_is_in_words_bin_or_its_shard_with_its_rows(small: Counter[str]) -> None:
    parts, entry = split_words(small, _pieces, _table())
    n = entry["shards"]
    assert n == 3 and set(parts) == {WORDS, *(word_shard(i) for i in range(n))}
    manifest = _manifest(n)
    common, (common_tokens, _, _) = read_words(parts[WORDS], WORDS, manifest, None)
    assert sorted(common) == ["the", "to"]  # the commonest words
    # the rows of their pieces (e, o) and of the piece the other words use most (u: queue, tutu, audio)
    assert common_tokens == [ord("e"), ord("o"), ord("u")]
    tokens, weights, rows = _table()
    seen = set(common)
    for i in range(n):
        words, (shard_tokens, shard_weights, shard_rows) = read_words(parts[word_shard(i)], word_shard(i), manifest, i)
        for word, ids in words.items():
            assert key_shard(word, n) == i and ids == _pieces([word])[0]
            wanted = {p for p in ids if p in tokens} - set(common_tokens)
            assert wanted <= set(shard_tokens), word
        assert not set(shard_tokens) & set(common_tokens)  # kept once, in words.bin
        for token, weight, row in zip(shard_tokens, shard_weights, shard_rows, strict=True):
            assert weight == weights[tokens.index(token)] and (row == rows[tokens.index(token)]).all()
        seen |= set(words)
    assert seen == set(small)


def test_the_same_words_give_the_same_bytes(small: Counter[str]) -> None:
    again = Counter(dict(reversed(list(small.items()))))
    assert split_words(small, _pieces, _table()) == split_words(again, _pieces, _table())


def test_a_word_file_out_of_order_or_in_another_shard_is_refused(small: Counter[str]) -> None:
    parts, entry = split_words(small, _pieces, _table())
    manifest = _manifest(entry["shards"])
    data = parts[word_shard(0)]
    with pytest.raises(BundleError, match=r"words\.1\.bin: words\[0\] belongs to another shard"):
        read_words(data, word_shard(1), manifest, 1)
    cut = data.index(b"\n")
    with pytest.raises(BundleError, match=r"words\.0\.bin has 3 bytes, not whole rows of 12"):
        read_words(data[: cut + 1] + b"abc", word_shard(0), manifest, 0)


# ------------------------------------------------------------------ the browser's lookup

#: For each query: the search service's complete hybrid answer (pasted: one query message), the
#: files it fetched, and loadBundle's answer (every file read) to compare.
_SERVE = """
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { askService } from "./js/test/service.js";
import { loadBundle } from "./js/src/engine/worker.js";
import { search } from "./js/src/engine/engine.js";
const [folder, ...queries] = process.argv.slice(1);
const read = async (name) => new Uint8Array(await readFile(join(folder, name)));
const full = await loadBundle(read);
for (const query of queries) {
  const fetched = [];
  const fetching = (name) => (fetched.push(name.replace(/\\.[0-9a-f]{8}\\./, ".")), read(name));
  const hybrid = (m) => m.type === "results" && m.complete && m.mode === "hybrid";
  const { answers } = await askService(fetching, { query, mode: "hybrid", limit: 10 }, hybrid);
  const expected = search(full, query, { mode: "hybrid", limit: 10 }).results;
  const same = JSON.stringify(answers.at(-1).results) === JSON.stringify(expected);
  console.log(JSON.stringify({ query, fetched, same }));
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("words"), VECTORS / "engine" / "docs", embeddings=True)


def test_a_pasted_query_finds_its_words_rows_in_the_word_files(built: Path, node: str) -> None:
    # the site's words; then words it never says (how, do, it; zyzzyva, quokka)
    queries = ["retry policy", "install", "configure timeout", "how do I configure it", "zyzzyva quokka install"]
    run = subprocess.run(
        [node, "--input-type=module", "-e", _SERVE, str(built), *queries],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    served = {item["query"]: item for item in map(orjson.loads, run.stdout.splitlines())}
    for query in queries:
        assert served[query]["same"], query
    # the site's words: no vocabulary shard (the special tokens' ids are the manifest's), no encoder shard
    for query in queries[:3]:
        fetched = served[query]["fetched"]
        assert not [name for name in fetched if name.startswith("vocab.")], (query, fetched)
        assert not [name for name in fetched if name.startswith("encoder.") and name.endswith(".bin")], (query, fetched)
        assert "words.bin" in fetched
    # words the site never says: their vocabulary shards (and the continuations'), then their rows
    fetched = served[queries[4]]["fetched"]
    assert "vocab.0.json" in {name for name in fetched if name.startswith("vocab.")}, fetched
