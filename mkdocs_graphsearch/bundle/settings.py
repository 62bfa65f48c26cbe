"""Search-time settings: defaults in one place, written into manifest.json so both engines
read the same numbers (neither engine has its own copy of a default)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

#: The search modes both engines know (`default_mode` is one of them).
MODES = ("keyword", "vector", "hybrid")
#: Related pages a build lists per page (index/related.py; the plugin's `related_count`).
RELATED_COUNT = 5

_LANGUAGE_ALIASES = {
    **dict.fromkeys(["py", "py3", "python3", "pycon", "pyi", "ipython", "ipython3"], "python"),
    **dict.fromkeys(["js", "jsx", "mjs", "cjs", "node", "es6", "ecmascript"], "javascript"),
    **dict.fromkeys(["ts", "tsx", "mts", "cts"], "typescript"),
    **dict.fromkeys(["sh", "bash", "zsh", "ksh", "console", "shell-session", "shellsession"], "shell"),
    **dict.fromkeys(["yml"], "yaml"),
    **dict.fromkeys(["json5", "jsonc"], "json"),
    **dict.fromkeys(["rs"], "rust"),
    **dict.fromkeys(["golang"], "go"),
    **dict.fromkeys(["rb"], "ruby"),
    **dict.fromkeys(["kt", "kts"], "kotlin"),
    **dict.fromkeys(["cs", "c#"], "csharp"),
    **dict.fromkeys(["c++", "cxx", "hpp", "cc"], "cpp"),
    **dict.fromkeys(["md"], "markdown"),
    **dict.fromkeys(["ps1", "pwsh"], "powershell"),
    **dict.fromkeys(["docker"], "dockerfile"),
    **dict.fromkeys(["tf", "terraform"], "hcl"),
    **dict.fromkeys(["txt", "plain", "plaintext"], "text"),
}


@dataclass(frozen=True)
class SearchSettings:
    """How a query is matched, scored and grouped (see engine/ and js/src/ for the use)."""

    #: Matches of the last query token as a prefix (as-you-type) weigh this much of an exact match.
    prefix_weight: float = 0.8
    #: At most this many dictionary terms stand in for one query token (prefix or typo matches).
    max_expansions: int = 50
    #: A query word also matches the other prose words of its stem (`admonitions` ->
    #: `admonition`, text/stem.py) at this weight: below 1.0, so the exact form scores higher.
    stem_weight: float = 0.5
    #: A query stop word (`query_stop_words`) counts this much of its score, and only in chunks
    #: another query word matched: it never makes a match alone.
    stop_word_weight: float = 0.2
    #: Tokens shorter than this are never typo-matched (4-letter words have too many neighbours:
    #: "cake" would match make, case, care).
    fuzzy_min_length: int = 5
    #: Tokens at least this long may be 2 edits away; shorter ones 1.
    fuzzy_long_length: int = 8
    #: Weight of a typo match at edit distance 1 and 2 (always below an exact match).
    fuzzy_weights: tuple[float, float] = (0.6, 0.4)
    #: A typo match is strong with at least this many code points of the query token per edit
    #: (`timout` one edit, `visiblity_timout` two); a query with no match but typos keeps only
    #: strong ones (engine/fuzzy.py): a short word two edits from a term is a guess, not an answer.
    fuzzy_strong_length: int = 5
    #: Page score from its direct sections (best first): page_max_weight * best +
    #: page_top_weight * mean of the top page_top_n (engine/results.py).
    page_max_weight: float = 0.8
    page_top_weight: float = 0.2
    page_top_n: int = 3
    #: Sections listed under each page in results.
    sections_per_page: int = 3
    #: Query words that say nothing about the docs on their own: they never make a match alone
    #: and are never highlighted alone (words only: `is` stays in `is_valid`). Articles, pronouns,
    #: auxiliaries, prepositions and question words; code keywords too (`for`, `if`, `not`, `is`,
    #: `with`), since in a question they are English, and a code token keeps its compound.
    query_stop_words: tuple[str, ...] = tuple(
        """a about after am an and any are as at be been being but by can could did do does doing
        for from had has have having he her here him his how i if in into is it its me my no nor
        not of on or our she should so some than that the their them there these they this those
        to was we were what when where which while who whom whose why will with would you your""".split()
    )
    #: Snippet length in words, and how much of each chunk's text is kept for snippets.
    snippet_words: int = 24
    snippet_source_chars: int = 2000
    #: A query is cut to its first `max_query_chars` code points before tokenizing, so any input
    #: is bounded work (engine/search.py, js/src/engine/engine.js).
    max_query_chars: int = 1000
    #: Pages returned when the caller gives no limit.
    default_limit: int = 10
    #: Mode used when the caller names none ("hybrid" needs vectors in the bundle).
    default_mode: str = "hybrid"
    #: Reciprocal rank fusion: weight / (rrf_k + rank) from each ranking.
    rrf_k: int = 60
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    #: Hybrid fusion (engine/fuse.py): unless the best keyword match holds every word of the
    #: query, the keyword side's confidence is fusion_coverage_base + fusion_coverage_span x the
    #: share of the query's words it holds exactly + fusion_gap_span x how far it leads the next
    #: keyword match (fitted on the dev set only: CHANGELOG.md).
    fusion_coverage_base: float = 0.4
    fusion_coverage_span: float = 0.4
    fusion_gap_span: float = 0.2
    #: Cosine a chunk needs to enter the vector ranking (absolute: off-topic queries get nothing).
    vector_threshold: float = 0.2
    #: Cosine a chunk needs to be a result on the vector side alone (no keyword match). A build
    #: with embeddings replaces it with the site's own calibrated value (index/calibrate.py).
    vector_only_threshold: float = 0.45
    #: Fused score below which a chunk is dropped (and an expansion is not followed).
    min_score: float = 0.004
    #: Graph expansion: from the best `seeds` chunks, `graph_depth` hops, score * decay per edge type.
    seeds: int = 10
    graph_depth: int = 1
    graph_decay: dict[str, float] = field(
        default_factory=lambda: {"child": 0.3, "parent": 0.5, "sibling": 0.2, "link": 0.2}
    )
    #: Code languages listed and filtered as one (`lang:py` finds ```python blocks): a fence
    #: language's key (text/facets.py) -> the language it counts as (engine/filters.py).
    language_aliases: dict[str, str] = field(default_factory=lambda: dict(_LANGUAGE_ALIASES))

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["fuzzy_weights"] = list(self.fuzzy_weights)
        data["query_stop_words"] = list(self.query_stop_words)
        return data


#: The fusion settings (engine/fuse.py) by name, as the defaults give them: a manifest written
#: before they were settings fuses with these (js/src/engine/fuse.js holds the same numbers for
#: such manifests; tests/vectors/fuse.json pins both engines to them).
FUSION_DEFAULTS: dict[str, float] = {
    key: getattr(SearchSettings(), key) for key in ("fusion_coverage_base", "fusion_coverage_span", "fusion_gap_span")
}
