"""Display columns and graph edges in fragments (bundle/display.py, bundle/graph_shards.py):
what ranking reads stays in keyword.json, and answers never depend on what moved out."""

from __future__ import annotations

import copy
import functools
from typing import Any

import orjson
import pytest

from conftest import ROOT, VECTORS, build_bundle_dir
from mkdocs_graphsearch.bundle import display
from mkdocs_graphsearch.bundle.display import DISPLAY_CHUNKS, DISPLAY_PAGES
from mkdocs_graphsearch.bundle.format import BundleError
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.bundle.schema import check_keyword
from mkdocs_graphsearch.engine.search import search
from parity import assert_parity, generated_queries

FROZEN = VECTORS / "engine" / "bundle"


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    return load_bundle(FROZEN)


def test_keyword_json_holds_no_display_column(bundle: Bundle) -> None:
    keyword = orjson.loads(bundle.files["keyword.json"])
    assert not set(keyword["chunks"]) & set(DISPLAY_CHUNKS)
    assert not set(keyword["pages"]) & set(DISPLAY_PAGES)
    assert set(orjson.loads(bundle.files["graph.json"])) == {"edge_types"}
    assert all(len(bundle.chunks[key]) == bundle.n_chunks for key in DISPLAY_CHUNKS)


QUERIES = [("retry policy", "keyword"), ("retry_policy", "hybrid"), ("kind:code", "keyword")]


@pytest.mark.parametrize("query, mode", QUERIES)
def test_ids_order_nothing(bundle: Bundle, query: str, mode: str) -> None:
    """Ties break by chunk and page index, never by id: reversed ids give the same answer, ids aside
    (so the JS runtime may rank before it has a chunk's id)."""
    renamed = copy.copy(bundle)
    renamed.chunks = {**bundle.chunks, "id": [f"{n:04d}" for n in range(bundle.n_chunks, 0, -1)]}
    renamed.pages = {**bundle.pages, "title": ["same"] * len(bundle.pages["path"])}

    def shape(answer: dict[str, Any]) -> list[Any]:
        return [(r["page"], r["score"], [(s["anchor"], s["score"]) for s in r["sections"]]) for r in answer["results"]]

    assert shape(search(renamed, query, mode=mode)) == shape(search(bundle, query, mode=mode))


def test_a_fragment_must_start_a_page(bundle: Bundle) -> None:
    keyword = orjson.loads(bundle.files["keyword.json"])
    manifest = copy.deepcopy(bundle.manifest)
    manifest["text_starts"] = [0, 1]  # chunk 1 is on chunk 0's page
    with pytest.raises(BundleError, match=r"keyword.json: chunks.page\[1\] must start a page \(text fragment 1"):
        check_keyword(keyword, manifest)


def test_a_display_fragment_must_start_a_page(bundle: Bundle) -> None:
    keyword = orjson.loads(bundle.files["keyword.json"])
    manifest = {**copy.deepcopy(bundle.manifest), "display_starts": [0, 1]}  # format 5's own ranges
    with pytest.raises(BundleError, match=r"keyword.json: chunks.page\[1\] must start a page \(display fragment 1"):
        check_keyword(keyword, manifest)


def test_display_fragments_are_sized_apart_from_text_fragments(tmp_path, monkeypatch) -> None:
    """Format 5: display fragments end at page boundaries once they hold DISPLAY_FRAGMENT_BYTES
    (the manifest's display_starts), whatever the text fragments; both engines read the same
    columns and answers as from one display fragment."""
    docs = ROOT / "tests" / "fixtures" / "parity-corpus" / "docs"
    whole = load_bundle(build_bundle_dir(tmp_path / "whole", docs, embeddings=False))
    monkeypatch.setattr(display, "DISPLAY_FRAGMENT_BYTES", 256)
    split_dir = build_bundle_dir(tmp_path / "split", docs, embeddings=False)
    split = load_bundle(split_dir)
    starts, pages = split.manifest["display_starts"], split.chunks["page"]
    assert whole.manifest["display_starts"] == [0] and len(starts) > 2
    assert starts != split.manifest["text_starts"]
    assert all(pages[start] != pages[start - 1] for start in starts[1:])
    assert len(split.manifest["files"]["display.#.json"]) == len(starts)
    assert split.chunks == whole.chunks and split.pages == whole.pages
    queries = generated_queries(split, 40)
    assert [search(split, q) for q in queries] == [search(whole, q) for q in queries]
    assert assert_parity(split_dir, queries, ["keyword"]) == len(queries)


