"""Release logs (changelogs, release notes): pages whose top sections are versions.

Why: a release log mentions every feature in passing, one short entry each ("Added: Prometheus
metrics endpoint"), so plain BM25 ranks it above the page that explains the feature for most
single-word queries (`SIGTERM`, `Prometheus`, `PostgreSQL` on the example site; MkDocs' own
release notes on its docs). Its keyword impacts are scaled by RELEASE_LOG_WEIGHT (index/bm25.py,
on top of the page's front matter `search: boost`, which can undo it): a version query or a
feature only the log mentions still finds it. The weight is the one that ranked best on the dev
set's keyword and hybrid queries (both unscaled and scaled further down ranked lower). Neither
held-out set has such a page.
"""

from __future__ import annotations

import re

from mkdocs_graphsearch.parse.model import Page

RELEASE_LOG_WEIGHT = 0.5
#: A release log has at least this many level-2 sections, at least half of them titled with a
#: version (`2.4.0 — 2025-05-12`, `Version 1.6.1 (2024-08-30)`, `v0.13`).
MIN_SECTIONS = 3
_VERSION_RE = re.compile(r"\d+\.\d+")
_VERSION_NAME_RE = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+(?![\w.])")


def is_release_log(page: Page) -> bool:
    tops = [chunk.title for chunk in page.chunks if chunk.kind == "section" and chunk.level == 2]
    versions = sum(1 for title in tops if _VERSION_RE.search(title))
    return len(tops) >= MIN_SECTIONS and 2 * versions >= len(tops)


def keyword_boost(page: Page) -> float:
    """The factor a page's BM25F impacts get: its front matter boost, halved for a release log."""
    return page.boost * (RELEASE_LOG_WEIGHT if is_release_log(page) else 1.0)


def version_names(title: str) -> list[str]:
    """The versions a heading names, as written (`2.4.0 — 2025-05-12` -> [`2.4.0`])."""
    return _VERSION_NAME_RE.findall(title)
