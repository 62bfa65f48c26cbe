"""Shared fixtures: paths to the repository, the shared corpora and node."""

from __future__ import annotations

import contextlib
import fcntl
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# Before any test module imports numpy: the package's one-BLAS-thread default (see its
# __init__) only holds if it loads first, and bundles built in-process must equal the CLI
# subprocesses' byte for byte (with numpy first, a test order gave two threads and other bytes).
import mkdocs_graphsearch  # noqa: F401

if TYPE_CHECKING:
    from mkdocs_graphsearch.bundle.read import Bundle

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
EVAL = SHARED / "eval"
VECTORS = ROOT / "tests" / "vectors"
EXAMPLE_SITE = ROOT / "example-site"
#: The frozen engine bundle (`bundle`, first made in format 1) and the docs it was built from.
FROZEN_ENGINE = VECTORS / "engine"


def require_shared(path: Path) -> Path:
    """Skip the calling test with a reason when ../shared (CI only) is not beside the clone."""
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared is only beside CI's clone)")
    return path


@pytest.fixture(scope="session")
def node() -> str:
    exe = shutil.which("node")
    if exe is None:
        pytest.skip("node is not installed")
    return exe


@pytest.fixture
def frozen() -> Bundle:
    """The frozen engine bundle, loaded afresh: a test may edit its manifest."""
    from mkdocs_graphsearch.bundle.read import load_bundle

    return load_bundle(FROZEN_ENGINE / "bundle")


