"""Related pages and the site's most connected pages, computed once at build time.

Related: for every page, the RELATED_COUNT pages with the best
    score(a, b) = CONTENT_WEIGHT x content(a, b) + LINK_WEIGHT x links(a, b)
where
    content  the cosine of the two pages' vectors, at least 0: a page's vector is the mean of its
             chunks' vectors as stored in vectors.bin; without embeddings, its BM25F term weights
             (the sum of its chunks' impacts per term), so pages that share rare words are close
    links    the mean of three parts, each in [0, 1], over the page-level link graph (a page links
             b when any of its chunks links into b; self-links ignored):
             direct    1 when each page links the other, 0.5 when one does
             cocited   how far the pages are linked from the same pages (cosine of their sets of
                       linking pages, each weighted 1 / log2(1 + its out-degree): a hub that
                       lists every page says little about any two of them)
             coupled   how far they link to the same pages (the same, over their link targets,
                       each weighted 1 / log2(1 + its in-degree))
             Pages linked from (or linking to) more than MAX_SHARED_DEGREE pages are left out of
             cocited and coupled: they say nothing about a pair, and would cost n^2 pairs.
Scores are rounded to SCORE_DIGITS before ranking, ties broken by page index (path order), so the
same docs give the same lists on any machine; only pages scoring above 0 are listed. The home
page (`index.md` or `README.md` at the root) and pages in another language than the page
(`page_language`) are set aside: they are listed only when no other page relates (every page
is close to the home page, and a translation repeats its original's content in words a reader
of this page may not read). Each related page keeps its reason (bundle/related.py): the content
cosine, the three link parts, and whether it was set aside.

Top: the TOP_COUNT pages with the highest PageRank over the same link graph (damping 0.85,
dangling pages' rank spread evenly), ties by the shallower path, then by path: what an empty
search box offers a reader who does not know what to type.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from mkdocs_graphsearch.bundle.format import VECTORS
from mkdocs_graphsearch.bundle.read import read_vectors
from mkdocs_graphsearch.bundle.related import (
    ASIDE_HOME,
    ASIDE_LANGUAGE,
    NOT_ASIDE,
    Reason,
    related_part,
    top_entries,
)
from mkdocs_graphsearch.bundle.settings import RELATED_COUNT
from mkdocs_graphsearch.bundle.vector_shards import stored_bits
from mkdocs_graphsearch.index.bm25 import KeywordIndex
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.text.tokenize import CJK, token_spans

TOP_COUNT = 8
CONTENT_WEIGHT = 0.6
LINK_WEIGHT = 0.4
MAX_SHARED_DEGREE = 100
SCORE_DIGITS = 4
#: Term overlap without embeddings: terms are folded into at most this many columns (exact for
#: sites with fewer distinct terms; larger ones share columns, a small blur for bounded memory).
TERM_COLUMNS = 4096
#: Pages compared at once (memory: ROW_BLOCK x pages floats).
ROW_BLOCK = 256
PAGERANK_DAMPING = 0.85
PAGERANK_ITERATIONS = 100

#: page -> the pages it links (sorted, itself excluded)
Links = list[list[int]]


def related_files(
    corpus: Corpus,
    index: KeywordIndex,
    semantic_files: dict[str, bytes],
    semantic_manifest: dict[str, object],
    languages: Sequence[str],
    count: int = RELATED_COUNT,
) -> tuple[dict[str, bytes], dict[str, object]]:
    """related.json and the manifest's `top` (bundle/related.py), from the page vectors the
    bundle carries (vectors.bin, as stored) or, without them, the pages' terms; `languages`:
    each page's (`page_languages`)."""
    links = page_links(corpus)
    vectors = semantic_manifest.get("vectors")
    if VECTORS in semantic_files and isinstance(vectors, dict):
        dim, bits = int(vectors["dim"]), stored_bits(vectors)
        rows, scales = read_vectors(semantic_files[VECTORS], len(corpus.chunks), dim, bits, columns=True)  # as built
        content = page_vectors(corpus, rows.astype(np.float64) * scales[:, None])
    else:
        content = term_vectors(corpus, index)
    paths = [page.path for page in corpus.pages]
    titles = [page.title for page in corpus.pages]
    top = top_entries(top_pages(corpus, links), paths, titles, corpus.urls)
    related = related_pages(content, links, count, home_page(paths), languages)
    return related_part(related, related_reasons(content, links, related, home_page(paths), languages)), {"top": top}


