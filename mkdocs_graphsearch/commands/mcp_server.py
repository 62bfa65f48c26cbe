"""`graphsearch mcp SITE`: a built site or bundle served to AI agents over MCP (stdio).

The tools are docs_tools.py's, registered with the official MCP Python SDK (`mcp`, the optional
extra `mkdocs-graphsearch[mcp]`: only this module imports it, and only `graphsearch mcp` imports
this module). Each returns JSON (structured content, and the same as text).

Every request gets an answer:
- a line that is not a JSON-RPC request the SDK can take (not JSON, not UTF-8, a batch, an
  object id, nesting deeper than its parser goes, a lone surrogate in a string, longer than
  MAX_MCP_REQUEST) is answered here with a JSON-RPC error (checked_lines), not handed to the SDK,
  which would drop it without a word;
- a tool's bad arguments (a missing query, `limit: 0`, an unknown facet) are a tool error in
  plain words (docs_tools.py checks them, before the SDK's schema validation would answer with
  pydantic's text); a damaged bundle part (related.json) is a tool error naming it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any, BinaryIO, cast

import anyio
import mcp_types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from pydantic import Field  # the SDK's own dependency: argument schemas

from mkdocs_graphsearch import __version__
from mkdocs_graphsearch.bundle.format import BundleError
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.settings import MODES
from mkdocs_graphsearch.commands.docs_tools import ARGUMENT_CHECKS, MAX_LIMIT, DocsTools, ToolProblem
from mkdocs_graphsearch.files.bounded import MAX_MCP_REQUEST, size_text

INSTRUCTIONS = (
    "Documentation of one site. `search` finds pages and sections (keyword, semantic and link graph, "
    "as the site's own search box); `read` gives a page or section's text and links by the id or url "
    "a result gives; `related` lists the pages most related to a page; `list_pages` lists every page "
    "and the most connected ones to start from."
)

#: The tools and their arguments, for plain-word answers to unknown or missing ones.
ARGUMENTS = {
    "search": ("query", "limit", "mode", "filters"),
    "read": ("id",),
    "related": ("page",),
    "list_pages": (),
}
REQUIRED = {
    "search": ("query", "what to look for, in words or as an identifier"),
    "read": ("id", "a page, section id or url (search and list_pages give them)"),
    "related": ("page", "a page path, id or url (list_pages gives them)"),
}

# JSON-RPC 2.0 error codes.
PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


def build_server(folder: Path, site_url: str = "", docs_dir: Path | None = None) -> MCPServer[Any]:
    """The MCP server over the bundle in `folder` (its tools: search, read, related, list_pages)."""
    tools = DocsTools(load_bundle(folder), site_url, docs_dir)
    server = MCPServer(name="graphsearch", version=__version__, instructions=INSTRUCTIONS)
    server.middleware.append(_plain_arguments)

    @server.tool(name="search")
    def search(
        query: Annotated[str, Field(description="what to look for, in words or as an identifier")],
        limit: Annotated[
            int | None, Field(ge=1, le=MAX_LIMIT, description="pages to return (default: the site's)")
        ] = None,
        mode: Annotated[str | None, Field(description=f"one of {', '.join(MODES)} (default: the site's)")] = None,
        filters: Annotated[
            list[str] | None,
            Field(description="filters applied as if typed in the query: tags:deploy, in:user-guide, kind:code, "
                  "lang:python (facets tags, in, kind, lang)"),
        ] = None,
    ) -> dict[str, Any]:
        """Search the documentation: pages, best first, each with its best sections (id, title, url,
        plain-text snippet)."""
        return _answer(lambda: tools.search(query, limit=limit, mode=mode, filters=filters or ()))

    @server.tool(name="read")
    def read(
        id: Annotated[  # noqa: A002 - the name agents see
            str,
            Field(description="a page (guide/install.md), a section id (guide/install.md::Setup), or a url "
                  "as a result, the site or the CLI gives it (/guide/install/#setup, /, the absolute url)"),
        ],
    ) -> dict[str, Any]:
        """Read a page or a section (with its subsections and code) as markdown, with the pages and
        sections it links to and those that link to it."""
        return _answer(lambda: tools.read(id))

    @server.tool(name="related")
    def related(
        page: Annotated[str, Field(description="a page path (guide/install.md), id or url")],
    ) -> dict[str, Any]:
        """The pages most related to a page, by meaning and by the site's links, best first, each with
        the reason it is there (`reason`: similar content, links, or listed as nothing else relates)."""
        return _answer(lambda: tools.related(page))

    @server.tool(name="list_pages")
    def list_pages() -> dict[str, Any]:
        """Every page of the site (path, title, url), and the most connected pages to start from."""
        return _answer(tools.list_pages)

    return server


def _answer(answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A bad argument is the agent's to correct, a damaged bundle part the site owner's: either
    is a tool error with the reason (any other failure would reach the agent without one)."""
    try:
        return answer()
    except ToolProblem as error:
        raise ToolError(str(error)) from error
    except BundleError as error:
        raise ToolError(f"the site's search bundle is damaged ({error}): rebuild the site") from error


