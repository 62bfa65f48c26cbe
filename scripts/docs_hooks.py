"""MkDocs hooks of this project's own docs site (root mkdocs.yml): the configuration and CLI
reference pages are generated from the code at build time, so they cannot drift from it.

`<!-- graphsearch:options -->` becomes a table of every plugin option (from the typed config
classes and their attribute docstrings, as mkdocstrings reads them); `<!-- graphsearch:cli -->`
becomes each command's `--help`.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c

from mkdocs_graphsearch.commands.cli import build_parser
from mkdocs_graphsearch.mkdocs_plugin import config

OPTIONS = "<!-- graphsearch:options -->"
CLI = "<!-- graphsearch:cli -->"


def on_page_markdown(markdown: str, **_: Any) -> str:
    if OPTIONS in markdown:
        markdown = markdown.replace(OPTIONS, options_table())
    if CLI in markdown:
        markdown = markdown.replace(CLI, cli_reference())
    return markdown


def attribute_docs(cls: type) -> dict[str, str]:
    """Each class attribute's docstring: the string expression right after its assignment."""
    tree = ast.parse(inspect.getsource(cls)).body[0]
    assert isinstance(tree, ast.ClassDef)
    docs: dict[str, str] = {}
    for node, following in zip(tree.body, tree.body[1:], strict=False):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[node.targets[0].id] = " ".join(following.value.value.split())
    return docs


def options_table() -> str:
    rows = ["| option | default | what it does |", "| --- | --- | --- |"]
    rows += _rows(config.GraphSearchConfig, "")
    return "\n".join(rows)


def _rows(cls: type[base.Config], prefix: str) -> list[str]:
    rows = []
    docs = attribute_docs(cls)
    for name, option in cls._schema:  # the options in their declared order
        key = f"{prefix}{name}"
        if isinstance(option, c.SubConfig):
            rows.append(f"| `{key}` | | {_cell(docs.get(name, ''))} |")
            rows += _rows(option.config_class, f"{key}.")
            continue
        default = option.default
        shown = "" if default is None else f"`{str(default).lower() if isinstance(default, bool) else default!s}`"
        if default == "":
            shown = '`""`'
        rows.append(f"| `{key}` | {shown} | {_cell(docs.get(name, ''))} |")
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def cli_reference() -> str:
    parser = build_parser()
    parts = [f"```text\n{parser.format_help().rstrip()}\n```"]
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        for name, sub in action.choices.items():
            parts.append(f"## `graphsearch {name}`\n\n```text\n{sub.format_help().rstrip()}\n```")
    return "\n\n".join(parts)
