"""Related pages at the end of each built page (plugin option `related_pages: true`).

A page's related pages are known only once every page is built (index/related.py compares them
all), after MkDocs has written the HTML. So each page's content ends with an empty placeholder
(`placeholder`, added as it renders), and after the bundle is written the block is rendered
through a Jinja2 template (autoescaped) and put between the placeholder's two comments in every
page file. Pages that a `--dirty` build or `mkdocs serve` did not re-render still hold their
placeholder (with last build's block): they are rewritten the same way, so no page keeps a stale
list. A file is written only when its block changed.

The placeholder is the plugin's alone: its comments carry a key made from the page's own
content, which neither that content nor the theme around it (a `copyright`, a template) can
hold by accident. A marker-like string elsewhere in the page is never taken for it, so the block
cannot land in the footer and replace the footer's text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import jinja2
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from mkdocs_graphsearch.bundle.format import RELATED, BundleError
from mkdocs_graphsearch.files.atomic import write_atomic
from mkdocs_graphsearch.files.bounded import MAX_CONFIG, RefusedInput, check_regular

#: A placeholder's key: this many hex digits of a hash of the page's path and content.
KEY_DIGITS = 16
_KEYED_START = re.compile(rf"<!-- graphsearch:related ([0-9a-f]{{{KEY_DIGITS}}}) -->")
#: The block's template when the site names none: a heading and a list of links.
DEFAULT_TEMPLATE = Path(__file__).parent / "templates" / "related.html"


def placeholder_key(path: str, html: str) -> str:
    """The key of a page's placeholder: its content cannot contain a hash of itself."""
    return hashlib.sha256(f"{path}\0{html}".encode("utf-8", "surrogatepass")).hexdigest()[:KEY_DIGITS]


def markers(key: str) -> tuple[str, str]:
    """The placeholder's opening and closing comments; the block goes between them."""
    return f"<!-- graphsearch:related {key} -->", f"<!-- /graphsearch:related {key} -->"


def placeholder(key: str) -> str:
    """The empty placeholder a page's content ends with as it renders."""
    return "".join(markers(key))


@dataclass(frozen=True)
class BuiltPage:
    """Where a docs page's HTML was written, its URL (relative to the site root), and its
    placeholder's key when this build rendered it (None: a page `--dirty` left as it was)."""

    file: Path
    url: str
    key: str | None = None


def show_related(
    bundle_dir: Path,
    doc_files: Mapping[str, File],
    template_file: str | None,
    warn: Callable[[str], None],
    keys: Mapping[str, str],
) -> None:
    """The plugin's end-of-build step: fill every built page's placeholder (`keys`: those this
    build rendered, by src path)."""
    template = load_template(Path(template_file) if template_file else None, warn)
    if template is None:
        return
    built = {
        name: BuiltPage(Path(file.abs_dest_path), file.url, keys.get(name))
        for name, file in doc_files.items()
        if not file.inclusion.is_excluded()
    }
    try:
        write_related(bundle_dir, built, template, warn)
    except OSError as error:
        raise PluginError(f"graphsearch: cannot write the related pages into the site: {error}") from error


def load_template(path: Path | None, warn: Callable[[str], None]) -> jinja2.Template | None:
    """The block's template (autoescaped), or None after one warning naming file and line."""
    path = path or DEFAULT_TEMPLATE
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(path.parent)), autoescape=True, undefined=jinja2.StrictUndefined
    )
    try:
        check_regular(path, MAX_CONFIG, "the related pages template")  # a FIFO would block the build
        return environment.get_template(path.name)
    except RefusedInput as error:
        warn(f"{error}; not shown")
    except jinja2.TemplateSyntaxError as error:
        warn(f"{path}:{error.lineno}: the related pages template is not valid Jinja2 ({error.message}); not shown")
    except (OSError, jinja2.TemplateError, UnicodeDecodeError) as error:
        warn(f"{path}: cannot read the related pages template ({error}); not shown")
    return None


def write_related(
    bundle_dir: Path, built: Mapping[str, BuiltPage], template: jinja2.Template, warn: Callable[[str], None]
) -> int:
    """Render each built page's related pages into its HTML; returns how many files changed."""
    # The bundle reader: only for a site that shows related pages.
    from mkdocs_graphsearch.bundle.read import read_file, read_manifest, read_pages
    from mkdocs_graphsearch.bundle.related import parse_related

    try:
        manifest = read_manifest(bundle_dir)
        pages = read_pages(bundle_dir, manifest)
        rows = parse_related(read_file(bundle_dir, manifest, RELATED), len(pages["path"]))
    except (BundleError, KeyError, TypeError) as error:
        warn(f"related pages not shown: the bundle in {bundle_dir} has none readable ({error})")
        return 0
    blocks = {}
    for index, (page, row) in enumerate(zip(pages["path"], rows, strict=True)):
        if page not in built:
            continue
        url = built[page].url
        related = [
            {
                "title": pages["title"][other],
                "url": _relative(pages["url"][other], url),
                "path": pages["path"][other],
            }
            for other, _ in row
        ]
        this = {"title": pages["title"][index], "url": url, "path": page}
        try:
            blocks[page] = template.render(related=related, page=this) if related else ""
        except jinja2.TemplateError as error:
            warn(f"{template.filename}: the related pages template failed ({error}); not shown")
            return 0
    changed = 0
    for page, info in built.items():
        if _replace_block(info, blocks.get(page, ""), warn):
            changed += 1
    return changed


def _relative(target: str, page_url: str) -> str:
    """target's URL from page_url's page; a folder URL keeps its slash (`../..` -> `../../`)."""
    relative = get_relative_url(target or ".", page_url or ".")
    return relative + "/" if (not target or target.endswith("/")) and not relative.endswith("/") else relative


def _own_key(text: str) -> str | None:
    """The key of the placeholder in a page this build did not render: the one keyed marker
    there (two different ones: a copy of another page's marker; neither is taken)."""
    keys = set(_KEYED_START.findall(text))
    return keys.pop() if len(keys) == 1 else None


def _replace_block(page: BuiltPage, block: str, warn: Callable[[str], None]) -> bool:
    try:
        text = page.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        warn(f"related pages not shown on {page.file}: cannot read it ({error})")
        return False
    key = page.key or _own_key(text)
    if key is None:
        return False  # a page built before related_pages was switched on, or by another theme path
    start_marker, end_marker = markers(key)
    start = text.find(start_marker)  # the content comes before the footer that could quote it
    end = text.find(end_marker, start)
    if start < 0 or end < 0:
        return False
    updated = text[: start + len(start_marker)] + block + text[end:]
    if updated == text:
        return False
    write_atomic(page.file, updated.encode("utf-8"))
    return True
