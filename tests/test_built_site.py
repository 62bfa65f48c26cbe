"""`graphsearch build SITE_DIR` (issue 21): search added to a site some generator built.

Sites: Zensical's build of the example site, a small Sphinx project (tests/sites/sphinx-lighthouse),
a hand-written site (tests/sites/handmade), and MkDocs + Material with the plugin for the one page
model. The browser side is tests/test_browser_hosts.py; this file checks what lands in the bundle
and the pages. Keyword-only bundles (--no-embeddings): nothing here depends on the model.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from conftest import EXAMPLE_SITE
from host_sites import SITES, graphsearch_build, zensical_build
from mkdocs_graphsearch.built_site.host_index import HostIndex, read_host_index
from mkdocs_graphsearch.built_site.regions import find_region
from mkdocs_graphsearch.built_site.selectors import parse_selector
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.parse.html_elements import ElementParser
from mkdocs_graphsearch.parse.html_tree import HtmlHeading, HtmlText, read_html
from mkdocs_graphsearch.text.tokenize import tokenize


def site_digest(site: Path) -> dict[str, str]:
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*")) if path.is_file()
    }


def chunk_anchors(bundle_site: Path) -> dict[str, str]:
    bundle = load_bundle(bundle_site)
    return dict(zip(bundle.chunks["id"], bundle.chunks["anchor"], strict=True))


# ------------------------------------------------------------------------------ content markers


def test_selectors_match_tag_classes_and_attributes() -> None:
    selector = parse_selector('article.md-content__inner[data-x="1"]')
    assert selector.matches("article", {"class": "md-typeset md-content__inner", "data-x": "1"})
    assert not selector.matches("article", {"class": "md-content__inner"})
    assert parse_selector("#content").matches("div", {"id": "content"})
    assert parse_selector("[data-graphsearch-body]").matches("main", {"data-graphsearch-body": ""})
    with pytest.raises(ValueError, match="combinators"):
        parse_selector("main > article")


def test_the_content_is_cut_out_of_the_theme() -> None:
    page = (
        "<html><head><title>Jobs - Tidewater</title></head><body><nav>Site nav words</nav>"
        '<main><article class="md-content__inner md-typeset">'
        '<a href="edit" class="md-content__button">Edit this page</a>'
        '<h1 id="jobs">Jobs</h1><p>Body text.</p><div data-search-exclude><p>Hidden words</p></div>'
        '<nav class="md-tags"><span class="md-tag">concepts</span><span class="md-tag">python</span></nav>'
        "</article></main><footer>Footer words</footer></body></html>"
    )
    region = find_region(page)
    assert region.marker == "article.md-content__inner"
    assert region.title == "Jobs - Tidewater"
    assert region.tags == ["concepts", "python"]
    assert '<h1 id="jobs">Jobs</h1><p>Body text.</p>' in region.content
    for chrome in ("Site nav", "Edit this page", "concepts", "Footer"):
        assert chrome not in region.content
    # data-search-exclude (Material's block exclusion) is the HTML reader's to skip, in both front-ends.
    assert "Hidden words" not in " ".join(i.text for i in read_html(region.content) if hasattr(i, "text"))
    assert find_region(page, parse_selector("footer")).content == "Footer words"
    assert find_region(page, parse_selector("#nothing")).marker == ""


def test_self_closing_tags_close_their_element_in_both_readers() -> None:
    # parse/html_elements.py: an XHTML-style `<x/>` opens and closes x; a void `<br/>` only opens.
    events: list[str] = []

    class Recorder(ElementParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            events.append(tag)

        def handle_endtag(self, tag: str) -> None:
            events.append(f"/{tag}")

    Recorder().feed("<div/><br/><img src=x />")
    assert events == ["div", "/div", "br", "img"]
    page = '<body><main><p>Kept</p><nav class="md-tags"/><p>Also kept<br/>here</p></main></body>'
    assert find_region(page).content == "<p>Kept</p><p>Also kept<br/>here</p>"
    (text,) = read_html('<p>see <a href="x.md"/>after <br/>more</p>')
    assert isinstance(text, HtmlText) and text.text == "see after\nmore"
    assert [(link.href, link.text) for link in text.links] == [("x.md", "")]


def test_pathological_pages_stay_fast() -> None:
    # A guard against quadratic blow-ups (minutes), not a speed test: CPU time of this process.
    for html in ["<!--" * 50_000, "</" * 100_000, "<a " * 100_000, "<div>" * 100_000 + "</body>",
                 "<section><h2>" * 50_000, "<main>" * 50_000]:
        start = time.process_time()
        find_region(html)
        assert time.process_time() - start < 5, html[:10]


def test_sphinx_section_ids_name_their_headings() -> None:
    html = (
        '<section id="usage"><h1>Usage<a class="headerlink" href="#usage">¶</a></h1><p>x</p>'
        '<section id="fog-horn"><span id="horn"></span><h2>Fog horn</h2><h3 id="own">Own id</h3></section>'
        '<div class="section" id="old-docutils"><h2>Old</h2><h2>Second heading</h2></div></section>'
    )
    headings = [(item.title, item.anchor) for item in read_html(html) if isinstance(item, HtmlHeading)]
    assert headings == [
        ("Usage", "usage"), ("Fog horn", "fog-horn"), ("Own id", "own"), ("Old", "old-docutils"),
        ("Second heading", ""),  # a section's id belongs to its first heading only
    ]


def test_the_hosts_own_indexes_are_read(tmp_path: Path) -> None:
    (tmp_path / "search.json").write_text('{"items": [{"location": "guide/#x"}, {"location": ""}]}', "utf-8")
    assert read_host_index(tmp_path) == HostIndex("search.json", {"guide", ""})
    (tmp_path / "search.json").write_text('{"config": {}, "items": []}', "utf-8")  # Zensical, search off
    assert read_host_index(tmp_path) is None
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text('{"docs": [{"location": "a.html#b"}]}', "utf-8")
    assert read_host_index(tmp_path) == HostIndex("search/search_index.json", {"a.html"})
    (tmp_path / "search" / "search_index.json").unlink()
    (tmp_path / "searchindex.js").write_text('Search.setIndex({"docnames": ["index", "api/usage"]})', "utf-8")
    assert read_host_index(tmp_path) == HostIndex("searchindex.js", {"", "api/usage.html", "api/usage"})


# ------------------------------------------------------------------------------ Zensical


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    site, config = zensical_build(tmp_path_factory.mktemp("zensical") / "project")
    assert graphsearch_build(site, "--config", str(config)) == 0
    return site, config


def test_zensical_site_gets_the_plugins_ids_and_anchors(zensical_site: tuple[Path, Path]) -> None:
    site, _ = zensical_site
    anchors = chunk_anchors(site)
    assert anchors["user-guide/jobs.md::Idempotency keys"] == "idempotency"  # `{ #idempotency }`
    assert anchors["index.md"] == ""
    results = search(load_bundle(site), "visibility_timeout", mode="keyword")["results"]
    assert results[0]["url"].startswith("reference/configuration/")
    # Every page got the tags once; the bundle path is relative to the page, so nested pages work.
    page = (site / "user-guide" / "jobs" / "index.html").read_text(encoding="utf-8")
    assert page.count("data-graphsearch-bundle=") == 1
    assert 'data-graphsearch-bundle="../../search/"' in page


def test_the_hosts_exclusions_are_honoured(zensical_site: tuple[Path, Path], tmp_path: Path) -> None:
    site, config = zensical_site
    # drafts/notes.md has `search: exclude: true`: built, but left out of Zensical's search.json.
    assert (site / "drafts" / "notes" / "index.html").is_file()

    def drafts_indexed(name: str, keep_host_index: bool, *args: str) -> bool:
        copy = tmp_path / name
        shutil.copytree(site, copy)
        if not keep_host_index:
            (copy / "search.json").unlink()
        assert graphsearch_build(copy, *args) == 0
        return any(chunk.startswith("drafts/") for chunk in chunk_anchors(copy))

    assert not drafts_indexed("host-index", True)  # learnt from the host's index
    assert not drafts_indexed("front-matter", False, "--config", str(config))  # read from the source
    assert drafts_indexed("neither", False)  # nothing says so


def test_a_second_run_changes_nothing_and_a_rebuild_is_tagged_again(zensical_site: tuple[Path, Path]) -> None:
    site, config = zensical_site
    before = site_digest(site)
    assert graphsearch_build(site, "--config", str(config)) == 0
    assert site_digest(site) == before
    # The host rebuilds the site (pages without our tags), a runtime folder of an older version
    # lies there: the next run gives the very same site.
    stale = site / "assets" / "graphsearch" / "0123456789ab"
    stale.mkdir()
    zensical = Path(sys.executable).with_name("zensical")
    subprocess.run([str(zensical), "build", "-f", str(config)], check=True, capture_output=True, cwd=config.parent)
    assert "data-graphsearch-bundle" not in (site / "user-guide" / "jobs" / "index.html").read_text("utf-8")
    assert graphsearch_build(site, "--config", str(config)) == 0
    assert site_digest(site) == before


def test_without_inject_the_pages_stay_as_built_and_the_snippet_is_printed(
    zensical_site: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    shutil.copytree(zensical_site[0], site)
    assert graphsearch_build(site, "--no-inject", "--site-url", "https://example.com/docs/") == 0
    assert "data-graphsearch-bundle" not in (site / "user-guide" / "jobs" / "index.html").read_text(encoding="utf-8")
    printed = capsys.readouterr().out
    assert 'data-graphsearch-bundle="/docs/search/"' in printed
    assert 'src="/docs/assets/graphsearch/' in printed


# ------------------------------------------------------------------------------ other hosts


def test_sphinx_sections_land_on_their_real_ids(tmp_path: Path) -> None:
    pytest.importorskip("sphinx", reason="sphinx is not installed")
    site = tmp_path / "html"
    sphinx_build = Path(sys.executable).with_name("sphinx-build")
    subprocess.run(
        [str(sphinx_build), "-q", "-b", "html", str(SITES / "sphinx-lighthouse"), str(site)],
        check=True, capture_output=True,
    )
    assert graphsearch_build(site) == 0
    anchors = chunk_anchors(site)
    assert anchors["usage.html::Lamp rotation speed"] == "lamp-rotation-speed"
    assert anchors["usage.html::Fog horn"] == "fog-horn"
    assert anchors["index.html::Beacon colours"] == "beacon-colours"
    # genindex.html and search.html are not documents in Sphinx's own index: not ours either.
    assert {chunk.split("::")[0] for chunk in anchors} == {"index.html", "usage.html"}
    results = search(load_bundle(site), "foghorn", mode="keyword")["results"]
    assert (results[0]["url"], results[0]["sections"][0]["anchor"]) == ("usage.html", "fog-horn")


def test_a_hand_written_site_marks_its_content(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(SITES / "handmade", site)
    assert graphsearch_build(site) == 0
    bundle = load_bundle(site)
    assert bundle.pages["path"] == ["guide/kites/index.html", "guide/safety.html", "index.html"]
    assert bundle.pages["title"] == ["Kites", "Safety", "Kite club"]
    assert anchors_of(bundle)["guide/kites/index.html::Line tension"] == "line-tension"
    text = " ".join(bundle.texts)
    assert "zeppelinwords" not in text  # data-graphsearch-ignore
    assert "Sitemap" not in text  # outside data-graphsearch-body
    # A redirect page (mkdocs-redirects writes these) has nothing to find.
    (site / "old.html").write_text('<html><head><meta http-equiv="refresh" content="0; url=guide/safety.html">'
                                   "<title>Redirecting...</title></head><body>Redirecting...</body></html>", "utf-8")
    assert graphsearch_build(site) == 0
    assert "old.html" not in load_bundle(site).pages["path"]


def anchors_of(bundle) -> dict[str, str]:
    return dict(zip(bundle.chunks["id"], bundle.chunks["anchor"], strict=True))


def test_bad_options_are_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    site.mkdir()
    assert graphsearch_build(tmp_path / "missing") == 2
    assert graphsearch_build(site, "--strict") == 1  # no page in it: a warning
    assert graphsearch_build(site, "--content-selector", "main > p") == 2
    assert graphsearch_build(site, "--bundle-dir", "../out") == 2
    assert graphsearch_build(site, "--bundle-dir", "assets/graphsearch/x") == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert len(errors) == 4, errors
    assert "combinators" in errors[1] and "--bundle-dir" in errors[2]


def test_source_warnings_name_the_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, site = tmp_path / "docs", tmp_path / "site"
    pages = {"guide/setup": "---\ntags: [unclosed\n---\n\n# Set-up\n", "api/README": "# API\n"}
    for name, source in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / f"{name}.md").write_text(source, "utf-8")
    # Built with directory URLs: guide/setup/index.html, and api/index.html (MkDocs: a README is its folder's index).
    for folder in ("guide/setup", "api"):
        (site / folder).mkdir(parents=True)
        (site / folder / "index.html").write_text("<html><body><main><h1>Title</h1></main></body></html>", "utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: T\n", "utf-8")
    assert graphsearch_build(site, "--config", str(tmp_path / "mkdocs.yml"), "--strict") == 1
    assert "guide/setup.md:2: front matter is not valid YAML" in capsys.readouterr().err
    assert load_bundle(site).pages["path"] == ["api/README.md", "guide/setup.md"]  # the sources' paths, as the plugin's


def test_titles_come_from_the_head_when_the_content_has_no_h1(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "guide").mkdir(parents=True)
    page = "<html><head><title>{}</title></head><body><main>{}</main></body></html>"
    (site / "guide" / "setup.html").write_text(page.format("Set-up — Kite club docs", "<p>Words</p>"), "utf-8")
    (site / "index.html").write_text(page.format("Kite club", "<h1>Welcome aboard</h1>"), "utf-8")
    assert graphsearch_build(site) == 0
    assert load_bundle(site).pages["title"] == ["Set-up", "Welcome aboard"]


def test_a_page_without_a_content_marker_is_warned_about(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><body><h1>Plain</h1><p>Words</p></body></html>", encoding="utf-8")
    assert graphsearch_build(site) == 0
    assert "index.html" in capsys.readouterr().err
    assert graphsearch_build(site, "--strict") == 1


# ------------------------------------------------------------------------------ one page model


def _chunks(site: Path) -> dict[str, tuple[str, str, str, Counter[str]]]:
    bundle = load_bundle(site)
    columns = zip(bundle.chunks["id"], bundle.chunks["kind"], bundle.chunks["anchor"], bundle.chunks["title"],
                  bundle.texts, strict=True)
    return {chunk: (kind, anchor, title, Counter(tokenize(text))) for chunk, kind, anchor, title, text in columns}


def test_the_plugin_and_graphsearch_build_give_the_same_chunks(tmp_path: Path) -> None:
    """One page model: MkDocs + Material + the plugin, then `graphsearch build` over a copy of
    that very site (the sources' facts from --config). Every chunk agrees: id, kind, anchor,
    title, and text as a token multiset."""
    pytest.importorskip("material", reason="mkdocs-material is not installed")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    plugin_site = tmp_path / "plugin"
    config = EXAMPLE_SITE / "mkdocs-material.yml"
    build(load_config(config_file=str(config), site_dir=str(plugin_site),
                      plugins=[{"graphsearch": {"embeddings": False, "related_pages": True}}]))
    built_site = tmp_path / "built"
    shutil.copytree(plugin_site, built_site)
    assert graphsearch_build(built_site, "--config", str(config)) == 0
    plugin, built = _chunks(plugin_site), _chunks(built_site)
    assert sorted(built) == sorted(plugin)
    differences = {chunk: (plugin[chunk], built[chunk]) for chunk in plugin if plugin[chunk] != built[chunk]}
    assert differences == {}
    pages = [{key: load_bundle(site).pages[key] for key in ("path", "url", "title", "tags")}
             for site in (plugin_site, built_site)]
    assert pages[0] == pages[1]


def test_a_page_past_its_size_bound_is_a_warning_not_a_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs_graphsearch.built_site import site_build

    site = tmp_path / "site"
    shutil.copytree(SITES / "handmade", site)
    big = site / "guide" / "safety.html"
    monkeypatch.setattr(site_build, "MAX_PAGE_HTML", big.stat().st_size - 1)
    assert graphsearch_build(site) == 0
    assert "guide/safety.html" not in load_bundle(site).pages["path"]
    assert "guide/safety.html is" in capsys.readouterr().err
    assert graphsearch_build(site, "--strict") == 1
