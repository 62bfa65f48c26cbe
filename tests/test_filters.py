"""Filters (`tags:`, `in:`, `kind:`, `lang:`), code search and path search on the example site
(issue 12): in the query, from the CLI, and in the bundle (engine/filters.py is the spec;
tests/vectors/filters.json pins the syntax for both engines, tests/test_parity.py their answers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from conftest import EXAMPLE_SITE, VECTORS, build_bundle_dir
from mkdocs_graphsearch.bundle.read import Bundle, load_bundle
from mkdocs_graphsearch.engine.keyword import keyword_scores
from mkdocs_graphsearch.engine.search import search


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("filters"), EXAMPLE_SITE / "docs", embeddings=True)


@pytest.fixture(scope="module")
def bundle(site: Path) -> Bundle:
    return load_bundle(site)


def pages(output: dict[str, Any]) -> list[str]:
    return [page["page"] for page in output["results"]]


def sections(output: dict[str, Any]) -> list[dict[str, Any]]:
    return [section for page in output["results"] for section in page["sections"]]


def chunk_kind(bundle: Bundle, section_id: str) -> str:
    kind: str = bundle.chunks["kind"][bundle.chunks["id"].index(section_id)]
    return kind


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_tags_and_in_restrict_to_their_pages(bundle: Bundle, mode: str) -> None:
    tagged = {"getting-started/quickstart.md", "ja/quickstart-ja.md", "reference/python-client.md",
              "user-guide/jobs.md"}  # tags: python
    assert search(bundle, "retry")["results"], "the unfiltered query finds pages"
    found = pages(search(bundle, "tags:python retry", mode=mode))
    assert found and set(found) <= tagged
    # One facet's values are OR'd, two facets AND'd.
    either = set(pages(search(bundle, "tags:python tags:go worker", mode=mode)))
    assert "how-to/go-and-rust-workers.md" in either and either & tagged
    assert pages(search(bundle, "tags:python in:how-to worker", mode=mode)) == []
    kubernetes = search(bundle, "in:how-to kubernetes", mode=mode)
    assert pages(kubernetes)[0] == "how-to/deploy-to-production.md"
    assert all(page.startswith("how-to/") for page in pages(kubernetes))
    assert kubernetes["filters"] == {"in": ["how-to"]}


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_kind_and_lang(bundle: Bundle, mode: str) -> None:
    code = sections(search(bundle, "kind:code retry policy", mode=mode))
    assert code and all(chunk_kind(bundle, s["id"]) == "code" for s in code)
    assert any(chunk_kind(bundle, s["id"]) != "code" for s in sections(search(bundle, "retry policy", mode=mode)))
    prose = sections(search(bundle, "kind:prose retry policy", mode=mode))
    assert prose and all(chunk_kind(bundle, s["id"]) in ("page", "section") for s in prose)
    python = sections(search(bundle, "lang:python retry", mode=mode))
    assert python and {s["language"] for s in python} == {"python"}
    # Aliases: ```js and ```javascript blocks are one language, found by either name.
    js = sections(search(bundle, "lang:js worker", mode=mode))
    assert js == sections(search(bundle, "lang:javascript worker", mode=mode))
    assert js and {s["language"] for s in js} == {"javascript"}
    rust = search(bundle, "lang:rust worker", mode=mode)
    assert [s["id"] for s in sections(rust)] == ["how-to/go-and-rust-workers.md::Rust::code-2"]


def test_filtered_keyword_results_are_the_unfiltered_ones_restricted(bundle: Bundle) -> None:
    """Keyword scores do not depend on other chunks: a filter keeps each chunk's score."""
    unfiltered = keyword_scores(bundle, "queue worker").scores
    filtered = sections(search(bundle, "queue worker in:user-guide kind:code", mode="keyword", limit=100))
    assert len(filtered) > 2
    for section in filtered:
        assert section["id"].startswith("user-guide/") and chunk_kind(bundle, section["id"]) == "code"
        assert section["score"] == unfiltered[bundle.chunks["id"].index(section["id"])]


def test_a_query_of_filters_alone_lists_the_matching_pages(bundle: Bundle) -> None:
    listed = search(bundle, "tags:deployment")
    assert pages(listed) == ["how-to/deploy-to-production.md"]
    first = listed["results"][0]["sections"][0]
    assert first["id"] == "how-to/deploy-to-production.md" and first["via"] == ["filter"] and first["score"] == 0
    in_reference = pages(search(bundle, "in:reference"))
    assert in_reference == sorted(in_reference) and len(in_reference) == 5  # bundle order: by path
    assert pages(search(bundle, "tags:nothing-is-tagged-this")) == []
    # Unknown facet names, and filters without a value, are text.
    assert search(bundle, "http://x", mode="keyword")["results"] == search(bundle, "http x", mode="keyword")["results"]
    assert "filters" not in search(bundle, "http://x") and "filters" not in search(bundle, "tags: retry")


