"""A very long section costs the memory of its distinct terms and of the model's first pieces,
not of its length (issue 26: a 50 MB single-section page took several GB to index)."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_graphsearch.index.bm25 import FIELD_WEIGHTS, chunk_tokens
from mkdocs_graphsearch.text.tokenize import iter_token_spans, token_spans, tokenize_words
from mkdocs_graphsearch.text.wordpiece import WordPiece, default_wordpiece

#: A long body of few distinct words: its token list would be many times its text.
LONG_BODY = "Retries back off exponentially; the queue_name setting keeps workers busy.\n" * 20_000


def _fields(body: str) -> dict[str, str]:
    return {name: "" for name in FIELD_WEIGHTS} | {"title": "Retries", "body": body}


def test_a_long_body_is_counted_without_a_list_of_its_tokens() -> None:
    tracemalloc.start()
    try:
        counts, prose = chunk_tokens(_fields(LONG_BODY))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    body = counts[list(FIELD_WEIGHTS).index("body")]
    assert body["retries"] == 20_000 and body["queue_name"] == 20_000 and "queue" in body
    assert "exponentially" in prose and "queue_name" not in prose
    # The normalised text and its class digits are copies of the text; a list of its ~260,000
    # tokens would be more than ten times it.
    assert peak < 4 * len(LONG_BODY), f"{peak} bytes traced for a {len(LONG_BODY)}-character body"


@given(st.text(alphabet=st.sampled_from("aZ9_-. é\u0301中文\n!"), max_size=60))
@settings(max_examples=300, deadline=None)
def test_streamed_tokens_are_the_listed_ones(text: str) -> None:
    assert list(iter_token_spans(text)) == token_spans(text)
    assert chunk_tokens(_fields(text))[0][list(FIELD_WEIGHTS).index("body")] == _counts(text)


def _counts(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for token, _ in tokenize_words(text):
        counts[token] = counts.get(token, 0) + 1
    return counts


@pytest.fixture(scope="module")
def wordpiece() -> WordPiece:
    return default_wordpiece()


@given(
    st.lists(st.sampled_from(["a", "b", " ", "xy", "\u0301", "\n", "\t", "中", ",", "[SEP]", "word ", "x" * 120]),
             max_size=300).map("".join),
    st.integers(min_value=0, max_value=40),
)
@settings(max_examples=300, deadline=None)
def test_head_pieces_are_the_first_pieces_of_the_whole_text(text: str, count: int) -> None:
    wp = default_wordpiece()
    assert wp.head_pieces([text, text[::-1]], count) == [wp.pieces(text)[:count], wp.pieces(text[::-1])[:count]]


def test_a_long_text_is_tokenized_only_as_far_as_the_model_reads(wordpiece: WordPiece, monkeypatch) -> None:
    seen: list[int] = []
    encode_batch = wordpiece.pieces_batch

    def spy(texts):  # type: ignore[no-untyped-def]
        seen.extend(len(text) for text in texts)
        return encode_batch(texts)

    monkeypatch.setattr(wordpiece, "pieces_batch", spy)
    monkeypatch.setattr(wordpiece, "pieces", lambda text: spy([text])[0])
    assert wordpiece.encode(LONG_BODY) == wordpiece.wrap(encode_batch([LONG_BODY])[0], 256)
    assert seen and max(seen) < 10_000, seen
    # A head without enough pieces (spaces only, then words) grows until it has them.
    spaced = " " * 50_000 + LONG_BODY
    assert wordpiece.head_pieces([spaced], 254) == [encode_batch([spaced])[0][:254]]
