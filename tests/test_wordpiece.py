"""BERT uncased WordPiece: the Python wrapper and js/src/engine/text/wordpiece.js against `tokenizers`.

tests/vectors/wordpiece.json holds ids produced by the `tokenizers` library itself. Run this file
as a script to regenerate what it checks:

    python tests/test_wordpiece.py --write-vectors     # tests/vectors/wordpiece.json
    python tests/test_wordpiece.py --write-js-tables   # the table block in js/src/engine/text/wordpiece.js
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CORPORA, ROOT, VECTORS  # noqa: E402
from mkdocs_graphsearch.text.wordpiece import DEFAULT_VOCAB, WordPiece, build_tokenizer, encode  # noqa: E402

VECTOR_FILE = VECTORS / "wordpiece.json"
JS_SOURCE = ROOT / "js" / "src" / "engine" / "text" / "wordpiece.js"
DRIVER = ROOT / "js" / "drivers" / "wordpiece.mjs"
REGENERATE = "python tests/test_wordpiece.py --write-js-tables"


@functools.cache
def _reference(max_tokens: int | None):
    from tokenizers.implementations import BertWordPieceTokenizer

    tok = BertWordPieceTokenizer(
        str(DEFAULT_VOCAB), clean_text=True, handle_chinese_chars=True, strip_accents=None,
        lowercase=True, wordpieces_prefix="##",
    )
    tok._tokenizer.encode_special_tokens = True  # "[SEP]" in a text is text, not the token
    if max_tokens is not None:
        tok.enable_truncation(max_tokens)
    return tok


def reference_ids(text: str, max_tokens: int | None) -> list[int]:
    """Ids from `tokenizers`' own BertWordPieceTokenizer (built independently of the wrapper)."""
    return _reference(max_tokens).encode(text).ids


def run_driver(node: str, requests: list[dict]) -> list[dict]:
    """Send requests to one node process running js/drivers/wordpiece.mjs."""
    payload = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
    out = subprocess.run(
        [node, str(DRIVER)], input=payload.encode("utf-8"), capture_output=True, check=True
    )
    answers = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    assert len(answers) == len(requests), out.stderr.decode()
    for a in answers:
        assert "error" not in a, a["error"]
    return answers


VECTOR_DATA = json.loads(VECTOR_FILE.read_text("utf-8")) if VECTOR_FILE.exists() else {"cases": []}
CASES = VECTOR_DATA["cases"]


# --- the vectors and the Python wrapper ------------------------------------------------------


def test_vector_file_matches_shipped_vocab() -> None:
    assert VECTOR_DATA["vocab_sha256"] == hashlib.sha256(DEFAULT_VOCAB.read_bytes()).hexdigest()
    assert len(CASES) >= 200


@pytest.mark.parametrize("case", CASES, ids=[repr(c["text"])[:40] for c in CASES])
def test_wrapper_reproduces_vectors(case: dict) -> None:
    assert encode(case["text"], case["max_tokens"]) == case["ids"]


def test_installed_tokenizers_still_produces_vectors() -> None:
    """A `tokenizers` upgrade that changes ids shows here (then regenerate and re-check JS)."""
    bad = [c["text"] for c in CASES if reference_ids(c["text"], c["max_tokens"]) != c["ids"]]
    assert not bad, f"{len(bad)} cases differ, first {bad[0]!r}; run --write-vectors"


def test_wrapper_api() -> None:
    wp = WordPiece()
    assert wp.vocab_size == 30522
    assert wp.encode("") == [wp.cls_id, wp.sep_id] == [101, 102]
    assert wp.tokens(wp.encode("use_directory_urls")) == [
        "[CLS]", "use", "_", "directory", "_", "ur", "##ls", "[SEP]"]
    long = "word " * 600
    assert len(wp.encode(long)) == 256
    assert len(wp.encode(long, None)) == 602
    assert wp.encode(long, 2) == [101, 102]
    with pytest.raises(ValueError):
        wp.encode("x", 1)
    assert wp.pieces_batch(["a b", "c"]) == [wp.pieces("a b"), wp.pieces("c")]


