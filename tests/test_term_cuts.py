"""Term shard boundaries (bundle/term_cuts.py): near the byte target, where adjacent terms share
the shortest prefix, so a word's prefix range and stem group stay in one shard."""

from __future__ import annotations

from mkdocs_graphsearch.bundle.term_cuts import CUT_WINDOW, shard_starts
from mkdocs_graphsearch.bundle.write import keyword_part


def test_cut_falls_between_terms_sharing_the_shortest_prefix() -> None:
    terms = ["node", "nodeaffinity", "nodes", "nodeselector", "object", "objects", "pod", "pods"]
    # Target 40: the window is 20..60 bytes held; "object" and "pod" share nothing with the term
    # before them, "object" first. The rest (40 bytes) never reaches 60: one shard to the end.
    assert shard_starts(terms, [10] * len(terms), 40) == [0, 4]


def test_every_shard_ends_within_the_window() -> None:
    terms = [f"{a}{b}{c}" for a in "abcdef" for b in "xyz" for c in "pq"]
    sizes = [7 + i % 5 for i in range(len(terms))]
    target = 30
    starts = shard_starts(terms, sizes, target)
    ends = [*starts[1:], len(terms)]
    assert starts[0] == 0 and starts == sorted(set(starts))
    for start, end in zip(starts[:-1], ends[:-1], strict=True):
        held = sum(sizes[start:end])
        assert held >= CUT_WINDOW[0] * target
        assert sum(sizes[start : end - 1]) < CUT_WINDOW[1] * target


def test_one_shard_for_what_fits_and_for_no_terms() -> None:
    assert shard_starts(["a", "b"], [5, 5], 100) == [0]
    assert shard_starts([], [], 100) == [0]


def test_manifest_lists_the_cuts() -> None:
    terms = ["node", "nodes", "object", "objects"]
    keyword = {"terms": terms, "pages": {"path": ["a.md"]}, "chunks": {"page": [0]}}
    postings = [[(0, 5)]] * len(terms)
    _, shards = keyword_part(keyword, postings, target=12)
    assert shards["first"] == ["", "object"]
    assert shards["start"] == [0, 2]
    assert shards["postings"] == [0, 2]
