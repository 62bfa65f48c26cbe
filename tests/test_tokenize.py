"""The shared tokenizer: pinned vectors and a Python <-> JavaScript property test."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, VECTORS
from mkdocs_graphsearch.text.tokenize import COMPOUND, WORD, query_spans, tokenize, tokenize_words

CASES = orjson.loads((VECTORS / "tokenizer.json").read_bytes())


@pytest.mark.parametrize("case", CASES, ids=[repr(c["input"])[:40] for c in CASES])
def test_vectors(case: dict) -> None:
    assert tokenize(case["input"], code=case.get("code", False)) == case["tokens"]


def test_identifier_kept_whole_and_split() -> None:
    assert tokenize("use_directory_urls")[0] == "use_directory_urls"
    assert tokenize("HTTPException") == ["httpexception", "http", "exception"]


def test_programming_words_are_not_stop_words() -> None:
    assert tokenize("if not for") == ["if", "not", "for"]


def test_stop_words_written_as_names_are_names() -> None:
    """Rule 6: `or_`, `.where()` and backticked stop words are kept as names (COMPOUND, not
    words: no query stop word, no stem), plain ones dropped; a query of stop words alone is
    read as code (rule 9)."""
    assert tokenize_words("or_ .where() where and") == [("or", False), ("where", False)]
    assert tokenize("where") == [] and [s[0] for s in query_spans("where")] == ["where"]
    assert tokenize("from x import y as z", code=True) == ["from", "x", "import", "y", "as", "z"]
    assert [s[3] for s in query_spans("`or` col")] == [COMPOUND, WORD]


def test_katakana_runs_are_whole_tokens() -> None:
    """Rule 5: `キュー` is no token of `スケジュール`, so it cannot match inside it."""
    assert tokenize("スケジュール") == ["スケジュール"]
    assert "ーカ" not in tokenize("ローカル ワーカー")
    assert tokenize("日本語") == ["日本", "本語"]


def run_js_tokenizer(node: str, texts: list[str], function: str = "tokenize") -> list[list[str]]:
    out = subprocess.run(
        [node, str(ROOT / "js" / "drivers" / "tokenize.mjs"), function],
        input=orjson.dumps(texts),
        capture_output=True,
        check=True,
    )
    return orjson.loads(out.stdout)


# Any code point, those Python's Unicode data lacks and node's ICU has among them: both engines
# read one Unicode table. No lone surrogates: JSON can't carry them.
_ANY = st.characters(blacklist_categories=("Cs",))
_PIECES = st.sampled_from(
    ["_", "-", ".", " ", "A", "a", "Z", "1", "\u0301", "ß", "Σ", "ς", "İ", "日本", "ｶ", "Ab", "HTTP",
     "or", "Where", "(", "`", "キュ", "ー", "を"]
)
_TEXT = st.lists(st.one_of(_ANY, _PIECES), max_size=40).map("".join)


def test_random_strings_match_javascript(node: str) -> None:
    """10,000 random strings, tokenized by both implementations in one node process."""
    texts: list[str] = []

    @settings(max_examples=10_000, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(_TEXT)
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    for code in (False, True):
        js = run_js_tokenizer(node, texts, "code" if code else "tokenize")
        for text, js_tokens in zip(texts, js, strict=True):
            assert tokenize(text, code) == js_tokens, f"first differing input: {text!r} (code: {code})"
        assert len(js) == len(texts) >= 5_000, len(texts)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
