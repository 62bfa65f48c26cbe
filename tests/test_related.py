"""Related pages and the most connected pages (index/related.py, bundle/related.py), and their
block at the end of each built page (related_block.py, plugin option related_pages)."""

from __future__ import annotations

import logging
import os
import re
import time
from pathlib import Path

import numpy as np
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from conftest import EXAMPLE_SITE, VECTORS, build_bundle_dir
from mkdocs_graphsearch.bundle.format import RELATED, BundleError, file_name
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.bundle.related import (
    ASIDE_LANGUAGE,
    NOT_ASIDE,
    Reason,
    describe,
    parse_related,
    read_reasons,
    read_related,
    read_top,
)
from mkdocs_graphsearch.commands.docs_tools import DocsTools
from mkdocs_graphsearch.index.related import (
    MAX_SHARED_DEGREE,
    TOP_COUNT,
    link_scores,
    page_language,
    pagerank,
    related_pages,
)
from mkdocs_graphsearch.mkdocs_plugin.related_block import KEY_DIGITS

# ------------------------------------------------------------------------------ the scores


def _by_pair(links: list[list[int]]) -> dict[int, dict[int, float]]:
    rows, cols, values = link_scores(links)
    pairs: dict[int, dict[int, float]] = {a: {} for a in range(len(links))}
    for a, b, value in zip(rows.tolist(), cols.tolist(), values.tolist(), strict=True):
        pairs[a][b] = value
    return pairs


def test_links_count_both_directions_cocitation_and_coupling() -> None:
    # 0 links 1 and 2 (so 1 and 2 are cocited); 3 and 4 both link 5 (coupled); 6 links nothing.
    links = [[1, 2], [], [], [5], [5], [], []]
    scores = _by_pair(links)
    assert scores[0][1] == scores[1][0] > 0  # an inbound link counts as much as an outbound one
    assert scores[1][2] > 0 and scores[3][4] > 0  # cocited, coupled: no direct link between them
    assert 6 not in scores[0] and not scores[6]


def test_a_hub_linked_from_everywhere_relates_nothing_by_cocitation() -> None:
    n = MAX_SHARED_DEGREE + 2
    hub_links = [[b for b in range(1, n)]] + [[] for _ in range(1, n)]  # page 0 links all others
    scores = _by_pair(hub_links)
    assert 2 not in scores[1]  # too big a group to say anything about a pair


def test_ties_break_by_page_index_and_no_page_is_its_own_related() -> None:
    content = np.ones((4, 2)) / np.sqrt(2)  # every page alike
    rows = related_pages(content, [[], [], [], []], count=2)
    assert rows == [[(1, 0.6), (2, 0.6)], [(0, 0.6), (2, 0.6)], [(0, 0.6), (1, 0.6)], [(0, 0.6), (1, 0.6)]]


def test_pages_with_nothing_in_common_are_not_related() -> None:
    content = np.eye(3)
    assert related_pages(content, [[], [], []]) == [[], [], []]


def test_pagerank_ranks_the_most_linked_page_first() -> None:
    rank = pagerank([[2], [2], [0], [2]])
    assert int(np.argmax(rank)) == 2 and abs(rank.sum() - 1) < 1e-9


# ------------------------------------------------------------------------------ the example site


@pytest.fixture(scope="module")
def keyword_bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    return load_bundle(build_bundle_dir(tmp_path_factory.mktemp("related"), EXAMPLE_SITE / "docs", embeddings=False))


@pytest.fixture(scope="module")
def example_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """example-site as configured (semantic search, related_pages: true), its embedding cache."""
    site = tmp_path_factory.mktemp("example") / "site"
    build(load_config(config_file=str(EXAMPLE_SITE / "mkdocs.yml"), site_dir=str(site)))
    return site


def _related_paths(bundle: Bundle) -> dict[str, list[str]]:
    paths = bundle.pages["path"]
    rows = read_related(bundle)
    assert rows is not None
    return {paths[page]: [paths[other] for other, _ in row] for page, row in enumerate(rows)}