def test_display_fragments_grouped_by_cluster(tmp_path, monkeypatch) -> None:
    """Format 10: a clustered site's display fragments hold the pages of its clusters in chain
    order (keyword.json's pages.display, the manifest's display_count), not ranges of pages, and
    its graph shards the edges of those pages (no graph_starts); both engines read the same
    columns, graph and answers as from the same bundle with ranges."""
    from mkdocs_graphsearch.bundle import graph_shards, write
    from mkdocs_graphsearch.bundle.display_groups import fragment_runs, page_firsts
    from mkdocs_graphsearch.index import builder

    docs = ROOT / "tests" / "fixtures" / "parity-corpus" / "docs"
    monkeypatch.setattr(display, "DISPLAY_FRAGMENT_BYTES", 256)
    monkeypatch.setattr(graph_shards, "GRAPH_SHARD_BYTES", 64)
    monkeypatch.setattr(write, "WHOLE_TEXT_BYTES", 0)
    grouped_dir = build_bundle_dir(tmp_path / "grouped", docs, embeddings=True, clusters="auto")
    grouped = load_bundle(grouped_dir)
    monkeypatch.setattr(builder, "build_bundle", lambda **kw: write.build_bundle(**{**kw, "chunk_clusters": None}))
    ranges = load_bundle(build_bundle_dir(tmp_path / "ranges", docs, embeddings=True, clusters="auto"))
    count = grouped.manifest["display_count"]
    assert "display_starts" not in grouped.manifest and len(ranges.manifest["display_starts"]) > 2
    assert "graph_starts" not in grouped.manifest and len(ranges.manifest["graph_starts"]) > 2
    assert len(grouped.manifest["files"]["display.#.json"]) == count > 2
    assert len(grouped.manifest["files"]["graph.#.json"]) == count
    page_display = orjson.loads(grouped.files["keyword.json"])["pages"]["display"]
    firsts = page_firsts(grouped.chunks["page"], len(page_display))
    assert any(len(runs) > 1 for runs in fragment_runs(firsts, page_display, count))  # not ranges
    assert grouped.chunks == ranges.chunks and grouped.pages == ranges.pages and grouped.graph == ranges.graph
    queries = generated_queries(grouped, 30)
    for mode in ("keyword", "hybrid"):
        assert [search(grouped, q, mode=mode) for q in queries] == [search(ranges, q, mode=mode) for q in queries]
    assert assert_parity(grouped_dir, queries, ["keyword", "hybrid"]) == 2 * len(queries)


def test_grouped_display_needs_format_10(tmp_path, monkeypatch) -> None:
    """pages.display and display_count come together, in format 10 only."""
    from mkdocs_graphsearch.bundle.schema import check_manifest

    docs = ROOT / "tests" / "fixtures" / "parity-corpus" / "docs"
    monkeypatch.setattr(display, "DISPLAY_FRAGMENT_BYTES", 256)
    bundle = load_bundle(build_bundle_dir(tmp_path / "grouped", docs, embeddings=True, clusters="auto"))
    keyword = orjson.loads(bundle.files["keyword.json"])
    manifest = copy.deepcopy(bundle.manifest)
    del keyword["pages"]["display"]
    with pytest.raises(BundleError, match=r"keyword.json: pages.display must be there exactly when"):
        check_keyword(keyword, manifest)
    with pytest.raises(BundleError, match=r"manifest.json: display_count needs format 10"):
        check_manifest({**manifest, "display_starts": [0]})