@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
@pytest.mark.parametrize(
    ("query", "key", "use"),
    [
        # `def enqueue(...)` in the reference (and its section, headed `enqueue()`) over the many
        # blocks that call client.enqueue().
        ("enqueue", "enqueue", "getting-started/quickstart.md::4. Enqueue a job::code-2"),
        ("TidewaterClient", "tidewaterclient", "reference/python-client.md::Jobs"),
        ("resize_image", "resize_image", "getting-started/quickstart.md::4. Enqueue a job::code-1"),
        ("GenerateReport", "generatereport", "user-guide/jobs.md::Enqueueing jobs::code-1"),
    ],
)
def test_what_defines_a_name_ranks_above_its_uses(bundle: Bundle, mode: str, query: str, key: str, use: str) -> None:
    defining = {bundle.chunks["id"][chunk] for chunk in bundle.defines.get(key, [])}  # key, or a dotted name's end
    found = sections(search(bundle, query, mode=mode, limit=20))
    first = [s["score"] for s in found if s["id"] in defining]
    others = [s["score"] for s in found if s["id"] not in defining and s["via"] != ["graph"]]
    assert first and others and min(first) > max(others), (first, others)
    assert found[0]["id"] in defining or found[0]["id"] + "::code-1" in defining
    # The use is listed, or its section where that scores higher (they share an anchor).
    listed = [s["id"] for s in found]
    assert (use in listed or use.rsplit("::", 1)[0] in listed) and use not in defining

@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_a_file_name_or_a_path_finds_its_page(bundle: Bundle, mode: str) -> None:
    for query in ("deploy-to-production", "deploy-to-production.md", "how-to/dep"):
        top = search(bundle, query, mode=mode)["results"][0]
        assert top["page"] == "how-to/deploy-to-production.md", query
    assert search(bundle, "retries.md", mode=mode)["results"][0]["page"] == "user-guide/retries.md"
    guide = pages(search(bundle, "user-guide/", mode=mode))
    assert all(page.startswith("user-guide/") for page in guide[:5]), guide
    assert pages(search(bundle, "user-guide/jobs", mode=mode))[0] == "user-guide/jobs.md"
    # The title still finds it, and a word of a path is not a path (`started` in a question).
    assert pages(search(bundle, "deploying to production", mode=mode))[0] == "how-to/deploy-to-production.md"


def test_the_bundle_carries_tags_definitions_and_facets(bundle: Bundle) -> None:
    python_client = bundle.pages["path"].index("reference/python-client.md")
    assert bundle.pages["tags"][python_client] == ["reference", "python", "api"]
    chunk = {chunk_id: i for i, chunk_id in enumerate(bundle.chunks["id"])}
    defines = {i: sorted(name for name, chunks in bundle.defines.items() if i in chunks) for i in chunk.values()}
    assert defines[chunk["user-guide/jobs.md::Defining tasks::code-2"]] == ["generatereport", "run", "setup"]
    assert defines[chunk["user-guide/jobs.md::Enqueueing jobs::code-1"]] == []  # `job = client.enqueue(...)`
    page = chunk["how-to/deploy-to-production.md"]  # and the part after the dot: `md`; its title's key
    names = ["deploy-to-production", "deploy-to-production.md", "deploying to production", "how-to", "md"]
    assert defines[page] == names
    assert defines[chunk["reference/python-client.md::enqueue_many()"]] == ["enqueue_many"]  # headed by the name
    facets = bundle.manifest["facets"]
    folders = {entry["value"] for entry in facets["in"]}
    assert folders == {"about", "getting-started", "how-to", "ja", "reference", "user-guide", "zh"}
    assert [entry["value"] for entry in facets["kind"]] == ["prose", "code"]
    assert {"value": "python", "label": "python", "count": 34} in facets["lang"]  # 4 in ja/, zh/
    assert {"value": "dead-letter-queue", "label": "dead letter queue", "count": 1} in facets["tags"]


def test_a_bundle_without_them_still_filters() -> None:
    """The frozen format-1 bundle has no tags, definitions, facets or language aliases."""
    frozen = load_bundle(VECTORS / "engine" / "bundle")
    assert "facets" not in frozen.manifest and "tags" not in frozen.pages and "defines" not in frozen.chunks
    assert pages(search(frozen, "in:guide retry")) == ["guide/configure.md"]
    assert search(frozen, "tags:ops install")["results"] == []
    assert [s["language"] for s in sections(search(frozen, "lang:bash"))] == ["bash"]


def graphsearch(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "mkdocs_graphsearch.commands.cli", *args], capture_output=True)


@pytest.mark.parametrize("engine", ["python", "js"])
def test_cli_filter_is_the_in_query_syntax(site: Path, engine: str) -> None:
    apart = graphsearch("query", str(site), "retry", "--filter", "kind:code", "--filter", "lang:py",
                        "--json", "--engine", engine)
    typed = graphsearch("query", str(site), "retry kind:code lang:py", "--json", "--engine", engine)
    assert apart.returncode == 0 and typed.returncode == 0, (apart.stderr, typed.stderr)
    separate, inline = orjson.loads(apart.stdout), orjson.loads(typed.stdout)
    assert separate["filters"] == inline["filters"] == {"kind": ["code"], "lang": ["py"]}
    assert separate["results"] == inline["results"] and separate["results"]
    assert {s["language"] for s in sections(separate)} == {"python"}
    text = graphsearch("query", str(site), "retry", "--filter", 'tags:"dead letter queue"', "--engine", engine)
    assert b"filtered by tags:dead-letter-queue" in text.stdout and b"how-to/dead-letter-queues.md" in text.stdout


def test_cli_shows_a_code_blocks_language(site: Path) -> None:
    done = graphsearch("query", str(site), "lang:rust worker")
    assert b"  [rust]  /how-to/go-and-rust-workers/#rust" in done.stdout, done.stdout


@pytest.mark.parametrize("value", ["kindx:code", "tags:", "deploy", "in:/"])
def test_cli_refuses_a_bad_filter(site: Path, value: str) -> None:
    done = graphsearch("query", str(site), "retry", "--filter", value)
    assert done.returncode == 2 and done.stderr.startswith(b"error: --filter: "), done.stderr