#: Judged by reading the pages: what a reader of the first would want next, whether the bundle
#: compares pages by meaning (vectors) or by their words (keyword-only).
JUDGED = {
    # retrying jobs: what to do with the ones that die, and the settings behind retries
    "user-guide/retries.md": {"first": None, "top3": {"how-to/dead-letter-queues.md", "reference/configuration.md"}},
    "how-to/dead-letter-queues.md": {"first": "user-guide/retries.md", "top3": set()},
    # the settings page: the two guides whose settings it lists most
    "reference/configuration.md": {
        "first": None, "top3": {"user-guide/queues-and-workers.md", "user-guide/retries.md"}
    },
    "getting-started/installation.md": {"first": None, "top3": {"getting-started/quickstart.md"}},
    "user-guide/monitoring.md": {"first": None, "top3": {"how-to/deploy-to-production.md"}},
}


@pytest.mark.parametrize("which", ["keyword", "semantic"])
def test_related_pages_on_the_example_site_are_the_ones_a_reader_wants(
    which: str, keyword_bundle: Bundle, example_site: Path
) -> None:
    bundle = keyword_bundle if which == "keyword" else load_bundle(example_site)
    assert (bundle.vectors is not None) == (which == "semantic")
    related = _related_paths(bundle)
    for page, judged in JUDGED.items():
        got = related[page]
        assert 1 <= len(got) <= 5, (page, got)
        if judged["first"]:
            assert got[0] == judged["first"], (page, got)
        assert judged["top3"] <= set(got[:3]), (page, got)
    for page, got in related.items():
        assert page not in got and len(set(got)) == len(got), page
        assert "drafts/notes.md" not in got  # excluded from search: in no list either


@pytest.mark.parametrize("which", ["keyword", "semantic"])
def test_the_home_page_and_other_languages_only_when_nothing_else_relates(
    which: str, keyword_bundle: Bundle, example_site: Path
) -> None:
    """Issue 22: the home page was the first related page of several pages, and the changelog
    listed the Chinese page; a page of a language of its own still gets its related pages."""
    bundle = keyword_bundle if which == "keyword" else load_bundle(example_site)
    related = _related_paths(bundle)
    translated = {"ja/quickstart-ja.md", "zh/retries-zh.md"}
    for page, got in related.items():
        if page not in translated:
            assert "index.md" not in got and not translated & set(got), (page, got)
    assert related["ja/quickstart-ja.md"] and related["zh/retries-zh.md"]  # nothing else relates: listed
    reasons = read_reasons(bundle)
    assert reasons is not None
    paths = bundle.pages["path"]
    for page, row in enumerate(reasons):
        asides = [reason.aside for reason in row]
        assert (paths[page] in translated) == (ASIDE_LANGUAGE in asides), (paths[page], asides)


def test_each_related_page_says_why(keyword_bundle: Bundle) -> None:
    """`graphsearch related --explain` and the MCP tool read the reasons kept at build time."""
    tools = DocsTools(keyword_bundle)
    found = tools.related("user-guide/retries.md")["related"]
    assert found and all(entry["reason"] and entry["reason"] != "no evidence" for entry in found)
    dead = next(entry for entry in found if entry["page"] == "how-to/dead-letter-queues.md")
    assert dead["why"]["direct"] > 0 and "link" in dead["reason"] and dead["why"]["aside"] == NOT_ASIDE
    assert "in another language" in describe(Reason(0.4, 0.0, 0.0, 0.0, ASIDE_LANGUAGE))
    assert describe(Reason(0.4, 1.0, 0.0, 0.2, NOT_ASIDE)) == (
        "similar content (0.40); they link each other; link to the same pages (0.20)")


def test_page_language_by_file_name_and_script() -> None:
    assert page_language("guide/install.fr.md", "Installer le paquet") == "fr"
    assert page_language("guide/install.md", "Install the package") == ""
    assert page_language("ja/start.md", "ワーカーを起動する tidewaterd --concurrency 4") == "ja"
    assert page_language("zh/retries.md", "重试与失败 retry_policy 随机抖动") == "zh"
    assert page_language("guide/cjk-note.md", "A note on 日本語 input methods in the editor settings") == ""