def test_tokenizer_json_is_equivalent(tmp_path: Path) -> None:
    tok = build_tokenizer()
    tok.enable_padding(length=64)  # a tokenizer.json may carry padding/truncation: both dropped
    tok.enable_truncation(8)
    path = tmp_path / "tokenizer.json"
    path.write_text(tok.to_str(), "utf-8")
    wp = WordPiece(path)
    for case in CASES[:50]:
        assert wp.encode(case["text"], case["max_tokens"]) == case["ids"]
    assert wp.encode("[SEP] [MASK]") == WordPiece().encode("[SEP] [MASK]")


def test_special_token_strings_are_plain_text() -> None:
    wp = WordPiece()
    assert wp.tokens(wp.encode("[SEP] x")) == ["[CLS]", "[", "sep", "]", "x", "[SEP]"]


# --- the JavaScript implementation -----------------------------------------------------------


def _chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


_ALL_CODE_POINTS = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


def _bert_normalizer():
    from tokenizers import normalizers

    return normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )


def test_js_normalizer_matches_on_every_code_point(node: str) -> None:
    """BertNormalizer in JS == `tokenizers` on each of the 1.1M code points alone.

    `|` separates them: a starter that nothing changes, so no reordering crosses it.
    """
    norm = _bert_normalizer()
    cps = [c for c in _ALL_CODE_POINTS if c != 0x7C]
    texts = ["|".join(map(chr, chunk)) for chunk in _chunks(cps, 8192)]
    (answer,) = run_driver(node, [{"op": "normalize", "texts": texts}])
    for text, js in zip(texts, answer["out"], strict=True):
        expected = norm.normalize_str(text)
        if js != expected:
            for ch, a, b in zip(text.split("|"), js.split("|"), expected.split("|"), strict=True):
                assert a == b, f"U+{ord(ch):04X}: JS {a!r}, tokenizers {b!r}; {REGENERATE}"
            pytest.fail(f"normalization differs: {text[:20]!r}...; {REGENERATE}")


def test_js_normalizer_matches_in_context(node: str) -> None:
    """... and on runs of consecutive code points (canonical reordering across characters).

    Only code points Python's Unicode database assigns: for a combining mark newer than
    `tokenizers`' Unicode data, it and the engine may order marks differently.
    """
    norm = _bert_normalizer()
    cps = [c for c in _ALL_CODE_POINTS if unicodedata.category(chr(c)) != "Cn"]
    texts = ["".join(map(chr, chunk)) for chunk in _chunks(cps, 4096)]
    (answer,) = run_driver(node, [{"op": "normalize", "texts": texts}])
    for text, js in zip(texts, answer["out"], strict=True):
        expected = norm.normalize_str(text)
        if js != expected:
            # The first difference, or where the shorter one ends.
            shorter = min(len(js), len(expected))
            i = next((i for i, (a, b) in enumerate(zip(js, expected, strict=False)) if a != b), shorter)
            pytest.fail(f"differs at {expected[max(0, i - 3):i + 5]!r} / {js[max(0, i - 3):i + 5]!r}")


def test_js_pretokenizer_matches_on_every_code_point(node: str) -> None:
    """BertPreTokenizer in JS == `tokenizers`: every code point between two letters."""
    from tokenizers import pre_tokenizers

    pre = pre_tokenizers.BertPreTokenizer()
    texts = ["".join("a" + chr(c) for c in chunk) + "a" for chunk in _chunks(_ALL_CODE_POINTS, 8192)]
    (answer,) = run_driver(node, [{"op": "pretokenize", "texts": texts}])
    for text, js in zip(texts, answer["out"], strict=True):
        expected = [w for w, _ in pre.pre_tokenize_str(text)]
        if js != expected:
            i = next(i for i, (a, b) in enumerate(zip(js + [""], expected + [""], strict=False)) if a != b)
            pytest.fail(f"pre-tokenization differs near {expected[i:i + 2]!r} / {js[i:i + 2]!r}; {REGENERATE}")


