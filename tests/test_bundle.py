"""Bundle v2: deterministic bytes and content-hashed names, a writer that touches only its own
files, and clear errors for newer, truncated or corrupted bundles."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import orjson
import pytest

from conftest import EXAMPLE_SITE, ROOT, build_bundle_dir
from mkdocs_graphsearch.bundle.format import (
    FORMAT_VERSION,
    MANIFEST,
    BundleError,
    decode_varints,
    encode_varints,
    file_name,
    listed_parts,
    seal_manifest,
)
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.index.builder import build_files
from mkdocs_graphsearch.parse.folder import parse_folder


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle")
    write_bundle(out, build_files(parse_folder(EXAMPLE_SITE / "docs")))
    return out


def test_same_docs_give_identical_bytes(bundle_dir: Path) -> None:
    again = build_files(parse_folder(EXAMPLE_SITE / "docs"))
    for name, data in again.items():
        assert (bundle_dir / name).read_bytes() == data, name


def test_varints_round_trip() -> None:
    values = [0, 1, 127, 128, 255, 300, 16383, 16384, 2**31, 2**40 + 5]
    assert decode_varints(encode_varints(values)).tolist() == values
    with pytest.raises(BundleError):
        decode_varints(encode_varints([300])[:-1])


def test_excluded_page_is_not_in_the_bundle(bundle_dir: Path) -> None:
    bundle = load_bundle(bundle_dir)
    assert "drafts/notes.md" not in bundle.pages["path"]
    assert search(bundle, "marmalade", mode="keyword")["results"] == []


def _broken_copy(bundle_dir: Path, tmp_path: Path, part: str, change) -> Path:  # type: ignore[no-untyped-def]
    copy = tmp_path / "bundle"
    shutil.copytree(bundle_dir, copy)
    target = copy / (part if part == MANIFEST else file_name(_manifest(copy), part))
    target.write_bytes(change(target.read_bytes()))
    return copy


def _manifest(folder: Path) -> dict:
    return orjson.loads((folder / MANIFEST).read_bytes())


FORMAT = f'"format":{FORMAT_VERSION}'.encode()
NOT_AN_INTEGER = "format version is not an integer"


SEAL = len(b'{"checksum":"00000000",')


def _format(spelling: bytes):  # type: ignore[no-untyped-def]
    """The manifest with another `format`, its checksum recomputed (as a writer of that would)."""
    return lambda b: seal_manifest(b"{" + b[SEAL:].replace(FORMAT, spelling))


CORRUPTIONS = {
    "newer format": ("manifest.json", _format(b'"format":99'), "newer than this"),
    "no format": ("manifest.json", _format(b'"formax":1'), "no format version"),
    # JSON.parse reads 2.0 as 2, orjson as a float: both engines refuse every spelling but an integer.
    "format 2.0": ("manifest.json", _format(FORMAT + b".0"), NOT_AN_INTEGER),
    "format 1.0": ("manifest.json", _format(b'"format":1.0'), NOT_AN_INTEGER),
    "format 2**64": ("manifest.json", _format(b'"format":18446744073709551616'), NOT_AN_INTEGER),  # orjson: a float
    "format 2e0": ("manifest.json", _format(FORMAT + b"e0"), NOT_AN_INTEGER),
    "format true": ("manifest.json", _format(b'"format":true'), NOT_AN_INTEGER),
    "format string": ("manifest.json", _format(b'"format":"2"'), NOT_AN_INTEGER),
    "manifest not json": ("manifest.json", lambda b: b[:10], "not valid JSON"),
    "format edited, checksum not": ("manifest.json", lambda b: b.replace(FORMAT, b'"format":2'), "corrupted"),
    "format 2": ("manifest.json", _format(b'"format":2'), "bundle format 2, no longer supported"),
    "truncated postings": ("postings.0.bin", lambda b: b[: len(b) // 2], "corrupted"),  # the CRC-32 tells
    "corrupted postings": ("postings.0.bin", lambda b: bytes([b[0] ^ 0xFF]) + b[1:], "corrupted"),
    "truncated keyword": ("keyword.json", lambda b: b[:-5], "corrupted"),
    "corrupted text": ("text.0.json", lambda b: b.replace(b"Tidewater", b"Tidewaver", 1), "corrupted"),
}


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_bad_bundles_give_a_clear_error_in_python(bundle_dir: Path, tmp_path: Path, case: str) -> None:
    name, change, message = CORRUPTIONS[case]
    with pytest.raises(BundleError, match=message):
        load_bundle(_broken_copy(bundle_dir, tmp_path, name, change))


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_bad_bundles_give_a_clear_error_in_js(bundle_dir: Path, tmp_path: Path, case: str, node: str) -> None:
    name, change, message = CORRUPTIONS[case]
    broken = _broken_copy(bundle_dir, tmp_path, name, change)
    done = subprocess.run(
        [node, str(ROOT / "js" / "drivers" / "query.mjs"), str(broken)],
        input=orjson.dumps([{"query": "retry"}]),
        capture_output=True,
    )
    assert done.returncode == 1
    assert message in done.stderr.decode(), done.stderr.decode()
    assert "    at " not in done.stderr.decode(), "a stack trace instead of a message"


def test_missing_bundle_is_a_clear_cli_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs_graphsearch.commands.cli", "query", str(tmp_path), "x"],
        capture_output=True,
    )
    assert done.returncode == 2  # bad input (a broken bundle is 1)
    assert b"no search bundle" in done.stderr
    assert b"Traceback" not in done.stderr


def test_semantic_bundle_is_deterministic_without_a_cache(tmp_path: Path) -> None:
    """Two cold builds (model run twice, no cache) give the same bytes, vectors and encoder included."""
    from conftest import VECTORS
    from mkdocs_graphsearch.index.embed import Embedder
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    docs = VECTORS / "engine" / "docs"
    first = build_files(parse_folder(docs), semantic=SemanticOptions(Embedder(), None))
    second = build_files(parse_folder(docs), semantic=SemanticOptions(Embedder(), None))
    assert {"vectors.bin", "encoder.0.bin", "encoder-model.bin"} <= set(listed_parts(orjson.loads(first[MANIFEST])))
    assert first == second


def test_cached_rebuild_gives_the_same_bytes(tmp_path: Path) -> None:
    from conftest import VECTORS
    from mkdocs_graphsearch.index.embed import Embedder
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    docs = VECTORS / "engine" / "docs"
    progress: list[tuple[int, int]] = []
    options = SemanticOptions(Embedder(), tmp_path / "cache", lambda done, total, rate: progress.append((done, total)))
    cold = build_files(parse_folder(docs), semantic=options)
    assert progress and progress[-1][0] == progress[-1][1] > 0
    progress.clear()
    warm = build_files(parse_folder(docs), semantic=options)
    assert warm == cold
    assert progress == [], "a cached rebuild embedded something"
    lazy = Embedder(lazy=True)
    assert build_files(parse_folder(docs), semantic=SemanticOptions(lazy, tmp_path / "cache")) == cold
    assert lazy._session is None, "a cached rebuild started the model (~0.6 s)"
    lazy.embed_query("started on first use")
    assert lazy._session is not None and lazy.dim == 384


def test_serve_reuses_the_last_encoder_and_embeds_only_changed_chunks(tmp_path: Path) -> None:
    import shutil

    from conftest import VECTORS
    from mkdocs_graphsearch.index.embed import Embedder
    from mkdocs_graphsearch.index.semantic import SemanticOptions

    docs = tmp_path / "docs"
    shutil.copytree(VECTORS / "engine" / "docs", docs)
    embedder = Embedder()
    build_files(parse_folder(docs), semantic=SemanticOptions(embedder, tmp_path / "cache"))
    page = docs / "install.md"
    page.write_text(page.read_text() + "\nA new closing paragraph.\n")
    embedded: list[int] = []
    serving = SemanticOptions(embedder, tmp_path / "cache", lambda d, t, r: embedded.append(t), reuse_encoder=True)
    build_files(parse_folder(docs), semantic=serving)
    assert embedded and embedded[-1] == 1, embedded  # only the edited section


# ------------------------------------------------------------------ names and the writer


def _folder(path: Path) -> dict[str, bytes]:
    return {file.name: file.read_bytes() for file in sorted(path.iterdir())}


def _small_docs(folder: Path, word: str) -> Path:
    folder.mkdir()
    (folder / "index.md").write_text(f"# Home\n\nWelcome to the {word} docs.\n", encoding="utf-8")
    (folder / "guide.md").write_text("# Guide\n\n## Install\n\nRun the installer.\n", encoding="utf-8")
    return folder


def test_parts_have_content_hashed_names_and_the_manifest_maps_them(bundle_dir: Path) -> None:
    manifest = _manifest(bundle_dir)
    assert manifest["format"] == FORMAT_VERSION == 10
    assert set(manifest["inline"]) == {"graph.json", *(["encoder.json"] if "vectors" in manifest else [])}
    assert not any(name.startswith(("graph.json", "encoder.json")) for name in listed_parts(manifest))
    fragments = [f"text.{i}.json" for i in range(len(manifest["text_starts"]))]
    assert [part for part in listed_parts(manifest) if part.startswith("text.")] == fragments
    assert len(manifest["files"]["text.#.json"]) == len(fragments)  # one list per kind of numbered part
    on_disk = {file.name for file in bundle_dir.iterdir()}
    assert on_disk == {MANIFEST} | {file_name(manifest, part) for part in listed_parts(manifest)}
    for part in listed_parts(manifest):
        stem, ext = part.rsplit(".", 1)
        name = file_name(manifest, part)
        data = (bundle_dir / name).read_bytes()
        assert name == f"{stem}.{zlib.crc32(data):08x}.{ext}", name
    assert not (bundle_dir / "keyword.json").exists()


def test_two_builds_give_byte_identical_folders(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    write_bundle(first, build_files(parse_folder(EXAMPLE_SITE / "docs")))
    write_bundle(second, build_files(parse_folder(EXAMPLE_SITE / "docs")))
    assert _folder(first) == _folder(second)


def test_changed_content_changes_only_the_changed_parts_names(tmp_path: Path) -> None:
    a = _manifest(build_bundle_dir(tmp_path / "a", _small_docs(tmp_path / "docs-a", "alpha"), embeddings=False))
    b = _manifest(build_bundle_dir(tmp_path / "b", _small_docs(tmp_path / "docs-b", "bravo"), embeddings=False))
    names = lambda m: {part: file_name(m, part) for part in listed_parts(m)}  # noqa: E731
    assert names(a)["postings.0.bin"] != names(b)["postings.0.bin"]  # their terms and stems
    assert names(a)["text.0.json"] != names(b)["text.0.json"]
    assert names(a)["graph.0.json"] == names(b)["graph.0.json"]  # same bytes, same name


def test_writer_removes_its_stale_parts_and_nothing_else(tmp_path: Path) -> None:
    out = tmp_path / "search"
    out.mkdir()
    foreign = {"search_index.json": b'{"docs": []}', "data.json": b"[1, 2]", "model.bin": b"\x00\x01",
               "keyword.json": b"not ours either", "notes.txt": b"hello"}
    for name, data in foreign.items():
        (out / name).write_bytes(data)
    build_bundle_dir(out, _small_docs(tmp_path / "docs-a", "alpha"), embeddings=False)
    old = _manifest(out)
    build_bundle_dir(out, _small_docs(tmp_path / "docs-b", "bravo"), embeddings=False)
    new = _manifest(out)
    old_names = {file_name(old, part) for part in listed_parts(old)}
    new_names = {file_name(new, part) for part in listed_parts(new)}
    assert old_names - new_names, "the test needs parts that changed"
    assert {file.name for file in out.iterdir()} == set(foreign) | new_names | {MANIFEST}
    for name, data in foreign.items():
        assert (out / name).read_bytes() == data, name
    assert search(load_bundle(out), "bravo", mode="keyword")["results"]


def test_writer_ignores_a_manifest_that_is_not_ours(tmp_path: Path) -> None:
    out = tmp_path / "search"
    out.mkdir()
    (out / "app.js").write_bytes(b"x")
    (out / MANIFEST).write_bytes(orjson.dumps({"format": 1, "files": {"app.js": {"bytes": 1, "crc32": 0}}}))
    build_bundle_dir(out, _small_docs(tmp_path / "docs", "alpha"), embeddings=False)
    assert (out / "app.js").read_bytes() == b"x"


@pytest.mark.parametrize("fail_on", ["manifest", "part"])
def test_a_failed_write_leaves_the_previous_bundle_loadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_on: str
) -> None:
    out = tmp_path / "search"
    build_bundle_dir(out, _small_docs(tmp_path / "docs-a", "alpha"), embeddings=False)
    before = _folder(out)
    new_files = build_files(parse_folder(_small_docs(tmp_path / "docs-b", "bravo")))
    real_replace = os.replace

    def failing_replace(src, dst):  # type: ignore[no-untyped-def]
        name = Path(dst).name
        if name == MANIFEST if fail_on == "manifest" else name not in before:  # the manifest, or a new part
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        write_bundle(out, new_files)
    monkeypatch.undo()
    after = _folder(out)
    assert {name: data for name, data in after.items() if name in before} == before  # nothing old touched
    assert not [name for name in after if name.startswith(".")], "a temporary file was left behind"
    bundle = load_bundle(out)
    assert search(bundle, "alpha", mode="keyword")["results"]
    assert not search(bundle, "bravo", mode="keyword")["results"]
    write_bundle(out, new_files)  # and the next write succeeds and cleans up
    assert search(load_bundle(out), "bravo", mode="keyword")["results"]
    assert _folder(out) == new_files


def test_a_format_1_bundle_is_refused_by_both_engines(node: str) -> None:
    """The frozen format-1 bundle (tests/vectors/engine/bundle-format-1): rebuild the site."""
    from conftest import VECTORS

    frozen = VECTORS / "engine" / "bundle-format-1"
    message = "manifest.json is bundle format 1, no longer supported (this reader reads format 3): rebuild the site"
    with pytest.raises(BundleError) as refused:
        load_bundle(frozen)
    assert str(refused.value) == message
    done = subprocess.run(
        [node, str(ROOT / "js" / "drivers" / "query.mjs"), str(frozen), "--mode", "keyword"],
        input=orjson.dumps([{"query": "install"}]),
        capture_output=True,
    )
    assert done.returncode == 1 and message in done.stderr.decode()


def test_written_files_get_the_usual_permissions(tmp_path: Path) -> None:
    """Atomic writes must not leave private (0600) files a web server cannot read."""
    plain = tmp_path / "plain.txt"
    plain.write_bytes(b"x")
    out = build_bundle_dir(tmp_path / "search", _small_docs(tmp_path / "docs", "alpha"), embeddings=False)
    for file in out.iterdir():
        assert file.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777, file.name
