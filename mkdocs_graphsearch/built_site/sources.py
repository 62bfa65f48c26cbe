"""`--config mkdocs.yml` (or `zensical.toml`): the pages' markdown sources beside the built site.

The built HTML does not carry what only the source knows: front matter (`title`, `tags`,
`search: {exclude, boost}`) and the source path the plugin names chunks by. With the site's
config the command finds `docs_dir`, maps every source to the URL its page was built at (MkDocs'
rule, which Zensical follows: `use_directory_urls`) and reads each front matter with the
plugin's own reader, so both give the same page ids, titles, tags and exclusions. Only the keys
needed are read: no MkDocs config validation (a Zensical-only config has plugins MkDocs lacks).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mkdocs_graphsearch.built_site.html_files import page_url
from mkdocs_graphsearch.common.inputs import InputError
from mkdocs_graphsearch.files.bounded import MAX_CONFIG, MAX_PAGE, RefusedInput, read_bounded
from mkdocs_graphsearch.parse.folder import markdown_files
from mkdocs_graphsearch.parse.frontmatter import parse_front_matter
from mkdocs_graphsearch.parse.markdown import decode_source
from mkdocs_graphsearch.parse.model import PageWarning
from mkdocs_graphsearch.parse.rendered import url_key

__all__ = ["SiteSources", "SourcePage", "read_sources"]


@dataclass
class SourcePage:
    path: str  # docs-relative source path: the page's id, as in the plugin
    title: str  # front matter title ("" when none)
    tags: list[str]
    boost: float
    exclude: bool


@dataclass
class SiteSources:
    config: Path
    site_url: str  # "" when the config has none
    by_url: dict[str, SourcePage] = field(default_factory=dict)  # url_key of its built page -> source
    warnings: list[PageWarning] = field(default_factory=list)


class _Loader(yaml.SafeLoader):
    """Safe YAML that reads `!!python/name:...` and `!ENV` values (Material's emoji settings,
    environment lookups) as nothing: never imports or runs anything."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def _load_yaml(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The config with MkDocs' `INHERIT:` resolved (a parent's mappings merged under the child's)."""
    try:
        text = read_bounded(path, MAX_CONFIG, "config").decode("utf-8")
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RefusedInput) as error:
        raise InputError(f"cannot read the config {path}: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"the config {path} is not a YAML mapping")
    parent = data.pop("INHERIT", None)
    if isinstance(parent, str):
        parent_path = (path.parent / parent).resolve()
        if parent_path in seen:
            raise InputError(f"the config {path} inherits itself through INHERIT: {parent}")
        return _merge(_load_yaml(parent_path, (*seen, parent_path)), data)
    return data


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    merged = dict(parent)
    for key, value in child.items():
        old = merged.get(key)
        merged[key] = _merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
    return merged


def _load_toml(path: Path) -> dict[str, Any]:
    """zensical.toml: the settings sit in its [project] table."""
    if sys.version_info < (3, 11):
        raise InputError(f"reading {path} needs Python 3.11 or later (tomllib); give the site's mkdocs.yml instead")
    import tomllib  # type: ignore[import-not-found, unused-ignore]  # stdlib from 3.11 on (mypy checks 3.10)

    try:
        data = tomllib.loads(read_bounded(path, MAX_CONFIG, "config").decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RefusedInput) as error:
        raise InputError(f"cannot read the config {path}: {error}") from None
    project = data.get("project")
    return project if isinstance(project, dict) else {}


def _load(path: Path) -> dict[str, Any]:
    return _load_toml(path) if path.suffix == ".toml" else _load_yaml(path.resolve())


def _page_url(path: str, directory_urls: bool) -> str:
    """The URL MkDocs builds a docs-relative `.md` path at (its File.dest_uri rule: `README` is an
    index, at any depth)."""
    folder, _, name = path[: -len(".md")].rpartition("/")
    name = "index" if name == "README" else name
    page = f"{name}.html" if not directory_urls or name == "index" else f"{name}/index.html"
    return page_url(f"{folder}/{page}" if folder else page)


def read_sources(config: Path) -> SiteSources:
    """Every markdown source of the site's docs_dir, keyed by the URL of the page built from it."""
    settings = _load(config)
    docs = config.parent / str(settings.get("docs_dir") or "docs")
    if not docs.is_dir():
        raise InputError(f"docs_dir {docs} (from {config}) is not a folder")
    directory_urls = settings.get("use_directory_urls", True) is not False
    sources = SiteSources(config, str(settings.get("site_url") or ""))
    paths = markdown_files(docs)
    have_index = {path.rsplit("/", 1)[0] if "/" in path else "" for path in paths
                  if path.rsplit("/", 1)[-1] == "index.md"}
    for path in paths:
        folder, _, name = path.rpartition("/")
        if name == "README.md" and folder in have_index:
            continue  # MkDocs builds the folder's index.md there, not its README
        try:
            text, notes = decode_source(read_bounded(docs / path, MAX_PAGE, "page"))
        except (OSError, RefusedInput) as error:
            raise InputError(f"cannot read {docs / path}: {error}") from None
        front = parse_front_matter(text.split("\n"))
        sources.warnings.extend(PageWarning(path, line, message) for line, message in [*notes, *front.warnings])
        sources.by_url[url_key(_page_url(path, directory_urls))] = SourcePage(
            path, " ".join((front.title or "").split()), front.tags, front.boost, front.exclude
        )
    return sources
