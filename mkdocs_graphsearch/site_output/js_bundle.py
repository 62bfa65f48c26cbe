"""One file per entry of the runtime: an entry module and every module it imports, joined.

Why (issue 23): a browser fetches an ES module's imports only once it has the module, level by
level, one request a file. The search worker imports a score of modules over several levels and
the page's UI a handful: requests, and round trips in a chain, before the first answer. A site gets one file per
entry instead (assets.py: `ui/ui.js`, `engine/worker.js`), so a search's request budget goes to
the bundle's data. js/src keeps the modules (node, the tests and the drivers import them there).

No bundler dependency: the runtime's modules keep to a few forms this module knows (checked: any
other form is an error, never a silently wrong file):

- `import {a, b as c} from "./x.js";` and `import "./x.js";` at the start of a line (the stripped
  source: strip_js.py), relative paths only;
- `import("./x.js")` (a module loaded later): a module of the same tree is bundled too and the
  call becomes a promise of it; any other stays a real import (the UI's in-page fallback loads
  the worker's file);
- `export function|async function|class|const NAME` at the start of a line (no `export {}`, no
  default, no `let`: a bundled import is a copy, not a live binding).

Each imported module becomes a function scope run once, in dependency order (each module after
everything it imports statically; no cycles), returning its exports; the entry stays a module
(its exports kept, for the in-page fallback `import()`). `import.meta` may appear only in modules
of the entry's folder (a bundled module's URL is the entry's). Same sources, same bytes: the
order is the import order, the names are numbers in that order.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import Path

_STATIC = re.compile(r'^import\s*(?:\{([^}]*)\}\s*from\s*)?"(\.\.?/[^"]+)"\s*;?[ \t]*\n?', re.M)
_DYNAMIC = re.compile(r'\bimport\("(\.\.?/[^"]+)"\)')
_EXPORT = re.compile(r"^export (?:async function\*? ?|function\*? ?|class |const )([A-Za-z_$][\w$]*)", re.M)
_ANY_EXPORT = re.compile(r"^export\b", re.M)
_ANY_IMPORT = re.compile(r"^import\b(?!\()", re.M)


class BundleError(ValueError):
    """A module uses a form this bundler does not know, or the imports form a cycle."""


def bundle_entry(root: Path, entry: str, read: Callable[[Path], str]) -> str:
    """The entry module (a path under `root`, e.g. `engine/worker.js`) and its imports as one
    module; `read` gives a module's shipped text (comments stripped)."""
    order: list[str] = []
    texts: dict[str, str] = {}
    visiting: set[str] = set()

    def visit(name: str, chain: tuple[str, ...]) -> None:
        if name in texts:
            return
        if name in visiting:
            raise BundleError(f"import cycle: {' -> '.join((*chain, name))}")
        visiting.add(name)
        path = root / name
        if not path.is_file():
            raise BundleError(f"{chain[-1] if chain else name}: imports {name}, which does not exist")
        text = read(path)
        for _names, target in _STATIC.findall(text):
            visit(_resolve(name, target), (*chain, name))
        visiting.discard(name)
        texts[name] = text
        order.append(name)

    visit(entry, ())
    order.pop()  # the entry goes last, after the modules it loads later too
    # modules only ever loaded later (import()) of the entry's own tree: bundled, run once, eagerly
    tree = posixpath.dirname(entry)
    pending = [*order, entry]
    while pending:
        name = pending.pop(0)
        for target in _DYNAMIC.findall(texts[name]):
            resolved = _resolve(name, target)
            if _inside(resolved, tree) and resolved not in texts:
                before = len(order)
                visit(resolved, (name,))
                pending.extend(order[before:])
    order.append(entry)
    for at, name in enumerate(order):  # a module loaded later must not import the entry
        for _names, target in _STATIC.findall(texts[name]):
            if order.index(_resolve(name, target)) >= at:
                raise BundleError(f"import cycle: {name} imports {target}")
    ids = {name: f"__graphsearch_{i}" for i, name in enumerate(order)}
    parts = []
    for name in order:
        code = _link(name, texts[name], ids, tree, entry)
        if name == entry:
            parts.append(code)
        else:
            exports = _exports(name, code)
            body = _EXPORT_PREFIX.sub("", code)
            parts.append(f"const {ids[name]} = (() => {{\n{body}return {{ {', '.join(exports)} }};\n}})();\n")
    return "".join(parts)


_EXPORT_PREFIX = re.compile(r"^export ", re.M)


def _resolve(importer: str, target: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(importer), target))


def _inside(name: str, tree: str) -> bool:
    return not tree or name.startswith(f"{tree}/")


def _exports(name: str, code: str) -> list[str]:
    names = _EXPORT.findall(code)
    if len(names) != len(_ANY_EXPORT.findall(code)):
        raise BundleError(f"{name}: an export this bundler does not know (only export function|class|const NAME)")
    return names


def _link(name: str, text: str, ids: dict[str, str], tree: str, entry: str) -> str:
    """The module's code with its imports turned into references to the bundled modules."""
    beside_entry = posixpath.dirname(name) == posixpath.dirname(entry)  # same URLs bundled
    if "import.meta" in text and not beside_entry:
        raise BundleError(f"{name}: import.meta outside the entry's folder")

    def static(match: re.Match[str]) -> str:
        names, target = match.group(1), _resolve(name, match.group(2))
        if names is None:
            return ""  # imported for its effects: it runs before this module
        pairs = []
        for item in names.split(","):
            words = item.split()
            if not words:
                continue
            if len(words) == 1:
                pairs.append(words[0])
            elif len(words) == 3 and words[1] == "as":
                pairs.append(f"{words[0]}: {words[2]}")
            else:
                raise BundleError(f"{name}: cannot read the import {{{names}}}")
        return f"const {{ {', '.join(pairs)} }} = {ids[target]};\n"

    code = _STATIC.sub(static, text)
    if _ANY_IMPORT.search(code):
        raise BundleError(f"{name}: an import this bundler does not know (only import {{...}} from \"./x.js\")")

    def dynamic(match: re.Match[str]) -> str:
        target = _resolve(name, match.group(1))
        if target in ids:
            return f"Promise.resolve().then(() => {ids[target]})"
        if _inside(target, tree) or not beside_entry:
            raise BundleError(f"{name}: cannot bundle import({match.group(1)})")
        return match.group(0)  # another tree's file, loaded as itself (from the same folder)

    return _DYNAMIC.sub(dynamic, code)
