"""The `graphsearch` command: chunks, tokenize, index, query (other tools call these shapes)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import orjson

from mkdocs_graphsearch.bundle.format import BundleError
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.parse.folder import markdown_files, parse_folder
from mkdocs_graphsearch.parse.markdown import DEFAULT_CHUNK_DEPTH, parse_page
from mkdocs_graphsearch.text.tokenize import tokenize


def _print_json(data: object) -> None:
    sys.stdout.buffer.write(orjson.dumps(data) + b"\n")
    sys.stdout.flush()


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def cmd_chunks(args: argparse.Namespace) -> int:
    root = Path(args.root)
    file = Path(args.file)
    try:
        rel = file.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        print(f"error: {file} is not inside --root {root}", file=sys.stderr)
        return 2
    try:
        source = file.read_bytes()
    except OSError as error:
        print(f"error: cannot read {file}: {error}", file=sys.stderr)
        return 2
    page = parse_page(source, rel, set(markdown_files(root)), chunk_depth=args.chunk_depth)
    for warning in page.warnings:
        _warn(str(warning))
    if args.json:
        _print_json(page.to_json())
    else:
        for chunk in page.chunks:
            print(f"{chunk.kind:8} {chunk.id}  #{chunk.anchor}")
    return 0


def cmd_tokenize(args: argparse.Namespace) -> int:
    tokens = tokenize(args.text)
    if args.json:
        _print_json(tokens)
    else:
        print(" ".join(tokens))
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    from mkdocs_graphsearch.index.builder import build_files

    docs = Path(args.docs_dir)
    if not docs.is_dir():
        print(f"error: {docs} is not a folder", file=sys.stderr)
        return 2
    pages = parse_folder(docs, chunk_depth=args.chunk_depth)
    for page in pages:
        for warning in page.warnings:
            _warn(str(warning))
    semantic = None
    if not args.no_embeddings:
        semantic = _semantic_options(Path(args.cache_dir) if args.cache_dir else None)
    files = build_files(pages, semantic=semantic, warn=_warn)
    write_bundle(Path(args.out), files)
    total = sum(len(data) for data in files.values())
    print(f"wrote {len(files)} files ({total} bytes) for {len(pages)} pages to {args.out}", file=sys.stderr)
    return 0


def _semantic_options(cache_dir: Path | None):  # type: ignore[no-untyped-def]
    """The default model with a progress line on stderr; None (warned) when it cannot load."""
    from mkdocs_graphsearch.index.embed import Embedder, ModelUnavailable
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    try:
        embedder = Embedder()
    except ModelUnavailable as error:
        _warn(f"semantic search is off, the embedding model cannot load ({error}); keyword search only")
        return None

    def progress(done: int, total: int, rate: float) -> None:
        print(f"embedding: {done}/{total} chunks, {rate:.0f}/s", file=sys.stderr)

    return SemanticOptions(embedder, cache_dir, progress)


def _queries(args: argparse.Namespace) -> list[dict[str, object]]:
    if args.queries:
        lines = Path(args.queries).read_bytes().splitlines()
        return [orjson.loads(line) for line in lines if line.strip()]
    return [{"query": args.query}]


def _query_encoder(kind: str):  # type: ignore[no-untyped-def]
    """query -> vector override: None for the bundle's static encoder, or the full model's."""
    if kind != "model":
        return lambda query: None
    from mkdocs_graphsearch.index.embed import Embedder

    embedder = Embedder()
    return lambda query: embedder.embed_query(query).astype(float).tolist()


def _answers(args: argparse.Namespace, items: list[dict[str, object]], explain: bool) -> list[dict]:
    """Each item's results from the chosen engine, with the item's `id` when it has one."""
    if args.engine == "js":
        if args.query_encoder == "model":
            raise BundleError("--query-encoder model runs in the Python engine only")
        from mkdocs_graphsearch.js_engine import run_js_queries

        return run_js_queries(Path(args.path), items, mode=args.mode, limit=args.limit, explain=explain)
    from mkdocs_graphsearch.bundle.read import load_bundle
    from mkdocs_graphsearch.engine.search import search

    bundle = load_bundle(Path(args.path))
    encode = _query_encoder(args.query_encoder)
    outputs = []
    for item in items:
        query = str(item["query"])
        output = search(bundle, query, mode=args.mode, limit=args.limit, explain=explain, vector=encode(query))
        outputs.append({"id": item["id"], **output} if "id" in item else output)
    return outputs


def cmd_query(args: argparse.Namespace) -> int:
    if args.query is None and not args.queries:
        print("error: give a QUERY or --queries FILE.jsonl", file=sys.stderr)
        return 2
    for output in _answers(args, _queries(args), args.explain):
        if args.json or args.queries:
            _print_json(output)
        else:
            _print_human(output)
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from mkdocs_graphsearch.evaluate import evaluate

    judged = [orjson.loads(line) for line in Path(args.queries).read_bytes().splitlines() if line.strip()]
    outputs = _answers(args, judged, explain=False)
    report = evaluate(judged, outputs)
    report["mode"] = outputs[0]["mode"] if outputs else args.mode
    _print_json(report)  # always JSON: scripts read it (--json is accepted for symmetry)
    return 0


def _print_human(output: dict) -> None:
    print(f"{output['query']!r} ({output['mode']}): {len(output['results'])} pages")
    for result in output["results"]:
        print(f"  {result['score']:.4f}  {result['title']}  [{result['page']}]")
        for section in result["sections"]:
            print(f"      {section['score']:.4f}  {section['title']}  /{section['url']}")


def _search_options(parser: argparse.ArgumentParser) -> None:
    """Options `query` and `eval` share."""
    parser.add_argument("--limit", type=int)
    parser.add_argument("--mode", choices=["keyword", "vector", "hybrid"])
    parser.add_argument("--engine", choices=["python", "js"], default="python")
    parser.add_argument(
        "--query-encoder", choices=["static", "model"], default="static",
        help="model: embed queries with the full ONNX model (Python engine only), to compare",
    )
    parser.add_argument("--json", action="store_true")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="graphsearch", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    chunks = sub.add_parser("chunks", help="parse one markdown file into chunks and links")
    chunks.add_argument("file")
    chunks.add_argument("--root", required=True, help="the docs folder the file belongs to")
    chunks.add_argument("--chunk-depth", type=int, default=DEFAULT_CHUNK_DEPTH)
    chunks.add_argument("--json", action="store_true")
    chunks.set_defaults(func=cmd_chunks)

    tok = sub.add_parser("tokenize", help="show the search tokens of a text")
    tok.add_argument("text")
    tok.add_argument("--json", action="store_true")
    tok.set_defaults(func=cmd_tokenize)

    index = sub.add_parser("index", help="build a search bundle from a folder of markdown")
    index.add_argument("docs_dir")
    index.add_argument("--out", required=True)
    index.add_argument("--chunk-depth", type=int, default=DEFAULT_CHUNK_DEPTH)
    index.add_argument("--no-embeddings", action="store_true", help="keyword search only")
    index.add_argument("--cache-dir", default=".cache/graphsearch", help="embedding cache ('' for none)")
    index.set_defaults(func=cmd_index)

    query = sub.add_parser("query", help="search a built site or bundle folder offline")
    query.add_argument("path", help="a built site (with search/) or a bundle folder")
    query.add_argument("query", nargs="?")
    query.add_argument("--queries", help="a .jsonl file of {id, query} objects")
    query.add_argument("--explain", action="store_true")
    _search_options(query)
    query.set_defaults(func=cmd_query)

    ev = sub.add_parser("eval", help="score judged queries: nDCG@10, MRR@10, hit@5 per type")
    ev.add_argument("path", help="a built site (with search/) or a bundle folder")
    ev.add_argument("queries", help="judged queries (.jsonl with id, query, type, relevant)")
    _search_options(ev)
    ev.set_defaults(func=cmd_eval)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BundleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
