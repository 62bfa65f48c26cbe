"""BM25F over chunk fields, precomputed as quantized per-(term, chunk) impacts.

For a term t and chunk c (Robertson & Zaragoza's simple BM25F):
    tf~(t, c)   = sum over fields f of  w_f * tf_f(t, c) / (1 - b_f + b_f * len_f(c) / avglen_f)
    impact(t,c) = boost(page of c) * idf(t) * tf~ / (k1 + tf~)      (boost: index/release_log.py)
    idf(t)      = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
with b_f = b, except 0 for `file` (a page's path: its length says nothing of how wordy the page
is, and only page roots have one, so the average over all chunks would shrink it to nothing) and
for `anchor` (the texts of the links pointing at a chunk, index/anchor_text.py: its length is how
often the chunk is linked, which must not count against it), and impacts are stored as integers
round(impact * IMPACT_SCALE) (at least 1; IMPACT_SCALE is a format constant, bundle/format.py),
so the engines only add: a query's keyword score for c is
the sum over query tokens of the best weighted impact among that token's matching terms (see
engine/keyword.py and js/src/engine/keyword.js).

Stems (text/stem.py) are not indexed as terms of their own: the index lists, per stem, the
terms that occur as prose words in some chunk's title, heading path, anchor text or body (never
symbols or code), and a query word also matches the other terms of its stem's group at the manifest's
`stem_weight` (below an exact match's 1.0, so the exact form still scores higher). This costs
no postings (the map adds a modest share to keyword.json); a separate stemmed BM25F field was
not compared with it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from mkdocs_graphsearch.bundle.format import IMPACT_SCALE
from mkdocs_graphsearch.index.anchor_text import incoming_anchor_text
from mkdocs_graphsearch.index.corpus import Corpus
from mkdocs_graphsearch.index.release_log import keyword_boost
from mkdocs_graphsearch.index.token_cache import ChunkTokens, TokenCache
from mkdocs_graphsearch.parse.model import Chunk
from mkdocs_graphsearch.text.stem import is_prose_word, stem
from mkdocs_graphsearch.text.tokenize import iter_words, title_words, tokenize

# Field weights: the chunk's own heading first, identifiers next, then ancestors' headings and
# tags, body text, and code last (code repeats names that the prose explains better). `file` is
# a page root's source path as whole names (file_terms), so typing a file name or a folder
# (`deploy-to-production`, `user-guide/`) finds its page: as sure a name as a symbol. `anchor`
# is the text of the links pointing at the chunk (index/anchor_text.py), at half a body word:
# the weight that ranked best on the dev set's keyword and hybrid queries (none, a whole body
# word and more ranked lower; unnormalised beat length-normalised).
FIELD_WEIGHTS: dict[str, float] = {
    "title": 5.0,
    "symbols": 3.0,
    "file": 3.0,
    "path": 1.5,
    "anchor": 0.5,
    "body": 1.0,
    "code": 0.6,
}
#: Fields whose words are prose (stemmed); symbols and code are names, matched as written.
PROSE_FIELDS = ("title", "path", "anchor", "body")
#: Fields whose text is code or names: tokenized as code, so `where` or `from` there is a term.
CODE_FIELDS = ("symbols", "code")
#: Fields scored without length normalisation (b_f = 0).
UNNORMALISED_FIELDS = ("file", "anchor")


@dataclass(frozen=True)
class Bm25Settings:
    """k1 = 1.2 as usual; b = 0.3, not the usual 0.75: chunks are sections, already one topic
    each, so a short one (a changelog's "Fixed" with one bullet) is no surer a match than the
    long section about the word. Chosen on the dev set's keyword and hybrid queries: keyword
    ranking falls steadily as b rises past 0.3, and no other k1 ranked clearly better."""

    k1: float = 1.2
    b: float = 0.3


@dataclass
class KeywordIndex:
    """Sorted terms and, per term, its postings: (chunk index, quantized impact), by chunk;
    per stem, the indexes of the terms that are prose words with that stem (ascending)."""

    terms: list[str]
    postings: list[list[tuple[int, int]]]
    stems: dict[str, list[int]]


def path_names(path: str) -> list[list[str]]:
    """The tokens of each name in a page's path: its folders, its file name, and that name
    without `.md` when it is a compound (`how-to`, `deploy-to-production.md`,
    `deploy-to-production`; `README.md` but not `README`: a one-word name is the page's title
    or nothing, and `readme` in a question is no path)."""
    folders, _, name = path.rpartition("/")
    stem = tokenize(name[: -len(".md")] if name.endswith(".md") else name)
    names = [tokenize(folder) for folder in folders.split("/")] + [tokenize(name)] + ([stem] if len(stem) > 1 else [])
    return [tokens for tokens in names if tokens]


def file_terms(path: str) -> list[tuple[str, bool]]:
    """A page's `file` field: the whole token of each name in its path, never their parts:
    `started` in a question must not find every page under `getting-started/`."""
    return [(tokens[0], False) for tokens in path_names(path)]


def chunk_fields(chunk: Chunk, page_tags: list[str], anchor_text: str = "") -> dict[str, str]:
    """The text of each BM25F field of a chunk (`file`: a page root's id, its page's path;
    `anchor`: the text of the links pointing at it, index/anchor_text.py)."""
    if chunk.kind == "code":
        return {
            "title": "",
            "path": " ".join(chunk.heading_path),
            "symbols": " ".join(chunk.symbols),
            "file": "",
            "anchor": "",
            "body": "",
            "code": chunk.text,
        }
    ancestors = list(chunk.heading_path[:-1])
    if chunk.kind == "page":
        ancestors.extend(page_tags)
    return {
        "title": chunk.title,
        "path": " ".join(ancestors),
        "symbols": " ".join(chunk.symbols),
        "file": chunk.id if chunk.kind == "page" else "",
        "anchor": anchor_text,
        "body": chunk.text,
        "code": "",
    }


def chunk_tokens(fields: dict[str, str]) -> ChunkTokens:
    """A chunk's term counts per field (FIELD_WEIGHTS order) and its prose words (sorted).
    Tokens are counted as they come (no list of them): a section of millions of words takes
    the memory of its distinct terms."""
    counts: list[dict[str, int]] = []
    prose: set[str] = set()
    for name in FIELD_WEIGHTS:
        # Names and code keep their stop words (`where`, `from`: text/tokenize.py rule 6), and so
        # does a title of stop words alone (rule 9).
        if name == "file" and fields[name]:
            tokens: Iterable[tuple[str, bool]] = file_terms(fields[name])
        elif name == "title":
            tokens = title_words(fields[name])
        else:
            tokens = iter_words(fields[name], name in CODE_FIELDS)
        field: dict[str, int] = {}
        words: set[str] = set()
        for token, word in tokens:
            field[token] = field.get(token, 0) + 1
            if word:
                words.add(token)
        counts.append(field)
        if name in PROSE_FIELDS:
            prose.update(token for token in words if is_prose_word(token))
    return counts, sorted(prose)


def build_keyword_index(
    corpus: Corpus, settings: Bm25Settings = Bm25Settings(), cache: TokenCache | None = None
) -> KeywordIndex:
    """The index of a corpus; `cache` keeps each chunk's tokens and each word's stem between
    builds (index/token_cache.py): the same index, without tokenizing unchanged chunks again."""
    field_counts: list[dict[str, dict[str, int]]] = []
    field_lengths: dict[str, list[int]] = {name: [] for name in FIELD_WEIGHTS}
    prose: set[str] = set()
    anchors = incoming_anchor_text(corpus)
    for chunk, page_index, anchor_text in zip(corpus.chunks, corpus.chunk_page, anchors, strict=True):
        fields = chunk_fields(chunk, corpus.pages[page_index].tags, anchor_text)
        if cache is None:
            per_field, words = chunk_tokens(fields)
        else:
            per_field, words = cache.chunk(fields, chunk_tokens)
        counts = dict(zip(FIELD_WEIGHTS, per_field, strict=True))
        prose.update(words)
        field_counts.append(counts)
        for name in FIELD_WEIGHTS:
            field_lengths[name].append(sum(counts[name].values()))

    n_chunks = len(corpus.chunks)
    average = {
        name: (sum(lengths) / n_chunks if n_chunks else 0.0) or 1.0
        for name, lengths in field_lengths.items()
    }
    document_frequency: Counter[str] = Counter()
    for counts in field_counts:
        document_frequency.update(set().union(*(counts[name].keys() for name in FIELD_WEIGHTS)))

    terms = sorted(document_frequency)
    term_index = {term: i for i, term in enumerate(terms)}
    # Per term once (not per posting): the same floats.
    idf = [math.log(1 + (n_chunks - df + 0.5) / (df + 0.5)) for df in map(document_frequency.__getitem__, terms)]
    postings: list[list[tuple[int, int]]] = [[] for _ in terms]
    k1, b = settings.k1, settings.b
    boosts = [keyword_boost(page) for page in corpus.pages]
    for chunk_index, counts in enumerate(field_counts):
        boost = boosts[corpus.chunk_page[chunk_index]]
        pseudo_tf: dict[str, float] = {}
        for name, weight in FIELD_WEIGHTS.items():
            b_f = 0.0 if name in UNNORMALISED_FIELDS else b
            norm = 1 - b_f + b_f * field_lengths[name][chunk_index] / average[name]
            for term, tf in counts[name].items():
                pseudo_tf[term] = pseudo_tf.get(term, 0.0) + weight * tf / norm
        # A chunk adds one posting to each of its terms: their order here changes no list.
        for term, saturating in pseudo_tf.items():
            at = term_index[term]
            impact = boost * idf[at] * saturating / (k1 + saturating)
            postings[at].append((chunk_index, max(1, round(impact * IMPACT_SCALE))))
    stems: dict[str, list[int]] = {}
    for term in sorted(prose):
        stems.setdefault(stem(term) if cache is None else cache.stem(term, stem), []).append(term_index[term])
    return KeywordIndex(terms, postings, stems)
