"""Regenerate the per-function vectors of the mirrored engine parts from the Python reference:

    tests/vectors/fuzzy.json    engine/fuzzy.py osa_within, typo_distance, strong_typo
                                (js/src/engine/fuzzy.js osaWithin, typoDistance, strongTypo)
    tests/vectors/varints.json  bundle/format.py encode/decode_varints (js/src/engine/bundle/format.js decodeVarints)
    tests/vectors/fuse.json     engine/fuse.py identifier_tokens, exact_cover, defining_chunks,
                                path_roots, word_matches, coverage, typo_slip, fuse
                                (js/src/engine/fuse.js); engine/keyword.py
                                typed_tokens (js/src/engine/keyword.js typedTokens)
    tests/vectors/results.json  engine/results.py rank_chunks, page_score, group_by_page (js/src/engine/results.js)
    tests/vectors/filters.json  engine/filters.py parse_query, parse_filter, allowed_chunks and
                                text/facets.py facet_key, path_key (js/src/engine/filters.js)
    tests/vectors/expand.json   engine/expand.py expand, languages_of (js/src/engine/expand.js)

tests/test_function_vectors.py checks that the Python reference still gives every answer (with
`answer()` below) and js/test/function_vectors.test.js that the JS runtime does. The vectors
are the spec: review the diff by hand, and regenerate only on a deliberate change of behaviour.

    .venv/bin/python scripts/make_function_vectors.py
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.format import BundleError, decode_varints, encode_varints
from mkdocs_graphsearch.bundle.read import Bundle
from mkdocs_graphsearch.bundle.settings import FUSION_DEFAULTS
from mkdocs_graphsearch.bundle.write import defines_index
from mkdocs_graphsearch.engine.expand import expand, languages_of
from mkdocs_graphsearch.engine.filters import allowed_chunks, parse_filter, parse_query
from mkdocs_graphsearch.engine.fuse import (
    Coverage,
    coverage,
    defining_chunks,
    exact_cover,
    fuse,
    identifier_tokens,
    path_roots,
    typo_slip,
    word_matches,
)
from mkdocs_graphsearch.engine.fuzzy import osa_within, strong_typo, typo_distance
from mkdocs_graphsearch.engine.keyword import query_tokens, typed_tokens
from mkdocs_graphsearch.engine.results import group_by_page, page_score, rank_chunks
from mkdocs_graphsearch.engine.snippet import highlight
from mkdocs_graphsearch.text.facets import facet_key, path_key

VECTORS = Path(__file__).resolve().parents[1] / "tests" / "vectors"
STOP_WORDS = ["a", "do", "how", "i", "is", "the", "to"]

# --- inputs ---------------------------------------------------------------------------------

#: Typo rules (engine/fuzzy.py) at the default lengths, and a format-1 manifest (no strong length).
TYPO_SETTINGS = {"fuzzy_long_length": 8, "fuzzy_strong_length": 8}
TYPO = [
    ("bread", "read"), ("pasta", "paste"), ("scores", "stores"), ("timout", "timeout"),
    ("tiemout", "timeout"), ("imeout", "timeout"), ("relatinship", "relationship"),
    ("visiblity", "visibility"), ("visiblity_timout", "visibility_timeout"), ("inheritted", "inherited"),
    ("xnherited", "inherited"), ("namspaces", "namespaces"), ("kernal", "kernel"), ("é🚀abc", "🚀éabc"),
    ("🚀bcde", "abcde"), ("abcdefgh", "bacdefhg"), ("abcdefgh", "xbcdefgy"), ("abcdefgh", "xbcdyfgz"),
]
STRONG = [
    ("relatinship", 1, TYPO_SETTINGS), ("timout", 1, TYPO_SETTINGS), ("visiblity", 1, TYPO_SETTINGS),
    ("visiblity_timout", 2, TYPO_SETTINGS), ("inheritted", 2, TYPO_SETTINGS), ("abcdefgh", 1, TYPO_SETTINGS),
    ("🚀🚀🚀🚀🚀🚀🚀🚀", 1, TYPO_SETTINGS), ("🚀🚀🚀🚀🚀🚀🚀", 1, TYPO_SETTINGS), ("pasta", 1, {}),
    ("pasta", 0, TYPO_SETTINGS),
]

OSA = [
    ("", "", 0), ("", "abc", 3), ("", "abc", 2), ("abc", "", 3), ("abc", "abc", 0),
    ("retry", "retyr", 1), ("retry", "rtery", 1), ("ab", "ba", 1), ("ab", "ba", 0),
    ("ca", "abc", 2), ("ca", "abc", 3),  # OSA: 3 (no edit of a swapped pair; Damerau says 2)
    ("abcdef", "badcfe", 3), ("abcdef", "badcfe", 2),
    ("kitten", "sitting", 3), ("kitten", "sitting", 2), ("flaw", "lawn", 2),
    ("dashbords", "dashboards", 1), ("instal", "install", 1), ("configration", "configuration", 2),
    ("visibility_timeout", "visibility_timeuot", 1), ("aaaa", "aaa", 1), ("aaaa", "a", 2),
    ("abc", "abcdef", 2), ("abc", "xyz", 3), ("abc", "xyz", 2), ("a", "b", 1), ("a", "b", 0),
    ("café", "cafe", 1), ("straße", "strasse", 2), ("naïve", "naive", 1), ("日本語", "日語本", 1),
    ("e\u0301cole", "ecole", 1), ("ΟΔΥΣΣΕΥΣ", "ΟΔΥΣΕΥΣ", 1),
    # Astral code points are one character each (JS strings would count two UTF-16 units).
    ("🚀ship", "ship🚀", 2), ("🚀a", "a🚀", 1), ("👍🏽", "🏽👍", 1), ("𝔘𝔫𝔦", "𝔘𝔦𝔫", 1), ("😀", "😁", 1),
]
OSA_RANDOM = 300  # seeded pairs over a small alphabet: swaps, repeats and near misses

VARINT_VALUES = [
    [], [0], [1], [127], [128], [255], [300], [16383], [16384], [2097151], [2097152],
    [2**31 - 1], [2**31], [2**32 - 1], [2**32], [2**32 + 1], [2**35 - 1], [2**35], [2**49 - 1],
    [2**49], [2**52], [2**53 - 2], [2**53 - 1], [0, 1, 127, 128, 0, 2**40 + 5, 7],
]
VARINT_ENCODE_ERRORS = [[-1], [2**53], [5, 2**53 + 1], [2**63 - 1]]
VARINT_DECODE = [  # (name, hex): decoded as the reference does, or its error
    ("zero-padded 9 bytes is still 1", "818080808080808000"),
    ("zero-padded 2 bytes", "8000"),
    ("2^53 - 1 in 8 bytes", "ffffffffffffff0f"),
    ("2^53: one above the limit", "80808080808080" + "10"),
    ("2^56 - 1: all 8 bytes full", "ffffffffffffff7f"),
    ("2^56: 9 bytes", "8080808080808080" + "01"),
    ("2^63 - 1: 9 bytes full", "ffffffffffffffff7f"),
    ("10 bytes", "80808080808080808000"),
    ("cut off", "ac"),
    ("cut off after a value", "05ff"),
    ("cut off beats too long", "8080808080808080808080"),
    ("too long beats too big", "ffffffffffffff7f" + "80808080808080808000"),
    ("a good value, then one too big", "01" + "ffffffffffffff7f"),
]

IDENTIFIER_QUERIES = [
    "", "jitter", "SIGTERM", "TimeoutStopSec", "visibility_timeout", "mkdocs.yml", "--no-cache",
    "visibility_timeout max_attempts", "use_directory_urls mkdocs.yml", "HTTPException",
    "getUserById", "XMLHttpRequest", "visibility timeout", "how do I set visibility_timeout",
    "what is pyproject.toml", "TimeoutStopSec timeout", "timeout TimeoutStopSec", "retry_policy retry",
    "retry_policy backoff", "v2", "a", "extra_java", "日本語", "café_au_lait", "RetryPolicy.delay_for",
]
# Token lists no query above gives: a two-letter compound, and parts that spell more than it.
IDENTIFIER_TOKENS = [["ab", "a", "b"], ["abc", "a", "b", "c", "x"], ["xy", "x", "y", "z"]]

COVER_TERMS = ["jitter", "max_attempts", "timeout", "timeoutstopsec", "visibility_timeout", "日本"]
COVER_POSTINGS = [[0, 3, 5], [1, 3], [0, 1, 2, 3, 4], [4], [3, 5], [2]]
COVER_QUERIES = [
    "jitter", "TimeoutStopSec", "visibility_timeout max_attempts", "visibility_timeout jitter",
    "extra_java", "how does jitter work", "timeout", "max_attempts missing_term", "", "日本",
    # Being typed: the last word, or the compound it ends, covers by its completions (if no term).
    "jit", "visibility_ti", "TimeoutSto", "max_attempts visibility_ti", "visibility_ti max_attempts",
    "max_att", "time", "timeout_x", "visibility_timeout max_",
]
#: prefix_terms reads max_expansions (and ranks by postings): 2 keeps the cut in view.
COVER_SETTINGS = {"max_expansions": 2}
#: The tokens being typed (keyword.typed_tokens): the last token, and a compound ending the query.
TYPED_QUERIES = [
    "", "jit", "gh-dep", "extra_java", "configure extra_java", "extra_java configure", "TimeoutSto",
    "dep gh-dep", "gh-dep dep", "mkdocs.y", "--no-ca", "a_b_c", "how do I", "custom_the", "日本語",
    "x_", "HTTPTrans",
]

FUSION = {"rrf_k": 60, "keyword_weight": 1.0, "vector_weight": 1.0, "vector_threshold": 0.2}  # without fusion_*
FUSION_SET = {**FUSION, "fusion_coverage_base": 0.5, "fusion_coverage_span": 0.3, "fusion_gap_span": 0.1}


def side_scores(ranking: list[int], top: float, step: float) -> list[float]:
    """Scores indexed by chunk that fall along a ranking (top / (1 + step x rank), rounded to 6
    places); 0 elsewhere."""
    scores = [0.0] * (max(ranking, default=-1) + 1)
    for rank, chunk in enumerate(ranking):
        scores[chunk] = round(top / (1 + step * rank), 6)
    return scores


#: (name, keyword ranking, vector ranking, cover, coverage (words held, words[, words matched: as
#: held when not given]), settings[, keyword scores, cosines]); without scores, keyword scores from
#: 9.5 and cosines from 0.7 fall along the rankings (side_scores): a keyword gap of 0.2 between the
#: first two.
FUSE = [
    ("both empty", [], [], [], (0, 0), FUSION),
    ("keyword only", [3, 1, 2], [], [], (1, 1), FUSION),
    ("vector only", [], [2, 0], [], (0, 2), FUSION),
    ("both sides, keyword first in insertion order", [3, 1, 2], [2, 4, 3], [], (1, 2), FUSION),
    ("covered chunks get the ceiling", [5, 1, 9, 4], [4, 1, 7], [9, 4], (1, 1), FUSION),
    ("a cover outside the keyword ranking adds nothing", [1, 2], [3], [3, 8], (1, 2), FUSION),
    ("ties: the same score twice (share 0.4 + 0.2 x gap 0.5, 0.5 of the best on each side)", [1, 2], [2, 1], [],
     (0, 1), {**FUSION, "vector_threshold": 0.25}, [0.0, 2.0, 1.0], [0.0, 0.5, 0.75]),
    ("weights and a small k", [0, 1, 2, 3], [3, 2, 1, 0], [2], (3, 4),
     {"rrf_k": 1, "keyword_weight": 0.7, "vector_weight": 1.3, "vector_threshold": 0.2}),
    ("k = 0", [7, 8], [8], [], (0, 1), {**FUSION, "rrf_k": 0}),
    ("one word, held: sure, the keyword side's share 1", [0, 1], [1, 0], [], (1, 1), FUSION),
    ("nothing held: the keyword side's share 0.4 + 0.2 x gap", [0, 1], [1, 0], [], (0, 3), FUSION),
    ("every word of two held: share 1", [0, 1], [1, 0], [], (2, 2), FUSION),
    ("every word of five held, a wide gap: share 1", [0, 1], [1, 0], [], (5, 5), FUSION, [20.0, 1.0], None),
    ("two of three held: 0.4 + 0.4 x 2/3 + 0.2 x gap", [0, 1], [1, 0], [], (2, 3), FUSION),
    ("one of two held, both matched (a typo correction): share 1", [0, 1], [1, 0], [], (1, 2, 2), FUSION),
    ("none held, every word matched by typo or prefix: share 1", [0, 1], [1, 0], [], (0, 3, 3), FUSION),
    ("one of three held, two matched: 0.4 + 0.4 x 1/3 + 0.2 x gap", [0, 1], [1, 0], [], (1, 3, 2), FUSION),
    ("one of three held and matched, a misspelt word corrected: share 1", [0, 1], [1, 0], [], (1, 3, 1, True),
     FUSION),
    ("a slip without words: the keyword side is not sure", [0, 1], [1, 0], [], (0, 0, 0, True), FUSION),
    ("a single keyword match held whole: share 1, the vector side adds nothing", [0], [1, 0], [], (1, 1), FUSION),
    ("score gaps count, not only ranks", [4, 5, 6], [6, 5, 4], [], (1, 2), FUSION,
     [0.0, 0.0, 0.0, 0.0, 8.0, 0.4, 0.3], [0.0, 0.0, 0.0, 0.0, 0.21, 0.6, 0.61]),
    ("the best cosine at the threshold: each vector chunk counts 1", [1], [2, 3], [], (1, 2), FUSION,
     None, [0.0, 0.0, 0.2, 0.2]),
    ("both weights 0: nothing scores", [0, 1], [1], [], (1, 2),
     {**FUSION, "keyword_weight": 0.0, "vector_weight": 0.0}),
    ("long rankings", list(range(0, 400, 2)), list(range(399, 0, -3)), list(range(0, 400, 10)), (3, 10), FUSION),
    ("long rankings, sure", list(range(0, 400, 2)), list(range(399, 0, -3)), list(range(0, 400, 10)), (3, 4, 4),
     FUSION),
    ("fusion settings in the manifest: 0.5 + 0.3 x 2/3 + 0.1 x gap", [0, 1], [1, 0], [], (2, 3), FUSION_SET),
    ("the defaults written out: as a manifest without them", [0, 1], [1, 0], [], (2, 3),
     {**FUSION, **FUSION_DEFAULTS}),
    ("fusion settings past 1: the keyword side's confidence stops at 1", [0, 1], [1, 0], [], (1, 3),
     {**FUSION_SET, "fusion_coverage_base": 0.9}),
    ("fusion settings all 0: nothing held, the vector side's share 1", [0, 1], [1, 0], [], (2, 3),
     {**FUSION, "fusion_coverage_base": 0.0, "fusion_coverage_span": 0.0, "fusion_gap_span": 0.0}),
]
FUSE_DEFINED = [  # (name, keyword ranking, vector ranking, cover, definitions, coverage, settings)
    ("definitions two ceilings up", [5, 1, 9, 4], [4, 1, 7], [9, 4], [4], (1, 1), FUSION),
    ("a definition outside the cover still counts", [5, 1, 9, 4], [4, 1, 7], [9], [1, 4], (1, 1), FUSION),
    ("a definition outside the keyword ranking adds nothing", [1, 2], [3], [], [3, 8], (1, 2), FUSION),
]
#: Coverage: (query tokens, stop tokens, keyword ranking) on the COVER_TERMS site.
COVERAGE = [
    (["jitter", "timeout"], [], [0, 3]), (["jitter", "timeout"], [], [5, 0]), (["jitter", "timeout"], [], [4]),
    (["how", "jitter", "timeout", "missing"], ["how"], [3, 0]), (["jitter"], [], []), (["how"], ["how"], [1]),
    (["timeoutstopsec", "timeout", "stop", "sec"], [], [4]), (["日本", "jitter"], [], [2]),
]
#: Coverage through the terms each token matched (keyword.py: typo, prefix, stem), on the
#: COVER_TERMS site: (query tokens, stop tokens, keyword ranking, per token its matched terms).
COVERAGE_MATCHED = [
    (["jiter", "timeout"], [], [0, 3], [[0], [2]]),  # `jiter` matched `jitter` (a typo)
    (["jiter", "timeout"], [], [4, 0], [[0], [2]]),  # chunk 4 lacks `jitter`
    (["visib", "jitter"], [], [3], [[4], [0]]),  # `visib` completed to `visibility_timeout`
    (["timeouts", "how"], ["how"], [1], [[3, 2], [0]]),  # either term of `timeouts` will do
    (["missing", "jitter"], [], [0], [[], [0]]),  # a token that matched nothing
]
#: Typo slips: (query tokens, stop tokens, per token the edits of each term it matched).
TYPO_SLIPS = [
    (["pyhton", "verison", "pinning"], [], [[1, 1], [1], [0]]),  # two slips
    (["unfinished", "pages"], [], [[2], [0]]),  # two edits: maybe a word the site lacks, no slip
    (["serch", "plugin"], [], [[1, 2], [0]]),  # the nearest correction one edit away
    (["jitter", "timeout"], [], [[0], [0, 0]]),  # exact, prefix or stem matches only
    (["missing", "jitter"], [], [[], [0]]),  # a token that matched nothing
    (["which", "jitter"], ["which"], [[1], [0]]),  # a stop word's correction does not count
    ([], [], []),
]
#: Word matches: (query tokens, tokens being typed, per token the terms it matched) on the
#: COVER_TERMS site: a typed token's completions are no evidence, its exact term and others are.
WORD_MATCHES = [
    (["jitter", "time"], ["time"], [[0], [2, 3]]),  # `time`, no term, stands for its completions
    (["timeout"], ["timeout"], [[2, 3]]),  # typed and a term: timeoutstopsec is a guess, not counted
    (["jiter", "visib"], ["visib"], [[0], [4]]),  # a typo correction counts, so does a no-term's completion
    (["jitter", "timeout"], ["timeout"], [[0], [3]]),  # a typed term matched only by a completion: none
    (["max_attempts", "timeout"], [], [[1], [2, 3]]),  # not typed: every term counts
    ([], [], []),
]
#: Coverage on long posting lists (a binary search finds the best chunk): `many` is in every third
#: chunk of 0..297, `few` in 7, 150, 299; best chunks at the start, the middle, the end, between
#: two postings, past the last one.
COVERAGE_LONG_TERMS = ["few", "many"]
COVERAGE_LONG_POSTINGS = [[7, 150, 299], list(range(0, 300, 3))]
COVERAGE_LONG = [(["many", "few"], [], [best]) for best in (0, 7, 150, 151, 297, 298, 299, 300)]

# Definitions: per chunk, the terms it defines (index/documents.py `chunks.defines`; the bundle's
# term shards hold it inverted: bundle/write.py defines_index, which both test harnesses apply).
DEFINES = [[], ["enqueue"], ["tidewater.client.enqueue", "enqueue"], ["retrypolicy"],
           ["user-guide", "deploy-to-production"], []]
DEFINING = [  # (query, cover, with the `defines` column)
    ("enqueue", [1, 2, 5], True), ("Client.enqueue", [2, 5], True), ("tidewater.Client.enqueue", [2], True),
    ("RetryPolicy", [3], True), ("retry policy", [3], True), ("user-guide/", [4, 5], True),
    ("RetryPolicy", [], True), ("enqueue", [1, 2, 5], False), ("client.enqueue_many", [2], True),
    # Typed, no term: its completions are wanted too (`enq` -> enqueue, `retryp` -> retrypolicy).
    ("enq", [1, 2, 5], True), ("retryp", [3], True), ("Client.enq", [2], True), ("user-gu", [4], True),
]
#: The site's terms for the typed DEFINING cases (their postings: where each is written).
DEFINING_TERMS = ["client", "client.enqueue", "enqueue", "enqueue_many", "retrypolicy", "user-guide"]
DEFINING_POSTINGS = [[2], [2], [1, 2, 5], [2], [3], [4]]
# Path queries: pages and their chunks (page, kind).
PATH_PAGES = {"path": ["index.md", "user-guide/jobs.md", "user-guide/index.md",
                       "how-to/deploy-to-production.md", "User Guide/x.md"]}
PATH_CHUNKS = [(0, "page"), (1, "page"), (1, "section"), (2, "page"), (3, "page"), (3, "code"), (4, "page")]
PATH_TEXTS = [
    "user-guide/", "user-guide/jobs", "/jobs", "guide/jobs", "how-to/dep", "jobs", "user-guide/ jobs",
    " user-guide/\t", "/", "user guide/", "USER_GUIDE/", "user-guide/jobs.md", "index.md/", "",
]

# Filters: the syntax, then what a parsed query's filters match on a small site.
PARSE_QUERIES = [
    "", "tags:deploy", "retry kind:code policy", "http://x in:user-guide/", 'Tags:"Dead Letter" x',
    'tags:"unterminated value', "(kind:code)", "kind: code", 'tags:"" in:/ lang:PY lang:py',
    "a\tlang:js\nb", "std::vector kind:code,", "\u0131N:x", "\u0130n:x", "KIND:CODE kind:code kind:api",
    "in:User Guide", 'in:"User Guide/advanced/"', "tags:a tags:b tags:a", "lang:c++ lang:C#",
    'tags:"x"y', "kind:code\u00a0retry", "tags:\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3", "tags:\ufb01le",
    "\U0001f680 tags:\U0001f680rocket", "re:match note: x:y", "-tags:x", "tags:-_-", "in:a//b/",
    'tags:"a"kind:code', "\u3000tags:x", "lang:python\u2028x", "  kind:code  ", "tags:x\u000bkind:api",
    "kindly:x lang: tags", "in:..", "TAGS:\"A b\" retry TAGS:a-B",
]
FACET_VALUES = ["Dead Letter_Queue", "  --x--  ", 'say "hi"', "\u03a3\u0391\u03a3", "\ufb01", "\u216b", "C++", "_", "",
                "tab\tand\u000bvt", "\u00a0nbsp\u00a0", "\u0130stanbul"]
PATH_VALUES = ["/User Guide//advanced/", "", "/", "a/b.md", "A_B/C-D", " / x / "]
FILTER_ARGUMENTS = [("tags:deploy", False), ("Kind:Code", False), ('tags:"Dead Letter"', False),
                    ("in:/user-guide/", False), ("lang:py:3", False), ("tags:", True), ("deploy", True),
                    ("tag:deploy", True), ("in:/", True), (":x", True)]
SITE_PAGES = {"path": ["index.md", "user-guide/jobs.md", "user-guide/advanced/tuning.md", "reference/api.md",
                       "user_guide/x.md"],
              "tags": [["Start"], ["Jobs", "python"], [], ["API", "Python"], ["jobs"]]}
SITE_CHUNKS = [(0, "page", ""), (0, "code", "bash"), (1, "page", ""), (1, "section", ""), (1, "code", "py"),
               (2, "page", ""), (2, "code", "Python"), (3, "page", ""), (3, "api", ""), (3, "code", "ts"),
               (4, "page", "")]
SITE_ALIASES = {"py": "python", "ts": "typescript", "bash": "shell"}
ALLOWED = [  # (query, with the tags column and the aliases)
    ("tags:python", True), ("tags:jobs", True), ("tags:PYTHON tags:start", True), ("in:user-guide", True),
    ("in:user-guide/advanced", True), ("in:user", True), ("kind:code", True), ("kind:prose", True),
    ("kind:api kind:code", True), ("kind:section", True), ("lang:python", True), ("lang:py", True),
    ("lang:shell", True), ("lang:bash", True), ("lang:typescript in:reference", True),
    ("tags:python kind:code", True), ("in:reference tags:jobs", True), ("tags:nothing", True),
    ("tags:python", False), ("lang:py", False), ("lang:python", False), ("in:user-guide kind:code", False),
]

PAGE = {"page_max_weight": 0.8, "page_top_weight": 0.2, "page_top_n": 3}
PAGE_SCORES = [0.1, 0.2, 0.3, 0.7, 0.7, 1e-9, 0.033333333333333333, 1 / 61, 2 / 61 + 1 / 62, 5.0]
PAGE_SCORE = [  # (name, members best first, settings)
    ("one member", [4], PAGE),
    ("two members: mean of two", [3, 1], PAGE),
    ("three members", [9, 3, 2], PAGE),
    ("only the top n count", [9, 3, 2, 1, 0], PAGE),
    ("left-to-right sum (0.1 + 0.2 + 0.3)", [0, 1, 2], PAGE),
    ("tied members", [3, 4], PAGE),
    ("tiny and RRF-sized scores", [8, 7, 5], PAGE),
    ("top n = 1: the best alone", [9, 3, 2], {**PAGE, "page_top_n": 1}),
    ("only the mean", [6, 2, 1], {"page_max_weight": 0.0, "page_top_weight": 1.0, "page_top_n": 3}),
    ("top n beyond the members", [2, 1], {**PAGE, "page_top_n": 10}),
]

RANK_SCORES = [
    [], [0.0, 0.0], [0.5], [0.1, 0.3, 0.2], [0.2, 0.2, 0.1, 0.2], [0.0, -1.0, 0.4, 0.0, 1e-300],
    [1 / 61, 1 / 62, 1 / 61, 2 / 122, 0.0163934426229508],
]

# A small site for group_by_page: chunk -> (page, anchor, title, parent, kind, text).
PAGES = {"path": ["index.md", "retries.md", "deploy.md", "api.md"],
         "url": ["", "retries/", "deploy/", "api/"],
         "title": ["Home", "Retries", "Deploying", "API"]}
CHUNKS = [
    (0, "", "Home", -1, "section", "Welcome to Tidewater, a job queue."),
    (1, "", "Retries", -1, "section", "A failed job is retried with jitter."),
    (1, "backoff", "Backoff", 1, "section", "Backoff doubles the delay after each retry."),
    (1, "backoff", "Backoff", 2, "code", "RetryPolicy(delay=2, jitter=True)"),
    (1, "limits", "Limits", 1, "section", "max_attempts caps the retries & <stops> them."),
    (2, "", "Deploying", -1, "section", "Put the workers on a server with systemd."),
    (2, "systemd", "systemd", 5, "section", "TimeoutStopSec gives a job time to finish."),
    (3, "", "API", -1, "section", ""),
    (3, "retrypolicy", "RetryPolicy", 7, "section", "RetryPolicy.delay_for(attempt) returns seconds."),
    # mkdocstrings entries: an object, its parameter entries (one holds a code block), two
    # functions with a parameter of the same name, and an entry like one that is no parameter.
    (3, "tidewater.RetryPolicy.delay_for", "delay_for(attempt, base)", 8, "api", "Seconds before an attempt."),
    (3, "tidewater.RetryPolicy.delay_for(attempt)", "attempt", 9, "api", "int The attempt number."),
    (3, "tidewater.RetryPolicy.delay_for(base)", "base", 9, "api", "float The first delay."),
    (3, "tidewater.RetryPolicy.delay_for(base)", "base", 11, "code", "def delay_for(attempt, base): ..."),
    (3, "tidewater.load", "load(loader)", 7, "api", "Load a queue."),
    (3, "tidewater.load(loader)", "loader", 13, "api", "Loader The loader to use."),
    (3, "tidewater.load_git", "load_git(loader)", 7, "api", "Load a queue from git."),
    (3, "tidewater.load_git(loader)", "loader", 15, "api", "Loader The loader to use."),
    (3, "tidewater.load_git(loader)(x)", "x", 15, "api", "Not a parameter of load_git."),
    (3, "retrypolicy(x)", "x", 8, "section", "A section, not an entry."),
]
GROUP_SETTINGS = {**PAGE, "sections_per_page": 3, "snippet_words": 8}
KW, VEC, BOTH, GRAPH = ["keyword"], ["vector"], ["keyword", "vector"], ["graph"]
GROUP = [  # (name, scores per chunk, via per scored chunk, limit, query, matched, settings, explain)
    ("nothing scored", [0.0] * 9, {}, 10, "", {}, GROUP_SETTINGS, False),
    ("direct pages by best x 0.8 + mean x 0.2",
     [0.0, 0.5, 0.4, 0.45, 0.3, 0.0, 0.6, 0.0, 0.2], {1: KW, 2: KW, 3: BOTH, 4: VEC, 6: KW, 8: KW},
     10, "retry", {"retry": ["retry", "retries", "retried"]}, GROUP_SETTINGS, False),
    ("a code block and its section share an anchor: the better one stands",
     [0.0, 0.0, 0.3, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0], {2: KW, 3: KW}, 10, "jitter", {"jitter": ["jitter"]},
     GROUP_SETTINGS, False),
    ("graph-only sections never lower a page and fill the slots left",
     [0.0, 0.9, 0.2, 0.1, 0.05, 0.0, 0.3, 0.0, 0.0], {1: GRAPH, 2: KW, 3: GRAPH, 4: GRAPH, 6: VEC},
     10, "backoff", {"backoff": ["backoff"]}, GROUP_SETTINGS, False),
    ("pages with only related sections come last",
     [0.9, 0.0, 0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.2], {0: GRAPH, 5: KW, 8: GRAPH}, 10, "", {},
     GROUP_SETTINGS, False),
    ("tied pages by page index",
     [0.0, 0.25, 0.0, 0.0, 0.0, 0.25, 0.0, 0.0, 0.25], {1: KW, 5: KW, 8: KW}, 10, "", {},
     GROUP_SETTINGS, False),
    ("limit and sections per page",
     [0.1, 0.5, 0.4, 0.3, 0.2, 0.0, 0.6, 0.0, 0.05], {0: KW, 1: KW, 2: KW, 3: KW, 4: KW, 6: KW, 8: KW},
     2, "", {}, {**GROUP_SETTINGS, "sections_per_page": 2}, False),
    ("parameter entries fold into their object's row, titled object › name",
     [0.0] * 9 + [0.5, 0.9, 0.4, 0.6, 0.0, 0.3, 0.0, 0.35, 0.2, 0.1], {9: KW, 10: KW, 11: KW, 12: KW, 14: KW, 16: KW,
                                                                      17: KW, 18: KW},
     10, "loader", {"loader": ["loader"]}, {**GROUP_SETTINGS, "sections_per_page": 6}, False),
    ("an object ahead of its parameters stands for them",
     [0.0] * 9 + [0.9, 0.5, 0.4, 0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], {9: KW, 10: VEC, 11: KW, 12: KW},
     10, "delay", {"delay": ["delay"]}, GROUP_SETTINGS, False),
    ("explain parts, escaped snippet, empty text",
     [0.0, 0.0, 0.0, 0.0, 0.7, 0.0, 0.0, 0.2, 0.0],
     {4: BOTH, 7: GRAPH}, 10, "max_attempts", {"max_attempts": ["max_attempts"]}, GROUP_SETTINGS, True),
]

#: A small chunk graph over three pages, the last in Japanese (keyword.json pages.language):
#: (from, to, edge type) in edge order, by source. Japanese chunks 4..6 link English ones and back.
EXPAND_PAGES = ["", "", "ja"]
EXPAND_CHUNK_PAGES = [0, 0, 1, 1, 2, 2, 2]
EXPAND_EDGE_TYPES = ["child", "link"]
EXPAND_EDGES = [(0, 2, 1), (0, 4, 1), (0, 1, 0), (2, 5, 1), (4, 3, 1), (4, 5, 0), (5, 6, 0), (6, 0, 1)]
EXPAND_SETTINGS = {"seeds": 2, "graph_depth": 2, "graph_decay": {"child": 0.5, "link": 0.8}}
#: (name, scores of the directly found chunks, seeds best first, pages with their languages)
EXPAND = [
    ("an English seed: its Japanese neighbours are not there", {0: 1.0}, [0], True),
    ("an older bundle without page languages: one language", {0: 1.0}, [0], False),
    ("a Japanese seed and an English one: each keeps to its language", {4: 1.0, 0: 0.9}, [4, 0], True),
    ("both seeds without page languages", {4: 1.0, 0: 0.9}, [4, 0], False),
]


# --- the reference's answers (also what tests/test_function_vectors.py checks) ---------------


def small_bundle(case: dict[str, Any]) -> Bundle:
    """Just the parts of a Bundle the function under test reads."""
    postings = case.get("postings", [])
    return Bundle(
        path=Path("."),
        manifest={"search": case.get("settings", {})},
        terms=case.get("terms", []),
        term_index={term: i for i, term in enumerate(case.get("terms", []))},
        stems={},
        defines=defines_index(case.get("chunks", {}).get("defines", [])),  # as the term shards give it
        pages=case.get("pages", {}),
        chunks=case.get("chunks", {}),
        term_start=np.concatenate(([0], np.cumsum([len(p) for p in postings]))).astype(np.int64),
        post_chunk=np.array([c for p in postings for c in p], dtype=np.int64),
        post_impact=np.zeros(sum(len(p) for p in postings), dtype=np.int64),
        texts=case.get("texts", []),
        graph={},
        files={},
    )


def exact_terms(tokens: list[str], terms: list[str]) -> list[list[int]]:
    """Per token, the terms it matched when it matches only itself (keyword.py without typo,
    prefix or stem matches)."""
    return [[terms.index(token)] if token in terms else [] for token in tokens]


def fuse_case(name: str, keyword: list[int], vector: list[int], cover: list[int], covered: tuple[int, ...],
              settings: dict[str, Any], scores: list[float] | None = None, cosines: list[float] | None = None,
              defined: list[int] | None = None) -> dict[str, Any]:
    held, words, *rest = covered
    # (held, words, matched as held when not given, and the slip when given)
    counts = [held, words, rest[0] if rest else held, *rest[1:]]
    case: dict[str, Any] = {"name": name, "keyword": keyword, "scores": scores or side_scores(keyword, 9.5, 0.25),
                            "vector": vector, "cosines": cosines or side_scores(vector, 0.7, 0.01),
                            "coverage": counts, "cover": cover}
    if defined is not None:
        case["defined"] = defined
    return case | {"settings": settings}


def answer(kind: str, case: dict[str, Any]) -> Any:
    """The reference's output for one case of a kind (the key of its list in the file)."""
    if kind == "osa":
        return osa_within(case["a"], case["b"], case["budget"])
    if kind == "typo":
        return typo_distance(case["token"], case["term"], case["settings"])
    if kind == "strong":
        return strong_typo(case["token"], case["distance"], case["settings"])
    if kind == "encode":
        return encode_varints(case["values"]).hex()
    if kind == "decode":
        try:
            return {"values": decode_varints(bytes.fromhex(case["hex"])).tolist()}
        except BundleError as error:
            return {"error": str(error)}
    if kind == "identifier_tokens":
        return identifier_tokens(case["tokens"])
    if kind == "typed_tokens":
        return sorted(typed_tokens(case["query"], case["tokens"]))
    if kind == "exact_cover":
        return sorted(exact_cover(small_bundle(case), case["tokens"], set(case.get("typed", []))))
    if kind == "fuse":
        defined = set(case.get("defined", []))
        fused = fuse(case["keyword"], case["scores"], case["vector"], case["cosines"], Coverage(*case["coverage"]),
                     set(case["cover"]), case["settings"], defined)
        return [[chunk, score] for chunk, score in fused.items()]
    if kind == "word_matches":
        return word_matches(small_bundle(case), case["tokens"], case["matched"], set(case["typed"]))
    if kind == "coverage":
        covered = coverage(small_bundle(case), case["tokens"], set(case["stop"]), case["keyword"], case["matched"])
        return [covered.held, covered.words, covered.matched]
    if kind == "typo_slip":
        return typo_slip(case["tokens"], set(case["stop"]), case["distances"])
    if kind == "defining_chunks":
        typed = set(case.get("typed", []))
        return sorted(defining_chunks(small_bundle(case), case["tokens"], set(case["cover"]), typed))
    if kind == "path_roots":
        return sorted(path_roots(small_bundle(case), case["text"], set(range(len(case["chunks"]["kind"])))))
    if kind == "parse_query":
        parsed = parse_query(case["query"])
        return {"text": parsed.text, "filters": parsed.filters}
    if kind == "facet_key":
        return facet_key(case["value"])
    if kind == "path_key":
        return path_key(case["path"])
    if kind == "parse_filter":
        return list(parse_filter(case["argument"]))
    if kind == "allowed_chunks":
        return [int(c) for c in allowed_chunks(small_bundle(case), parse_query(case["query"]).filters).nonzero()[0]]
    if kind == "expand":
        return expand_answer(case)
    if kind == "rank_chunks":
        return rank_chunks(np.array(case["scores"], dtype=np.float64))
    if kind == "page_score":
        return page_score(case["members"], np.array(case["scores"], dtype=np.float64), case["settings"])
    if kind == "group_by_page":
        scores = np.array(case["scores"], dtype=np.float64)
        details = {int(chunk): info for chunk, info in case["details"].items()}
        marks = highlight(case["query"], case["matched"], STOP_WORDS)
        return group_by_page(
            small_bundle(case), case["ranked"], scores, marks, case["limit"], details, case["explain"]
        )
    raise ValueError(f"unknown kind {kind}")


