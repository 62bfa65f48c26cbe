"""Python reference engine vs JS runtime: same pages, sections, order; scores within 1e-6."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from conftest import CORPORA, EVAL, EXAMPLE_SITE, ROOT, build_bundle_dir, require_shared
from mkdocs_graphsearch.bundle.read import load_bundle
from parity import assert_parity, filtered_queries, generated_queries

MODES = ["keyword", "vector", "hybrid"]
#: Real pages of the MkDocs docs and queries for them, committed: parity on real-world markdown
#: without ../shared (tests/fixtures/parity-corpus/README.md).
PARITY_CORPUS = ROOT / "tests" / "fixtures" / "parity-corpus"

EXAMPLE_QUERIES = [
    "visibility_timeout", "max_attempts", "TidewaterClient", "HTTPTransportError", "--concurrency",
    "TIDEWATER_BROKER_URL", "what happens when a job fails", "put it on a server", "retr",
    "dead leter queue", "marmalade", "", " ", "a", "ab", ":", "--", '"quoted"', "(brackets) [x]",
    "+plus -minus *star ~tilde", "日本語", "enqueue_many(", "RetryPolicy.delay_for",
    # Filters, code and path search (issue 12).
    "tags:python", "kind:code retry", "lang:rust worker", "in:how-to kubernetes", "retry kind:code lang:py",
    'tags:"dead letter queue" requeue', "kind:code", "lang:ts RetryPolicy", "charge_invoice", "GenerateReport",
    "deploy-to-production", "user-guide/", "user-guide/jobs", "how-to/dep", "retries.md", "http://x in:",
    "tags:nothing kind:code", "in:reference enqueue", "Kind:Prose what happens when a job fails",
    # Stop words as names, typo gating, site name and titles, katakana words (issue 22).
    "where", "or_ where .where() and_ col", "`from` import", "banana bread recipe", "how to cook pasta",
    "football scores", "idempotancy", "graceful shutdwon", "tidewater", "Retries", "Deploy to production",
    "キュー", "ワーカーを起動する", "スケジュー",
    # Stop words the encoder knows and nothing else: no query vector (encoder.stop_pieces).
    "knitting a wool scarf", "the a to", "how to retry",
]


def _bundle(
    tmp_path_factory: pytest.TempPathFactory,
    docs: Path,
    name: str,
    clusters: int | str | None = None,
    cells: int | None = None,
) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp(name), docs, embeddings=True, clusters=clusters, cells=cells)


@pytest.fixture(scope="module")
def example_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _bundle(tmp_path_factory, EXAMPLE_SITE / "docs", "example-bundle")


@pytest.fixture(scope="module")
def parity_corpus_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _bundle(tmp_path_factory, PARITY_CORPUS / "docs", "parity-corpus-bundle")


@pytest.fixture(scope="module")
def mkdocs_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _bundle(tmp_path_factory, require_shared(CORPORA / "mkdocs-docs"), "mkdocs-bundle")


def test_example_site_parity(node: str, example_bundle: Path) -> None:
    bundle = load_bundle(example_bundle)
    queries = EXAMPLE_QUERIES + generated_queries(bundle, 200) + filtered_queries(bundle, 100)
    assert assert_parity(example_bundle, queries, MODES) == len(queries) * len(MODES)


def test_parity_corpus_fixture(node: str, parity_corpus_bundle: Path) -> None:
    bundle = load_bundle(parity_corpus_bundle)
    assert bundle.vectors is not None and len(bundle.pages["path"]) == 8
    queries = orjson.loads((PARITY_CORPUS / "queries.json").read_bytes()) + generated_queries(bundle, 300)
    queries += filtered_queries(bundle, 100)
    assert assert_parity(parity_corpus_bundle, queries, MODES) == len(queries) * len(MODES)


@pytest.mark.corpus
def test_mkdocs_docs_parity(node: str, mkdocs_bundle: Path) -> None:
    judged = [
        orjson.loads(line)["query"]
        for line in require_shared(EVAL / "mkdocs-docs.queries.jsonl").read_bytes().splitlines()
        if line.strip()
    ]
    queries = judged + generated_queries(load_bundle(mkdocs_bundle), 500)
    assert assert_parity(mkdocs_bundle, queries, MODES) == len(queries) * len(MODES)


@pytest.fixture(scope="module")
def clustered_corpus_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The parity corpus with its vectors clustered by the size rule, forced (bundle/vector_shards.py)."""
    return _bundle(tmp_path_factory, PARITY_CORPUS / "docs", "clustered-corpus-bundle", clusters="auto")


def test_clustered_parity(node: str, clustered_corpus_bundle: Path) -> None:
    """Both engines probe the same clusters and score only their chunks."""
    bundle = load_bundle(clustered_corpus_bundle)
    assert bundle.clusters is not None and bundle.clusters.probe < len(bundle.clusters.members)
    queries = orjson.loads((PARITY_CORPUS / "queries.json").read_bytes()) + generated_queries(bundle, 300)
    queries += filtered_queries(bundle, 50)
    assert assert_parity(clustered_corpus_bundle, queries, MODES) == len(queries) * len(MODES)


@pytest.fixture(scope="module")
def two_level_corpus_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The parity corpus clustered by the size rule, forced, its clusters in 4 cells (two levels)."""
    return _bundle(tmp_path_factory, PARITY_CORPUS / "docs", "two-level-corpus-bundle", clusters="auto", cells=4)


def test_two_level_parity(node: str, two_level_corpus_bundle: Path) -> None:
    """Both engines take the same cells, then probe the same clusters among theirs."""
    bundle = load_bundle(two_level_corpus_bundle)
    assert bundle.clusters is not None and bundle.clusters.cells is not None and len(bundle.clusters.cells) == 4
    assert bundle.clusters.cell_chunks < bundle.n_chunks  # a query takes some of the cells only
    queries = orjson.loads((PARITY_CORPUS / "queries.json").read_bytes()) + generated_queries(bundle, 300)
    queries += filtered_queries(bundle, 50)
    assert assert_parity(two_level_corpus_bundle, queries, MODES) == len(queries) * len(MODES)


def test_parity_check_can_fail(node: str, example_bundle: Path, tmp_path: Path) -> None:
    """A bundle whose settings differ between the engines' views must be caught."""
    from parity import first_difference

    python = {"mode": "keyword", "results": [{"page": "a.md", "score": 1.0, "sections": []}]}
    js = {"mode": "keyword", "results": [{"page": "a.md", "score": 1.0 + 2e-6, "sections": []}]}
    assert first_difference(python, js) is not None
    assert first_difference(python, python) is None
