"""The per-page cache of source facts (source_facts.py) as SitePages uses it: an unchanged page
is not parsed again, yet gives the same facts and warnings; a change, or a damaged file, parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_graphsearch.mkdocs_plugin.site_pages import SitePages
from mkdocs_graphsearch.mkdocs_plugin.source_facts import facts_file
from mkdocs_graphsearch.parse import markdown

PAGES = {
    "index.md": b"---\ntags: [a, b]\nsearch:\n  boost: 2\n---\n# T\n\n```python\nx\n",
    "guide.md": b"# Guide\n\n[x](missing.md)\n\nBody.\n",
}


def _site(tmp_path: Path, warnings: list[str], pages: dict[str, bytes] = PAGES) -> SitePages:
    state = tmp_path / "cache" / "pages-0123.cache"
    return SitePages(
        order=list(pages), urls={name: name.replace(".md", "/") for name in pages}, chunk_depth=3,
        state_path=state, warn=warnings.append, facts_path=facts_file(state),
    )


def _read_all(site: SitePages, pages: dict[str, bytes] = PAGES) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, source in pages.items():
        out[name] = ([str(w) for w in site.read_source(name, source)], site.sources[name])
        site.add_rendered(name, "<h1>T</h1><p>Body.</p>", None)  # else finish parses the markdown
    site.finish(lambda path: pages[path], lambda path: None)
    return out


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages whose source is parsed (read_source reads their facts, finish their chunks)."""
    parsed: list[str] = []
    for name in ("parse_page", "page_facts"):
        real = getattr(markdown, name)

        def counting(source, path, *args, real=real, **kwargs):  # type: ignore[no-untyped-def]
            parsed.append(path)
            return real(source, path, *args, **kwargs)

        monkeypatch.setattr(markdown, name, counting)  # site_pages imports it when a page needs it
    return parsed


def test_unchanged_pages_are_not_parsed_again_and_keep_their_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warnings: list[str] = []
    parsed = _parses(monkeypatch)
    first = _read_all(_site(tmp_path, warnings))
    assert sorted(parsed) == sorted(PAGES)
    assert first["index.md"][0] == ["index.md:8: unclosed code fence: it runs to the end of its block"]  # type: ignore[index]
    assert first["guide.md"][0] == []  # broken links are MkDocs' to report  # type: ignore[index]
    parsed.clear()
    assert _read_all(_site(tmp_path, warnings)) == first
    assert parsed == [] and warnings == []
    edited = {**PAGES, "guide.md": PAGES["guide.md"] + b"\n```\nopen\n"}
    again = _read_all(_site(tmp_path, warnings), edited)
    assert parsed == ["guide.md"] and again["index.md"] == first["index.md"]
    assert again["guide.md"][0] == ["guide.md:7: unclosed code fence: it runs to the end of its block"]  # type: ignore[index]
    parsed.clear()  # another set of pages: link checks may differ, every page is parsed
    _read_all(_site(tmp_path, warnings, {**edited, "new.md": b"# New\n"}), {**edited, "new.md": b"# New\n"})
    assert sorted(parsed) == ["guide.md", "index.md", "new.md"]


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage"])
def test_damaged_facts_cache_is_one_warning_and_a_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    warnings: list[str] = []
    first = _read_all(_site(tmp_path, warnings))
    path = facts_file(tmp_path / "cache" / "pages-0123.cache")
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[-5] ^= 0x01
    elif damage == "truncate":
        del data[len(data) // 2 :]
    else:
        data[:] = b"not a cache"
    path.write_bytes(bytes(data))
    parsed = _parses(monkeypatch)
    assert _read_all(_site(tmp_path, warnings)) == first
    assert sorted(parsed) == sorted(PAGES)
    assert len(warnings) == 1 and str(path) in warnings[0] and "damaged" in warnings[0], warnings
    parsed.clear()  # rewritten whole by that build
    assert _read_all(_site(tmp_path, warnings)) == first and parsed == [] and len(warnings) == 1


def test_unchanged_facts_and_pages_are_not_written_again(tmp_path: Path) -> None:
    """A build where no page changed rewrites neither the facts nor the page state (same files)."""
    warnings: list[str] = []
    _read_all(_site(tmp_path, warnings))
    state = tmp_path / "cache" / "pages-0123.cache"
    files = {path: (path.stat().st_ino, path.read_bytes()) for path in (state, facts_file(state))}
    _read_all(_site(tmp_path, warnings))
    assert {path: (path.stat().st_ino, path.read_bytes()) for path in files} == files
    _read_all(_site(tmp_path, warnings), {**PAGES, "guide.md": PAGES["guide.md"] + b"More.\n"})
    assert all(path.stat().st_ino != ino for path, (ino, _) in files.items())
    assert warnings == []
