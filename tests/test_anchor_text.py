"""Anchor text (index/anchor_text.py): the text of links pointing at a section is a BM25F field
of that section, so the words other pages use for it find it."""

from __future__ import annotations

from pathlib import Path

from conftest import build_bundle_dir
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.anchor_text import incoming_anchor_text
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.parse import parse_page

PAGES = {
    "workers.md": "# Workers\n\nWorkers lease jobs.\n\n## Stopping\n\nA worker finishes what it leased, then exits.\n\n"
                  "See [this section](#stopping).\n",
    "deploy.md": "# Deploy\n\nSend the signal and let the [graceful shutdown](workers.md#stopping) run.\n\n"
                 "## Servers\n\nRun it under systemd: [[workers]] and [[workers#Stopping|orderly exit]].\n",
    "other.md": "# Other\n\nNothing about it: a shutdown of the office.\n",
}


def _corpus() -> Corpus:
    known = set(PAGES)
    return Corpus.from_pages(parse_page(text, path, known) for path, text in PAGES.items())


def test_each_chunk_gets_the_texts_of_the_links_pointing_at_it() -> None:
    corpus = _corpus()
    texts = dict(zip((chunk.id for chunk in corpus.chunks), incoming_anchor_text(corpus), strict=True))
    # An anchored link names its section; a link without anchor the page root. A link from a
    # chunk to itself says nothing about it.
    assert texts["workers.md::Stopping"] == "graceful shutdown\norderly exit"
    assert texts["workers.md"] == "workers"
    assert texts["deploy.md"] == texts["deploy.md::Servers"] == texts["other.md"] == ""
    page = parse_page("# Self\n\n## A\n\n[me](#a)\n", "self.md", {"self.md"})
    assert incoming_anchor_text(Corpus.from_pages([page])) == ["", ""]


def test_the_words_of_links_find_their_target(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for path, text in PAGES.items():
        (docs / path).write_text(text, encoding="utf-8")
    bundle = load_bundle(build_bundle_dir(tmp_path / "bundle", docs, embeddings=False))
    # `orderly` is only in a link's text: its target is found beside the section that links.
    output = search(bundle, "orderly exit", mode="keyword")
    found = {section["id"] for page in output["results"] for section in page["sections"]}
    assert found == {"workers.md::Stopping", "deploy.md::Servers"}
    # The section a link calls "graceful shutdown" ranks above a page that says "shutdown" in
    # passing (without the field it would not be found at all).
    output = search(bundle, "graceful shutdown", mode="keyword")
    ranked = [section["id"] for page in output["results"] for section in page["sections"]]
    assert ranked.index("workers.md::Stopping") < ranked.index("other.md")
