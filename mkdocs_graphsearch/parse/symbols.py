"""Names a code block defines at its top level (functions, classes, variables, types).

Why: a reader searching `HTTPException` or `use_directory_urls` wants the block that defines
it. Python is read with `ast` (exact); JS/TS and other languages with line-anchored regexes
(best effort). Documentation code is often partial, so nothing here may ever raise: code `ast`
refuses (syntax, nesting past its limits, NUL bytes) falls back to the regexes; the walks over an
accepted tree recurse at most as deep as the parser's own nesting limits (a hundred indented
blocks, two hundred brackets), far within Python's recursion limit; the regexes and string
methods cannot raise on a str. tests/test_parse_symbols.py fuzzes both entry points with
hypothesis and the deepest code the parser accepts.

`extract_symbols` gives every top-level name (indexed as the chunk's symbols field);
`extract_definitions` only the functions, classes and types a block declares, methods of its
classes included, never a variable: `client = Client()` uses Client, it defines nothing a reader
would look up. The engines rank a block that defines a looked-up name above the blocks that
merely use it (engine/fuse.py).
"""

from __future__ import annotations

import ast
import re
import textwrap
import warnings

__all__ = ["extract_definitions", "extract_symbols"]

# Past this size `ast` is skipped (regexes stay linear); real doc snippets are far smaller.
_AST_LIMIT = 200_000
# Past this size only the head of a block is scanned at all.
_SCAN_LIMIT = 2_000_000

_PYTHON = {"python", "py", "python3", "py3", "pycon", "pyi", "ipython", "ipython3", "sage", "pyodide"}
_JS = {
    "js", "javascript", "jsx", "mjs", "cjs", "node", "ts", "typescript", "tsx", "mts", "cts",
    "vue", "svelte", "es6", "ecmascript",
}

_ID = r"[A-Za-z_$][\w$]*"
_PY_ID = r"[^\W\d]\w*"

# JS/TS at column 0 (after dedent), so methods and nested declarations are not top level.
# Declarations (functions, classes, types) first, then variable bindings.
_JS_DECLARATIONS = [
    re.compile(rf"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*({_ID})", re.M),
    re.compile(rf"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+({_ID})", re.M),
    re.compile(rf"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?interface\s+({_ID})", re.M),
    re.compile(rf"^(?:export\s+)?(?:declare\s+)?type\s+({_ID})\s*(?:<[^=\n]*>)?\s*=", re.M),
    re.compile(rf"^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+({_ID})", re.M),
    re.compile(rf"^(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+({_ID})\s*\{{", re.M),
]
_JS_BINDINGS = [
    # `const x =` / `let x: T =`; `const {a} =` and `const [a] =` (destructuring) never match.
    re.compile(rf"^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+({_ID})\s*(?::[^=;\n]*)?=(?![=>])", re.M),
    re.compile(rf"^(?:export\s+)?declare\s+(?:const|let|var)\s+({_ID})", re.M),  # ambient: no `=`
]

_PY_FALLBACK = [
    re.compile(rf"^(?:async\s+)?def\s+({_PY_ID})", re.M),
    re.compile(rf"^class\s+({_PY_ID})", re.M),
    re.compile(rf"^({_PY_ID})\s*(?::[^=\n]*)?=(?!=)", re.M),
]
# Definitions in code `ast` cannot read: any `def` or `class`, indented ones (methods) too.
_PY_FALLBACK_DEFINITIONS = [re.compile(rf"^[ \t]*(?:async\s+)?(?:def|class)\s+({_PY_ID})", re.M)]

# Other languages: keyword-led declarations at column 0. Keywords are specific enough that
# prose, YAML or shell output rarely trips them.
_GENERIC = [
    # Go: `func Name(`, `func (r *T) Name(`, `type Name struct`
    re.compile(r"^func\s+(?:\([^)\n]*\)\s*)?([A-Za-z_]\w*)\s*[(\[]", re.M),
    re.compile(r"^type\s+([A-Za-z_]\w*)\s+(?:struct|interface|func|map|chan|\[|\*|[A-Za-z_])", re.M),
    # Rust
    re.compile(
        r"^(?:pub(?:\([^)\n]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+|extern\s+\"[^\"\n]*\"\s+)*"
        r"fn\s+([A-Za-z_]\w*)", re.M),
    re.compile(r"^(?:pub(?:\([^)\n]*\))?\s+)?(?:struct|enum|trait|union|mod|type)\s+([A-Za-z_]\w*)", re.M),
    re.compile(r"^macro_rules!\s*([A-Za-z_]\w*)", re.M),
    # Java, C#, Kotlin, Scala, Swift, C++, PHP: type declarations with optional modifiers
    re.compile(
        r"^(?:(?:public|private|protected|internal|static|final|abstract|sealed|partial|open|data|"
        r"inline|value|annotation|export|readonly|unsafe)\s+)*"
        r"(?:class|interface|enum|record|struct|object|trait|protocol|extension)\s+([A-Za-z_]\w*)", re.M),
    # Kotlin / Scala / Swift functions: `fun name(`, `def name`, `func name(`
    re.compile(
        r"^(?:(?:public|private|internal|override|suspend|inline|open)\s+)*fun\s+"
        r"(?:<[^>\n]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)\s*\(",
        re.M,
    ),
    re.compile(r"^(?:(?:public|private|static|async)\s+)*def\s+([A-Za-z_]\w*)", re.M),
    # Shell: `name() {` and `function name` (a bare `name()` line is more often a call)
    re.compile(r"^(?:function\s+)?([A-Za-z_][\w-]*)[ \t]*\(\)[ \t]*\{", re.M),
    re.compile(r"^function[ \t]+([A-Za-z_][\w-]*)", re.M),
    # Ruby / Elixir modules
    re.compile(r"^(?:module|defmodule)\s+([A-Z][\w.:]*)", re.M),
    # C / C++ function definitions: `type name(args) {` on one line, at column 0
    re.compile(
        r"^(?!(?:if|for|while|switch|return|else|do|try|catch)\b)[A-Za-z_][\w:<>*& \t]*?\b([A-Za-z_]\w*)[ \t]*"
        r"\([^;\n]*\)[ \t]*(?:const[ \t]*)?\{", re.M),
]