# Code points assigned in Python's Unicode database; no lone surrogates (JSON can't carry them).
_ASSIGNED = st.characters(blacklist_categories=("Cs", "Cn")).filter(
    lambda ch: unicodedata.category(ch) != "Cn"
)
_PIECES = st.sampled_from(
    ["the", "docs", "Deploy", "use_directory_urls", "HTTPException", " ", "  ", "\t", "\n", ".", ",",
     "-", "_", "##", "[UNK]", "\u0301", "\u0308", "é", "ß", "Σ", "ς", "İ", "ﬁ", "日本", "中文", "한국어",
     "ｶ", "🚀", "👍🏽", "\u200d", "\u00ad", "\x00", "\ufffd", "\ufeff", "\u3000", "x" * 60, "ab" * 30]
)
_TEXT = st.lists(st.one_of(_ASSIGNED, _PIECES), max_size=30).map("".join)
_MAX = st.one_of(st.none(), st.integers(min_value=2, max_value=24))


def test_random_strings_match_javascript(node: str) -> None:
    """~200 random strings (and lengths) encoded by `tokenizers` and by JS in one node process."""
    cases: list[tuple[str, int | None]] = []

    @settings(max_examples=200, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(_TEXT, _MAX)
    def collect(text: str, max_tokens: int | None) -> None:
        cases.append((text, max_tokens))

    collect()
    assert len(cases) >= 150
    by_max: dict[int | None, list[str]] = {}
    for text, m in cases:
        by_max.setdefault(m, []).append(text)
    requests = [{"op": "encode", "texts": texts, "max_tokens": m} for m, texts in by_max.items()]
    for (m, texts), answer in zip(by_max.items(), run_driver(node, requests), strict=True):
        for text, js in zip(texts, answer["ids"], strict=True):
            expected = reference_ids(text, m)
            assert js == expected, f"JS differs for {text!r} (max_tokens={m})"
            assert encode(text, m) == expected, f"the wrapper differs for {text!r} (max_tokens={m})"


# --- generators (run this file as a script) --------------------------------------------------


def _encode_ranges(code_points: list[int]) -> str:
    """`gap[+length]` hex pairs, the format js/src/engine/text/ranges.js decodes."""
    ranges: list[list[int]] = []
    for c in sorted(code_points):
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    out, prev = [], -1
    for a, b in ranges:
        out.append(f"{a - prev - 1:x}" + (f"+{b - a:x}" if b > a else ""))
        prev = b
    return " ".join(out)


# Node's view of NFD: code points it decomposes, and those it gives a combining class > 0 (a
# mark is reordered against U+0334 (class 1) or U+0345 (class 240) only if its class is > 0).
_NODE_NFD = """
const changed = [], nonStarters = [];
for (let cp = 0; cp < 0x110000; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const s = String.fromCodePoint(cp);
  if (s.normalize("NFD") !== s) { changed.push(cp); continue; }
  const a = "a" + s + "\u0334", b = "a\u0345" + s;
  if (a.normalize("NFD") !== a || b.normalize("NFD") !== b) nonStarters.push(cp);
}
process.stdout.write(JSON.stringify({ changed, nonStarters }));
"""


def js_tables(node: str) -> str:
    """The generated block of js/src/engine/text/wordpiece.js, probed from the installed `tokenizers`."""
    import tokenizers
    from tokenizers import normalizers, pre_tokenizers

    def per_code_point(norm) -> dict[int, str]:
        out: dict[int, str] = {}
        cps = [c for c in _ALL_CODE_POINTS if c != 0x7C]
        for chunk in _chunks(cps, 20000):
            res = norm.normalize_str("|".join(map(chr, chunk))).split("|")
            assert len(res) == len(chunk)
            out.update(zip(chunk, res, strict=True))
        out[0x7C] = "|"
        return out

    clean = per_code_point(normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False))
    strip = per_code_point(normalizers.BertNormalizer(
        clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False))
    nfd = per_code_point(normalizers.NFD())
    remove = [c for c, o in clean.items() if o == ""]
    # Nonspacing marks as `tokenizers` sees them (only NFD-stable code points reach the filter).
    mn = [c for c, o in strip.items() if o == "" and nfd[c] == chr(c)]
    pre = pre_tokenizers.BertPreTokenizer()
    punct = [c for c in _ALL_CODE_POINTS if len(pre.pre_tokenize_str("a" + chr(c) + "a")) == 3]
    node_nfd = json.loads(subprocess.run([node, "-e", _NODE_NFD], capture_output=True, check=True).stdout)
    # Barriers: left alone and never reordered across, as in `tokenizers`' older Unicode data:
    # what node decomposes and it does not, and marks node reorders and it does not.
    tok_nfd = normalizers.NFD()
    barrier = [c for c in node_nfd["changed"] if nfd[c] == chr(c)]
    for c in node_nfd["nonStarters"]:
        a, b = "a" + chr(c) + "\u0334", "a\u0345" + chr(c)
        if tok_nfd.normalize_str(a) == a and tok_nfd.normalize_str(b) == b:
            barrier.append(c)
    lines = [
        f"// Probed from tokenizers {tokenizers.__version__}: code points it removes when cleaning,",
        "// its nonspacing marks, its punctuation, and NFD barriers (what node decomposes or reorders",
        "// and it does not: characters its Unicode data does not know).",
        f'const TABLE_REMOVE = "{_encode_ranges(remove)}";',
        f'const TABLE_MN = "{_encode_ranges(mn)}";',
        f'const TABLE_PUNCT = "{_encode_ranges(punct)}";',
        f'const TABLE_NFD_BARRIER = "{_encode_ranges(barrier)}";',
    ]
    return "\n".join(lines)


