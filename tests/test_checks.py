"""Search regression checks (checks.py): the file format, the ranks they report, `graphsearch
check`, and the plugin's `checks:` option failing `mkdocs build --strict`."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.common.checks import DEFAULT_WITHIN, ChecksFileError, check_site, load_checks, run_checks
from mkdocs_graphsearch.engine.search import search


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    return load_bundle(build_bundle_dir(tmp_path_factory.mktemp("checks"), EXAMPLE_SITE / "docs", embeddings=False))


def _write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "checks.yml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_a_file_reads_into_checks_with_their_lines_and_defaults(tmp_path: Path) -> None:
    checks = load_checks(_write(tmp_path, (
        "# comment\n"
        "- query: install the server\n  section: getting-started/installation.md#setup\n  within: 1\n"
        "- query: jitter\n  page: user-guide/retries.md\n  mode: keyword\n"
        "- query: flamingo\n  absent: index.md\n"
    )))
    assert [(c.line, c.expect, c.target, c.within, c.mode) for c in checks] == [
        (2, "section", "getting-started/installation.md#setup", 1, None),
        (5, "page", "user-guide/retries.md", DEFAULT_WITHIN, "keyword"),
        (8, "absent", "index.md", None, None),
    ]


MALFORMED = {
    "unknown key": ("- query: x\n  page: a.md\n  whithin: 2\n", 3, "unknown key 'whithin'"),
    "not YAML": ("- query: x\n  page: [a\n", 3, "not valid YAML"),
    "not a list": ("query: x\npage: a.md\n", 1, "expected a YAML list"),
    "empty": ("", 1, "holds no checks"),
    "empty list": ("[]\n", 1, "holds no checks"),
    "item not a mapping": ("- query: x\n  page: a.md\n- just text\n", 3, "a check is a mapping"),
    "no query": ("- page: a.md\n", 1, "`query` must be a non-empty string"),
    "blank query": ("- query: '  '\n  page: a.md\n", 1, "`query` must be a non-empty string"),
    "two expectations": ("- query: x\n  page: a.md\n  absent: b.md\n", 1, "exactly one of"),
    "none expected": ("- query: x\n", 1, "exactly one of"),
    "page with anchor": ("- query: x\n\n  page: a.md#b\n", 3, "`page` must be PATH.md (a section"),
    "section without anchor": ("- query: x\n  section: a.md\n", 2, "`section` must be PATH.md#anchor"),
    "target not text": ("- query: x\n  page: [a.md]\n", 2, "`page` must be a docs path"),
    "within zero": ("- query: x\n  page: a.md\n  within: 0\n", 3, "`within` must be a whole number"),
    "within bool": ("- query: x\n  page: a.md\n  within: true\n", 3, "`within` must be a whole number"),
    "unknown mode": ("- query: x\n  page: a.md\n  mode: fast\n", 3, "`mode` must be one of"),
    "alias bomb": ("a: &a [*a]\n", 1, "expected a YAML list"),
    "self-referencing list": ("- &a [*a]\n", 1, "more than 10000 values"),
    "python tag": ("- !!python/object:os.system {}\n", 1, "not valid YAML"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_file_is_one_error_naming_file_and_line(tmp_path: Path, case: str) -> None:
    text, line, message = MALFORMED[case]
    path = _write(tmp_path, text)
    with pytest.raises(ChecksFileError) as error:
        load_checks(path)
    assert str(error.value).startswith(f"{path}:{line}: "), str(error.value)
    assert message in str(error.value)


def test_bad_bytes_and_a_missing_file_are_errors_too(tmp_path: Path) -> None:
    path = _write(tmp_path, b"- query: x\n  page: \xff.md\n")
    with pytest.raises(ChecksFileError, match=r"checks\.yml:2: not valid UTF-8"):
        load_checks(path)
    with pytest.raises(ChecksFileError, match="cannot read"):
        load_checks(tmp_path / "absent.yml")


def test_a_failed_check_reports_the_rank_its_page_really_got(bundle: Bundle, tmp_path: Path) -> None:
    results = search(bundle, "jitter")["results"]
    pages = [page["page"] for page in results]
    second = pages[1]  # the engine's own answer, so this test pins the report, not the ranking
    checks = load_checks(_write(tmp_path, (
        f"- query: jitter\n  page: {pages[0]}\n  within: 1\n"
        f"- query: jitter\n  page: {second}\n  within: 1\n"
        f"- query: jitter\n  absent: {second}\n  within: 1\n"
        f"- query: jitter\n  absent: {second}\n"
        "- query: jitter\n  page: nowhere.md\n"
        f"- query: jitter\n  section: {pages[0]}#no-such-anchor\n"
        f"- query: jitter\n  section: {second}#{results[1]['sections'][0]['anchor']}\n  within: 2\n"
    )))
    outcomes = run_checks(bundle, checks)
    assert [o.passed for o in outcomes] == [True, False, True, False, False, False, True]
    assert outcomes[1].rank == 2 and outcomes[1].got() == "page 2"
    assert outcomes[3].within == bundle.settings["default_limit"]  # absent: all a reader is shown
    assert outcomes[4].got() == "no such page in the site"
    assert outcomes[5].got() == "no such section in the site"
    assert {o.mode for o in outcomes} == {"keyword"}  # no vectors in this bundle


def test_a_section_its_page_does_not_list_is_said_so(bundle: Bundle, tmp_path: Path) -> None:
    top = search(bundle, "jitter")["results"][0]
    listed = {section["anchor"] for section in top["sections"]}
    index = bundle.pages["path"].index(top["page"])
    unlisted = next(
        anchor for page, anchor in zip(bundle.chunks["page"], bundle.chunks["anchor"], strict=True)
        if page == index and anchor and anchor not in listed
    )
    checks = load_checks(_write(tmp_path, f"- query: jitter\n  section: {top['page']}#{unlisted}\n"))
    [outcome] = run_checks(bundle, checks)
    assert not outcome.passed and outcome.got() == f"page 1, without #{unlisted} among its sections"


def _graphsearch(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mkdocs_graphsearch.commands.cli", *args]
    return subprocess.run(command, capture_output=True, text=True)


def test_cli_prints_a_table_of_failures_and_exits_1(bundle: Bundle, tmp_path: Path) -> None:
    pages = [page["page"] for page in search(bundle, "jitter")["results"]]
    path = _write(tmp_path, f"- query: jitter\n  page: {pages[0]}\n- query: jitter\n  page: {pages[2]}\n  within: 1\n")
    done = _graphsearch("check", str(bundle.path), str(path))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["line", "query", "mode", "expected", "within", "got"]
    assert lines[2].split() == ["3", "jitter", "keyword", "page", pages[2], "1", "page", "3"]
    assert lines[-1] == f"{path}: 1 of 2 checks failed"

    path.write_text(f"- query: jitter\n  page: {pages[0]}\n  within: 1\n")
    done = _graphsearch("check", str(bundle.path), str(path))
    assert (done.returncode, done.stdout) == (0, f"{path}: all 1 check passed\n")


#: An expected value holding a terminal hyperlink to another site, a screen clear and a bidi override.
EVIL_TARGET = r"\e]8;;https://elsewhere.example/\e\\there\e]8;;\e\\\e[2J\u202e"


def test_expected_values_reach_no_terminal_raw(bundle: Bundle, tmp_path: Path) -> None:
    page = search(bundle, "jitter")["results"][0]["page"]
    path = _write(tmp_path, (
        f'- query: jitter\n  section: "{page}#{EVIL_TARGET}"\n'
        f'- query: jitter\n  page: "{EVIL_TARGET}.md"\n'
        f'- query: jitter\n  absent: "{page}#x{EVIL_TARGET}"\n'
    ))
    assert "\x1b" in load_checks(path)[0].target  # YAML's \e is ESC: the file really holds them
    done = _graphsearch("check", str(bundle.path), str(path))
    assert done.returncode == 1, done.stderr
    assert "there" in done.stdout and "elsewhere" not in done.stdout
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]", done.stdout), repr(done.stdout)
    warnings: list[str] = []
    check_site(bundle.path, path, warnings.append, lambda message: None)
    assert len(warnings) == 3 and all("there" in warning for warning in warnings)
    assert not re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e]", "".join(warnings)), warnings


def test_cli_malformed_file_or_missing_site_is_exit_2(bundle: Bundle, tmp_path: Path) -> None:
    path = _write(tmp_path, "- query: x\n  page: a.md\n  whithin: 2\n")
    done = _graphsearch("check", str(bundle.path), str(path))
    assert done.returncode == 2 and done.stdout == ""
    keys = "query, page, section, absent, within, mode"
    assert done.stderr == f"error: {path}:3: unknown key 'whithin' (a check has {keys})\n"
    path.write_text("- query: x\n  page: a.md\n")
    done = _graphsearch("check", str(tmp_path / "no-site"), str(path))
    assert done.returncode == 2 and done.stderr.startswith("error: no search bundle at")


# ------------------------------------------------------------------------- in `mkdocs build`

SMALL_SITE = {
    "index.md": "# Home\n\nWelcome. Start with the [installation](guide/install.md).\n",
    "guide/install.md": (
        "# Installation\n\n## Setup { #setup }\n\nInstall the zebrafish server with pip.\n\n"
        "## Upgrading\n\nUpgrade between versions.\n"
    ),
    "other.md": "# Other\n\nNothing about fish here.\n",
}


def _small_site(tmp_path: Path, checks: str) -> Path:
    for name, text in SMALL_SITE.items():
        (tmp_path / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / name).write_text(text)
    (tmp_path / "checks.yml").write_text(checks)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Checks\ntheme:\n  name: mkdocs\n  highlightjs: false\nmarkdown_extensions:\n  - attr_list\n"
        "plugins:\n  - graphsearch:\n      embeddings: false\n      cache_dir: ''\n      checks: checks.yml\n"
    )
    return tmp_path


def _mkdocs_build_strict(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(folder / "mkdocs.yml")],
        capture_output=True, text=True, cwd=ROOT,
    )


def test_passing_checks_let_a_strict_build_pass(tmp_path: Path) -> None:
    site = _small_site(tmp_path, "- query: zebrafish\n  section: guide/install.md#setup\n  within: 1\n")
    done = _mkdocs_build_strict(site)
    assert done.returncode == 0, done.stderr
    assert "search checks: 1 of 1 check passed" in done.stderr


def test_a_wrong_expectation_fails_a_strict_build(tmp_path: Path) -> None:
    site = _small_site(tmp_path, (
        "- query: zebrafish\n  section: guide/install.md#setup\n  within: 1\n"
        "- query: zebrafish\n  page: other.md\n  within: 1\n"
    ))
    done = _mkdocs_build_strict(site)
    assert done.returncode != 0
    assert (
        f"{site / 'checks.yml'}:4: search check failed: \"zebrafish\" (keyword): expected page other.md within 1,"
        f" got not in the first 50 pages"
    ) in done.stderr
    assert "search checks: 1 of 2 checks passed" in done.stderr


def test_a_malformed_checks_file_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    site = _small_site(tmp_path, "- query: zebrafish\n  pages: other.md\n")
    done = _mkdocs_build_strict(site)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"search checks not run: {site / 'checks.yml'}:2: unknown key 'pages'" in done.stderr
    assert (site / "site" / "search" / "manifest.json").is_file()  # the site and bundle are still built


def test_example_site_ships_checks_that_its_build_runs_and_passes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """example-site/mkdocs.yml sets `checks: search-checks.yml`: every build of it (CI's included)
    runs them, with the site's own settings (semantic search on, its embedding cache)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file=str(EXAMPLE_SITE / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    assert Path(config.plugins["graphsearch"].config.checks) == EXAMPLE_SITE / "search-checks.yml"
    with caplog.at_level(logging.INFO):
        build(config)
    assert "search check failed" not in caplog.text and "search checks not run" not in caplog.text
    count = len(load_checks(EXAMPLE_SITE / "search-checks.yml"))
    assert count >= 10
    assert f"search checks: {count} of {count} checks passed" in caplog.text
    assert load_bundle(tmp_path / "site").vectors is not None  # run as readers search: hybrid
