"""The `graphsearch` command: chunks, tokenize, index, query, eval, check, mcp (other tools call these shapes).

Bad input (a missing bundle, a bad query file line, a query that is not text, a malformed checks
file) is a one-line `error:` and exit code 2; a broken bundle, or a failed search check, is exit
code 1; neither prints a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from mkdocs_graphsearch import __version__
from mkdocs_graphsearch.bundle.format import BundleError
from mkdocs_graphsearch.bundle.read import locate
from mkdocs_graphsearch.bundle.settings import MODES, SearchSettings
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.common.inputs import InputError, checked_text, read_queries
from mkdocs_graphsearch.common.terminal import emphasis_for, format_report, format_results, plural
from mkdocs_graphsearch.index.embed_cache import DEFAULT_CACHE_DIR, usable_cache_dir
from mkdocs_graphsearch.parse.folder import markdown_files, parse_folder
from mkdocs_graphsearch.parse.markdown import DEFAULT_CHUNK_DEPTH, parse_page
from mkdocs_graphsearch.text.tokenize import tokenize

if TYPE_CHECKING:  # semantic.py imports onnxruntime: only when embeddings are asked for
    from mkdocs_graphsearch.index.semantic import SemanticOptions


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
        raise InputError(f"{file} is not inside --root {root}") from None
    try:
        source = file.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {file}: {error}") from None
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
    tokens = tokenize(checked_text(args.text, "the text"))
    if args.json:
        _print_json(tokens)
    else:
        print(" ".join(tokens))
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    from mkdocs_graphsearch.index.builder import build_files

    docs = Path(args.docs_dir)
    if not docs.is_dir():
        raise InputError(f"{docs} is not a folder")
    pages = parse_folder(docs, chunk_depth=args.chunk_depth)
    for page in pages:
        for warning in page.warnings:
            _warn(str(warning))
    semantic = None
    if not args.no_embeddings:
        semantic = _semantic_options(usable_cache_dir(Path(args.cache_dir) if args.cache_dir else None, _warn))
        if semantic is not None:  # index/kmeans.py clustered_layout
            semantic.vector_clusters, semantic.vector_probe = args.vector_clusters, args.vector_probe
            semantic.vector_bits, semantic.vector_cells = args.vector_bits, args.vector_cells
    files = build_files(pages, semantic=semantic, warn=_warn, site_name=args.site_name)
    write_bundle(Path(args.out), files)
    total = sum(len(data) for data in files.values())
    print(
        f"wrote {plural(len(files), 'file')} ({total} bytes) for {plural(len(pages), 'page')} to {args.out}",
        file=sys.stderr,
    )
    return 0


def _clusters_option(value: str) -> int | str:
    if value == "auto":
        return value
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError("expected a number of clusters (at least 1) or 'auto'")
    return int(value)


def _semantic_options(cache_dir: Path | None) -> SemanticOptions | None:
    """The default model with a progress line on stderr; None (warned) when it cannot load."""
    from mkdocs_graphsearch.index.embed import Embedder, ModelSpec, ModelUnavailable
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    try:
        embedder = Embedder(ModelSpec(stamp_dir=cache_dir), lazy=True)  # not started when every passage is cached
    except ModelUnavailable as error:
        _warn(f"semantic search is off, the embedding model cannot load ({error}); keyword search only")
        return None

    def progress(done: int, total: int, rate: float) -> None:
        print(f"embedding: {done}/{total} chunks, {rate:.0f}/s", file=sys.stderr)

    return SemanticOptions(embedder, cache_dir, progress)


def _query_encoder(kind: str) -> Callable[[str], list[float] | None]:
    """query -> vector override: None for the bundle's static encoder, or the full model's."""
    if kind != "model":
        return lambda query: None
    from mkdocs_graphsearch.index.embed import Embedder, ModelUnavailable

    try:
        embedder = Embedder()
    except ModelUnavailable as error:
        raise InputError(f"--query-encoder model: the model cannot load ({error})") from None
    return lambda query: embedder.embed_query(query).astype(float).tolist()


def _filters(arguments: list[str] | None) -> list[str]:
    """The --filter values, each checked (a bad one is an error naming it, exit code 2)."""
    from mkdocs_graphsearch.engine.filters import parse_filter

    for argument in arguments or []:
        try:
            parse_filter(checked_text(argument, "--filter"))
        except ValueError as error:
            raise InputError(f"--filter: {error}") from None
    return list(arguments or [])


def _answers(args: argparse.Namespace, items: list[dict[str, Any]], explain: bool) -> list[dict[str, Any]]:
    """Each item's results from the chosen engine, with the item's `id` when it has one."""
    filters = _filters(args.filter)
    try:
        folder = locate(Path(args.path))
    except BundleError as error:
        raise InputError(str(error)) from None
    if args.engine == "js":
        if args.query_encoder == "model":
            raise InputError("--query-encoder model runs in the Python engine only")
        from mkdocs_graphsearch.commands.js_engine import run_js_queries

        return run_js_queries(folder, items, mode=args.mode, limit=args.limit, explain=explain, filters=filters)
    from mkdocs_graphsearch.bundle.read import load_bundle
    from mkdocs_graphsearch.engine.search import search

    bundle = load_bundle(folder)
    encode = _query_encoder(args.query_encoder)
    outputs = []
    for item in items:
        query = item["query"]
        output = search(
            bundle, query, mode=args.mode, limit=args.limit, explain=explain, vector=encode(query), filters=filters
        )
        outputs.append({"id": item["id"], **output} if "id" in item else output)
    return outputs


def cmd_query(args: argparse.Namespace) -> int:
    if (args.query is None) == (args.queries is None):
        raise InputError("give a QUERY or --queries FILE.jsonl (one of them)")
    if args.queries is not None:
        items = read_queries(args.queries, judged=False)
    else:
        items = [{"query": checked_text(args.query, "the query")}]
    emphasis = emphasis_for(sys.stdout)
    for output in _answers(args, items, args.explain):
        if args.json or args.queries is not None:  # a query file always gives JSON lines: scripts read them
            _print_json(output)
        else:
            print(format_results(output, emphasis, args.mode))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from mkdocs_graphsearch.commands.evaluate import evaluate

    judged = read_queries(args.queries, judged=True)
    outputs = _answers(args, judged, explain=False)
    report = evaluate(judged, outputs)
    report["mode"] = outputs[0]["mode"]
    if args.json:
        _print_json(report)
    else:
        print(format_report(report))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from mkdocs_graphsearch.bundle.read import load_bundle
    from mkdocs_graphsearch.common.checks import format_report, load_checks, run_checks

    checks = load_checks(Path(args.checks))
    try:
        folder = locate(Path(args.path))
    except BundleError as error:
        raise InputError(str(error)) from None
    outcomes = run_checks(load_bundle(folder), checks)
    print(format_report(Path(args.checks), outcomes))
    return 0 if all(outcome.passed for outcome in outcomes) else 1


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        from mkdocs_graphsearch.commands.mcp_server import serve
    except ImportError:
        raise InputError("graphsearch mcp needs the MCP Python SDK: pip install 'mkdocs-graphsearch[mcp]'") from None
    try:
        folder = locate(Path(args.path))
    except BundleError as error:
        raise InputError(str(error)) from None
    serve(folder, args.site_url)
    return 0


def _int_range(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in [low, high] (argparse reports anything else, exit code 2)."""
    wanted = f"an integer from {low}" + (f" to {high}" if high is not None else "")

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is not {wanted}")
        return value

    return parse


