"""No page is ever missing from the bundle unless it was excluded on purpose (issue 11): broken,
empty, odd and hostile pages are all in it, each findable by its own word, through both front
doors (the MkDocs plugin and `graphsearch index`); only exclude_docs, drafts and
`search: {exclude: true}` pages stay out."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.parse.folder import parse_folder
from test_parse_hypothesis import SOURCE

BOMB = "---\na: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcde", "bcdef", strict=True)
) + "---\n\n# Bomb zqbomb\n"
#: path -> (source, a word only that page has, or None when it has no text at all)
PAGES: dict[str, tuple[bytes, str | None]] = {
    "index.md": (b"# Home\n\nThe zqhome page.\n", "zqhome"),
    "empty.md": (b"", None),
    "blank.md": (b"\n\n   \n", None),
    "front-matter-only.md": (b"---\ntitle: Only front matter zqfront\n---\n", "zqfront"),
    "bad-yaml.md": (b"---\ntitle: [unclosed\ntags: {\n---\n\n# Bad yaml\n\nBody zqyaml.\n", "zqyaml"),
    "front-matter-unclosed.md": (b"---\ntitle: never closed\n\n# Unclosed zqunclosed\n", "zqunclosed"),
    "alias-bomb.md": (BOMB.encode(), "zqbomb"),
    "unclosed-fence.md": (b"# Fence\n\n```python\nprint('zqfence')\n", "zqfence"),
    "deep/er/nested.md": (
        ("# Deep\n\n" + "".join("  " * i + "- level\n" for i in range(60)) + "\n## After zqafter\n\nText.\n"
         + ">" * 120 + " quoted zqquote\n").encode(),
        "zqafter",
    ),
    "html-only.md": (b"<div><p>Raw html zqhtml</p></div>\n", "zqhtml"),
    "no-heading.md": (b"Just a paragraph zqnoheading.\n", "zqnoheading"),
    "title-only.md": (b"---\ntitle: zqtitleonly\n---\n\n", "zqtitleonly"),
    "crlf.md": (b"# CRLF zqcrlf\r\n\r\nLine.\r\n", "zqcrlf"),
    "long-line.md": (b"# Long\n\nzqlong " + b"word " * 40000 + b"\n", "zqlong"),
    "weird name with spaces & \xfc.md": (b"# Weird zqweird\n", "zqweird"),
    "bom.md": (b"\xef\xbb\xbf# BOM zqbom\n", "zqbom"),
    "nul.md": (b"# Nul zqnul\n\nA \x00 byte.\n", "zqnul"),
    "search-excluded.md": (b"---\nsearch:\n  exclude: true\n---\n\n# Hidden zqsearchexcluded\n", None),
}
#: Left out on purpose (the plugin: exclude_docs, draft_docs; both: `search: {exclude: true}`).
ON_PURPOSE = {"excluded.md": b"# Excluded zqexcl\n", "drafts/draft.md": b"# Draft zqdraft\n"}
BAD_UTF8 = ("bad-utf8.md", b"# Bad \xff\xfe utf8 zqutf\n\nMore \xc3( text.\n")  # MkDocs itself cannot read it


def _write(docs: Path, pages: dict[str, bytes]) -> Path:
    for name, data in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_bytes(data)
    return docs


def _check(site_or_bundle: Path, expected: set[str], words: dict[str, str | None], absent: list[str]) -> None:
    """Exactly the expected pages, each found by its word; the words of excluded pages find nothing."""
    bundle = load_bundle(site_or_bundle)
    assert set(bundle.pages["path"]) == expected
    for path, word in words.items():
        if path in expected and word:
            found = [r["page"] for r in search(bundle, word, mode="keyword")["results"]]
            assert path in found, (path, word, found)
    for word in absent:
        assert search(bundle, word, mode="keyword")["results"] == [], word


def test_every_page_is_in_the_plugin_bundle(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = _write(tmp_path / "docs", {name: data for name, (data, _) in PAGES.items()} | ON_PURPOSE)
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        f"site_name: Pages\ndocs_dir: {docs}\nexclude_docs: |\n  excluded.md\ndraft_docs: |\n  drafts/\n"
        "plugins:\n  - graphsearch:\n      embeddings: false\n",
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING):
        build(load_config(config_file=str(config), site_dir=str(tmp_path / "site")))
    ours = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "graphsearch" in r.name]
    for name in ("bad-yaml.md:3", "alias-bomb.md:1", "unclosed-fence.md:3", "deep/er/nested.md:"):
        assert any(f"graphsearch: {name}" in message for message in ours), (name, ours)
    expected = set(PAGES) - {"search-excluded.md"}
    words = {name: word for name, (_, word) in PAGES.items()}
    _check(tmp_path / "site", expected, words, ["zqsearchexcluded", "zqexcl", "zqdraft"])


def test_every_page_is_in_the_cli_bundle(tmp_path: Path) -> None:
    """`graphsearch index` has no exclude_docs: only front matter excludes; bad UTF-8 is read too."""
    pages = {name: data for name, (data, _) in PAGES.items()} | ON_PURPOSE | dict([BAD_UTF8])
    docs = _write(tmp_path / "docs", pages)
    warnings: list[str] = []
    write_bundle(tmp_path / "bundle", build_files(parse_folder(docs), warn=warnings.append))
    expected = set(pages) - {"search-excluded.md"}
    words = {name: word for name, (_, word) in PAGES.items()} | {BAD_UTF8[0]: "zqutf", "drafts/draft.md": "zqdraft"}
    _check(tmp_path / "bundle", expected, words, ["zqsearchexcluded"])
    assert any("bad-utf8.md:1" in str(w) for page in parse_folder(docs) for w in page.warnings)


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
@given(st.lists(SOURCE, min_size=1, max_size=5))
def test_arbitrary_pages_are_all_in_the_bundle(tmp_path_factory: pytest.TempPathFactory, sources: list) -> None:
    docs = tmp_path_factory.mktemp("docs")
    for i, source in enumerate(sources):
        data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
        (docs / f"p{i}.md").write_bytes(data)
    pages = parse_folder(docs)
    out = tmp_path_factory.mktemp("bundle")
    write_bundle(out, build_files(pages))
    excluded = {page.path for page in pages if page.exclude}
    assert set(load_bundle(out).pages["path"]) == {f"p{i}.md" for i in range(len(sources))} - excluded