#: Home page paths, at the docs root.
HOME_PAGES = ("index.md", "README.md")
#: A page's language code in its file name (mkdocs-static-i18n's suffix layout: `page.fr.md`,
#: `page.pt_BR.md`, `page.zh-Hant.md`).
_SUFFIX_LANGUAGE = re.compile(r"\.([a-z]{2})(?:[-_][A-Za-z]{2,4})?\.md$")
#: Letters a page's script is judged by (its first ones: enough to tell, bounded work).
SCRIPT_SAMPLE = 4000
#: What str.isalnum() refuses (\w is isalnum() and "_"), and the code points from U+1100 on:
#: regular expressions, as a loop over a page's characters in Python was a large site's cost.
_NOT_ALNUM = re.compile(r"[\W_]+")
_PAST_U1100 = re.compile("[\u1100-\U0010ffff]")


def home_page(paths: Sequence[str]) -> int | None:
    """The index of the site's home page, if it has one."""
    for name in HOME_PAGES:
        if name in paths:
            return list(paths).index(name)
    return None


def page_language(path: str, text: str) -> str:
    """A page's language as far as related pages care: the code in its file name (`page.fr.md`:
    `fr`), else by script when at least a quarter of its first SCRIPT_SAMPLE word characters
    are CJK (a CJK word is a character or two, an English one several: then most words are CJK;
    `ja` with kana, `ko` with hangul, else `zh`), else "" (the site's language)."""
    suffix = _SUFFIX_LANGUAGE.search(path)
    if suffix:
        return suffix.group(1)
    sample = _NOT_ALNUM.sub("", text[: 4 * SCRIPT_SAMPLE])[:SCRIPT_SAMPLE]
    if 4 * len(_PAST_U1100.findall(sample)) < len(sample) or not sample:
        return ""  # every CJK character is at or past U+1100: most pages end here, untokenized
    cjk = {at for _token, start, end, kind in token_spans(sample) if kind == CJK for at in range(start, end)}
    if 4 * len(cjk) < len(sample):
        return ""
    if any("\u3040" <= ch <= "\u30ff" for ch in sample):
        return "ja"
    if any("\uac00" <= ch <= "\ud7af" or "\u1100" <= ch <= "\u11ff" for ch in sample):
        return "ko"
    return "zh"


def page_languages(corpus: Corpus) -> list[str]:
    """Each page's language (`page_language`), in page order."""
    return [page_language(page.path, "\n".join(chunk.text for chunk in page.chunks)) for page in corpus.pages]


def page_links(corpus: Corpus) -> Links:
    """The page-level link graph: page a links b when any chunk of a links into b."""
    index = {page.path: i for i, page in enumerate(corpus.pages)}
    out: list[set[int]] = [set() for _ in corpus.pages]
    for chunk, page in zip(corpus.chunks, corpus.chunk_page, strict=True):
        for link in chunk.links:
            target = index.get(link.target)
            if target is not None and target != page:
                out[page].add(target)
    return [sorted(targets) for targets in out]


def page_vectors(corpus: Corpus, chunk_vectors: np.ndarray) -> np.ndarray:
    """Each page's mean of its chunks' unit vectors, centred on the site's mean page and made
    unit-length (pages x dim): every page of a site shares its topic, and without centring a
    page that touches everything (the home page) is close to every page."""
    pages = np.zeros((len(corpus.pages), chunk_vectors.shape[1]), dtype=np.float64)
    np.add.at(pages, np.asarray(corpus.chunk_page, dtype=np.int64), _unit_rows(chunk_vectors))
    return _centred(_unit_rows(pages))