def expand_answer(case: dict[str, Any]) -> dict[str, Any]:
    """expand() on a case's graph (CSR, as bundle/read.py holds it): every score after, by chunk,
    and where each raised one came from."""
    edges = case["edges"]
    offsets = [0] * (len(case["chunks"]["page"]) + 1)
    for source, _, _ in edges:
        offsets[source + 1] += 1
    offsets = np.cumsum(offsets).tolist()
    graph = {"offsets": offsets, "targets": [e[1] for e in edges], "types": [e[2] for e in edges],
             "edge_types": case["edge_types"]}
    scores = {int(chunk): score for chunk, score in case["scores"]}
    languages = languages_of(case["pages"], case["chunks"])
    origins = expand(scores, case["ranked"], graph, case["settings"], case["min_score"], None, languages)
    return {"scores": sorted([chunk, score] for chunk, score in scores.items()),
            "origins": sorted([chunk, o.seed, o.edge, o.depth] for chunk, o in origins.items())}


# --- cases ----------------------------------------------------------------------------------


def osa_cases() -> list[dict[str, Any]]:
    rng = random.Random(13)
    pairs = list(OSA)
    while len(pairs) < len(OSA) + OSA_RANDOM:
        a = "".join(rng.choice("abcé🚀") for _ in range(rng.randint(0, 7)))
        b = list(a)
        for _ in range(rng.randint(0, 3)):
            i = rng.randint(0, max(0, len(b) - 1))
            edit = rng.choice("isdt")
            if edit == "i":
                b.insert(i, rng.choice("abcé🚀"))
            elif b and edit == "s":
                b[i] = rng.choice("abcé🚀")
            elif b and edit == "d":
                del b[i]
            elif i + 1 < len(b):
                b[i], b[i + 1] = b[i + 1], b[i]
        pairs.append((a, "".join(b), rng.randint(0, 3)))
    return [{"a": a, "b": b, "budget": budget} for a, b, budget in pairs]


