"""Search regression checks: queries and what must (or must not) come back for them.

A checks file is a YAML list, one check a mapping:

    - query: install the server
      section: getting-started/installation.md#setup   # or page: PATH, or absent: PATH[#ANCHOR]
      within: 1        # optional: the first N pages of results (default DEFAULT_WITHIN)
      mode: keyword    # optional: keyword | vector | hybrid (default: the site's mode)

`within` counts result pages, the groups a reader sees, as `limit` does: a page check passes when
the page ranks in the first `within`; a section check when its page does and lists that section
among its sections; an absent check when the page (or section) is not in the first `within`
pages (default: the site's `limit`, all a reader is shown). Checks run the reference engine on
the built bundle, which answers exactly as the browser does (same ids, same order).

`graphsearch check` and the plugin's `checks:` option both come here: a malformed file is one
ChecksFileError naming the file and line, a failed check one Outcome saying which rank the
expected result really got.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mkdocs_graphsearch.bundle.format import BundleError
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.bundle.settings import MODES
from mkdocs_graphsearch.common.inputs import InputError, read_input
from mkdocs_graphsearch.common.terminal import clean, plural
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.parse.frontmatter import MAX_VALUES, expanded_size

#: A page or section check passes when its page is among the first DEFAULT_WITHIN result pages.
DEFAULT_WITHIN = 3
#: How many result pages a failed check looks through for the rank its page really got.
REPORT_DEPTH = 50
EXPECTATIONS = ("page", "section", "absent")
KEYS = ("query", *EXPECTATIONS, "within", "mode")


class ChecksFileError(InputError):
    """A checks file that cannot be read or is not a list of valid checks (names file and line)."""


@dataclass(frozen=True)
class Check:
    """One check: `expect` is page, section or absent; `anchor` is "" for a whole page."""

    line: int
    query: str
    expect: str
    path: str
    anchor: str
    within: int | None  # None: an absent check over all the site shows (its `limit`)
    mode: str | None

    @property
    def target(self) -> str:
        return f"{self.path}#{self.anchor}" if self.anchor else self.path


@dataclass(frozen=True)
class Outcome:
    """A check's result: `rank` is the result page that holds the target (None: not there)."""

    check: Check
    passed: bool
    rank: int | None
    within: int
    mode: str
    note: str = ""

    def got(self) -> str:
        """What the search gave, for the failure table and the build warning."""
        if self.note:
            return self.note
        if self.rank is None:
            return f"not in the first {REPORT_DEPTH} pages"
        return f"page {self.rank}"


# ----------------------------------------------------------------------------- reading the file