async def _plain_arguments(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Unknown, missing or mistyped tool arguments, answered in plain words before the SDK's
    schema validation (whose text is pydantic's, with a link to its site)."""
    params = ctx.params if isinstance(ctx.params, dict) else {}
    name, arguments = params.get("name"), params.get("arguments") or {}
    if ctx.method != "tools/call" or name not in ARGUMENTS:
        return await call_next(ctx)
    problem = _argument_problem(str(name), arguments)
    if problem is None:
        return await call_next(ctx)
    return mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text=problem)], is_error=True)


def _argument_problem(name: str, arguments: object) -> str | None:
    if not isinstance(arguments, dict):
        return f"{name}: arguments must be an object"
    known = ARGUMENTS[name]
    unknown = sorted(str(key) for key in arguments if key not in known)
    if unknown:
        takes = f"takes {', '.join(known)}" if known else "takes no arguments"
        return f"{name} {takes}; not {', '.join(unknown)}"
    if name in REQUIRED and arguments.get(REQUIRED[name][0]) is None:
        return f"{name} needs {REQUIRED[name][0]}: {REQUIRED[name][1]}"
    try:
        for key, value in arguments.items():
            ARGUMENT_CHECKS[key](value)
    except ToolProblem as error:
        return f"{name}: {error}"
    return None


# ------------------------------------------------------------------------------ the wire


class _Wire:
    """stdout, one whole line a write: the SDK's answers and ours never interleave."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.lock = anyio.Lock()

    async def write(self, text: str) -> None:
        async with self.lock:
            await anyio.to_thread.run_sync(self._write, text.encode("utf-8", errors="replace"))

    async def flush(self) -> None:
        """Each write is flushed already."""

    def _write(self, data: bytes) -> None:
        self.stream.write(data)
        self.stream.flush()

    async def error(self, request_id: str | int | None, code: int, message: str) -> None:
        error = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
        await self.write(json.dumps(error) + "\n")


async def checked_lines(stream: BinaryIO, wire: _Wire) -> AsyncIterator[str]:
    """The lines of `stream` the SDK can take; every other line is answered on `wire` with a
    JSON-RPC error (a request's own id when it has a readable one, else null)."""
    while True:
        line = await anyio.to_thread.run_sync(stream.readline, MAX_MCP_REQUEST + 1)
        if not line:
            return
        if len(line) > MAX_MCP_REQUEST:
            await anyio.to_thread.run_sync(_skip_line, stream)
            message = f"Invalid Request: a request is at most {size_text(MAX_MCP_REQUEST)}"
            await wire.error(None, INVALID_REQUEST, message)
            continue
        if not line.strip():
            continue
        problem = _line_problem(line)
        if problem is None:
            yield line.decode("utf-8")
        else:
            await wire.error(*problem)


def _skip_line(stream: BinaryIO) -> None:
    """Read past the rest of an oversized line, a bounded piece at a time."""
    while True:
        piece = stream.readline(MAX_MCP_REQUEST)
        if not piece or piece.endswith(b"\n"):
            return


def _line_problem(line: bytes) -> tuple[str | int | None, int, str] | None:
    """(id, code, message) of the error that answers `line`, or None when the SDK can take it."""
    try:
        message = json.loads(line.decode("utf-8"))  # the stdlib keeps lone surrogates: they are checked below
    except UnicodeDecodeError:
        return None, PARSE_ERROR, "Parse error: a request must be UTF-8"
    except (ValueError, RecursionError) as error:
        what = "nested too deeply" if isinstance(error, RecursionError) else "not JSON"
        return None, PARSE_ERROR, f"Parse error: the request is {what}"
    if isinstance(message, list):
        return None, INVALID_REQUEST, "Invalid Request: batches are not supported, send one request a line"
    if not isinstance(message, dict):
        return None, INVALID_REQUEST, "Invalid Request: a request is a JSON object"
    request_id = message.get("id")
    if "id" in message and (isinstance(request_id, bool) or not isinstance(request_id, (str, int))):
        return None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer"
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return request_id, INVALID_PARAMS, "Invalid params: a string holds a lone surrogate (not Unicode text)"
    try:
        mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        return request_id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message the server takes"
    return None


async def _serve(server: MCPServer[Any]) -> None:
    wire = _Wire(sys.stdout.buffer)
    lines = checked_lines(sys.stdin.buffer, wire)
    # Our streams in place of the SDK's own reading of stdin (it would drop what it cannot parse).
    async with stdio_server(stdin=cast(Any, lines), stdout=cast(Any, wire)) as (read_stream, write_stream):
        lowlevel = server._lowlevel_server  # noqa: SLF001 - MCPServer.run_stdio_async, with these streams
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def serve(folder: Path, site_url: str = "", docs_dir: Path | None = None) -> None:
    """Serve over stdio until the client closes the connection."""
    anyio.run(_serve, build_server(folder, site_url, docs_dir))
