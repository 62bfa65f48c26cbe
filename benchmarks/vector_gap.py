"""Where the vector side loses: nDCG@10 per query type of one bundle's vector (and hybrid) mode
with the query vector from each source, so the loss splits into encoder, layout and model.

    .venv/bin/python benchmarks/vector_gap.py --set NAME DOCS BUNDLE QUERIES CACHE [--set ...]
        [--modes vector,hybrid] [--out FILE]

BUNDLE is `graphsearch index DOCS --cache-dir CACHE`'s output (its embedding cache holds every
passage's full model vector). Query vector sources, each scored as `graphsearch eval` scores:

- static: the bundle's site-fitted encoder, as the browser runs it (probed clusters, stored codes);
- static-all: the same over every chunk (no probing): the loss of the clustered layout;
- model: all-MiniLM-L6-v2 run on the text the static encoder reads (the query completed by the
  keyword side: keyword.completed_query), projected to the bundle's basis, probed as shipped:
  static vs model is the encoder's approximation;
- model-all: the same over every chunk;
- exact: the model's query against the model's full float passage vectors (no basis, no
  quantization, no probing): the model itself, the ceiling of any query encoder.

Prints one table per set and writes every figure to benchmarks/results/vector-gap-DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

import common
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.commands.evaluate import evaluate
from mkdocs_graphsearch.common.inputs import read_queries
from mkdocs_graphsearch.engine import search as search_module
from mkdocs_graphsearch.engine.filters import parse_query
from mkdocs_graphsearch.engine.keyword import completed_query, keyword_scores
from mkdocs_graphsearch.engine.search import bounded_query, search
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.embed import Embedder
from mkdocs_graphsearch.index.embed_cache import EmbeddingCache, cache_key
from mkdocs_graphsearch.index.passages import passage_text
from mkdocs_graphsearch.parse.folder import parse_folder

SOURCES = ("static", "static-all", "model", "model-all", "exact")


def full_vectors(docs: Path, cache_dir: Path, embedder: Embedder, bundle: Bundle) -> np.ndarray:
    """Every chunk's full model vector (float32, unit), from the build's embedding cache."""
    corpus = Corpus.from_pages(parse_folder(docs))
    if len(corpus.chunks) != bundle.n_chunks:
        common.die("vector_gap", f"{docs}: {len(corpus.chunks)} chunks, the bundle has {bundle.n_chunks}")
    keys = [cache_key(embedder.fingerprint, passage_text(chunk)) for chunk in corpus.chunks]
    known = EmbeddingCache(cache_dir).get_many(keys)
    missing = [key for key in keys if key not in known]
    if missing:
        common.die("vector_gap", f"{cache_dir}: {len(missing)} passages not in the cache (build with it first)")
    return np.stack([known[key] for key in keys]).astype(np.float64)


@contextmanager
def exact_cosines(cos: np.ndarray) -> Iterator[None]:
    """The engine's cosines replaced by `cos` (the model's own) for one search."""
    original = search_module.cosines
    search_module.cosines = lambda *args: cos.copy()  # type: ignore[assignment]
    try:
        yield
    finally:
        search_module.cosines = original


@contextmanager
def unprobed(bundle: Bundle) -> Iterator[None]:
    """Every chunk scored (a clustered bundle's probing off)."""
    clusters, bundle.clusters = bundle.clusters, None
    try:
        yield
    finally:
        bundle.clusters = clusters


def encoder_text(bundle: Bundle, query: str) -> str:
    """What the static encoder reads for `query` (engine/search.py): the model reads it too."""
    searched = parse_query(bounded_query(bundle, query)).text
    return completed_query(bundle, searched, keyword_scores(bundle, searched))


def run_source(
    bundle: Bundle, judged: list[dict[str, Any]], mode: str, source: str, model_vector: Callable[[str], np.ndarray],
    passages: np.ndarray,
) -> dict[str, Any]:
    outputs = []
    for item in judged:
        query = item["query"]
        text = encoder_text(bundle, query)
        if source.startswith("static"):
            with unprobed(bundle) if source == "static-all" else _nothing():
                outputs.append(search(bundle, query, mode=mode))
        elif source.startswith("model"):
            vector = model_vector(text).tolist()
            with unprobed(bundle) if source == "model-all" else _nothing():
                outputs.append(search(bundle, query, mode=mode, vector=vector))
        else:
            cos = passages @ model_vector(text)
            placeholder = [1.0] + [0.0] * (bundle.vectors.shape[1] - 1)  # type: ignore[union-attr]
            with unprobed(bundle), exact_cosines(cos):
                outputs.append(search(bundle, query, mode=mode, vector=placeholder))
    return evaluate(judged, outputs)


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", nargs=5, action="append", required=True,
                        metavar=("NAME", "DOCS", "BUNDLE", "QUERIES", "CACHE"))
    parser.add_argument("--modes", default="vector,hybrid")
    parser.add_argument("--sources", default=",".join(SOURCES))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = dt.datetime.now()
    embedder = Embedder()
    memo: dict[str, np.ndarray] = {}

    def model_vector(query: str) -> np.ndarray:
        if query not in memo:
            memo[query] = embedder.embed_query(query).astype(np.float64)
        return memo[query]

    report: dict[str, Any] = {
        "command": "benchmarks/vector_gap.py " + " ".join(common.repo_path(a) if "/" in a else a for a in sys.argv[1:]),
        "date": f"{started:%Y-%m-%d %H:%M}",
        "sets": {},
    }
    for name, docs, bundle_dir, queries, cache in args.set:
        bundle = load_bundle(Path(bundle_dir))
        judged = read_queries(queries, judged=True)
        passages = full_vectors(Path(docs), Path(cache), embedder, bundle)
        entry: dict[str, Any] = {
            "docs": common.repo_path(docs),
            "queries": common.repo_path(queries),
            "bundle": common.repo_path(bundle_dir),
            "vector_only_threshold": bundle.settings["vector_only_threshold"],
            "runs": {},
        }
        keyword = evaluate(judged, [search(bundle, item["query"], mode="keyword") for item in judged])
        entry["runs"]["keyword"] = keyword
        for mode in args.modes.split(","):
            for source in args.sources.split(","):
                entry["runs"][f"{mode} {source}"] = run_source(bundle, judged, mode, source, model_vector, passages)
        report["sets"][name] = entry
        print_table(name, entry["runs"])
    common.save_report("vector-gap", json.dumps(report, indent=2, sort_keys=True), args.out, started)


def print_table(name: str, runs: dict[str, Any]) -> None:
    types = sorted(next(iter(runs.values()))["by_type"])
    print(f"\n{name}")
    width = max(20, *(len(label) + 2 for label in runs))
    print(f"{'run':<{width}}{'overall':>9}" + "".join(f"{t[:10]:>11}" for t in types))
    for label, report in runs.items():
        cells = "".join(f"{report['by_type'][t]['ndcg@10']:>11.4f}" for t in types)
        print(f"{label:<{width}}{report['overall']['ndcg@10']:>9.4f}{cells}")


if __name__ == "__main__":
    main()
