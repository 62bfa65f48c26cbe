"""The runtime as shipped: its ES modules and CSS without comments and indentation.

Most of the runtime's gzip bytes are comments (the specifications live beside the code),
and every reader's first query downloads the modules it needs (issue 10: bytes before the first
result). The site gets a copy with them removed; js/src keeps them. No minifier (no new build
dependency): a small lexer that knows just enough of JavaScript to find comments, which is to
tell them from strings, template literals and regular expression literals. It never renames or
reorders anything, so a stripped module runs the same code:

- `// ...` is dropped up to the line's end; `/* ... */` becomes a line break if it held one
  (automatic semicolon insertion sees a line break there), else a space;
- outside strings and template literals, a line break swallows the blanks and line breaks after
  it and the blanks before it (indentation, blank lines, trailing spaces);
- strings, template literal text and regular expressions are copied byte for byte.

`/` starts a regular expression where an expression may start: at the start, after a
punctuator other than `)`, `]`, `}`, `++` and `--`, or after a keyword such as `return`; else it
divides.
(`}` then `/` would be a regular expression at the start of a statement: the runtime has none,
and tests/test_strip_js.py checks that every stripped module parses and answers alike.)
"""

from __future__ import annotations

_REGEX_AFTER_WORDS = frozenset(
    {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield"}
    | {"await"}
)
_DIVIDE_AFTER = frozenset(")]}")
_BLANKS = " \t"
_SPACE = " \t\r\n"
#: Pairs of characters that would join into another token if the blank between them went.
_JOINING = frozenset({("+", "+"), ("-", "-"), ("/", "/"), ("/", "*"), ("<", "!"), ("-", ">")})


class JsSyntaxError(ValueError):
    """The lexer met a string, comment, template or regular expression that does not end."""


def strip_css(source: str) -> str:
    """CSS without `/* ... */` comments and indentation (the runtime's CSS has no strings holding
    `/*`; a comment is replaced by nothing, a line's blanks around line breaks by one break)."""
    out: list[str] = []
    i = 0
    while i < len(source):
        start = source.find("/*", i)
        if start < 0:
            out.append(source[i:])
            break
        end = source.find("*/", start + 2)
        if end < 0:
            raise JsSyntaxError("unterminated comment")
        out.append(source[i:start])
        i = end + 2
    lines = (line.strip() for line in "".join(out).splitlines())
    return "\n".join(line for line in lines if line) + "\n"


def strip_js(source: str) -> str:
    """The module without comments and indentation (see the module's docstring)."""
    out: list[str] = []
    n = len(source)
    i = 0
    last = ""  # the last significant token's kind: "" (start), "word:<w>", "num", "punct:<c>", "value"
    braces: list[int] = []  # open `{` count inside each `${` of an unfinished template literal
    blank = False  # blanks or a one-line comment since the last token: one blank, if needed

    def newline() -> None:
        while out and out[-1] and out[-1][-1] in _BLANKS:
            out[-1] = out[-1].rstrip(_BLANKS)
            if not out[-1]:
                out.pop()
        if out and not out[-1].endswith("\n"):
            out.append("\n")

    def template(start: int) -> int:
        """Copy template text from `start` (just after "`" or "}") to its end or its next `${`;
        returns the index after it, pushing a brace count for a `${`."""
        j = start
        while j < n:
            c = source[j]
            if c == "\\":
                j += 2
            elif c == "`":
                out.append(source[start : j + 1])
                return j + 1
            elif c == "$" and source.startswith("${", j):
                out.append(source[start : j + 2])
                braces.append(0)
                return j + 2
            else:
                j += 1
        raise JsSyntaxError("unterminated template literal")

    while i < n:
        c = source[i]
        if blank and c not in _SPACE and not source.startswith(("//", "/*"), i):
            blank = False
            if out and not out[-1].endswith("\n") and _blank_needed(out[-1][-1], c, last):
                out.append(" ")
        if c in _SPACE:
            j = i
            while j < n and source[j] in _SPACE:
                j += 1
            if "\n" in source[i:j]:
                newline()
                blank = False
            else:
                blank = True
            i = j
        elif source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            if j < 0:
                raise JsSyntaxError("unterminated comment")
            if "\n" in source[i:j]:
                newline()
                blank = False
            else:
                blank = True
            i = j + 2
        elif c in "'\"":
            j = i + 1
            while j < n and source[j] != c:
                if source[j] == "\n":
                    raise JsSyntaxError("unterminated string")
                j += 2 if source[j] == "\\" else 1
            if j >= n:
                raise JsSyntaxError("unterminated string")
            out.append(source[i : j + 1])
            i, last = j + 1, "value"
        elif c == "`":
            out.append("`")
            i, last = template(i + 1), "value"
        elif c == "/" and _regex_allowed(last):
            j, in_class = i + 1, False
            while j < n and (in_class or source[j] != "/"):
                if source[j] == "\n":
                    raise JsSyntaxError("unterminated regular expression")
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            j += 1
            while j < n and (source[j].isalnum() or source[j] in "_$"):
                j += 1  # flags
            out.append(source[i:j])
            i, last = j, "value"
        elif c.isalnum() or c in "_$" or ord(c) > 127:
            j = i
            while j < n and (source[j].isalnum() or source[j] in "_$" or ord(source[j]) > 127):
                j += 1
            if c.isdigit() and j < n and source[j] == ".":  # 1.5, 1e-3
                j += 1
                while j < n and (source[j].isalnum() or source[j] in "_"):
                    j += 1
            word = source[i:j]
            if c.isdigit() and word[-1] in "eE" and j < n and source[j] in "+-":
                j += 1
                while j < n and source[j].isalnum():
                    j += 1
                word = source[i:j]
            out.append(word)
            i, last = j, ("num" if c.isdigit() else f"word:{word}")
        elif c == "}" and braces and braces[-1] == 0:
            braces.pop()
            out.append("}")
            i, last = template(i + 1), "value"
        elif c in "+-" and source.startswith(c * 2, i):
            out.append(c * 2)  # `a++ / b` divides: no regular expression can follow `++` or `--`
            i, last = i + 2, "value"
        else:
            if braces and c == "{":
                braces[-1] += 1
            elif braces and c == "}":
                braces[-1] -= 1
            out.append(c)
            i, last = i + 1, f"punct:{c}"
    if braces:
        raise JsSyntaxError("unterminated template literal")
    text = "".join(out).lstrip("\n")
    return text if text.endswith("\n") else text + "\n"


def _blank_needed(before: str, after: str, last: str) -> bool:
    """Whether blanks (or a one-line comment) between the characters `before` and `after` must
    stay one blank: between two word characters (`return x`, and a regular expression's flags
    and `in`), after a regular expression before a word (it would take it as its flags), and
    where the two sides would join into another token (`+ +`, `- -`, `/ /`, `1 .x`, `< !--`,
    `-- >`). `last`: the kind of the token that ends with `before` (see strip_js)."""
    if _word_char(before) and _word_char(after):
        return True
    if before == "/" and last == "value" and _word_char(after):
        return True
    return (before, after) in _JOINING or (before.isdigit() and after == ".")


def _word_char(c: str) -> bool:
    return c.isalnum() or c in "_$\\" or ord(c) > 127


def _regex_allowed(last: str) -> bool:
    """Whether a `/` after the token `last` starts a regular expression (else it divides)."""
    if last in ("", "value", "num"):
        return last == ""
    kind, _, token = last.partition(":")
    if kind == "word":
        return token in _REGEX_AFTER_WORDS
    return token not in _DIVIDE_AFTER