def write_js_tables(node: str) -> None:
    src = JS_SOURCE.read_text("utf-8")
    pattern = re.compile(r"(/\* BEGIN GENERATED TABLES[^\n]*\*/\n).*?(/\* END GENERATED TABLES \*/)", re.S)
    new, n = pattern.subn(lambda m: m.group(1) + js_tables(node) + "\n" + m.group(2), src)
    assert n == 1, "markers not found"
    JS_SOURCE.write_text(new, "utf-8")


HANDWRITTEN: list[str] = [
    # identifiers and code
    "use_directory_urls", "HTTPException", "mkdocs.yml", "on_page_markdown", "getElementById",
    "snake_case_name", "kebab-case-name", "__init__.py", "CamelCaseXMLParser", "pip install mkdocs-material",
    "https://example.com/path/to/page?a=1&b=2#frag", "user.name+tag@example.org", "C:\\Users\\docs\\index.md",
    "version 1.2.3-rc.1", "0xDEADBEEF", "pi = 3.14159", "1,000,000 pages", "def f(x):\n    return x**2",
    "```python\nimport mkdocs\n```", "site_url: https://example.com/", "nav:\n  - Home: index.md",
    "{{ config.site_name }}", "{% block content %}", "$ mkdocs serve --dev-addr=127.0.0.1:8000",
    "!!! note \"Title\"", "## Heading {#custom-id}", "[link](../page.md#anchor)", "| a | b |\n|---|---|",
    "- [x] done", "**bold** _italic_ `code`", "<div class=\"md-content\">", "a && b || !c", "x != y >= z",
    "@decorator", "#hashtag", "$HOME/.cache", "100% sure", "a^b", "a|b", "back\\slash", "~tilde~",
    # punctuation
    "Hello, world!", "Wait... what?!", "“smart quotes” and ‘single’", "an em dash — and an en dash –",
    "ellipsis…", "«guillemets» ‹single›", "¿Qué? ¡Hola!", "{[()]}", "¬ § ¶ ° ± × ÷", "€100 £5 ¥3 ¢",
    "© ® ™ ℃ № ℗", "・中点・", "、。「」『』【】", "‐‑‒―", "‰ ‱ ′ ″ ‴", "⁂ ※ † ‡ •", "‿ ⁀ ⁔",
    # accents, scripts, normalisation
    "café", "naïve résumé", "Ångström", "façade", "Crème Brûlée", "Ærøskøbing", "straße STRASSE",
    "İstanbul", "ΣΑΣ σας ς", "Ελληνικά Ὀλυμπία", "Tiếng Việt", "Łódź", "Příliš žluťoučký kůň",
    "ığüşöç IĞÜŞÖÇ", "ﬁle ﬂow", "ＡＢＣ１２３", "x² H₂O", "e\u0301 vs é", "a\u0308\u0304", "ǅ ǈ ǋ ǲ",
    "한국어 문서", "日本語のドキュメント", "中文文档搜索", "mkdocs中文文档", "ภาษาไทย", "العربية",
    "עִבְרִית", "हिन्दी", "Привет, мир", "Ёлка", "Հայերեն", "ქართული", "ꙮ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𝐁𝐨𝐥𝐝",
    "\U00020000\U0002a6df\U0002b740", "\u3400\u4dbf", "\uf900\ufa6a", "\U0002f800", "ｶﾀｶﾅ", "Ⅻ ⅻ",
    # emoji
    "🚀 Deploy", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "❤️", "1️⃣", "🙂🙃", "☃ ★ ✓",
    # whitespace and control characters
    "", "   ", "\n\n", "a\x00b", "tab\there", "line\nbreak", "cr\r\nlf", "\x07bell", "\x1b[31mred\x1b[0m",
    "\u200bzero\u200bwidth", "soft\u00adhyphen", "\ufeffBOM", "nbsp\u00a0here", "line\u2028sep",
    "ideo\u3000space", "\ufffdreplacement", "del\x7f", "\x85NEL", "\ue000private", "\U000f0000x",
    "\u2066isolate\u2069", "\u180emongolian", "\u1734", "\U000e0041tag",
    # long words
    "a" * 100, "a" * 101, "supercalifragilisticexpialidocious", "antidisestablishmentarianism",
    "x" * 150 + " ok", "é" * 100, "é" * 101, "ab" * 50 + "c", "pneumonoultramicroscopicsilicovolcanoconiosis",
    "ThisIsAVeryLongIdentifierNameThatKeepsGoingAndGoingWithoutAnySeparatorsAtAll",
    # special-token strings are plain text
    "[CLS] [SEP] [UNK] [PAD] [MASK]", "x[SEP]y", "##ing",
    # queries
    "put my docs online", "how do I deploy to GitHub Pages?", "change the theme colour", "404 page not found",
    "configure search plugin", "what is a plugin", "nav", "i18n l10n",
]