def _keyword(rows: list[tuple[int, str, str, str, int, str]], paths: list[str]) -> dict[str, Any]:
    """keyword.json's columns for chunks given as (page, kind, id, title, parent, anchor)."""
    columns = list(zip(*rows, strict=True))
    pages, kinds, ids, titles, parents, anchors = (list(column) for column in columns)
    return {
        "pages": {"path": paths, "title": [p.upper() for p in paths], "url": [f"{p}/" for p in paths]},
        "chunks": {"page": pages, "kind": kinds, "id": ids, "title": titles, "parent": parents,
                   "anchor": anchors, "level": [1 if p < 0 else 2 for p in parents]},
    }


def test_format_6_leaves_out_what_the_chunk_tree_gives_and_reads_it_back() -> None:
    """Ids as parse/chunks.py gives them (a page's path, PATH::TITLE with ::N for repeats,
    PARENT::code-N), titles equal to the parent's and anchors derived (a code block's parent's,
    the slug of an ASCII title) are left out; any other id or anchor is kept (a claimed `::2`
    clash, a code block whose parent is on another page); both read back."""
    rows = [
        (0, "page", "a.md", "A", -1, ""),
        (0, "section", "a.md::Use", "Use", 0, "use"),
        (0, "code", "a.md::Use::code-1", "Use", 1, "use"),
        (0, "code", "a.md::Use::code-2", "Use", 1, "use"),
        (0, "section", "a.md::Use::2", "Use", 0, "use_1"),
        (0, "section", "a.md::Use::2::2", "Use::2", 0, "use2"),  # claim() moved it on
        (0, "code", "a.md::Use::2::code-1", "Use", 4, "use_1"),
        (1, "page", "b.md", "B", -1, ""),
        (1, "code", "b.md::code-1", "B", 7, ""),
        (1, "section", "b.md::B", "B", 7, "same"),  # titled as its parent
        (1, "section", "b.md::Café", "Café", 7, "cafe"),  # no ASCII title: its anchor is kept
    ]
    keyword = _keyword(rows, ["a.md", "b.md"])
    compact = display.compact_display(keyword)
    assert compact["ids"] == {5: "a.md::Use::2::2"}
    assert compact["title"] == ["A", "Use", None, None, "Use", "Use::2", None, "B", None, None, "Café"]
    assert compact["anchor"] == ["", None, None, None, "use_1", None, None, "", None, "same", "cafe"]
    for starts in ([0], [0, 7]):
        _, fragments = display.display_part(keyword, starts)
        merged: dict[str, Any] = {"chunks": {"kind": keyword["chunks"]["kind"], "page": keyword["chunks"]["page"]},
                                  "pages": {"path": keyword["pages"]["path"]}}
        for index in range(len(starts)):
            display.merge_display(merged, orjson.loads(fragments[f"display.{index}.json"]), index)
        for key in DISPLAY_CHUNKS:
            assert merged["chunks"][key] == keyword["chunks"][key], key
    rows[8] = (1, "code", "b.md::code-1", "B", 0, "")  # a parent on another page: kept, not derived
    stranger = display.compact_display(_keyword(rows, ["a.md", "b.md"]))
    assert stranger["ids"] == {5: "a.md::Use::2::2", 8: "b.md::code-1"} and stranger["title"][8] == "B"