def term_vectors(corpus: Corpus, index: KeywordIndex) -> np.ndarray:
    """Each page's unit-length BM25F term weights (pages x min(terms, TERM_COLUMNS))."""
    columns = max(1, min(len(index.terms), TERM_COLUMNS))
    pages = np.zeros((len(corpus.pages), columns), dtype=np.float64)
    chunk_page = corpus.chunk_page
    for term, postings in enumerate(index.postings):
        for chunk, impact in postings:
            pages[chunk_page[chunk], term % columns] += impact
    return _centred(_unit_rows(pages))


def _centred(pages: np.ndarray) -> np.ndarray:
    """Unit rows less the site's mean page, made unit-length again (with 3 pages or more)."""
    return _unit_rows(pages - pages.mean(axis=0)) if len(pages) > 2 else pages


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1)
    norms[norms == 0] = 1.0
    return matrix / norms[:, None]


#: Sparse pair scores: (row pages, column pages, values), one entry per pair, sorted by (row, column).
Pairs = tuple[np.ndarray, np.ndarray, np.ndarray]


def _summed(rows: np.ndarray, cols: np.ndarray, values: np.ndarray, n: int) -> Pairs:
    """Entries of the same pair added up, sorted by (row, column)."""
    keys, inverse = np.unique(rows * n + cols, return_inverse=True)
    return keys // n, keys % n, np.bincount(inverse, weights=values, minlength=len(keys))


def _shared(groups: list[list[int]], n: int) -> Pairs:
    """Cosine of pages' memberships in `groups` (each group weighted 1 / log2(1 + its size))."""
    rows, cols, values = [], [], []
    norm = np.zeros(n)
    for members in groups:
        size = len(members)
        if not size or size > MAX_SHARED_DEGREE:
            continue
        weight = (1.0 / math.log2(1 + size)) ** 2
        group = np.asarray(members, dtype=np.int64)
        norm[group] += weight
        a, b = np.repeat(group, size), np.tile(group, size)
        rows.append(a[a != b])
        cols.append(b[a != b])
        values.append(np.full(size * size - size, weight))
    if not rows:
        return _empty()
    a, b, dot = _summed(np.concatenate(rows), np.concatenate(cols), np.concatenate(values), n)
    return a, b, dot / np.sqrt(norm[a] * norm[b])


def _empty() -> Pairs:
    return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)


def link_parts(links: Links) -> list[Pairs]:
    """The three link parts for every pair with any link evidence: direct, cocited, coupled."""
    n = len(links)
    linked_from: list[list[int]] = [[] for _ in range(n)]
    for a, out in enumerate(links):
        for b in out:
            linked_from[b].append(a)
    sources = np.array([a for a, out in enumerate(links) for _ in out], dtype=np.int64)
    targets = np.array([b for out in links for b in out], dtype=np.int64)
    direct = (np.concatenate([sources, targets]), np.concatenate([targets, sources]), np.full(2 * len(sources), 0.5))
    return [
        _summed(*direct, n) if len(sources) else _empty(),
        _shared(links, n),  # cocited: the pages a page links are linked from the same page
        _shared(linked_from, n),  # coupled: the pages that link the same target
    ]


def link_scores(links: Links) -> Pairs:
    """links(a, b) for every pair with any link evidence (direct, cocited, coupled)."""
    n = len(links)
    parts = link_parts(links)
    rows, cols, values = (np.concatenate([part[i] for part in parts]) for i in range(3))
    if not len(rows):
        return _empty()
    rows, cols, values = _summed(rows, cols, values, n)
    return rows, cols, values / 3.0


