"""Does a change on the semantic side lift hybrid? nDCG@10 per query type of vector and hybrid mode
for variants of the static query encoder and of the passage text, beside the bundle as built.

    .venv/bin/python benchmarks/encoder_variants.py --set NAME DOCS BUNDLE QUERIES CACHE [--set ...]
        [--site-name NAME:SITE] [--variants a,b] [--label L] [--out FILE]

BUNDLE is `graphsearch index DOCS --out BUNDLE --cache-dir CACHE` (CACHE: a copy of an evaluation
cache; its embedding cache holds every passage's full model vector). `--site-name example-site:Tidewater`
passes `--site-name` to the rebuilds of that set. Variants (issue 22's list for the semantic side):

- base: the bundle as built;
- weights-titles, weights-sentences: a weight per token, the Zipf weight times exp(a), `a` fitted
  (softmax cross-entropy over every passage, Adam, fixed steps, |a| <= 2, L2 pull) so that each
  section's title (its first sentence), encoded by the table as a query is, lands nearest its own
  passage vector;
- stop-weight-0.3: the stop pieces' weights times 0.3; zipf-squared: every weight squared;
- word-rows: a row per multi-piece word (the mean of its pieces' in-context states over its
  occurrences, centred and projected like the piece rows; weighted by its count's Zipf rank), read
  for a query word before its pieces (the model runs once over every passage for the states);
- prf-3: the query vector plus half the unit mean of its top 3 passages (pseudo-relevance feedback);
- passage-summary, passage-children: the model's passage text with the page's first sentence added
  (children: the titles of the section's subsections), rebuilt with `graphsearch index` (the model
  runs over every changed passage; the cache gains their vectors).
The query-side variants replace the query vector only (the bundle's passages, probing and
vector_only_threshold as built). Prints a table per set; writes benchmarks/results/encoder-variants-[LABEL-]DATE.json.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime as dt
import json
import math
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

import common
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.commands import cli
from mkdocs_graphsearch.commands.evaluate import evaluate
from mkdocs_graphsearch.common.inputs import read_queries
from mkdocs_graphsearch.engine.encoder import load_encoder, query_vector
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index import semantic
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.embed import Embedder
from mkdocs_graphsearch.index.passages import passage_text
from mkdocs_graphsearch.parse.folder import parse_folder
from mkdocs_graphsearch.parse.model import Chunk
from mkdocs_graphsearch.text.wordpiece import WordPiece
from vector_gap import encoder_text, full_vectors, print_table

VARIANTS = (
    "base", "weights-titles", "weights-sentences", "stop-weight-0.3", "zipf-squared", "word-rows", "prf-3",
    "passage-summary", "passage-children",
)  # fmt: skip
MODES = ("vector", "hybrid")
#: weight fitting: softmax sharpness, L2 pull, steps, Adam's rate, bound on |a|
TEMPERATURE, PULL, STEPS, RATE, LIMIT = 20.0, 0.001, 100, 0.1, 2.0


Queries = list[tuple[list[int], int]]
VectorOf = Callable[[str], list[float] | None]


def fit_weights(rows: np.ndarray, zipf: np.ndarray, passages: np.ndarray, queries: Queries) -> np.ndarray:
    """Zipf weights times exp(a), `a` fitted so each query (row indices) ranks its passage first."""
    q_of = np.concatenate([np.full(len(r), i) for i, (r, _) in enumerate(queries)])
    t_of = np.concatenate([np.asarray(r, dtype=np.int64) for r, _ in queries])
    target, n = np.array([p for _, p in queries]), len(queries)
    a, m, v = np.zeros(len(rows)), np.zeros(len(rows)), np.zeros(len(rows))
    for step in range(1, STEPS + 1):
        w = zipf * np.exp(a)
        u = np.zeros((n, rows.shape[1]))
        np.add.at(u, q_of, w[t_of, None] * rows[t_of])
        norm = np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-12)
        q = u / norm
        logits = TEMPERATURE * (q @ passages.T)
        prob = np.exp(logits - logits.max(axis=1, keepdims=True))
        prob /= prob.sum(axis=1, keepdims=True)
        prob[np.arange(n), target] -= 1.0
        grad_q = TEMPERATURE * (prob @ passages) / n
        grad_u = (grad_q - q * (grad_q * q).sum(axis=1, keepdims=True)) / norm
        grad = np.bincount(t_of, (grad_u[q_of] * rows[t_of]).sum(axis=1), len(a)) * w + 2 * PULL * a
        m, v = 0.9 * m + 0.1 * grad, 0.999 * v + 0.001 * grad * grad
        a = np.clip(a - RATE * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8), -LIMIT, LIMIT)
    return zipf * np.exp(a)


def pseudo_queries(bundle: Bundle, chunks: list[Chunk], source: str) -> Queries:
    """(row indices of a chunk's title or first sentence, the chunk) for prose chunks."""
    encoder = bundle.encoder
    wordpiece = WordPiece(encoder.vocab_path)
    out = []
    for i, chunk in enumerate(chunks):
        text = chunk.title if source == "titles" else chunk.text.split(". ")[0][:200]
        rows = [encoder.row_of[p] for p in wordpiece.pieces(text) if p in encoder.row_of]
        if chunk.kind != "code" and rows:
            out.append((rows, i))
    return out


@contextlib.contextmanager
def weights_of(bundle: Bundle, weights: np.ndarray) -> Iterator[None]:
    """The bundle's encoder with other token weights, for the searches inside."""
    original = bundle.encoder
    bundle.encoder = dataclasses.replace(original, weights=np.asarray(weights, dtype=np.float64))
    try:
        yield
    finally:
        bundle.encoder = original


def word_rows(bundle: Bundle, texts: list[str], embedder: Embedder) -> VectorOf:
    """The query vector with a row per multi-piece word (module docstring)."""
    vocab = {i: t for t, i in embedder.wordpiece.tokenizer.get_vocab().items()}
    special = {embedder.wordpiece.cls_id, embedder.wordpiece.sep_id, embedder.wordpiece.unk_id}
    piece_sum: dict[int, np.ndarray] = defaultdict(lambda: np.zeros(embedder.dim))
    piece_n: dict[int, int] = defaultdict(int)
    word_sum: dict[tuple[int, ...], np.ndarray] = defaultdict(lambda: np.zeros(embedder.dim))
    word_n: dict[tuple[int, ...], int] = defaultdict(int)
    for passage in embedder.embed_many(texts, True):
        assert passage.pieces is not None and passage.states is not None
        states = np.asarray(passage.states, dtype=np.float64)
        kept = [i for i, piece in enumerate(passage.pieces) if piece not in special]
        for word in words([passage.pieces[i] for i in kept], vocab, kept):
            pieces = [passage.pieces[i] for i in word]
            for piece, i in zip(pieces, word, strict=True):
                piece_sum[piece] += states[i]
                piece_n[piece] += 1
            if len(word) > 1:
                word_sum[tuple(pieces)] += states[word].mean(axis=0)
                word_n[tuple(pieces)] += 1
    encoder = bundle.encoder
    tokens = sorted(encoder.row_of, key=encoder.row_of.__getitem__)
    centre = np.mean([piece_sum[t] / piece_n[t] for t in tokens], axis=0)
    counts = np.sort([piece_n[t] for t in tokens])[::-1]
    row = {key: (word_sum[key] / n - centre) @ encoder.components.T for key, n in word_n.items()}
    weight = {key: math.log(2 + int((counts > n).sum())) for key, n in word_n.items()}
    wordpiece = WordPiece(encoder.vocab_path)

    def vector(text: str) -> list[float] | None:
        acc, total, content = np.zeros(encoder.rows.shape[1]), 0.0, False
        pieces = wordpiece.pieces(text)[: encoder.max_pieces]
        for word in words(pieces, vocab, pieces):
            if len(word) > 1 and tuple(word) in row:
                acc, total, content = acc + weight[tuple(word)] * row[tuple(word)], total + weight[tuple(word)], True
                continue
            for piece in word:
                if (r := encoder.row_of.get(piece)) is not None:
                    acc, total = acc + encoder.weights[r] * encoder.rows[r], total + encoder.weights[r]
                    content = content or piece not in encoder.stop_pieces
        return unit(acc) if total and content else None

    return vector


def words(pieces: list[int], vocab: dict[int, str], items: list[Any]) -> list[list[Any]]:
    """`items` (one per piece) grouped by word: a `##` piece continues the word before it."""
    out: list[list[Any]] = []
    for piece, item in zip(pieces, items, strict=True):
        if vocab[piece].startswith("##") and out:
            out[-1].append(item)
        else:
            out.append([item])
    return out


def unit(vector: np.ndarray) -> list[float] | None:
    norm = float(np.linalg.norm(vector))
    return (vector / norm).tolist() if norm else None


def summary_texts(chunks: list[Chunk], kind: str) -> list[str]:
    """Passage texts with the page's first sentence (summary) or the subsections' titles (children)."""
    by_id = {chunk.id: chunk for chunk in chunks}
    children: dict[str | None, list[str]] = defaultdict(list)
    for chunk in chunks:
        if chunk.kind != "code":
            children[chunk.parent].append(chunk.title)
    out = []
    for chunk in chunks:
        text, root = passage_text(chunk), by_id.get(chunk.id.split("::")[0])
        if kind == "summary" and chunk.kind != "code" and root is not None and root is not chunk:
            text = f"{text}\n{root.text.split('. ')[0][:300]}"
        if kind == "children" and children.get(chunk.id):
            text = f"{text}\n" + "; ".join(children[chunk.id])
        out.append(text)
    return out


def rebuilt(docs: Path, cache: Path, site_name: str | None, texts: list[str], out: Path) -> Bundle:
    """`graphsearch index` with the model reading `texts` (in chunk order) instead of passage_text."""
    text_of = dict(zip([chunk.id for chunk in Corpus.from_pages(parse_folder(docs)).chunks], texts, strict=True))
    original = semantic.passage_text
    semantic.passage_text = lambda chunk: text_of[chunk.id]
    try:
        args = ["index", str(docs), "--out", str(out), "--cache-dir", str(cache)]
        if cli.main(args + (["--site-name", site_name] if site_name else [])) != 0:
            common.die("encoder_variants", f"index {docs} failed")
    finally:
        semantic.passage_text = original
    return load_bundle(out)


def scores(bundle: Bundle, judged: list[dict[str, Any]], vector: VectorOf | None) -> dict[str, Any]:
    """vector and hybrid reports; `vector`: the query vector from the text the encoder reads."""
    runs = {}
    for mode in MODES:
        outputs = []
        for item in judged:
            given = vector(encoder_text(bundle, item["query"])) if vector else None
            outputs.append(search(bundle, item["query"], mode=mode, vector=given))
        runs[mode] = evaluate(judged, outputs)
    return runs


def measure(variant: str, bundle: Bundle, judged: list[dict[str, Any]], context: dict[str, Any]) -> dict[str, Any]:
    encoder = bundle.encoder
    if variant.startswith("weights-"):
        queries = pseudo_queries(bundle, context["chunks"], variant.removeprefix("weights-"))
        with weights_of(bundle, fit_weights(encoder.rows, encoder.weights, context["passages"], queries)):
            return scores(bundle, judged, None)
    if variant in ("stop-weight-0.3", "zipf-squared"):
        weights = encoder.weights**2 if variant == "zipf-squared" else encoder.weights.copy()
        if variant == "stop-weight-0.3":
            weights[[encoder.row_of[p] for p in encoder.stop_pieces]] *= 0.3
        with weights_of(bundle, weights):
            return scores(bundle, judged, None)
    if variant == "word-rows":
        return scores(bundle, judged, word_rows(bundle, context["texts"], context["embedder"]))
    if variant == "prf-3":
        passages = context["passages"]

        def feedback(text: str) -> list[float] | None:
            q = query_vector(bundle, text)
            if q is None:
                return None
            top = np.argsort(-(passages @ np.asarray(q)), kind="stable")[:3]
            mean = passages[top].mean(axis=0)
            return unit(np.asarray(q) + 0.5 * mean / np.linalg.norm(mean))

        return scores(bundle, judged, feedback)
    if variant.startswith("passage-"):
        texts = summary_texts(context["chunks"], variant.removeprefix("passage-"))
        with tempfile.TemporaryDirectory() as folder:
            other = rebuilt(context["docs"], context["cache"], context["site_name"], texts, Path(folder) / "bundle")
            return scores(other, judged, None)
    return scores(bundle, judged, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", nargs=5, action="append", required=True,
                        metavar=("NAME", "DOCS", "BUNDLE", "QUERIES", "CACHE"))
    parser.add_argument("--site-name", action="append", default=[], metavar="NAME:SITE")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--label")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    started = dt.datetime.now()
    site_names = dict(item.split(":", 1) for item in args.site_name)
    embedder = Embedder()
    command = " ".join(common.repo_path(a) if "/" in a else a for a in sys.argv[1:])
    report: dict[str, Any] = {
        "command": f"benchmarks/encoder_variants.py {command}",
        "date": f"{started:%Y-%m-%d %H:%M}",
        "sets": {},
    }
    for name, docs, bundle_dir, queries, cache in args.set:
        bundle = load_bundle(Path(bundle_dir))
        bundle.encoder = load_encoder(bundle)
        judged = read_queries(queries, judged=True)
        chunks = Corpus.from_pages(parse_folder(Path(docs))).chunks
        context = {
            "chunks": chunks, "texts": [passage_text(chunk) for chunk in chunks], "embedder": embedder,
            "passages": full_vectors(Path(docs), Path(cache), embedder, bundle) @ bundle.encoder.components.T,
            "docs": Path(docs), "cache": Path(cache), "site_name": site_names.get(name),
        }  # fmt: skip
        runs = {"keyword": evaluate(judged, [search(bundle, item["query"], mode="keyword") for item in judged])}
        for variant in args.variants.split(","):
            for mode, result in measure(variant, bundle, judged, context).items():
                runs[f"{mode} {variant}"] = result
        report["sets"][name] = {"docs": common.repo_path(docs), "queries": common.repo_path(queries), "runs": runs}
        print_table(name, runs)
    kind = f"encoder-variants-{args.label}" if args.label else "encoder-variants"
    common.save_report(kind, json.dumps(report, indent=2, sort_keys=True), args.out, started)


if __name__ == "__main__":
    main()