_DEFAULTS = SearchSettings()
_JSON_HELP = "print JSON (default: text for a reader)"


def _chunk_depth_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--chunk-depth", type=_int_range(1, 6), default=DEFAULT_CHUNK_DEPTH, metavar="N",
        help="the deepest heading level that starts a chunk, 1-6 (default: %(default)s)",
    )


def _search_options(parser: argparse.ArgumentParser) -> None:
    """Options `query` and `eval` share."""
    parser.add_argument(
        "--limit", type=_int_range(1), metavar="N",
        help=f"pages per query (default: the bundle's setting, {_DEFAULTS.default_limit} unless the site sets one)",
    )
    parser.add_argument(
        "--mode", choices=MODES,
        help=f"default: the bundle's setting, {_DEFAULTS.default_mode} unless the site sets one;"
        " keyword when the bundle has no vectors",
    )
    parser.add_argument(
        "--engine", choices=["python", "js"], default="python",
        help="python: the reference engine; js: the browser runtime under node (default: %(default)s)",
    )
    parser.add_argument(
        "--query-encoder", choices=["static", "model"], default="static",
        help="static: the bundle's encoder, as in the browser; model: the full ONNX model (Python engine"
        " only), to compare (default: %(default)s)",
    )
    parser.add_argument(
        "--filter", action="append", metavar="FACET:VALUE",
        help="only results matching it, as if `FACET:VALUE` were typed in the query: tags:deploy,"
        " in:user-guide, kind:prose|code|api, lang:python; repeatable: values of one facet are OR'd,"
        " facets AND'd (default: none)",
    )
    parser.add_argument("--json", action="store_true", help=_JSON_HELP)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="graphsearch", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    chunks = sub.add_parser("chunks", help="parse one markdown file into chunks and links")
    chunks.add_argument("file")
    chunks.add_argument("--root", required=True, help="the docs folder the file belongs to (required)")
    _chunk_depth_option(chunks)
    chunks.add_argument("--json", action="store_true", help=_JSON_HELP)
    chunks.set_defaults(func=cmd_chunks)

    tok = sub.add_parser("tokenize", help="show the search tokens of a text")
    tok.add_argument("text")
    tok.add_argument("--json", action="store_true", help=_JSON_HELP)
    tok.set_defaults(func=cmd_tokenize)

    index = sub.add_parser("index", help="build a search bundle from a folder of markdown")
    index.add_argument("docs_dir")
    index.add_argument("--out", required=True, help="the bundle folder to write (required)")
    index.add_argument(
        "--site-name", default="",
        help="the site's name (mkdocs.yml's site_name): a query of it finds the home page (default: none)",
    )
    _chunk_depth_option(index)
    index.add_argument(
        "--no-embeddings", action="store_true",
        help="keyword search only, no model run (default: embeddings on when the model loads)",
    )
    index.add_argument(
        "--cache-dir", default=DEFAULT_CACHE_DIR, help="embedding cache, '' for none (default: %(default)s)"
    )
    index.add_argument(
        "--vector-clusters", type=_clusters_option, default=None, metavar="K|auto",
        help="passage vectors in K clusters a query probes a few of ('auto': the size rule even for a "
        "small site; 1: one file; default: the size rule, one file for small sites)",
    )
    index.add_argument(
        "--vector-probe", type=_int_range(1), default=None, metavar="P",
        help="clusters a query reads (default: the best clusters until 8 %% of the chunks are read)",
    )
    index.add_argument(
        "--vector-bits", type=_int_range(2, 8), default=None, metavar="B",
        help="bits per dimension of the clustered vectors (8: int8 as in one file; default: 4)",
    )
    index.add_argument(
        "--vector-cells", type=_int_range(1), default=None, metavar="G",
        help="group the clusters in G cells whose centroids a query fetches for its best cells "
        "(1: one level; default: 2 sqrt(clusters) cells beyond 16,384 chunks)",
    )
    index.set_defaults(func=cmd_index)

    query = sub.add_parser("query", help="search a built site or bundle folder offline")
    query.add_argument("path", help="a built site (with search/) or a bundle folder")
    query.add_argument("query", nargs="?", help="the query (or give --queries)")
    query.add_argument(
        "--queries", metavar="FILE.jsonl",
        help="one {id, query} object a line; prints one JSON line per query (default: none)",
    )
    query.add_argument(
        "--explain", action="store_true",
        help="add each section's keyword, vector and graph rank and score (default: off)",
    )
    _search_options(query)
    query.set_defaults(func=cmd_query)

    ev = sub.add_parser("eval", help="score judged queries: nDCG@10, MRR@10, hit@5 per type")
    ev.add_argument("path", help="a built site (with search/) or a bundle folder")
    ev.add_argument("queries", help="judged queries (.jsonl with id, query, type, relevant)")
    _search_options(ev)
    ev.set_defaults(func=cmd_eval)

    check = sub.add_parser(
        "check", help="run search regression checks (a YAML list of queries and what must come back)"
    )
    check.add_argument("path", help="a built site (with search/) or a bundle folder")
    check.add_argument("checks", help="the checks file (.yml), as the plugin's `checks:` option reads it")
    check.set_defaults(func=cmd_check)

    mcp = sub.add_parser("mcp", help="serve a built site or bundle to AI agents over MCP (stdio)")
    mcp.add_argument("path", help="a built site (with search/) or a bundle folder")
    mcp.add_argument(
        "--site-url", default="", metavar="URL",
        help="where the site is published (https://docs.example.com/): result URLs become absolute"
        " (default: URLs relative to the site root)",
    )
    mcp.set_defaults(func=cmd_mcp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]  # a title the console cannot show
    try:
        return int(args.func(args))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BundleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