def group_cases() -> list[dict[str, Any]]:
    chunks = {
        "id": [f"{PAGES['path'][page]}#{anchor or 'top'}{'-code' if kind == 'code' else ''}"
               for page, anchor, _, _, kind, _ in CHUNKS],
        "page": [c[0] for c in CHUNKS], "anchor": [c[1] for c in CHUNKS], "title": [c[2] for c in CHUNKS],
        "parent": [c[3] for c in CHUNKS], "kind": [c[4] for c in CHUNKS],
    }
    texts = [c[5] for c in CHUNKS]
    cases = []
    for name, given, via, limit, query, matched, settings, explain in GROUP:
        scores = given + [0.0] * (len(CHUNKS) - len(given))  # chunks added after the case was written
        ranked = rank_chunks(np.array(scores, dtype=np.float64))
        details: dict[str, dict[str, Any]] = {}
        for rank, chunk in enumerate(ranked, 1):
            info: dict[str, Any] = {"via": via[chunk]}
            if explain:
                info["bm25"] = {"rank": rank, "score": scores[chunk]}
            details[str(chunk)] = info
        cases.append({
            "name": name, "pages": PAGES, "chunks": chunks, "texts": texts, "settings": settings,
            "scores": scores, "ranked": ranked, "details": details, "limit": limit, "query": query,
            "matched": matched, "explain": explain,
        })
    return cases