def test_top_pages_are_the_most_linked_reference_and_guides(keyword_bundle: Bundle) -> None:
    top = read_top(keyword_bundle.manifest)
    assert len(top) == TOP_COUNT
    paths = [entry["path"] for entry in top]
    assert paths[0] == "reference/configuration.md"  # linked from nearly every guide
    assert {"user-guide/retries.md", "user-guide/jobs.md", "user-guide/queues-and-workers.md"} <= set(paths)
    index = keyword_bundle.pages["path"].index(paths[0])
    assert top[0] == {"path": paths[0], "title": keyword_bundle.pages["title"][index],
                      "url": keyword_bundle.pages["url"][index]}


def test_related_is_deterministic(tmp_path: Path, keyword_bundle: Bundle) -> None:
    again = load_bundle(build_bundle_dir(tmp_path / "again", EXAMPLE_SITE / "docs", embeddings=False))
    assert read_related(again) == read_related(keyword_bundle)
    assert again.files[RELATED] == keyword_bundle.files[RELATED]  # the bytes too (read on demand above)
    assert again.manifest["top"] == keyword_bundle.manifest["top"]
    assert file_name(again.manifest, RELATED).startswith("related.")  # content-hashed like every part


def test_a_bundle_without_related_pages_still_reads() -> None:
    frozen = load_bundle(VECTORS / "engine" / "bundle")  # format 1, older than related.json
    assert read_related(frozen) is None and read_top(frozen.manifest) == []


@pytest.mark.parametrize(
    "document",
    [b"[]", b'{"related": [[0]], "scores": [[1.0]]}', b'{"related": [[7], []], "scores": [[1.0], []]}',
     b'{"related": [[1], []], "scores": [[], []]}', b'{"related": [[true], []], "scores": [[1], []]}'],
)
def test_a_damaged_related_part_is_a_bundle_error(document: bytes) -> None:
    with pytest.raises(BundleError, match="related.json"):
        parse_related(document, 2)


# ------------------------------------------------------------------------------ the rendered block

HOSTILE = "<script>alert(1)</script> & friends"
PAGES = {
    "index.md": "# Home\n\nWelcome to the zebrafish docs. See [feeding](guide/feeding.md).\n",
    "guide/feeding.md": "# Feeding\n\nFeed the zebrafish twice a day. Water quality: [tanks](../tanks.md).\n",
    "tanks.md": f"---\ntitle: \"{HOSTILE}\"\n---\n\n# Tanks\n\nZebrafish tanks need clean water, fed "
    "fish make it dirty.\n",
    "other.md": "# Other\n\nNothing about fish here at all, only tanks of water.\n",
}


