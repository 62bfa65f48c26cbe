"""Where the term shards start (bundle/write.py keyword_part): the writer's choice alone, since
readers take the manifest's `term_shards` as written (format.py), so any cut keeps answers.

A query's token needs its own term's shard, the shard of its stem's string and of each term in
its stem group, and when typed every shard its prefix range spans. Those terms share a prefix with
the token, so a shard boundary between two terms that share a long prefix costs a query a second
shard where one would do. A shard therefore ends near its byte target, at the term that shares
the shortest prefix with the one before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from os.path import commonprefix

#: A shard may end once it holds this share of its target and must end at the first term once it
#: holds the second share: the boundary falls between those, where the adjacent terms share the
#: shortest prefix (the earliest of those).
CUT_WINDOW = (0.5, 1.5)


def shard_starts(terms: Sequence[str], sizes: Sequence[int], target: int) -> list[int]:
    """The number of each shard's first term (0 first): a shard ends among the terms after it holds
    CUT_WINDOW[0] of `target` bytes, up to the first term once it holds CUT_WINDOW[1] of it, before
    the one sharing the shortest prefix with the term before it (the earliest such); the last shard
    runs to the end."""
    low, high = target * CUT_WINDOW[0], target * CUT_WINDOW[1]
    shared = [0, *(len(commonprefix(pair)) for pair in zip(terms, terms[1:], strict=False))]
    starts = [0]
    while True:
        start = starts[-1]
        held, best, index = 0, -1, start
        for index in range(start, len(terms)):
            if held >= low and index > start:
                if best < 0 or shared[index] < shared[best]:
                    best = index
                if held >= high:
                    break
            held += sizes[index]
        else:
            return starts
        starts.append(best)
