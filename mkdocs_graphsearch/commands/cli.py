"""The `graphsearch` command: chunks, tokenize, index, build, query, eval, check, related, mcp.

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
from mkdocs_graphsearch.common.checks import DEFAULT_WITHIN
from mkdocs_graphsearch.common.inputs import InputError, check_apart, checked_text, read_queries
from mkdocs_graphsearch.common.terminal import clean, emphasis_for, format_report, format_results, plural
from mkdocs_graphsearch.files.bounded import MAX_PAGE, RefusedInput, read_bounded
from mkdocs_graphsearch.files.cache_store import usable_folder
from mkdocs_graphsearch.index.embed_cache import DEFAULT_CACHE_DIR
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


def _info(message: str) -> None:
    print(message, file=sys.stderr)


def cmd_chunks(args: argparse.Namespace) -> int:
    root = Path(args.root)
    file = Path(args.file)
    try:
        rel = file.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise InputError(f"{file} is not inside --root {root}") from None
    try:
        source = read_bounded(file, MAX_PAGE, "page")
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
    if args.cache_dir and not args.no_embeddings:
        check_apart(Path(args.cache_dir), Path(args.out), "--out")
    try:
        pages = parse_folder(docs, chunk_depth=args.chunk_depth)
    except OSError as error:
        raise InputError(f"cannot read a page of {docs}: {error}") from None
    for page in pages:
        for warning in page.warnings:
            _warn(str(warning))
    semantic = None
    if not args.no_embeddings:
        semantic = _semantic_options(usable_folder(Path(args.cache_dir) if args.cache_dir else None, _warn, _info))
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


def cmd_build(args: argparse.Namespace) -> int:
    from mkdocs_graphsearch.built_site.selectors import parse_selector
    from mkdocs_graphsearch.built_site.site_build import BuildOptions, build_search, snippet
    from mkdocs_graphsearch.built_site.sources import read_sources

    site = Path(args.site_dir)
    if not site.is_dir():
        raise InputError(f"{site} is not a folder (give the folder of a built site)")
    if args.cache_dir and not args.no_embeddings:
        check_apart(Path(args.cache_dir), site, "the site folder")
    try:
        selector = parse_selector(args.content_selector) if args.content_selector else None
    except ValueError as error:
        raise InputError(f"--content-selector: {error}") from None
    sources = read_sources(Path(args.config)) if args.config else None
    warned: list[str] = []

    def warn(message: str) -> None:
        warned.append(message)
        _warn(message)

    semantic = None
    if not args.no_embeddings:
        semantic = _semantic_options(usable_folder(Path(args.cache_dir) if args.cache_dir else None, warn, _info))
    site_url = args.site_url if args.site_url is not None else (sources.site_url if sources else "")
    try:
        options = BuildOptions(
            site, args.bundle_dir, selector, sources, site_url, not args.no_inject, args.chunk_depth, semantic
        )
    except ValueError as error:
        raise InputError(f"--bundle-dir {error}") from None
    try:
        report = build_search(options, warn)
    except OSError as error:  # a read-only site folder, a full disk: the site's earlier files stay
        raise InputError(f"cannot write the search into {site}: {error}") from None
    for reason, paths in report.left_out.items():
        print(f"left out ({reason}): {', '.join(paths)}", file=sys.stderr)
    print(
        f"indexed {plural(report.pages, 'page')} ({plural(report.chunks, 'chunk')}, {report.bundle_bytes} bytes"
        f" in {options.bundle_dir}/); tags written into {plural(report.tagged, 'page')}",
        file=sys.stderr,
    )
    if args.no_inject:
        print("Add these tags to every page (e.g. in the theme's template, before </head>):", file=sys.stderr)
        print(snippet(options))
    return 1 if args.strict and warned else 0


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
        # not started when every passage is cached
        embedder = Embedder(ModelSpec(stamp_dir=cache_dir), lazy=True, note=_info)
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


def cmd_related(args: argparse.Namespace) -> int:
    from mkdocs_graphsearch.bundle.read import load_bundle
    from mkdocs_graphsearch.commands.docs_tools import DocsTools, UnknownDoc

    try:
        tools = DocsTools(load_bundle(locate(Path(args.path))))
    except BundleError as error:
        raise InputError(str(error)) from None
    try:
        found = tools.related(checked_text(args.page, "the page"))
    except UnknownDoc as error:
        raise InputError(str(error)) from None
    if args.json:
        _print_json(found)
        return 0
    rows = found["related"]
    lines = [f"{clean(found['page'])}: {plural(len(rows), 'related page')}"]
    for number, entry in enumerate(rows, 1):
        lines.append(f"{number}. {clean(entry['title'])}  [{clean(entry['page'])}]  score {entry['score']:.4f}")
        if args.explain:
            lines.append(f"   {clean(entry.get('reason', 'no reasons in this bundle (built before they were kept)'))}")
    print("\n".join(lines))
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        from mkdocs_graphsearch.commands.mcp_server import serve
    except ImportError:
        raise InputError("graphsearch mcp needs the MCP Python SDK: pip install 'mkdocs-graphsearch[mcp]'") from None
    try:
        folder = locate(Path(args.path))
    except BundleError as error:
        raise InputError(str(error)) from None
    if args.docs_dir is not None:
        docs_dir = Path(args.docs_dir) if args.docs_dir else None
        if docs_dir is not None and not docs_dir.is_dir():
            raise InputError(f"--docs-dir {docs_dir} is not a folder")
    else:  # a built site beside its mkdocs.yml: that file says where its markdown is
        from mkdocs_graphsearch.commands.docs_tools import docs_dir_of

        docs_dir = docs_dir_of(Path(args.path)) if folder != Path(args.path) else None
        if docs_dir is not None:
            print(f"read gives the markdown of {docs_dir} (--docs-dir '' for the index text)", file=sys.stderr)
    serve(folder, args.site_url, docs_dir)
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
_CHECKS_EPILOG = f"""\
the checks file is a YAML list, one check a mapping:

  - query: install the server
    page: getting-started/installation.md         # this page in the first `within` result pages
  - query: retry backoff
    section: user-guide/retries.md#backoff        # this section, listed under its page
    within: 1                                     # optional (default: {DEFAULT_WITHIN})
    mode: keyword                                 # optional: {" | ".join(MODES)} (default: the site's)
  - query: internal notes
    absent: drafts/notes.md                       # not in the first `within` pages (default: all shown)

