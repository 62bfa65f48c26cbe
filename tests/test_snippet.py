"""Snippets: the shared vectors (js/test/snippet.test.js checks the same ones) and the wiring."""

from __future__ import annotations

import re

import orjson
import pytest

from conftest import VECTORS
from mkdocs_graphsearch.bundle.settings import SearchSettings
from mkdocs_graphsearch.engine.snippet import highlight, snippet, source_text
from mkdocs_graphsearch.text.tokenize import token_spans

CASES = orjson.loads((VECTORS / "snippets.json").read_bytes())
SAFE = re.compile(r"^(?:[^<>]|<mark>|</mark>)*$")


@pytest.mark.parametrize("case", CASES["snippets"], ids=[c["name"] for c in CASES["snippets"]])
def test_snippet_vectors(case: dict) -> None:
    marks = highlight(case["query"], case["matched"], case["stop_words"])
    html = snippet(case["text"], marks, case["window"])
    assert html == case["html"]
    assert SAFE.match(html)


@pytest.mark.parametrize("case", CASES["token_spans"], ids=[c["input"] for c in CASES["token_spans"]])
def test_token_span_vectors(case: dict) -> None:
    assert [list(span) for span in token_spans(case["input"])] == case["spans"]


@pytest.mark.parametrize("case", CASES["source_text"], ids=[c["name"] for c in CASES["source_text"]])
def test_source_text_vectors(case: dict) -> None:
    assert source_text(case["texts"], case["parents"], case["titles"], case["chunk"]) == case["text"]


def test_vectors_cover_every_rule() -> None:
    names = " ".join(case["name"] for case in CASES["snippets"])
    for rule in ("prefix", "punctuation", "identifier", "stop words", "typo", "window", "escaped", "table"):
        assert rule in names


def test_query_stop_words_are_settings_in_the_manifest() -> None:
    stop = SearchSettings().to_json()["query_stop_words"]
    assert {"to", "is", "the", "how", "do", "i", "my"} <= set(stop)
    assert not {"deploy", "github", "pages", "jitter"} & set(stop)