TRUNCATED = [
    ("MkDocs is a fast, simple and downright gorgeous static site generator.", 2),
    ("MkDocs is a fast, simple and downright gorgeous static site generator.", 3),
    ("MkDocs is a fast, simple and downright gorgeous static site generator.", 8),
    ("supercalifragilisticexpialidocious is long", 4),
    ("中文文档搜索引擎", 5),
    ("use_directory_urls HTTPException", 6),
    ("word " * 300, 256),
    ("", 2),
]


def corpus_sentences(n: int = 90) -> list[str]:
    """Lines of the mkdocs-docs corpus, chosen deterministically."""
    lines: list[str] = []
    for path in sorted((CORPORA / "mkdocs-docs").rglob("*.md")):
        for line in path.read_text("utf-8").splitlines():
            line = line.strip()
            if 20 <= len(line) <= 400:
                lines.append(line)
    step = max(1, len(lines) // n)
    return lines[::step][:n]


def write_vectors() -> None:
    import tokenizers

    texts = HANDWRITTEN + corpus_sentences()
    cases = [{"text": t, "max_tokens": None} for t in texts] + [
        {"text": t, "max_tokens": m} for t, m in TRUNCATED
    ]
    for c in cases:
        c["ids"] = reference_ids(c["text"], c["max_tokens"])
    data = {
        "description": "BERT uncased WordPiece ids ([CLS] ... [SEP]) of bert-base-uncased vocab.txt, "
        "produced by the tokenizers library (BertWordPieceTokenizer, truncation to max_tokens "
        "including [CLS]/[SEP]; null = none). Regenerate: python tests/test_wordpiece.py --write-vectors",
        "tokenizers_version": tokenizers.__version__,
        "vocab_sha256": hashlib.sha256(DEFAULT_VOCAB.read_bytes()).hexdigest(),
        "cases": cases,
    }
    # One case per line; ASCII only, so invisible characters survive editors.
    head = json.dumps({k: v for k, v in data.items() if k != "cases"}, indent=1)[:-2]
    body = ",\n".join("  " + json.dumps(c) for c in cases)
    VECTOR_FILE.write_text(f'{head},\n "cases": [\n{body}\n ]\n}}\n', "utf-8")
    print(f"wrote {len(cases)} cases to {VECTOR_FILE}")


if __name__ == "__main__":  # pragma: no cover
    import shutil

    if "--write-vectors" in sys.argv:
        write_vectors()
    elif "--write-js-tables" in sys.argv:
        write_js_tables(shutil.which("node") or sys.exit("node is required"))
    else:
        sys.exit(pytest.main([__file__]))