exit codes: 0 every check passed; 1 a check failed (a table of the failures) or the
bundle is damaged; 2 bad input (a malformed checks file names its line, no bundle found)."""
_JSON_HELP = "print JSON (default: text for a reader)"


def _chunk_depth_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--chunk-depth", type=_int_range(1, 6), default=DEFAULT_CHUNK_DEPTH, metavar="N",
        help="the deepest heading level that starts a chunk, 1-6 (default: %(default)s)",
    )


def _embedding_options(parser: argparse.ArgumentParser) -> None:
    """Options `index` and `build` share."""
    parser.add_argument(
        "--no-embeddings", action="store_true",
        help="keyword search only, no model run (default: embeddings on when the model loads)",
    )
    parser.add_argument(
        "--cache-dir", default=DEFAULT_CACHE_DIR,
        help="embedding cache, apart from the output folder; '' for none (default: %(default)s)",
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
    chunks.add_argument("file", help="the markdown file (inside --root)")
    chunks.add_argument("--root", required=True, help="the docs folder the file belongs to (required)")
    _chunk_depth_option(chunks)
    chunks.add_argument("--json", action="store_true", help=_JSON_HELP)
    chunks.set_defaults(func=cmd_chunks)

    tok = sub.add_parser("tokenize", help="show the search tokens of a text")
    tok.add_argument("text", help="the text to tokenize, as one argument")
    tok.add_argument("--json", action="store_true", help=_JSON_HELP)
    tok.set_defaults(func=cmd_tokenize)

    index = sub.add_parser("index", help="build a search bundle from a folder of markdown")
    index.add_argument("docs_dir", help="the folder of markdown pages (as MkDocs' docs_dir)")
    index.add_argument("--out", required=True, help="the bundle folder to write (required)")
    index.add_argument(
        "--site-name", default="",
        help="the site's name (mkdocs.yml's site_name): a query of it finds the home page (default: none)",
    )
    _chunk_depth_option(index)
    _embedding_options(index)
    index.add_argument(
        "--vector-clusters", type=_clusters_option, default=None, metavar="K|auto",
        help="passage vectors in K clusters a query probes a few of ('auto': the size rule even for a "
        "small site; 1: one file; default: the size rule, one file for small sites)",
    )
    index.add_argument(
        "--vector-probe", type=_int_range(1), default=None, metavar="P",
        help="files a query reads, each a cluster's hood (default: 3, each hood half of 8 %% of the chunks; "
        "with cells: clusters, default 10)",
    )
    index.add_argument(
        "--vector-bits", type=_int_range(2, 8), default=None, metavar="B",
        help="bits per dimension of the stored passage vectors (8: int8; default: 4)",
    )
    index.add_argument(
        "--vector-cells", type=_int_range(1), default=None, metavar="G",
        help="group the clusters in G cells whose centroids a query fetches for its best cells "
        "(1: one level; default: 2 sqrt(clusters) cells beyond 1,024 clusters)",
    )
    index.set_defaults(func=cmd_index)

    build = sub.add_parser(
        "build", help="add search to a site that is already built (Zensical, MkDocs, Sphinx, any HTML)"
    )
    build.add_argument("site_dir", help="the built site's folder (e.g. site/): the bundle, runtime and tags go there")
    build.add_argument(
        "--config", metavar="FILE",
        help="the site's mkdocs.yml or zensical.toml: page ids, titles, tags and `search: exclude` from the"
        " markdown sources (default: none, all from the HTML and the site's own search index)",
    )
    build.add_argument(
        "--content-selector", metavar="SELECTOR",
        help="the element holding each page's content: a tag, #id, .class, [attr] or [attr=value] compound"
        " (default: data-graphsearch-body, then the theme's markers: Material/Zensical, MkDocs, ReadTheDocs,"
        " Sphinx [role=main], main, article, body)",
    )
    build.add_argument(
        "--bundle-dir", default="search", metavar="FOLDER",
        help="the bundle's folder inside the site (default: %(default)s)",
    )
    build.add_argument(
        "--site-url", default=None, metavar="URL",
        help="where the site is served (https://example.com/docs/): the error page's and the printed snippet's"
        " absolute paths start with its path (default: the config's site_url, else /)",
    )
    build.add_argument(
        "--no-inject", action="store_true",
        help="leave the pages as they are (our earlier tags are taken out) and print the tags to add through"
        " the site's templates (default: tags injected into every page)",
    )
    _chunk_depth_option(build)
    _embedding_options(build)
    build.add_argument("--strict", action="store_true", help="exit code 1 when there were warnings (default: 0)")
    build.set_defaults(func=cmd_build)

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
        "check", help="run search regression checks (a YAML list of queries and what must come back)",
        description="Run search regression checks against a built site, as the plugin's `checks:` option does.",
        epilog=_CHECKS_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("path", help="a built site (with search/) or a bundle folder")
    check.add_argument("checks", help="the checks file (.yml), as the plugin's `checks:` option reads it")
    check.set_defaults(func=cmd_check)

    related = sub.add_parser("related", help="the pages most related to a page, and why (--explain)")
    related.add_argument("path", help="a built site (with search/) or a bundle folder")
    related.add_argument("page", help="the page: its path (guide/install.md) or URL")
    related.add_argument(
        "--explain", action="store_true",
        help="say why each page is related: content, links, or listed because nothing else relates (default: off)",
    )
    related.add_argument("--json", action="store_true", help="print JSON, reasons included (default: text)")
    related.set_defaults(func=cmd_related)

    mcp = sub.add_parser(
        "mcp", help="serve a built site or bundle to AI agents over MCP (stdio)",
        description="Serve a built site or bundle to AI agents over MCP (stdio). Needs the `mcp` extra:"
        " pip install 'mkdocs-graphsearch[mcp]'.",
    )
    mcp.add_argument("path", help="a built site (with search/) or a bundle folder")
    mcp.add_argument(
        "--site-url", default="", metavar="URL",
        help="where the site is published (https://docs.example.com/): result URLs become absolute"
        " (default: URLs relative to the site root)",
    )
    mcp.add_argument(
        "--docs-dir", metavar="DIR",
        help="the site's markdown (its docs_dir): `read` gives each page or section's own source, tables,"
        " code and links as written; '' for the bundle's plain text (default: the docs_dir of the"
        " mkdocs.yml beside a built site PATH, when it names that site; else the bundle's text)",
    )
    mcp.set_defaults(func=cmd_mcp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]  # a title the console cannot show
    try:
        return int(args.func(args))
    except (InputError, RefusedInput) as error:  # RefusedInput: a file past its bound (files/bounded.py)
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
