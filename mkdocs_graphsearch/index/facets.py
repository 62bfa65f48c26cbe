"""The manifest's `facets`: for a search UI's filter chips, the values each facet has on this site
and how many pages (tags, in) or chunks (kind, lang) hold them (engine/filters.py says what
each facet matches).

    {"tags": [{"value": key, "label": as written, "count": n}, ...], "in": [...], "kind": [...],
     "lang": [...]}

Each list is by count (descending), then value, cut to FACET_VALUES values: a chip row for the
most used ones; any other value still filters when typed. `label` is the first spelling met in
bundle order (tags `Dead Letter` and `dead-letter` are one value, `dead-letter`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.text.facets import KIND_FACET, facet_key, language_of, path_key

#: Values listed per facet (the most used).
FACET_VALUES = 20


def _listed(values: Iterable[tuple[str, str]]) -> list[dict[str, object]]:
    """(key, label) occurrences -> the facet's entries, most frequent first."""
    counts: dict[str, int] = {}
    labels: dict[str, str] = {}
    for key, label in values:
        if key:
            counts[key] = counts.get(key, 0) + 1
            labels.setdefault(key, label)
    ranked = sorted(counts, key=lambda key: (-counts[key], key))[:FACET_VALUES]
    return [{"value": key, "label": labels[key], "count": counts[key]} for key in ranked]


def _page_tags(tags: list[str]) -> dict[str, str]:
    """A page's tags by key (first spelling): a page counts once per value."""
    keyed: dict[str, str] = {}
    for tag in tags:
        keyed.setdefault(facet_key(tag), tag)
    return keyed


def facet_summary(corpus: Corpus, aliases: Mapping[str, str]) -> dict[str, list[dict[str, object]]]:
    folders = [page.path.split("/", 1)[0] for page in corpus.pages if "/" in page.path]
    code = [chunk for chunk in corpus.chunks if chunk.kind == "code"]
    return {
        "tags": _listed(item for page in corpus.pages for item in _page_tags(page.tags).items()),
        "in": _listed((path_key(folder), folder) for folder in folders),
        "kind": _listed((KIND_FACET.get(chunk.kind, chunk.kind),) * 2 for chunk in corpus.chunks),
        "lang": _listed((language_of(chunk.language or "", aliases),) * 2 for chunk in code),
    }
