"""The package's import walls, as README's "How it works" draws them: parse/ -> index/ -> bundle/
<- engine/, text/ beneath them all. The reference engine sees only the bundle (as the browser
does), and the bundle format knows nothing of how an index is built."""

from __future__ import annotations

import ast

import pytest

from conftest import ROOT

PACKAGE = ROOT / "mkdocs_graphsearch"

#: The core, in layers: text/ beneath parse/ -> index/ -> bundle/ <- engine/.
CORE = {"text", "parse", "index", "bundle", "engine"}
#: What surrounds the core: the MkDocs side, the command line, what both share, what both write
#: into a built site, search added to a site already built (`graphsearch build`), and files/
#: beneath everything.
OUTER = {"mkdocs_plugin", "commands", "common", "site_output", "built_site"}

#: Subpackage -> the subpackages it must never import (at module level, in a function or under
#: TYPE_CHECKING alike). "" is the package root itself (`from mkdocs_graphsearch import ...`) and
#: "plugin" the MkDocs entry module: no arrow runs back up to either from the core; the outer
#: parts may take the root's public `__version__`, never the plugin.
UP = {"", "plugin"}
WALLS = {
    "files": CORE | OUTER | UP,
    "text": {"parse", "index", "bundle", "engine"} | OUTER | UP,
    "parse": {"index", "bundle", "engine"} | OUTER | UP,
    "bundle": {"parse", "index", "engine"} | OUTER | UP,
    "index": OUTER | UP,  # calibrate.py runs the engine's query encoder on the fitted tables
    "engine": {"parse", "index"} | OUTER | UP,
    "site_output": {"mkdocs_plugin", "commands", "common", "built_site", "plugin"},
    "common": {"mkdocs_plugin", "commands", "site_output", "built_site", "plugin"},
    "mkdocs_plugin": {"commands", "built_site", "plugin"},
    "commands": {"mkdocs_plugin", "site_output", "plugin"},
    # Built sites are not MkDocs builds: nothing of the plugin's side.
    "built_site": {"mkdocs_plugin", "commands", "plugin"},
}


def imported_modules(source: str, module: str) -> set[str]:
    """Every module `source` (the text of `module`, dotted) imports, relative imports resolved."""
    package = module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            # `from mkdocs_graphsearch import index` imports a subpackage by name, not the root.
            names = {f"{target}.{alias.name}" for alias in node.names}
            found.update(names)
            if not all(_is_module(name) for name in names):
                found.add(target)
    return found


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def subpackage_of(module: str) -> str | None:
    """The part of the package `module` is in: a subpackage's name, "plugin", "" for the root
    itself (a name imported from it, such as `__version__`), None outside the package."""
    parts = module.split(".")
    if parts[0] != "mkdocs_graphsearch":
        return None
    return parts[1] if len(parts) > 1 and not parts[1].startswith("__") else ""


def test_the_walker_sees_every_kind_of_import() -> None:
    source = """
import mkdocs_graphsearch.index.bm25
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from mkdocs_graphsearch.parse.model import Page
def later():
    from ..engine import search
    from . import format
"""
    found = {subpackage_of(m) for m in imported_modules(source, "mkdocs_graphsearch.bundle.write")}
    assert {"index", "parse", "engine", "bundle"} <= found


@pytest.mark.parametrize("layer", sorted(WALLS))
def test_import_walls(layer: str) -> None:
    files = sorted((PACKAGE / layer).glob("*.py"))
    assert files, f"no modules in {layer}/"
    crossings = []
    for path in files:
        module = "mkdocs_graphsearch." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        for imported in sorted(imported_modules(path.read_text(encoding="utf-8"), module)):
            if subpackage_of(imported) in WALLS[layer]:
                crossings.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not crossings, "\n".join(crossings)


def test_the_package_root_holds_only_the_plugin_entry_and_subpackages() -> None:
    modules = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert modules == ["__init__.py", "plugin.py"]
    parts = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert parts == CORE | OUTER | {"files"}


def test_a_build_does_not_import_the_search_engine() -> None:
    """`mkdocs build` imports the package, the plugin and the bundle pipeline, not the reference
    engine (only `checks:` needs it): fewer modules to import on every build."""
    import subprocess
    import sys

    modules = "mkdocs_graphsearch.plugin, mkdocs_graphsearch.index.builder, mkdocs_graphsearch.index.semantic"
    code = f"import sys, {modules}; print(sorted(m for m in sys.modules if m.endswith('engine.search')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    public = "import mkdocs_graphsearch as m; print(m.search.__module__, m.load_bundle.__module__)"
    out = subprocess.run([sys.executable, "-c", public], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["mkdocs_graphsearch.engine.search", "mkdocs_graphsearch.bundle.read"]