def load_checks(path: Path) -> list[Check]:
    """The checks in a file, in order; ChecksFileError on anything malformed."""
    try:
        raw = read_input(path, "checks file")
    except InputError as error:
        raise ChecksFileError(str(error)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ChecksFileError(f"{path}:{line}: not valid UTF-8") from None
    root, data = _parse_yaml(path, text)
    if data is None:
        raise ChecksFileError(f"{path}:1: holds no checks (expected a YAML list of checks)")
    if not isinstance(root, yaml.SequenceNode) or not isinstance(data, list):
        raise ChecksFileError(f"{path}:{_line(root)}: expected a YAML list of checks, one `- query: ...` each")
    if expanded_size(data) > MAX_VALUES:
        raise ChecksFileError(f"{path}:1: holds more than {MAX_VALUES} values once YAML aliases are expanded")
    if not data:
        raise ChecksFileError(f"{path}:{_line(root)}: holds no checks")
    return [_check(path, node, item) for node, item in zip(root.value, data, strict=True)]


def _parse_yaml(path: Path, text: str) -> tuple[yaml.Node | None, Any]:
    """The document's node tree (for line numbers) and its value, by PyYAML's safe loader."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        problem = getattr(error, "problem", None) or "invalid YAML"
        raise ChecksFileError(f"{path}:{mark.line + 1 if mark else 1}: not valid YAML ({problem})") from None
    except Exception as error:  # noqa: BLE001 - e.g. RecursionError on absurd nesting
        raise ChecksFileError(f"{path}:1: unreadable YAML ({type(error).__name__})") from None
    finally:
        loader.dispose()


def _line(node: yaml.Node | None) -> int:
    return node.start_mark.line + 1 if node is not None else 1


def _check(path: Path, node: yaml.Node, item: Any) -> Check:
    line = _line(node)

    def fail(message: str, at: int = line) -> ChecksFileError:
        return ChecksFileError(f"{path}:{at}: {message}")

    if not isinstance(item, dict) or not isinstance(node, yaml.MappingNode):
        raise fail("a check is a mapping like `- query: install` then `page: getting-started/installation.md`")
    key_lines = {key.value: _line(key) for key, _ in node.value if isinstance(key, yaml.ScalarNode)}
    for key in item:
        if key not in KEYS:
            raise fail(f"unknown key {clean(str(key))!r} (a check has {', '.join(KEYS)})", key_lines.get(key, line))
    query = item.get("query")
    if not isinstance(query, str) or not query.strip():
        raise fail("`query` must be a non-empty string", key_lines.get("query", line))
    given = [key for key in EXPECTATIONS if key in item]
    if len(given) != 1:
        raise fail("give exactly one of `page`, `section` or `absent`")
    expect = given[0]
    at = key_lines[expect]
    target = item[expect]
    if not isinstance(target, str) or not target.strip():
        raise fail(f"`{expect}` must be a docs path like guide/install.md", at)
    page, _, anchor = target.strip().partition("#")
    if not page or (expect == "page" and anchor) or (expect == "section" and not anchor):
        wanted = {"page": "PATH.md (a section is `section: PATH.md#anchor`)", "section": "PATH.md#anchor"}
        raise fail(f"`{expect}` must be {wanted.get(expect, 'PATH.md or PATH.md#anchor')}", at)
    within = item.get("within")
    if within is not None and (isinstance(within, bool) or not isinstance(within, int) or within < 1):
        raise fail("`within` must be a whole number of result pages, 1 or more", key_lines.get("within", line))
    if within is None and expect != "absent":
        within = DEFAULT_WITHIN
    mode = item.get("mode")
    if mode is not None and mode not in MODES:
        raise fail(f"`mode` must be one of {', '.join(MODES)}", key_lines.get("mode", line))
    return Check(line, query, expect, page, anchor, within, mode)


# ----------------------------------------------------------------------------- running them


def run_checks(bundle: Bundle, checks: list[Check]) -> list[Outcome]:
    """Each check's outcome, searching the bundle as the browser would."""
    pages = set(bundle.pages["path"])
    chunks = zip(bundle.chunks["page"], bundle.chunks["anchor"], strict=True)
    anchors = {(bundle.pages["path"][page], anchor) for page, anchor in chunks}
    outcomes = []
    for check in checks:
        within = check.within if check.within is not None else int(bundle.settings["default_limit"])
        output = search(bundle, check.query, mode=check.mode, limit=max(within, REPORT_DEPTH))
        mode = str(output["mode"])
        if check.path not in pages or (check.anchor and (check.path, check.anchor) not in anchors):
            what = "section" if check.anchor and check.path in pages else "page"
            outcomes.append(Outcome(check, False, None, within, mode, f"no such {what} in the site"))
            continue
        rank, note = _rank(output["results"], check.path, check.anchor)
        found = rank is not None and rank <= within
        passed = not found if check.expect == "absent" else found
        outcomes.append(Outcome(check, passed, rank, within, mode, note if not passed else ""))
    return outcomes


def _rank(results: list[dict[str, Any]], path: str, anchor: str) -> tuple[int | None, str]:
    """The result page holding path (and listing #anchor), 1-based; and why not, when it is not."""
    for rank, page in enumerate(results, 1):
        if page["page"] != path:
            continue
        if anchor and all(section["anchor"] != anchor for section in page["sections"]):
            return None, f"page {rank}, without #{anchor} among its sections"
        return rank, ""
    return None, ""


# ----------------------------------------------------------------------------- reporting


def describe(outcome: Outcome) -> str:
    """One line for a failed check: what was asked, expected and got."""
    check = outcome.check
    target = clean(check.target)  # the file's text, as the query: no escape reaches the terminal
    if check.expect == "absent":
        expected = f"{target} absent from the first {outcome.within} pages"
    else:
        expected = f"{check.expect} {target} within {outcome.within}"
    return f'"{clean(check.query)}" ({outcome.mode}): expected {expected}, got {clean(outcome.got())}'


def format_report(path: Path, outcomes: list[Outcome]) -> str:
    """A table of the failed checks (file line, query, expectation, rank got) and a summary."""
    failed = [outcome for outcome in outcomes if not outcome.passed]
    if not failed:
        return f"{path}: all {plural(len(outcomes), 'check')} passed"
    rows: list[tuple[str, ...]] = [("line", "query", "mode", "expected", "within", "got")]
    for outcome in failed:
        check = outcome.check
        row = (check.line, clean(check.query), outcome.mode, f"{check.expect} {clean(check.target)}", outcome.within)
        rows.append((*map(str, row), clean(outcome.got())))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.insert(1, "-" * max(len(line) for line in lines))
    return "\n".join([*lines, "", f"{path}: {len(failed)} of {plural(len(outcomes), 'check')} failed"])


def check_site(
    bundle_dir: Path, checks_file: Path, warn: Callable[[str], None], info: Callable[[str], None]
) -> None:
    """The plugin's end-of-build run: each failure (or a malformed file) is one warning naming
    the file and line, so `mkdocs build --strict` fails on it."""
    try:
        checks = load_checks(checks_file)
        outcomes = run_checks(load_bundle(bundle_dir), checks)
    except (ChecksFileError, BundleError) as error:
        warn(f"search checks not run: {error}")
        return
    failed = [outcome for outcome in outcomes if not outcome.passed]
    for outcome in failed:
        warn(f"{checks_file}:{outcome.check.line}: search check failed: {describe(outcome)}")
    info(f"search checks: {len(outcomes) - len(failed)} of {plural(len(outcomes), 'check')} passed ({checks_file})")
