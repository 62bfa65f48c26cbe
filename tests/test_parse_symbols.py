"""Top-level names defined by code blocks, per language, never raising."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_graphsearch.parse import extract_symbols
from mkdocs_graphsearch.parse.symbols import extract_definitions

PY = '''
import os
from x import y

CONSTANT = 1
a, (b, c) = 1, (2, 3)
typed: int = 3
counter += 1

def function(): pass

async def coroutine():
    inner = 1
    def nested(): pass

class Klass(Base):
    attr = 1
    def method(self): pass

if TYPE_CHECKING:
    Alias = int
try:
    import fast
except ImportError:
    fallback = None

CONSTANT = 2
obj.attr = 5
items[0] = 1
'''


def test_python_top_level_names_in_order_without_duplicates() -> None:
    assert extract_symbols("python", PY) == [
        "CONSTANT", "a", "b", "c", "typed", "counter", "function", "coroutine", "Klass", "Alias", "fallback",
    ]


def test_python_aliases_and_indented_snippets() -> None:
    snippet = "    def indented():\n        pass\n    VALUE = 2\n"
    assert extract_symbols("py", snippet) == ["indented", "VALUE"]
    assert extract_symbols("Python3", "class A: pass") == ["A"]


def test_python_syntax_error_falls_back_to_regex() -> None:
    broken = "def ok(x):\n    return x\n\nclass Partial(\n...\nBROKEN = {\nasync def later(): ...\nx == 1\n"
    assert extract_symbols("python", broken) == ["ok", "Partial", "BROKEN", "later"]


def test_python_console_sessions_use_the_input_lines() -> None:
    session = ">>> def greet(name):\n...     return name\n...\n>>> greet('x')\n'x'\n>>> answer = 42\n"
    assert extract_symbols("pycon", session) == ["greet", "answer"]


def test_python_ellipsis_placeholders_are_not_prompts() -> None:
    assert extract_symbols("python", "def f():\n    ...\n...\nX = 1\n") == ["f", "X"]


JS = '''
import x from "y";
function plain(a) {}
async function fetchIt() {}
function* gen() {}
export function exported() {}
export default function main() {}
export default class App {}
class Widget extends Base {
  method() {}
  static helper() {}
}
const answer = 42;
let counter = 0, other = 1;
var legacy = "x";
export const config = {};
const {a, b} = require("x");
const [first, second] = list;
let arrow = () => 1;
const typed: Map<string, number> = new Map();
interface Options { a: string }
export interface Props {}
type Mode = "a" | "b";
type Generic<T> = T[];
export type { Thing } from "./x";
enum Color { Red }
const enum Flag { A }
export declare const declared: number;
if (answer == 42) {}
  const indented = 1;
'''


def test_js_ts_declarations() -> None:
    assert extract_symbols("ts", JS) == [
        "plain", "fetchIt", "gen", "exported", "main", "App", "Widget", "answer", "counter", "legacy",
        "config", "arrow", "typed", "Options", "Props", "Mode", "Generic", "Color", "Flag", "declared",
    ]


def test_js_destructuring_is_not_a_symbol() -> None:
    assert extract_symbols("javascript", "const {a, b} = obj;\nlet [c] = arr;\nvar { d } = e;") == []


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [
        ("go", "package main\n\ntype Server struct{}\n\nfunc (s *Server) Serve() {}\nfunc main() {\n}\n",
         ["Server", "Serve", "main"]),
        ("rust", "pub struct Point { x: i32 }\nenum Shape {}\ntrait Draw {}\nimpl Draw for Point {\n"
         "    fn draw(&self) {}\n}\npub async fn run() {}\nmacro_rules! m {}\n",
         ["Point", "Shape", "Draw", "run", "m"]),
        ("java", "public final class Main {\n    public static void main(String[] args) {}\n}\n"
         "interface Api {}\nrecord Pair(int a) {}\n",
         ["Main", "Api", "Pair"]),
        ("csharp", "public sealed partial class Service {}\ninternal struct Vec {}\n", ["Service", "Vec"]),
        ("kotlin", "data class User(val name: String)\nfun greet(user: User) {}\nobject Registry {}\n",
         ["User", "greet", "Registry"]),
        ("bash", "deploy() {\n  echo hi\n}\nfunction cleanup {\n  rm -rf x\n}\nmain()\n", ["deploy", "cleanup"]),
        ("c", "static int add(int a, int b) {\n  return a + b;\n}\nif (x) {\n}\n", ["add"]),
        ("ruby", "module Billing\n  def charge; end\nend\nclass Invoice\nend\n", ["Billing", "Invoice"]),
        ("yaml", "site_name: My Docs\nnav:\n  - Home: index.md\n", []),
        (None, "$ pip install mkdocs\nSuccessfully installed\n", []),
        ("text", "", []),
        ("python", "   \n\n", []),
    ],
)
def test_other_languages(language: str | None, code: str, expected: list[str]) -> None:
    assert extract_symbols(language, code) == expected


def test_huge_and_deeply_nested_code_does_not_raise() -> None:
    assert extract_symbols("python", "(" * 5000) == []
    assert extract_symbols("python", "x = " + "[" * 300 + "]" * 300) == ["x"]
    big = "def f():\n    pass\n" * 20000  # past the ast limit: regexes still find the name
    assert extract_symbols("python", big) == ["f"]


def test_the_deepest_code_the_parser_accepts_does_not_raise() -> None:
    """No handler catches what the tree walks raise: their depth is bounded by the parser's."""
    ifs = "".join("    " * depth + "if x:\n" for depth in range(98)) + "    " * 98 + "class Deep:\n"
    ifs += "    " * 99 + "def m(self): pass\n"
    assert extract_symbols("python", ifs) == ["Deep"]
    assert extract_definitions("python", ifs) == ["Deep", "m"]
    classes = "".join("    " * depth + f"class C{depth}:\n" for depth in range(99)) + "    " * 99 + "pass\n"
    assert len(extract_definitions("python", classes)) == 99
    target = "(" * 199 + "a," + ")" * 199 + " = b\n"
    assert extract_symbols("python", target) == ["a"]
    for code in (ifs, classes, target):
        ast.parse(code)  # read by the tree walks, not by the regex fallback


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["python", "js", "ts", "go", "rust", "bash", None, "weird"]), st.text(max_size=300))
def test_never_raises_and_is_deterministic(language: str | None, code: str) -> None:
    for extract in (extract_symbols, extract_definitions):
        first = extract(language, code)
        assert first == extract(language, code)
        assert len(first) == len(set(first))
        assert all(isinstance(name, str) and name for name in first)