# Words a generic pattern can capture that are never a defined name.
_NOT_NAMES = frozenset({
    "if", "for", "while", "switch", "return", "else", "do", "try", "catch", "new", "func",
    "function", "fn", "def", "sizeof", "typeof", "await", "async", "yield", "delete", "throw",
})


def _parse_python(code: str) -> ast.Module | None:
    if len(code) > _AST_LIMIT:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning on odd escapes in doc snippets
            return ast.parse(code)
    except (SyntaxError, RecursionError, MemoryError, ValueError):  # ValueError: NUL bytes (3.11)
        return None


def _python_names(code: str, definitions: bool) -> list[str] | None:
    """Names via `ast`; None when the code does not parse. Symbols (definitions=False): the
    top-level functions, classes, assignment targets and type aliases. Definitions: functions,
    classes and type aliases, methods included, never variables."""
    tree = _parse_python(code)
    if tree is None:
        return None
    names: list[str] = []

    def add_target(target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                add_target(element)
        elif isinstance(target, ast.Starred):
            add_target(target.value)

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.append(node.name)
            elif isinstance(node, ast.ClassDef):
                names.append(node.name)
                if definitions:
                    visit(node.body)  # methods
            elif not definitions and isinstance(node, ast.Assign):
                for target in node.targets:
                    add_target(target)
            elif not definitions and isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                add_target(node.target)
            elif hasattr(ast, "TypeAlias") and isinstance(node, ast.TypeAlias):  # 3.12+
                add_target(node.name)
            elif isinstance(node, ast.If):
                visit(node.body)  # `if TYPE_CHECKING:` / version checks stay module level
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, ast.With):
                visit(node.body)

    visit(tree.body)
    return names


_PROMPT_RE = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")


def _strip_prompts(code: str) -> str:
    """`>>> x = 1` sessions (pycon): keep the input lines, drop the printed output."""
    lines = code.split("\n")
    if not any(line.startswith(">>>") for line in lines[:50]):
        return code
    return "\n".join(line[4:] for line in lines if _PROMPT_RE.match(line))


def _regex_symbols(patterns: list[re.Pattern[str]], code: str) -> list[str]:
    found: list[tuple[int, str]] = []
    for pattern in patterns:
        for m in pattern.finditer(code):
            found.append((m.start(1), m.group(1)))
    found.sort(key=lambda item: item[0])
    return [name for _, name in found]


def _dedupe(names: list[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        if name and name not in seen:
            seen.add(name)
            out.append(name)
    return out


def _normalise_language(language: str | None) -> str:
    if not language:
        return ""
    return language.strip().lower().lstrip(".")


def _names(language: str | None, code: str, definitions: bool) -> list[str]:
    if not code or not code.strip():
        return []
    code = code[:_SCAN_LIMIT].replace("\r\n", "\n").replace("\r", "\n")
    lang = _normalise_language(language)
    if lang in _PYTHON:
        source = textwrap.dedent(_strip_prompts(code))
        names = _python_names(source, definitions)
        if names is None:
            names = _regex_symbols(_PY_FALLBACK_DEFINITIONS if definitions else _PY_FALLBACK, source)
        return _dedupe(names)
    source = textwrap.dedent(code)
    if lang in _JS:
        return _dedupe(_regex_symbols(_JS_DECLARATIONS if definitions else _JS_DECLARATIONS + _JS_BINDINGS, source))
    # Every generic pattern is keyword-led: a declaration, never a binding.
    return _dedupe([n for n in _regex_symbols(_GENERIC, source) if n not in _NOT_NAMES])


def extract_symbols(language: str | None, code: str) -> list[str]:
    """Names defined at the top level of `code`, in order of first appearance, no duplicates.
    Never raises (module docstring)."""
    return _names(language, code, definitions=False)


def extract_definitions(language: str | None, code: str) -> list[str]:
    """The functions, classes and types `code` declares (Python: top level and class bodies;
    other languages: top level), in order of first appearance, no duplicates. Never raises."""
    return _names(language, code, definitions=True)
