"""The shipped runtime without comments (mkdocs_graphsearch/strip_js.py): the lexer's cases, and
every runtime module stripped still parses and answers as js/src does."""

from __future__ import annotations

import subprocess

import pytest

from mkdocs_graphsearch.site_output.assets import runtime_path, runtime_sources, shipped
from mkdocs_graphsearch.site_output.strip_js import JsSyntaxError, strip_css, strip_js
from runtime_checks import NODE, assert_answers_as_the_source, assert_modules_parse

#: template text (with `//` and `/*` in it) and substitutions holding braces and templates
TEMPLATE = "const t = `a ${ {b: 1}.b } // c\n   /* d */ ${`in ${x}`}`;\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("// @ts-check\nconst a = 1; // one\n", "const a=1;\n"),
        ("/** doc\n * more */\nexport function f() {\n    return 1;\n}\n", "export function f(){\nreturn 1;\n}\n"),
        ('const s = "// not a comment /* nor this */";\n', 'const s="// not a comment /* nor this */";\n'),
        ("const s = 'it\\'s // here';\n", "const s='it\\'s // here';\n"),
        ("const r = /\\/\\/[/*]+/g; // tail\n", "const r=/\\/\\/[/*]+/g;\n"),
        ("x = a / b / c; // divide\n", "x=a/b/c;\n"),
        ("x = (a) / 2 /* half */ + f(b)[0] / 3;\n", "x=(a)/2+f(b)[0]/3;\n"),
        ("if (x) return /a\\/b/.test(y);\n", "if(x)return/a\\/b/.test(y);\n"),
        (TEMPLATE, "const t=`a ${{b:1}.b} // c\n   /* d */ ${`in ${x}`}`;\n"),
        ("a = b /* line\n break */\nc()\n", "a=b\nc()\n"),
        ("a = b /* no break */ + c\n", "a=b+c\n"),
        ("a = b/* c */c\n", "a=b c\n"),
        ("\n\n  f();\n\n\n  g();  \n", "f();\ng();\n"),
        ("n = 1.5e-3 / 2; m = 0x1f / 2;\n", "n=1.5e-3/2;m=0x1f/2;\n"),
        # after a postfix `++` or `--` a `/` divides (it was taken for a regular expression)
        ("x = a++ / b; // d\n", "x=a++/b;\n"),
        ("y = c-- / 2 / d;\n", "y=c--/2/d;\n"),
        ("z = a + /re/.source + b++ + --c;\n", "z=a+/re/.source+b++ +--c;\n"),
        # a blank stays where its two sides would join into another token, or a word would
        # become a regular expression's flags
        ("x = a + +b - -c + ++d - --e;\n", "x=a+ +b- -c+ ++d- --e;\n"),
        ("x = a / /re/.source;\n", "x=a/ /re/.source;\n"),
        ("x = /re/g instanceof RegExp || /a/ in o;\n", "x=/re/g instanceof RegExp||/a/ in o;\n"),
        ("x = 1 .toString() + 2.5 .toFixed(1);\n", "x=1 .toString()+2.5 .toFixed(1);\n"),
        ("x = a < !--b; y = c-- > d;\n", "x=a< !--b;y=c-- >d;\n"),
        ('async (x) => { return "s" in x; };\n', 'async(x)=>{return"s"in x;};\n'),
    ],
)
def test_strip_js_cases(source, expected):
    assert strip_js(source) == expected
    assert strip_js(expected) == expected


@pytest.mark.parametrize("source", ["const s = 'open;\n", "/* open", "x = `open ${a}", "x = /open\n"])
def test_strip_js_refuses_what_does_not_end(source):
    with pytest.raises(JsSyntaxError):
        strip_js(source)


def test_strip_css():
    assert strip_css("/* head */\n.a {\n  color: red; /* why */\n}\n\n") == ".a {\ncolor: red;\n}\n"


def test_every_runtime_file_shrinks_and_strips_once():
    for source in runtime_sources():
        text = source.read_text(encoding="utf-8")
        stripped = shipped(source)
        assert len(stripped) < len(text), source.name
        again = strip_js(stripped) if source.suffix == ".js" else strip_css(stripped)
        assert again == stripped, source.name


@pytest.fixture(scope="module")
def stripped_src(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shipped") / "src"
    folder.mkdir()
    for source in runtime_sources():
        (folder / runtime_path(source)).parent.mkdir(parents=True, exist_ok=True)
        (folder / runtime_path(source)).write_text(shipped(source), encoding="utf-8")
    (folder / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    return folder


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_stripped_modules_parse(stripped_src):
    assert_modules_parse(stripped_src)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_stripped_runtime_answers_as_the_source(stripped_src, mode):
    assert_answers_as_the_source(stripped_src, mode)


_FUZZ_ATOMS = ["a", "b", "c", "1", "2.5", "0x1f", "(a)", "f(b)", "arr[0]", "/x+/g.source.length", "'s/t'", '"//"',
               "`t${a}/`", "a++", "b--", "++c", "--a"]
_FUZZ_OPS = [" / ", "/", " + ", " - ", "+", "-", " * ", " % ", " /* c */ ", " // c\n + "]
_FUZZ_PRELUDE = "let a = 7, b = 3, c = 5; const arr = [4]; const f = (x) => x;\n"
_FUZZ_CHECK = """
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const run = (s) => { try { return [true, new Function(s)()]; } catch (e) { return [false, e.name]; } };
let valid = 0; const differing = [];
for (const [source, stripped] of cases) {
  const a = run(source);
  if (!a[0] && a[1] === "SyntaxError") continue;  // not JavaScript: nothing to compare
  valid++;
  const b = stripped === null ? [false, "refused"] : run(stripped);
  if (a[0] !== b[0] || a[1] !== b[1]) differing.push(source);
}
console.log(JSON.stringify({ valid, differing: differing.slice(0, 5) }));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_fuzzed_expressions_run_alike_under_node(tmp_path):
    """Random expressions mixing division, regular expressions, ++/--, strings, templates and
    comments: every one node accepts runs to the same value stripped (seeded: the same cases)."""
    import json
    import random

    rng = random.Random(25)
    cases = []
    for _ in range(1500):
        parts = [rng.choice(_FUZZ_ATOMS)]
        for _ in range(rng.randint(1, 5)):
            parts += [rng.choice(_FUZZ_OPS), rng.choice(_FUZZ_ATOMS)]
        source = _FUZZ_PRELUDE + "return String(" + "".join(parts) + ");\n"
        try:
            stripped: str | None = strip_js(source)
        except JsSyntaxError:
            stripped = None
        cases.append((source, stripped))
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    (tmp_path / "check.mjs").write_text(_FUZZ_CHECK, encoding="utf-8")
    run = subprocess.run([NODE, str(tmp_path / "check.mjs"), str(tmp_path / "cases.json")],
                         capture_output=True, text=True, check=True)
    result = json.loads(run.stdout)
    assert result["valid"] > 500 and result["differing"] == [], result
