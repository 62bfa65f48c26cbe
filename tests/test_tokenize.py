"""The shared tokenizer: pinned vectors and a Python <-> JavaScript property test."""

from __future__ import annotations

import random
import subprocess
import sys

import orjson
import pytest

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
_PIECES = ["_", "-", ".", " ", "A", "a", "Z", "1", "\u0301", "ß", "Σ", "ς", "İ", "日本", "ｶ", "Ab", "HTTP",
           "or", "Where", "(", "`", "キュ", "ー", "を"]
#: Where a random code point is drawn from, evenly: ASCII, the BMP, every plane.
_TOPS = [0x7F, 0xFFFF, 0x10FFFF]


def _any_character(rng: random.Random) -> str:
    while True:
        code = rng.randint(0, rng.choice(_TOPS))
        if not 0xD800 <= code <= 0xDFFF:
            return chr(code)


def random_texts(count: int, seed: int = 0) -> list[str]:
    """`count` different strings, the empty one first, of up to 40 parts (mostly a few), each a
    piece above or any code point; the same every run (seeded; a plain generator, not
    Hypothesis: drawing 10,000 there cost more than tokenizing them in both engines)."""
    rng = random.Random(seed)
    texts = {"": None}
    while len(texts) < count:
        parts = min(1 + int(rng.expovariate(0.2)), 40)
        texts["".join(rng.choice(_PIECES) if rng.random() < 0.5 else _any_character(rng) for _ in range(parts))] = None
    return list(texts)


def test_random_strings_match_javascript(node: str) -> None:
    """10,000 random strings, tokenized by both implementations in one node process."""
    texts = random_texts(10_000)
    assert max(map(len, texts)) > 40  # long ones among them
    for code in (False, True):
        js = run_js_tokenizer(node, texts, "code" if code else "tokenize")
        for text, js_tokens in zip(texts, js, strict=True):
            assert tokenize(text, code) == js_tokens, f"first differing input: {text!r} (code: {code})"
        assert len(js) == len(texts) >= 5_000, len(texts)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
