"""One Unicode table for both engines (issue 11, item 7): the tokenizer's character classes,
lowercase and normalisation come from js/src/engine/text/unicode-table.js in Python and in JS alike, so
the engines agree on every code point whatever Unicode version Python's `unicodedata` and
node's ICU carry (here they differ: Python 3.11 has Unicode 14, Node 20 a newer one)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import unicodedata
from collections import defaultdict
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.text.tokenize import lower, normalize, token_spans
from mkdocs_graphsearch.text.unicode_table import table_file, unicode_table
from parity import assert_parity

_spec = importlib.util.spec_from_file_location("make_unicode_table", ROOT / "scripts" / "make_unicode_table.py")
assert _spec and _spec.loader
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

DRIVER = ROOT / "js" / "drivers" / "tokenize.mjs"
FROZEN = ROOT / "tests" / "vectors" / "engine" / "bundle"

#: Code points assigned after Unicode 14 (Python 3.11's), with their category then, or whose
#: category changed since: what a newer engine (Node 20, Chromium) knows and Python does not.
NEWER = {
    0x0295: "IPA Extensions: Ll in Unicode 14, Lo later",
    0x02E4: "Spacing Modifier Letters: NFKC gives U+0295",
    0xA7CB: "Latin Extended-D: Lu, lowercase U+0264",
    0xA7DC: "Latin Extended-D: Lu, lowercase U+019B",
    0x10D50: "Garay: Lu",
    0x10D70: "Garay: Ll",
    0x10EFD: "Arabic Extended-C: Mn",
    0x11383: "Tulu-Tigalari: Lo",
    0x11F00: "Kawi: Mn",
    0x11F04: "Kawi: Lo",
    0x11F50: "Kawi: Nd",
    0x1611E: "Gurung Khema: Mn",
    0x16D40: "Kirat Rai: Lm",
    0x1B132: "Small Kana Extension: Lo, a CJK block",
    0x1CCD6: "Symbols for Legacy Computing Supplement: So, NFKC gives A",
    0x1CCF0: "Symbols for Legacy Computing Supplement: Nd, NFKC gives 0",
    0x1DF25: "Latin Extended-G: Ll",
    0x1E030: "Cyrillic Extended-D: Lm, NFKC gives U+0430",
    0x1E4D0: "Nag Mundari: Lo",
    0x2EBF0: "CJK Extension I: Lo",
    0x31350: "CJK Extension H: Lo",
}
#: How each sampled code point is fed: alone and among letters, case changes, CJK, connectors
#: and marks (what classification, case, lowercase and normalisation each decide).
CONTEXTS = ("{}", "a{}b", "A{}Bc", "x{}Y", "{}{}", "\u65e5{}\u672c", "x_{}_y", "{}\u0301", "e{}\u0301\u0327")
PER_CATEGORY = 200
#: Unassigned (for this Python) code points of planes 0-3 are sampled densely: a newer engine
#: knows some of them.
UNASSIGNED_STEP = 7


def run_js(node: str, function: str, texts: list[str]) -> list:
    done = subprocess.run([node, str(DRIVER), function], input=orjson.dumps(texts), capture_output=True, check=True)
    return orjson.loads(done.stdout)


def samples() -> dict[int, str]:
    """Code point -> its general category (this Python's), a sample of every category."""
    by_category: dict[str, list[int]] = defaultdict(list)
    for code in range(0x110000):
        by_category[unicodedata.category(chr(code))].append(code)
    del by_category["Cs"]  # lone surrogates: no JSON, no UTF-8
    picked = {code: f"{unicodedata.category(chr(code))}, newer: {why}" for code, why in NEWER.items()}
    # Planes 0-3 hold every assigned code point so far (a newer engine's ones among them).
    by_category["Cn (planes 0-3)"] = [code for code in by_category["Cn"] if code < 0x40000]
    for category, codes in by_category.items():
        step = UNASSIGNED_STEP if category == "Cn (planes 0-3)" else max(1, len(codes) // PER_CATEGORY)
        for code in [*codes[::step], codes[-1]]:
            picked.setdefault(code, category)
    return picked


def test_the_samples_cover_every_general_category() -> None:
    categories = {label[:2] for label in samples().values()}
    assert len(categories) == 29, sorted(categories)  # the 30 general categories but Cs


def test_every_general_category_tokenizes_alike(node: str) -> None:
    picked = samples()
    texts = [context.format(chr(code), chr(code)) for code in picked for context in CONTEXTS]
    js = run_js(node, "spans", texts)
    differing: list[str] = []
    for i, code in enumerate(picked):
        for j in range(len(CONTEXTS)):
            text = texts[i * len(CONTEXTS) + j]
            python = [list(span) for span in token_spans(text)]
            if python != js[i * len(CONTEXTS) + j]:
                differing.append(f"U+{code:04X} ({picked[code]}) in {text!r}: {python} != {js[i * len(CONTEXTS) + j]}")
                break
    assert not differing, f"{len(differing)} code points differ, first: " + "\n".join(differing[:20])


def test_lowercase_and_normalise_alike_on_every_code_point(node: str) -> None:
    """Each code point alone: the table's lowercase, and NFKC where the table applies it (the
    Unicode 3.2 code points, normalised alike by every engine since Unicode 4.1)."""
    texts = [chr(code) for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF]
    assert run_js(node, "lower", texts) == [lower(text) for text in texts]
    assert run_js(node, "normalize", texts) == [normalize(text) for text in texts]


def test_normalisation_keeps_what_unicode_3_2_lacks() -> None:
    # U+1E030 (Unicode 15) is NFKC-decomposed by engines that know it and kept by the others.
    assert normalize("x\U0001e030\ufb01") == "x\U0001e030fi"
    # Normalisation does not cross it: the mark after it stays uncomposed.
    assert normalize("e\U0001e030\u0301 e\u0301") == "e\U0001e030\u0301 \u00e9"


def test_the_table_is_the_one_its_script_writes() -> None:
    version = unicode_table().unicode_version
    if unicodedata.unidata_version != version:
        pytest.skip(f"the table is Unicode {version}, this Python's unicodedata {unicodedata.unidata_version}")
    assert table_file().read_bytes() == make.render(), "run scripts/make_unicode_table.py"


def test_both_engines_read_the_same_version(node: str) -> None:
    script = "import('./js/src/engine/text/tokenize.js').then((m) => process.stdout.write(m.UNICODE_VERSION))"
    done = subprocess.run([node, "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, check=True)
    assert done.stdout.decode() == unicode_table().unicode_version


# --- random Unicode queries through both whole engines -------------------------------------------

#: Queries per run (CI keeps it small; GRAPHSEARCH_UNICODE_QUERIES=10000 for a long run).
QUERY_COUNT = int(os.environ.get("GRAPHSEARCH_UNICODE_QUERIES", "300"))
_ANY = st.characters(blacklist_categories=("Cs",))
_NEWER = st.sampled_from([chr(code) for code in NEWER])
_GLUE = st.sampled_from(["", " ", "_", ".", "-", "\u0301", "\u3000"])


def random_queries(terms: list[str], count: int) -> list[str]:
    """Bundle terms (so that answers are not all empty) among random and newer code points."""
    pieces = st.one_of(st.sampled_from(terms), _ANY, _NEWER, st.text(_ANY, max_size=6))
    query = st.lists(st.tuples(pieces, _GLUE).map("".join), min_size=1, max_size=6).map("".join)
    found: list[str] = []

    @settings(max_examples=count, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(query)
    def collect(text: str) -> None:
        found.append(text)

    collect()
    return found


@pytest.fixture(scope="module")
def example_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("unicode-example"), EXAMPLE_SITE / "docs", embeddings=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["frozen", "example"])
def test_random_unicode_queries_answer_alike(node: str, example_bundle: Path, name: str) -> None:
    folder = FROZEN if name == "frozen" else example_bundle
    queries = random_queries(load_bundle(folder).terms, QUERY_COUNT)
    assert len(queries) >= QUERY_COUNT // 2
    modes: list[str | None] = ["keyword", "hybrid"]
    assert assert_parity(folder, queries, modes) == len(queries) * len(modes)