def _site(folder: Path, options: str = "      related_pages: true\n", use_directory_urls: bool = True) -> Path:
    for name, text in PAGES.items():
        (folder / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "docs" / name).write_text(text, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(
        f"site_name: Fish\nuse_directory_urls: {str(use_directory_urls).lower()}\n"
        "theme:\n  name: mkdocs\n  highlightjs: false\n"
        f"plugins:\n  - graphsearch:\n      embeddings: false\n      cache_dir: .cache\n{options}",
        encoding="utf-8",
    )
    return folder


def _build(folder: Path, *, dirty: bool = False) -> Path:
    build(load_config(config_file=str(folder / "mkdocs.yml"), site_dir=str(folder / "site")), dirty=dirty)
    return folder / "site"


def _block(html_file: Path) -> str:
    text = html_file.read_text(encoding="utf-8")
    match = re.search(rf"<!-- graphsearch:related ([0-9a-f]{{{KEY_DIGITS}}}) -->(.*?)<!-- /graphsearch:related \1 -->",
                      text, re.S)
    assert match, f"no related block in {html_file}"
    return match.group(2)


def _links(block: str) -> list[tuple[str, str]]:
    return re.findall(r'<a href="([^"]*)">([^<]*)</a>', block)


def test_the_block_lists_related_pages_with_escaped_titles_and_relative_urls(tmp_path: Path) -> None:
    site = _build(_site(tmp_path))
    bundle = load_bundle(site)
    related = _related_paths(bundle)
    block = _block(site / "guide" / "feeding" / "index.html")
    links = _links(block)
    assert [href for href, _ in links] == [
        {"index.md": "../../", "tanks.md": "../../tanks/", "other.md": "../../other/"}[page]
        for page in related["guide/feeding.md"]
    ]
    assert ("../../tanks/", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; friends") in links
    assert "<script>" not in block  # (MkDocs' own nav shows such a title as HTML: not ours to fix)
    assert ("guide/feeding/", "Feeding") in _links(_block(site / "index.html"))
    assert 'aria-label="Related pages"' in block


def test_without_directory_urls_the_links_are_relative_files(tmp_path: Path) -> None:
    site = _build(_site(tmp_path, use_directory_urls=False))
    hrefs = {href for href, _ in _links(_block(site / "guide" / "feeding.html"))}
    assert hrefs <= {"../index.html", "../tanks.html", "../other.html"} and "../tanks.html" in hrefs


def test_the_block_is_absent_when_off(tmp_path: Path) -> None:
    site = _build(_site(tmp_path, options=""))
    html = (site / "guide" / "feeding" / "index.html").read_text(encoding="utf-8")
    assert "graphsearch:related" not in html and "gs-related" not in html
    assert read_related(load_bundle(site))  # the bundle carries them either way


def test_a_site_template_replaces_the_block(tmp_path: Path) -> None:
    folder = _site(tmp_path, options="      related_pages: true\n      related_template: related.html\n")
    (folder / "related.html").write_text(
        '<aside id="see-also">{% for item in related %}<a href="{{ item.url }}">{{ item.title }}</a>'
        "{% endfor %} from {{ page.title }}</aside>",
        encoding="utf-8",
    )
    block = _block(_build(folder) / "guide" / "feeding" / "index.html")
    assert block.startswith('<aside id="see-also">') and block.endswith(" from Feeding</aside>")


def test_a_broken_template_is_one_warning_naming_file_and_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _site(tmp_path, options="      related_pages: true\n      related_template: related.html\n")
    (folder / "related.html").write_text("<ul>\n{% for item in related %}\n<li>{{ item.title }\n</ul>\n")
    with caplog.at_level(logging.WARNING):
        site = _build(folder)
    warnings = [r.getMessage() for r in caplog.records if "related pages template" in r.getMessage()]
    assert len(warnings) == 1 and f"{folder / 'related.html'}:3: " in warnings[0], warnings
    assert _block(site / "index.html") == ""


def test_a_dirty_build_refreshes_the_block_of_pages_it_did_not_render(tmp_path: Path) -> None:
    folder = _site(tmp_path / "dirty")
    site = _build(folder)
    home_before = _block(site / "index.html")
    # other.md now links the home page and the feeding guide: its own list changes, and so do
    # those of pages a --dirty build does not re-render (index.md, guide/feeding.md).
    edited = PAGES["other.md"] + "\nZebrafish feeding: [feeding](guide/feeding.md), [home](index.md).\n"
    (folder / "docs" / "other.md").write_text(edited, encoding="utf-8")
    later = time.time() + 5
    os.utime(folder / "docs" / "other.md", (later, later))
    dirty = _build(folder, dirty=True)

    full = _site(tmp_path / "full")
    (full / "docs" / "other.md").write_text(edited, encoding="utf-8")
    clean = _build(full)
    for page in ("index.html", "other/index.html", "guide/feeding/index.html", "tanks/index.html"):
        assert _block(dirty / page) == _block(clean / page), page
    assert _block(dirty / "index.html") != home_before
    assert ("other/", "Other") in _links(_block(dirty / "index.html"))


def test_the_block_goes_to_the_plugins_own_marker_only(tmp_path: Path) -> None:
    """Marker strings in the footer (`copyright`) or in a page's own HTML are not the plugin's."""
    folder = _site(tmp_path)
    quoted = "<!-- graphsearch:related -->Footer text<!-- /graphsearch:related -->"
    forged = "<!-- graphsearch:related 0123456789abcdef -->Forged<!-- /graphsearch:related 0123456789abcdef -->"
    with (folder / "mkdocs.yml").open("a", encoding="utf-8") as config:
        config.write(f"copyright: '{quoted} {forged}'\n")
    page = folder / "docs" / "guide" / "feeding.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\n{quoted}\n", encoding="utf-8")
    site = _build(folder)
    html = (site / "guide" / "feeding" / "index.html").read_text(encoding="utf-8")
    assert html.count("Footer text") == 2 and "Forged" in html
    block = _block(site / "guide" / "feeding" / "index.html")
    assert _links(block) and html.index(block) < html.rindex("Footer text")