def related_pages(
    content: np.ndarray,
    links: Links,
    count: int = RELATED_COUNT,
    home: int | None = None,
    languages: Sequence[str] = (),
) -> list[list[tuple[int, float]]]:
    """Per page, up to `count` (page, score) pairs, best first (ties by page index): the home page
    and pages of another language only when no other page scores above 0."""
    n = len(links)
    language = np.unique(np.asarray(list(languages) or [""] * n), return_inverse=True)[1]
    link_rows, link_cols, link_values = link_scores(links)
    related: list[list[tuple[int, float]]] = []
    for start in range(0, n, ROW_BLOCK):
        stop = min(start + ROW_BLOCK, n)
        block = np.clip(content[start:stop] @ content.T, 0.0, None) * CONTENT_WEIGHT
        first, last = np.searchsorted(link_rows, [start, stop])
        block[link_rows[first:last] - start, link_cols[first:last]] += LINK_WEIGHT * link_values[first:last]
        block[np.arange(stop - start), np.arange(start, stop)] = 0.0  # not its own related page
        scores = np.round(block, SCORE_DIGITS)
        for a, row in enumerate(scores, start):
            aside = language != language[a]
            if home is not None:
                aside[home] = True
            kept = np.where(aside, 0.0, row)
            chosen = row if not (kept > 0).any() else kept
            related.append([(int(b), float(chosen[b])) for b in _best(chosen, count) if chosen[b] > 0])
    return related


def related_reasons(
    content: np.ndarray,
    links: Links,
    related: Sequence[Sequence[tuple[int, float]]],
    home: int | None,
    languages: Sequence[str],
) -> list[list[Reason]]:
    """Why each related page is there: (content cosine, direct, cocited, coupled, why it was set
    aside), the first four rounded to SCORE_DIGITS."""
    parts = [{(int(a), int(b)): float(v) for a, b, v in zip(*part, strict=True)} for part in link_parts(links)]
    reasons: list[list[Reason]] = []
    for a, row in enumerate(related):
        found: list[Reason] = []
        for b, _ in row:
            cosine = max(float(content[a] @ content[b]), 0.0)
            direct, cocited, coupled = (part.get((a, b), 0.0) for part in parts)
            aside = (ASIDE_HOME if b == home else ASIDE_LANGUAGE if languages and languages[a] != languages[b]
                     else NOT_ASIDE)
            parts_of = [round(x, SCORE_DIGITS) for x in (cosine, direct, cocited, coupled)]
            found.append(Reason(parts_of[0], parts_of[1], parts_of[2], parts_of[3], aside))
        reasons.append(found)
    return reasons


def _best(scores: np.ndarray, count: int) -> np.ndarray:
    """Indexes of the `count` highest scores, best first, ties by index (without sorting all)."""
    candidates = np.arange(len(scores))
    if len(scores) > count:
        kth = np.partition(scores, len(scores) - count)[len(scores) - count]  # the count-th highest
        candidates = np.flatnonzero(scores >= kth)  # every tie at the cut, so the order is exact
    return candidates[np.lexsort((candidates, -scores[candidates]))][:count]


def pagerank(links: Links) -> np.ndarray:
    """PageRank over the page links (a fixed number of power iterations: deterministic)."""
    n = len(links)
    if n == 0:
        return np.zeros(0)
    rank = np.full(n, 1.0 / n)
    sources = np.array([a for a, targets in enumerate(links) for _ in targets], dtype=np.int64)
    targets = np.array([b for targets in links for b in targets], dtype=np.int64)
    out_degree = np.array([len(targets) for targets in links], dtype=np.float64)
    dangling = out_degree == 0
    for _ in range(PAGERANK_ITERATIONS):
        share = np.divide(rank, out_degree, out=np.zeros(n), where=~dangling)
        incoming = np.zeros(n)
        np.add.at(incoming, targets, share[sources])
        rank = (1 - PAGERANK_DAMPING) / n + PAGERANK_DAMPING * (incoming + rank[dangling].sum() / n)
    return rank


def top_pages(corpus: Corpus, links: Links, count: int = TOP_COUNT) -> list[int]:
    """The `count` most connected pages by PageRank; ties: shallower path first, then path."""
    rank = np.round(pagerank(links), 9)
    order = sorted(
        range(len(corpus.pages)),
        key=lambda i: (-rank[i], corpus.pages[i].path.count("/"), corpus.pages[i].path),
    )
    return order[:count]
