"""Stemming (text/stem.py, js/src/engine/text/stem.js) and query stop words in keyword scoring, both engines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest
import snowballstemmer

from conftest import CORPORA, EXAMPLE_SITE, ROOT, build_bundle_dir, require_shared
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.commands.js_engine import run_js_queries
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.text.stem import is_prose_word, prose_words, stem

VECTORS = orjson.loads((ROOT / "tests" / "vectors" / "stem.json").read_bytes())


def test_vectors_are_the_reference_stems() -> None:
    reference = snowballstemmer.stemmer("english")
    assert len(VECTORS) > 10000
    wrong = [word for word, want in VECTORS.items() if stem(word) != want or reference.stemWord(word) != want]
    assert wrong == []


def test_the_stemmer_is_imported_when_a_word_is_stemmed() -> None:
    """Not before: a warm build takes every stem from the keyword tokens cache (0.025 s saved)."""
    code = (
        "import sys; from mkdocs_graphsearch.plugin import GraphSearchPlugin; import mkdocs_graphsearch.index.bm25; "
        "assert 'snowballstemmer' not in sys.modules; from mkdocs_graphsearch.text.stem import stem; "
        "assert stem('running') == 'run' and 'snowballstemmer' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_only_whole_lowercase_words_are_prose() -> None:
    text = "Deploying TimeoutStopSec use_directory_urls mkdocs.yml v2 naïve --strict is"
    assert prose_words(text) == ["deploying", "strict", "is"]
    assert not is_prose_word("naïve") and not is_prose_word("v2")


def _pages(result: dict) -> list[str]:
    return [page["page"] for page in result["results"]]


def _both(bundle: Path, query: str, mode: str = "keyword") -> tuple[dict, dict]:
    python = search(load_bundle(bundle), query, mode=mode)
    js = run_js_queries(bundle, [{"id": "q", "query": query}], mode=mode)[0]
    return python, js


@pytest.fixture(scope="module")
def example_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("example"), EXAMPLE_SITE / "docs", embeddings=False)


def test_stop_words_alone_answer_nothing(node: str, example_bundle: Path) -> None:
    # (`my cat is sick` finds `uploads/cat.jpg` in a code block: a real match of `cat`.)
    for result in _both(example_bundle, "my dog is sick"):
        assert result["results"] == []
    # A query of stop words only still searches them: `is` is a word of code too.
    for result in _both(example_bundle, "is"):
        assert result["results"]


def test_stop_words_count_little_beside_other_words(example_bundle: Path) -> None:
    bundle = load_bundle(example_bundle)
    with_stop = search(bundle, "how do I deploy to production", mode="keyword", explain=True)
    without = search(bundle, "deploy production", mode="keyword", explain=True)
    assert _pages(with_stop)[:3] == _pages(without)[:3]


def test_exact_form_outranks_its_stem(node: str, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Alpha\n\nWorkers are deployed by the operator.\n")
    (docs / "b.md").write_text("# Beta\n\nThe operator deploys workers.\n")
    bundle = build_bundle_dir(tmp_path / "bundle", docs, embeddings=False)
    for result in _both(bundle, "deployed"):
        assert _pages(result) == ["a.md", "b.md"]
        assert result["results"][0]["score"] > result["results"][1]["score"]
    # Parts of identifiers are never stemmed: `deploys_total` finds `deploys`, not `deployed`.
    for result in _both(bundle, "deploys_total"):
        assert _pages(result) == ["b.md"]


@pytest.mark.corpus
def test_plural_folding_on_mkdocs_docs(node: str, tmp_path: Path) -> None:
    bundle = build_bundle_dir(tmp_path, require_shared(CORPORA / "mkdocs-docs"), embeddings=False)
    for plural, singular in zip(_both(bundle, "admonitions"), _both(bundle, "admonition"), strict=True):
        assert sorted(_pages(plural)) == sorted(_pages(singular))
        assert len(_pages(plural)) >= 2
