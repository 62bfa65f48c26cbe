"""The pages of a built site: its `.html` files and the URLs they are served at.

A page's URL is its path, with directory URLs as every static host serves them: `x/index.html`
is `x/` and the home page `index.html` is `./` (MkDocs' own page URLs, so links resolve and
results link the same way). Left out: the folders our search writes (the runtime, the bundle) and hidden folders.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["ERROR_PAGE", "SiteFile", "site_files"]

#: The error page a host serves for a missing path, at any depth: never a search result.
ERROR_PAGE = "404.html"


@dataclass(frozen=True)
class SiteFile:
    path: str  # posix path in the site: `user-guide/jobs/index.html`
    url: str  # `user-guide/jobs/`

    @property
    def error_page(self) -> bool:
        return self.path == ERROR_PAGE


def page_url(path: str) -> str:
    if path == "index.html":
        return "./"
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def site_files(site_dir: Path, skip: tuple[str, ...]) -> list[SiteFile]:
    """Every `.html` file below site_dir, sorted by path, except under `skip` (site folders)."""
    found = []
    for file in site_dir.rglob("*.html"):
        path = file.relative_to(site_dir).as_posix()
        if not file.is_file() or any(part.startswith(".") for part in path.split("/")):
            continue
        if any(path.startswith(folder.rstrip("/") + "/") for folder in skip):
            continue
        found.append(SiteFile(path, page_url(path)))
    return sorted(found, key=lambda file: file.path)
