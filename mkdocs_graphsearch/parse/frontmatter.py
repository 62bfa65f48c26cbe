"""YAML front matter: the `---` block at the top of a page (title, tags, search options).

Why its own module: MkDocs strips this block before rendering, so it is never page text, unless
it is not valid YAML mapping, in which case MkDocs renders it and so must we (nothing lost).
"""

from __future__ import annotations

import math
import re
import reprlib
from dataclasses import dataclass, field
from typing import Any

import yaml

from mkdocs_graphsearch.files.bounded import MAX_FRONT_MATTER, size_text

from .model import clip

__all__ = ["MAX_VALUES", "FrontMatter", "expanded_size", "parse_front_matter"]

_OPEN_RE = re.compile(r"^-{3}[ \t]*$")  # as MkDocs' YAML_RE: `---` then only blanks
_CLOSE_RE = re.compile(r"^(?:-{3}|\.{3})[ \t]*$")


@dataclass
class FrontMatter:
    """What the front matter says; `line_count` is how many lines it covers (0: none)."""

    line_count: int = 0
    title: str | None = None
    tags: list[str] = field(default_factory=list)
    boost: float = 1.0
    exclude: bool = False
    warnings: list[tuple[int, str]] = field(default_factory=list)  # (1-based line, message)


def _key_line(block: list[str], key: str, after: int = 0) -> int:
    """1-based page line of `key:` in the front matter block (best effort, for warnings)."""
    pattern = re.compile(r"^\s*['\"]?" + re.escape(key) + r"['\"]?\s*:")
    for index in range(after, len(block)):
        if pattern.match(block[index]):
            return index + 2  # block starts on page line 2
    return 1


#: Most values (scalars, lists, mappings) the front matter may hold once YAML aliases are expanded.
#: Real front matter holds tens; a ~700-byte alias bomb holds billions, shared by reference, and
#: anything that walks it (a warning's repr, the plugin's consumers) would run for minutes.
MAX_VALUES = 10_000

# A warning names a bad value by a bounded repr: never the whole of a nested structure.
_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxstring, _REPR.maxother = 2, 4, 4, 80, 80


def expanded_size(data: Any) -> int:
    """How many values `data` holds with aliases expanded, capped at MAX_VALUES + 1.

    Linear in the distinct nodes (each shared node is sized once); a cycle (`&a [*a]`) counts
    as too many. Iterative: deep nesting must not overflow the stack.
    """
    sizes: dict[int, int] = {}
    entered: set[int] = set()
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        node, done = stack.pop()
        children = list(node.keys()) + list(node.values()) if isinstance(node, dict) else node
        if done:
            total = 1 + sum(sizes.get(id(child), 1) for child in children)
            sizes[id(node)] = min(total, MAX_VALUES + 1)
        elif id(node) not in sizes:
            if id(node) in entered:
                return MAX_VALUES + 1  # reached again before it was sized: it contains itself
            entered.add(id(node))
            stack.append((node, True))
            stack.extend((child, False) for child in children if isinstance(child, (list, dict)))
    return sizes.get(id(data), 1)


def _load(yaml_text: str) -> Any:
    # CSafeLoader when available: same results as safe_load, much faster on big blocks.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(yaml_text, Loader=loader)  # noqa: S506 - a safe loader