@pytest.fixture
def flush_each_passage(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build writes its passage vectors and reports progress after every passage
    (index/semantic.py), so a build stopped midway leaves what it embedded."""
    import mkdocs_graphsearch.index.semantic as semantic

    monkeypatch.setattr(semantic, "FLUSH_SECONDS", 0.0)
    monkeypatch.setattr(semantic, "PROGRESS_SECONDS", 0.0)


#: Embeddings cache shared by the test session (and kept between local runs: .cache is ignored).
EMBED_CACHE = ROOT / ".cache" / "test-embeddings"


def topic_docs(folder: Path, word: str) -> Path:
    """A one-page docs folder of 12 short sections, each naming `word`: another word changes
    every passage (the interrupted and killed build tests)."""
    folder.mkdir(exist_ok=True)
    sections = "\n".join(f"## Topic {i}\n\nThe {word} paragraph about topic number {i}.\n" for i in range(12))
    (folder / "index.md").write_text(f"# Home\n\n{sections}", encoding="utf-8")
    return folder


@contextlib.contextmanager
def cache_lock(cache: Path) -> Iterator[None]:
    """Hold an embedding cache folder alone across the pytest-xdist workers: a second build
    of the same docs waits for the first, then reads the vectors it cached, instead of running
    the model over the same passages beside it (both workers reach the same fixtures at once)."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache.parent / f"{cache.name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def build_bundle_dir(
    out: Path,
    docs: Path,
    *,
    embeddings: bool,
    clusters: int | str | None = None,
    probe: int | None = None,
    cells: int | None = None,
    site_name: str = "",
) -> Path:
    """Parse a docs folder and write its bundle (with the default model when embeddings;
    `clusters`, `probe`, `cells`: the clustered vector layout, index/kmeans.py clustered_layout;
    `site_name`: mkdocs.yml's)."""
    from mkdocs_graphsearch.bundle.write import write_bundle
    from mkdocs_graphsearch.index.builder import build_files
    from mkdocs_graphsearch.parse.folder import parse_folder

    semantic, cache = None, None
    if embeddings:
        from mkdocs_graphsearch.index.embed import Embedder
        from mkdocs_graphsearch.index.semantic import SemanticOptions

        # One cache folder per docs tree: a cache keeps one fitted query encoder, so trees
        # sharing a folder would refit (run the model over every passage) on each build.
        cache = EMBED_CACHE / f"{docs.resolve().parent.name}-{docs.name}"
        semantic = SemanticOptions(Embedder(), cache)
        semantic.vector_clusters, semantic.vector_probe, semantic.vector_cells = clusters, probe, cells

    def fail(message: str) -> None:
        raise AssertionError(message)

    with cache_lock(cache) if cache else contextlib.nullcontext():
        write_bundle(out, build_files(parse_folder(docs), semantic=semantic, warn=fail, site_name=site_name))
    return out


def bundle_part(bundle: Path, part: str) -> Path:
    """Where a part of a bundle (by its logical name, e.g. "keyword.json") is on disk."""
    from mkdocs_graphsearch.bundle.format import MANIFEST, file_name

    return bundle / file_name(json.loads((bundle / MANIFEST).read_bytes()), part)


def bundle_part_bytes(bundle: Path, part: str) -> bytes:
    """A part's bytes: from its file, or from the manifest that holds it (format 9: its `inline`)."""
    from mkdocs_graphsearch.bundle.format import MANIFEST, inline_part

    held = inline_part(json.loads((bundle / MANIFEST).read_bytes()), part)
    return bundle_part(bundle, part).read_bytes() if held is None else held


def rewrite_bundle_file(bundle: Path, part: str, data: bytes) -> None:
    """Replace one bundle part (or the manifest, as JSON) and fix the manifest so the tampered
    part still loads: the CRC-32 (so the name) and checksum a writer of those bytes would give."""
    from mkdocs_graphsearch.bundle.format import MANIFEST, checksum, file_key, hashed_name
    from mkdocs_graphsearch.bundle.write import sealed_manifest

    manifest = json.loads(data if part == MANIFEST else (bundle / MANIFEST).read_bytes())
    if part in manifest.get("inline", {}):  # format 9: a part the manifest holds
        manifest["inline"][part] = data.decode()
    elif part != MANIFEST:
        bundle_part(bundle, part).unlink()
        (bundle / hashed_name(part, data)).write_bytes(data)
    if part != MANIFEST:
        key, index = file_key(part)
        if index is None:
            manifest["files"][key] = checksum(data)
        else:
            manifest["files"][key][index] = checksum(data)
    (bundle / MANIFEST).write_bytes(sealed_manifest(manifest))


#: The one headless chromium of a test session: [sync_playwright() manager, browser, users].
_CHROMIUM: list = [None, None, 0]
#: How long a browser expectation may wait (Playwright's default: 5 s). One passes as soon as it
#: holds, so a generous limit costs a green run nothing, and a loaded machine (the suite beside
#: other work on 2 cores) does not turn a slow answer into a failure.
EXPECT_MS = 30_000


@contextlib.contextmanager
def groups_layout() -> Iterator[None]:
    """Clustered builds laid out as format 5 wrote them (group files, no hoods: index/kmeans.py
    probe_rule without hood_chunks), for the tests of that layout, which both engines still read."""
    from mkdocs_graphsearch.index import kmeans

    rule = kmeans.probe_rule
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kmeans, "probe_rule", lambda *args: {k: v for k, v in rule(*args).items() if k != "hood_chunks"})
        yield


@contextlib.contextmanager
def shared_chromium(executable: Path, args: list[str]) -> Iterator[object]:
    """Launch chromium once however many `browser` fixtures hold it at a time (a module may define
    its own, and Playwright's sync API cannot start a second instance on the same thread); closed
    with its last user."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_MS)
    if _CHROMIUM[2] == 0:
        manager = sync_playwright()
        playwright = manager.__enter__()
        try:
            _CHROMIUM[1] = playwright.chromium.launch(executable_path=str(executable), args=args)
        except BaseException:
            manager.__exit__(None, None, None)
            raise
        _CHROMIUM[0] = manager
    _CHROMIUM[2] += 1
    try:
        yield _CHROMIUM[1]
    finally:
        _CHROMIUM[2] -= 1
        if _CHROMIUM[2] == 0:
            _CHROMIUM[1].close()
            _CHROMIUM[0].__exit__(None, None, None)
            _CHROMIUM[:] = [None, None, 0]


# ------------------------------------------------------------------ real-browser fixtures
# Here, not in a test module: a fixture imported by several modules is one per module, and the
# browser modules share one set of built sites (tests/browser_support.py builds and serves them).


@pytest.fixture(scope="session")
def browser():
    """The session's headless chromium (skips without Playwright or Debian's chromium)."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from browser_support import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; CI installs it)")
    with shared_chromium(CHROMIUM, CHROMIUM_ARGS) as browser:
        yield browser


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory):
    """The example site's test builds, each built on first use, served by one local server."""
    from browser_support import Sites, serve

    root = tmp_path_factory.mktemp("browser") / "www"
    root.mkdir()
    with serve(root) as base_url:
        yield Sites(root, base_url)


@pytest.fixture
def page(browser, sites):
    """A fresh page that records requests and dialogs (alert); any page error fails the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.requests = []
    page.dialogs = []
    errors = []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: errors.append(f"{error.message}\n{error.stack}"))
    yield page
    context.close()
    assert not errors, "page errors:\n" + "\n".join(errors)


def keyword_only_example_site(tmp_path: Path) -> Path:
    """A copy of the example site (without its cache or built site) whose plugin builds keyword
    search only: for tests about a host or an MkDocs version, not the model. Its mkdocs.yml."""
    project = tmp_path / "example-site"
    shutil.copytree(EXAMPLE_SITE, project, ignore=shutil.ignore_patterns(".cache", "site"))
    config = project / "mkdocs.yml"
    plugin = "  - graphsearch:\n"
    text = config.read_text(encoding="utf-8").replace(plugin, plugin + "      embeddings: false\n")
    config.write_text(text, encoding="utf-8")
    return config