def allowed_case(query: str, full: bool) -> dict[str, Any]:
    """A filtered query on the small site; without `full`, a format-1 bundle (no tags, no aliases)."""
    pages = SITE_PAGES if full else {"path": SITE_PAGES["path"]}
    return {
        "query": query, "pages": pages,
        "chunks": {"id": [f"c{i}" for i in range(len(SITE_CHUNKS))], "page": [c[0] for c in SITE_CHUNKS],
                   "kind": [c[1] for c in SITE_CHUNKS],
                   "language": [c[2] for c in SITE_CHUNKS]},
        "settings": {"language_aliases": SITE_ALIASES} if full else {},
    }


def families() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Every vector file's inputs, by file name and kind (answers not yet filled in)."""
    return {
        "fuzzy.json": {
            "osa": osa_cases(),
            "typo": [{"token": token, "term": term, "settings": TYPO_SETTINGS} for token, term in TYPO],
            "strong": [{"token": token, "distance": d, "settings": settings} for token, d, settings in STRONG],
        },
        "varints.json": {
            "encode": [{"values": values} for values in VARINT_VALUES]
            + [{"values": values, "error": True} for values in VARINT_ENCODE_ERRORS],
            # Every encoded value decodes back; then the edge cases of the decoder.
            "decode": [
                {"name": f"round trip {values}", "hex": encode_varints(values).hex()} for values in VARINT_VALUES
            ]
            + [{"name": name, "hex": hex_} for name, hex_ in VARINT_DECODE],
        },
        "fuse.json": {
            "identifier_tokens": [{"query": q, "tokens": query_tokens(q)} for q in IDENTIFIER_QUERIES]
            + [{"query": None, "tokens": tokens} for tokens in IDENTIFIER_TOKENS],
            "typed_tokens": [{"query": q, "tokens": query_tokens(q)} for q in TYPED_QUERIES],
            "exact_cover": [
                {"query": q, "tokens": query_tokens(q), "typed": sorted(typed_tokens(q, query_tokens(q))),
                 "terms": COVER_TERMS, "postings": COVER_POSTINGS, "settings": COVER_SETTINGS}
                for q in COVER_QUERIES
            ],
            "fuse": [fuse_case(*case) for case in FUSE]
            + [fuse_case(name, kw, vec, cover, coverage, settings, defined=defined)
               for name, kw, vec, cover, defined, coverage, settings in FUSE_DEFINED],
            "coverage": [
                {"tokens": tokens, "stop": stop, "keyword": ranked, "matched": exact_terms(tokens, COVER_TERMS),
                 "terms": COVER_TERMS, "postings": COVER_POSTINGS}
                for tokens, stop, ranked in COVERAGE
            ]
            + [
                {"tokens": tokens, "stop": stop, "keyword": ranked, "matched": matched, "terms": COVER_TERMS,
                 "postings": COVER_POSTINGS}
                for tokens, stop, ranked, matched in COVERAGE_MATCHED
            ]
            + [
                {"tokens": tokens, "stop": stop, "keyword": ranked, "matched": exact_terms(tokens, COVERAGE_LONG_TERMS),
                 "terms": COVERAGE_LONG_TERMS, "postings": COVERAGE_LONG_POSTINGS}
                for tokens, stop, ranked in COVERAGE_LONG
            ],
            "typo_slip": [
                {"tokens": tokens, "stop": stop, "distances": distances} for tokens, stop, distances in TYPO_SLIPS
            ],
            "word_matches": [
                {"tokens": tokens, "typed": typed, "matched": matched, "terms": COVER_TERMS,
                 "postings": COVER_POSTINGS, "settings": COVER_SETTINGS}
                for tokens, typed, matched in WORD_MATCHES
            ],
            "defining_chunks": [
                {"query": q, "tokens": query_tokens(q), "typed": sorted(typed_tokens(q, query_tokens(q))),
                 "cover": cover, "chunks": {"defines": DEFINES} if column else {},
                 "terms": DEFINING_TERMS, "postings": DEFINING_POSTINGS, "settings": COVER_SETTINGS}
                for q, cover, column in DEFINING
            ],
            "path_roots": [
                {"text": text, "pages": PATH_PAGES,
                 "chunks": {"page": [c[0] for c in PATH_CHUNKS], "kind": [c[1] for c in PATH_CHUNKS]}}
                for text in PATH_TEXTS
            ],
        },
        "filters.json": {
            "parse_query": [{"query": q} for q in PARSE_QUERIES],
            "facet_key": [{"value": v} for v in FACET_VALUES],
            "path_key": [{"path": p} for p in PATH_VALUES],
            "parse_filter": [{"argument": a, **({"error": True} if bad else {})} for a, bad in FILTER_ARGUMENTS],
            "allowed_chunks": [allowed_case(query, full) for query, full in ALLOWED],
        },
        "expand.json": {
            "expand": [
                {"name": name, "scores": [[chunk, score] for chunk, score in scores.items()], "ranked": ranked,
                 "pages": {"language": EXPAND_PAGES} if languages else {}, "chunks": {"page": EXPAND_CHUNK_PAGES},
                 "edges": EXPAND_EDGES, "edge_types": EXPAND_EDGE_TYPES, "settings": EXPAND_SETTINGS,
                 "min_score": 0.1}
                for name, scores, ranked, languages in EXPAND
            ],
        },
        "results.json": {
            "rank_chunks": [{"scores": scores} for scores in RANK_SCORES],
            "page_score": [
                {"name": name, "members": members, "scores": PAGE_SCORES, "settings": settings}
                for name, members, settings in PAGE_SCORE
            ],
            "group_by_page": group_cases(),
        },
    }


def main() -> None:
    for file, kinds in families().items():
        for kind, cases in kinds.items():
            for case in cases:
                if case.get("error") is True:
                    continue  # an input the reference must refuse (checked by the test)
                case["expected"] = answer(kind, case)
        (VECTORS / file).write_bytes(orjson.dumps(kinds, option=orjson.OPT_INDENT_2) + b"\n")
        print(f"wrote {sum(len(c) for c in kinds.values())} cases to {VECTORS / file}")


if __name__ == "__main__":
    main()