def parse_front_matter(lines: list[str]) -> FrontMatter:
    """Read the front matter from a page's lines; never raises.

    Broken YAML, or YAML that is not a mapping, is page text (as MkDocs renders it) and gets a
    warning; a field of the wrong type is ignored with a warning naming its line.
    """
    if not lines or not _OPEN_RE.match(lines[0]):
        return FrontMatter()
    close = next((i for i in range(1, len(lines)) if _CLOSE_RE.match(lines[i])), None)
    if close is None:
        return FrontMatter()  # no closing line: MkDocs sees no front matter either
    block = lines[1:close]
    size = sum(len(line.encode("utf-8", "surrogatepass")) + 1 for line in block)
    if size > MAX_FRONT_MATTER:  # YAML of this size is no page's metadata: not parsed at all
        message = f"front matter is {size_text(size)}, more than the {size_text(MAX_FRONT_MATTER)} read; ignored"
        return FrontMatter(line_count=close + 1, warnings=[(1, message)])
    try:
        data = _load("\n".join(block) + "\n")
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        # The mark is where YAML noticed the problem, at worst the end: keep it inside the block.
        line = min(mark.line + 2, close) if mark is not None else 1
        problem = getattr(exc, "problem", None) or "invalid YAML"
        return FrontMatter(
            warnings=[(line, f"front matter is not valid YAML ({problem}); kept as page text")]
        )
    except Exception as exc:  # noqa: BLE001 - e.g. RecursionError on absurd nesting
        return FrontMatter(warnings=[(1, f"front matter unreadable ({type(exc).__name__}); kept as page text")])
    if data is None:
        return FrontMatter()  # `---\n\n---`: MkDocs leaves it in the page (two rules)
    if not isinstance(data, dict):
        return FrontMatter(warnings=[(1, "front matter is not a YAML mapping; kept as page text")])

    if expanded_size(data) > MAX_VALUES:
        # Still a mapping, so MkDocs strips it from the page: not page text, but none of it is read.
        message = f"front matter holds more than {MAX_VALUES} values once YAML aliases are expanded; ignored"
        return FrontMatter(line_count=close + 1, warnings=[(1, message)])
    result = FrontMatter(line_count=close + 1)
    _read_title(data, block, result)
    _read_tags(data, block, result)
    _read_search(data, block, result)
    return result


def _read_title(data: dict[Any, Any], block: list[str], result: FrontMatter) -> None:
    if "title" not in data or data["title"] is None:
        return
    title = data["title"]
    if isinstance(title, bool) or not isinstance(title, (str, int, float)):
        result.warnings.append((_key_line(block, "title"), "front matter `title` is not a string; ignored"))
        return
    text = " ".join(str(title).split())
    if text:
        result.title = text


def _read_tags(data: dict[Any, Any], block: list[str], result: FrontMatter) -> None:
    tags = data.get("tags")
    if tags is None:
        return
    if isinstance(tags, str):
        tags = [tags]  # a single tag written as a scalar: accept it
    if not isinstance(tags, list):
        result.warnings.append((_key_line(block, "tags"), "front matter `tags` is not a list; ignored"))
        return
    seen: set[str] = set()
    for tag in tags:
        if isinstance(tag, bool) or not isinstance(tag, (str, int, float)):
            message = f"front matter tag {clip(_REPR.repr(tag))} is not a string; ignored"
            result.warnings.append((_key_line(block, "tags"), message))
            continue
        text = " ".join(str(tag).split())
        if text and text not in seen:
            seen.add(text)
            result.tags.append(text)


def _read_search(data: dict[Any, Any], block: list[str], result: FrontMatter) -> None:
    search = data.get("search")
    if search is None:
        return
    search_line = _key_line(block, "search")
    if not isinstance(search, dict):
        result.warnings.append((search_line, "front matter `search` is not a mapping; ignored"))
        return
    after = max(0, search_line - 2)
    if "exclude" in search and search["exclude"] is not None:
        if isinstance(search["exclude"], bool):
            result.exclude = search["exclude"]
        else:
            result.warnings.append(
                (_key_line(block, "exclude", after), "front matter `search.exclude` is not true/false; ignored")
            )
    if "boost" in search and search["boost"] is not None:
        boost = search["boost"]
        try:
            valid = not isinstance(boost, bool) and isinstance(boost, (int, float))
            valid = valid and math.isfinite(float(boost)) and boost >= 0
        except OverflowError:  # an integer too big for a float
            valid = False
        if not valid:
            result.warnings.append(
                (_key_line(block, "boost", after), "front matter `search.boost` is not a number >= 0; ignored")
            )
        else:
            result.boost = float(boost)