def test_format_6_refuses_what_it_cannot_derive(bundle: Bundle) -> None:
    from mkdocs_graphsearch.bundle.schema import check_display

    manifest = {**copy.deepcopy(bundle.manifest), "format": 6, "display_starts": [0]}
    n = manifest["counts"]["chunks"]
    pages = manifest["counts"]["pages"]
    fragment = {
        "pages": {"title": ["t"] * pages, "url": ["u"] * pages},
        "chunks": {"anchor": [None] * n, "title": ["t"] * n, "level": [1] * n, "parent": [-1] * n, "ids": {}},
    }
    fragment["chunks"]["title"][0] = None
    with pytest.raises(BundleError, match=r"display.0.json: chunks.title\[0\] is null but its parent is not before"):
        check_display(copy.deepcopy(fragment), manifest, bundle.chunks["page"], 0)
    fragment["chunks"]["title"][0] = "é"
    checked = check_display(copy.deepcopy(fragment), manifest, bundle.chunks["page"], 0)
    with pytest.raises(BundleError, match=r"display.0.json: chunks.anchor\[0\] is null but cannot be derived"):
        display.expand_display(checked, bundle.chunks["kind"], bundle.chunks["page"], bundle.pages["path"], 0, 0)
    fragment["chunks"].update(anchor=[""] * n, ids={"01": "x"})
    with pytest.raises(BundleError, match=r"display.0.json: chunks.ids has a key that is no chunk number"):
        check_display(copy.deepcopy(fragment), manifest, bundle.chunks["page"], 0)


def test_format_6_shared_vectors() -> None:
    """tests/vectors/display.json: the slug rule and compact fragments read back (js/test/display.test.js)."""
    cases = orjson.loads((VECTORS / "display.json").read_bytes())
    assert [[title, display.slug(title)] for title, _ in cases["slug"]] == cases["slug"]
    chunks, paths = cases["chunks"], cases["paths"]
    for case in cases["fragments"]:
        kinds, pages = chunks["kind"], chunks["page"]
        got = display.expand_display(case["fragment"], kinds, pages, paths, case["start"], case["index"])
        assert got == case["expected"], case["name"]


def test_format_8_shared_vectors() -> None:
    """tests/vectors/display.json `derived`: format-8 fragments (parents from the levels, page
    titles and urls derived) read back in full (js/test/display.test.js)."""
    cases = orjson.loads((VECTORS / "display.json").read_bytes())
    chunks, paths = cases["chunks"], cases["paths"]
    kinds, pages = chunks["kind"], chunks["page"]
    for case in cases["derived"]["fragments"]:
        got = display.expand_display(case["fragment"], kinds, pages, paths, case["start"], case["index"])
        assert got == case["expected"], case["name"]
        page_columns = display.expand_pages(
            case["fragment"], got["title"], pages, paths, case["start"], case["first"], case["index"]
        )
        assert page_columns == case["expected_pages"], case["name"]


def test_format_8_refuses_what_it_cannot_derive(bundle: Bundle) -> None:
    """A null page title on a page without chunks in the fragment, a null url of a path no rule
    gives, a null title whose derived parent is not before it: each a BundleError naming it."""
    cases = orjson.loads((VECTORS / "display.json").read_bytes())
    chunks, paths = cases["chunks"], cases["paths"]
    case = copy.deepcopy(cases["derived"]["fragments"][0])
    fragment, kinds, pages = case["fragment"], chunks["kind"], chunks["page"]
    fragment["chunks"]["title"][0] = None
    with pytest.raises(BundleError, match=r"display.0.json: chunks.title\[0\] is null but its parent is not before"):
        display.expand_display(fragment, kinds, pages, paths, 0, 0)
    titles = case["expected"]["title"]
    fragment["pages"]["url"][1] = None  # b.html: no rule gives it
    with pytest.raises(BundleError, match=r"display.0.json: pages.url\[1\] is null but cannot be derived"):
        display.expand_pages(fragment, titles, pages, ["guide/a.md", "b.html"], 0, 0, 0)
    with pytest.raises(BundleError, match=r"display.0.json: pages.title\[0\] is null but its page has no chunk"):
        display.expand_pages(fragment, titles[7:], pages, paths, 7, 0, 0)


@pytest.mark.parametrize("path, url", [("index.md", ""), ("a/index.md", "a/"), ("a/README.md", "a/"),
                                       ("a/b.md", "a/b/"), ("READMEs.md", "READMEs/"), ("a/b.html", None)])
def test_derived_url(path: str, url: str | None) -> None:
    assert display.derived_url(path) == url


