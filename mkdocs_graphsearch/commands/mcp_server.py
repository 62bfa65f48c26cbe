"""`graphsearch mcp SITE`: a built site or bundle served to AI agents over MCP (stdio).

The tools are docs_tools.py's, registered with the official MCP Python SDK (`mcp`, the optional
extra `mkdocs-graphsearch[mcp]`: only this module imports it, and only `graphsearch mcp` imports
this module). Each returns JSON (structured content,
and the same as text); a bad id or mode is a tool error the agent can read and correct.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field  # the SDK's own dependency: argument schemas

from mkdocs_graphsearch import __version__
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.settings import MODES
from mkdocs_graphsearch.commands.docs_tools import DocsTools, UnknownDoc

INSTRUCTIONS = (
    "Documentation of one site. `search` finds pages and sections (keyword, semantic and link graph, "
    "as the site's own search box); `read` gives a page or section's text and links by the id or url "
    "a result gives; `related` lists the pages most related to a page; `list_pages` lists every page "
    "and the most connected ones to start from."
)


def build_server(folder: Path, site_url: str = "") -> MCPServer[Any]:
    """The MCP server over the bundle in `folder` (its tools: search, read, related, list_pages)."""
    tools = DocsTools(load_bundle(folder), site_url)
    server = MCPServer(name="graphsearch", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(name="search")
    def search(
        query: Annotated[str, Field(description="what to look for, in words or as an identifier")],
        limit: Annotated[int | None, Field(ge=1, le=100, description="pages to return (default: the site's)")] = None,
        mode: Annotated[str | None, Field(description=f"one of {', '.join(MODES)} (default: the site's)")] = None,
        filters: Annotated[
            list[str] | None, Field(description="filters joined to the query, like tags:deploy or in:user-guide")
        ] = None,
    ) -> dict[str, Any]:
        """Search the documentation: pages, best first, each with its best sections (id, title, url,
        plain-text snippet)."""
        if mode is not None and mode not in MODES:
            raise ToolError(f"mode must be one of {', '.join(MODES)}")
        return tools.search(query, limit=limit, mode=mode, filters=filters or ())

    @server.tool(name="read")
    def read(
        id: Annotated[  # noqa: A002 - the name agents see
            str, Field(description="a page (guide/install.md), a section id (guide/install.md::Setup), or a url")
        ],
    ) -> dict[str, Any]:
        """Read a page or a section (with its subsections and code) as markdown, with the pages and
        sections it links to and those that link to it."""
        return _known(lambda: tools.read(id))

    @server.tool(name="related")
    def related(
        page: Annotated[str, Field(description="a page path (guide/install.md), id or url")],
    ) -> dict[str, Any]:
        """The pages most related to a page, by meaning and by the site's links, best first."""
        return _known(lambda: tools.related(page))

    @server.tool(name="list_pages")
    def list_pages() -> dict[str, Any]:
        """Every page of the site (path, title, url), and the most connected pages to start from."""
        return tools.list_pages()

    return server


def _known(answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """An unknown id is the agent's to correct: a tool error with the reason, not a crash."""
    try:
        return answer()
    except UnknownDoc as error:
        raise ToolError(str(error)) from error


def serve(folder: Path, site_url: str = "") -> None:
    """Serve over stdio until the client closes the connection."""
    build_server(folder, site_url).run("stdio")
