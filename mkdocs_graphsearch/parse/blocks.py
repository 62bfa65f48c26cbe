"""Un-indent the bodies of MkDocs block extensions before markdown-it sees the page.

Why: admonitions (`!!! note`, `??? note`) and content tabs (`=== "Tab"`) indent their bodies by
4 spaces. CommonMark reads that as an indented code block, which would hide headings, fences
and links inside. Removing the indentation (line count unchanged, so line numbers stay true)
lets the body parse as the built site renders it; the block's title stays as a line of text.
"""

from __future__ import annotations

import re

__all__ = ["flatten_blocks"]

# Python-Markdown admonition / pymdownx.details: `!!! type "Title"`, `???+ type`.
_ADMONITION_RE = re.compile(r"^(?:!!!|\?\?\?\+?)[ \t]*([\w-]+(?:[ \t]+[\w-]+)*)(?:[ \t]+\"(.*)\")?[ \t]*$")
# pymdownx.tabbed: `=== "Tab"`, `===! "Tab"`, `===+ "Tab"`.
_TAB_RE = re.compile(r"^===[!+]{0,2}[ \t]+\"(.*)\"[ \t]*$")
# pymdownx.blocks: `/// type | title`, closed by a bare `///`.
_SLASH_BLOCK_RE = re.compile(r"^/{3,}[ \t]*([\w-]+)?[ \t]*(?:\|[ \t]*(.*?))?[ \t]*$")
_UNTITLED_BLOCKS = frozenset({"admonition", "details", "tab", "html", "define", "caption", "figure-caption"})
_BLOCK_STARTERS = frozenset("#>-+*=|`~")
_FENCE_OPEN_RE = re.compile(r"^(`{3,}|~{3,})(.*)$")


def _indent_width(line: str) -> int:
    """Columns of leading whitespace (tabs to the next multiple of 4, as Markdown does)."""
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 4 - width % 4
        else:
            break
    return width


def _remove_columns(line: str, columns: int) -> str:
    """Drop `columns` columns of leading whitespace, expanding tabs only where needed."""
    if columns <= 0:
        return line
    width = 0
    index = 0
    while index < len(line) and width < columns and line[index] in " \t":
        width += 1 if line[index] == " " else 4 - width % 4
        index += 1
    return " " * max(0, width - columns) + line[index:]


def _blocks_title(stripped: str) -> str | None:
    """pymdownx.blocks fences (`/// tip | Title` ... `///`): their visible text, else None.

    These bodies are not indented, so only the marker lines need replacing.
    """
    m = _SLASH_BLOCK_RE.match(stripped)
    if m is None:
        return None
    kind, title = (m.group(1) or "").lower(), (m.group(2) or "").strip()
    if title:
        return "" if kind == "html" else title
    return "" if not kind or kind in _UNTITLED_BLOCKS else kind.capitalize()


def _block_title(stripped: str) -> str | None:
    """The visible title of a block marker line, or None if the line is not a marker."""
    if stripped.startswith("///"):
        return _blocks_title(stripped)
    if stripped.startswith(("!!!", "???")):
        m = _ADMONITION_RE.match(stripped)
        if m is None:
            return None
        if m.group(2) is not None:
            return m.group(2)  # explicit title ("" means no title bar)
        return m.group(1).split()[0].capitalize()  # Python-Markdown shows the type: "Note"
    if stripped.startswith("==="):
        m = _TAB_RE.match(stripped)
        return m.group(1) if m else None
    return None


def flatten_blocks(lines: list[str], start: int = 0) -> list[str]:
    """Return `lines` (same length) with admonition and tab bodies un-indented from `start` on.

    A block's body is every following line that is blank or indented at least 4 columns past
    the marker; nested blocks nest. Inside fenced code nothing is taken for a marker.
    """
    out = list(lines)
    # Each open block: the original column its body starts at.
    stack: list[int] = []
    fence: tuple[str, int, int] | None = None  # (char, length, stack depth when opened)
    for index in range(start, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        indent = _indent_width(line)
        while stack and indent < stack[-1]:
            stack.pop()
        if fence is not None and fence[2] > len(stack):
            fence = None  # the block holding the fence ended, so did the fence
        if not stack and fence is None and not line.lstrip().startswith(("!!!", "???", "===", "///", "`", "~")):
            continue  # the common case: nothing to do for this line
        flat = _remove_columns(line, 4 * len(stack))
        stripped = flat.lstrip(" \t")
        if fence is not None:
            if stripped.startswith(fence[0] * fence[1]) and not stripped.rstrip().strip(fence[0]):
                fence = None
            out[index] = flat
            continue
        m = _FENCE_OPEN_RE.match(stripped)
        if m is not None and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = (m.group(1)[0], len(m.group(1)), len(stack))
            out[index] = flat
            continue
        title = _block_title(stripped)
        if title is not None:
            if title[:1] in _BLOCK_STARTERS:
                title = "\\" + title  # a title is plain text, never a heading, quote or list
            out[index] = flat[: len(flat) - len(stripped)] + title
            if not stripped.startswith("///"):  # `///` blocks do not indent their bodies
                stack.append(indent + 4)
            continue
        out[index] = flat
    return out