def test_derived_parents_skip_code_blocks() -> None:
    """A code block hangs from the nearest heading above it but hides none: the section after it
    hangs from that heading too; a page starts afresh."""
    levels = [1, 2, 3, 2, 3, 1, 2]
    kinds = ["page", "section", "code", "code", "section", "page", "section"]
    assert display.derived_parents(levels, kinds, [0, 0, 0, 0, 0, 1, 1], 0) == [-1, 0, 1, 0, 1, -1, 5]


@pytest.mark.parametrize("version", [7, 8, 9])
def test_a_frozen_bundle_reads_as_this_format_writes(tmp_path, monkeypatch, version: int) -> None:
    """tests/vectors/engine/bundle-format-7, -8 and -9: the parity corpus, keyword only, written by
    format 7's code (89b96b0), format 8's (f36016f: graph.json a file) and format 9's (f60667a:
    graph.json in the manifest's `inline`) with display fragments
    of 256 bytes and graph shards of 64 (several of each). Both engines still read them: their
    display columns and graph are a build's of the same docs at the same sizes today, and so
    are their answers."""
    from mkdocs_graphsearch.bundle import graph_shards, write
    from mkdocs_graphsearch.bundle.format import FORMAT_VERSION

    frozen = VECTORS / "engine" / f"bundle-format-{version}"
    monkeypatch.setattr(display, "DISPLAY_FRAGMENT_BYTES", 256)
    monkeypatch.setattr(graph_shards, "GRAPH_SHARD_BYTES", 64)
    monkeypatch.setattr(write, "WHOLE_TEXT_BYTES", 0)
    docs = ROOT / "tests" / "fixtures" / "parity-corpus" / "docs"
    old, new = load_bundle(frozen), load_bundle(build_bundle_dir(tmp_path / "new", docs, embeddings=False))
    assert old.manifest["format"] == version and new.manifest["format"] == FORMAT_VERSION
    assert ("inline" in old.manifest) == (version >= 9) and "graph.json" in new.manifest["inline"]
    assert len(old.manifest["display_starts"]) > 2 and len(old.manifest["graph_starts"]) > 2
    assert old.chunks == new.chunks and old.pages == new.pages and old.graph == new.graph
    queries = generated_queries(old, 40)
    assert [search(old, q) for q in queries] == [search(new, q) for q in queries]
    assert assert_parity(frozen, queries, ["keyword"]) == len(queries)


def test_graph_shards_are_sized_apart(tmp_path, monkeypatch) -> None:
    """Format 6: graph shards end at page boundaries once they hold GRAPH_SHARD_BYTES (the
    manifest's graph_starts), whatever the text and display fragments (one shard on a small site:
    format.py WHOLE_TEXT_BYTES); both engines expand the same as from one shard."""
    from mkdocs_graphsearch.bundle import graph_shards, write

    docs = ROOT / "tests" / "fixtures" / "parity-corpus" / "docs"
    monkeypatch.setattr(graph_shards, "GRAPH_SHARD_BYTES", 64)
    whole = load_bundle(build_bundle_dir(tmp_path / "whole", docs, embeddings=True))
    monkeypatch.setattr(write, "WHOLE_TEXT_BYTES", 0)
    monkeypatch.setattr(write, "text_part", functools.partial(write.text_part, target=1024))
    split_dir = build_bundle_dir(tmp_path / "split", docs, embeddings=True)
    split = load_bundle(split_dir)
    starts, pages = split.manifest["graph_starts"], split.chunks["page"]
    assert whole.manifest["graph_starts"] == [0] and len(starts) > 2
    assert starts not in (split.manifest["text_starts"], split.manifest["display_starts"])
    assert len(split.manifest["text_starts"]) > 1
    assert all(pages[start] != pages[start - 1] for start in starts[1:])
    assert len(split.manifest["files"]["graph.#.json"]) == len(starts)
    assert split.graph == whole.graph
    queries = generated_queries(split, 20)
    assert [search(split, q, mode="hybrid") for q in queries] == [search(whole, q, mode="hybrid") for q in queries]
    assert assert_parity(split_dir, queries, ["hybrid"]) == len(queries)
