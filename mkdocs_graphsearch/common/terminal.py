"""Text for a terminal: `graphsearch query` results (with the explain breakdown) and `eval` tables.

Everything printed from a bundle or a query file goes through `clean`: a page can put anything in
a title or a snippet, and a terminal acts on escape sequences (clear the screen, set the window
title, hyperlinks), control characters and bidi overrides (text that reads other than it is).
JSON output never comes here: it stays exact, and JSON escapes controls itself.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from typing import Any, TextIO

#: Whole escape sequences, so nothing of them is left to print (`\x1b[2J` leaves no "[2J").
_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI: colours, cursor moves, clearing
    r"|(?:\x1b[]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC, DCS...: strings
    r"|\x1b[ -/]*[0-~]?"  # any other ESC sequence, or a lone ESC
)
#: Line breaks of every kind become one space (a title stays on its line).
_BREAKS = re.compile("[\t\n\v\f\r\x85\u2028\u2029]+")
#: What is left to drop: C0 and C1 controls, DEL, bidi marks, embeddings, overrides and isolates.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_MARK = re.compile(r"<mark>(.*?)</mark>")


def clean(text: str) -> str:
    """`text` with nothing a terminal would act on: escape sequences, controls, bidi controls."""
    return _CONTROLS.sub("", _BREAKS.sub(" ", _ESCAPE.sub("", text)))


def site_path(url: str) -> str:
    """A result's URL from the site root, as a reader types it: MkDocs' home page `./` is `/`."""
    return "/" + clean(url.removeprefix("./"))


def emphasis_for(stream: TextIO) -> Callable[[str], str]:
    """Bold on a colour terminal (NO_COLOR respected), else [brackets]: how marked words show."""
    if stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb":
        return lambda word: f"\x1b[1m{word}\x1b[22m"
    return lambda word: f"[{word}]"


def plain_snippet(snippet: str, emphasis: Callable[[str], str]) -> str:
    """An HTML snippet (escaped words, matches in <mark>) as clean text, matches emphasised."""
    parts = _MARK.split(snippet)  # odd indexes are the marked words
    return "".join(
        emphasis(clean(html.unescape(part))) if i % 2 else clean(html.unescape(part))
        for i, part in enumerate(parts)
    )


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 page", "2 pages", "0 queries" (give `nouns` when it is not `noun` + s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def _explain_lines(explain: dict[str, Any]) -> list[str]:
    """One line per part that ranked the section (the JSON explain, labelled)."""
    lines = []
    if "bm25" in explain:
        lines.append(f"keyword  rank {explain['bm25']['rank']}, BM25 {explain['bm25']['score']:.4f}")
    if "vector" in explain:
        lines.append(f"vector   rank {explain['vector']['rank']}, cosine {explain['vector']['cosine']:.4f}")
    if "graph" in explain:
        graph = explain["graph"]
        lines.append(
            f"graph    from {clean(str(graph['from']))} ({clean(str(graph['edge']))} edge, depth {graph['depth']})"
        )
    return lines


def sure_reason(fusion: dict[str, Any]) -> str:
    """Why the keyword side was sure of a hybrid query (engine/fuse.py keyword_sure)."""
    return "every word matched" if fusion["matched"] == fusion["words"] else "a misspelt word corrected"


def format_results(output: dict[str, Any], emphasis: Callable[[str], str], requested_mode: str | None) -> str:
    """A query's results: pages, their sections with score, `via`, snippet and (when asked) explain."""
    mode = f"{output['mode']} search"
    if requested_mode and requested_mode != output["mode"]:
        mode += f"; {requested_mode} needs vectors, the bundle has none"
    results = output["results"]
    if output.get("filters"):
        shown = " ".join(f"{name}:{value}" for name, values in output["filters"].items() for value in values)
        mode += f"; filtered by {clean(shown)}"
    lines = [f'"{clean(output["query"])}": {plural(len(results), "page")} ({mode})']
    if "fusion" in output:
        fusion = output["fusion"]
        lines.append(
            f"keyword share {fusion['keyword_share']:.2f}: its best match holds {fusion['held']} of "
            f"{plural(fusion['words'], 'query word')} ({fusion['matched']} with typo, stem and completion "
            f"matches), leads the next by {fusion['gap']:.2f}"
            + (f"; {sure_reason(fusion)}: the keyword answer" if fusion.get("sure") else "")
        )
    for number, page in enumerate(results, 1):
        sections = page["sections"]
        lines += [
            "",
            f"{number}. {clean(page['title'])}  [{clean(page['page'])}]",
            f"   page score {page['score']:.4f}, {plural(len(sections), 'section')}",
        ]
        for section in sections:
            # What a section is when it is not prose: a code block's language, an API entry.
            kind = section.get("kind")
            label = f"[{section.get('language') or kind}]"
            tag = f"  {clean(label)}" if kind in ("code", "api") else ""
            lines += [
                f"   - {clean(section['title'])}{tag}  {site_path(section['url'])}",
                f"     score {section['score']:.4f}, via {', '.join(section['via'])}",
            ]
            if section["snippet"]:
                lines.append(f"     {plain_snippet(section['snippet'], emphasis)}")
            lines += [f"       {line}" for line in _explain_lines(section.get("explain", {}))]
    return "\n".join(lines)


_METRICS = (("ndcg@10", "nDCG@10"), ("mrr@10", "MRR@10"), ("hit@5", "hit@5"))


def format_report(report: dict[str, Any]) -> str:
    """`graphsearch eval`'s report as a table: one row per query type, then overall."""
    rows = [(clean(kind), scores) for kind, scores in report["by_type"].items()]
    rows.append(("overall", report["overall"]))
    width = max(len("type"), *(len(kind) for kind, _ in rows))
    lines = [f"mode: {report['mode']}", ""]
    header = f"{'type':<{width}}" + "".join(f"  {label:>7}" for _, label in _METRICS) + "  queries"
    lines += [header, "-" * len(header)]
    for kind, scores in rows:
        cells = "".join(f"  {scores[key]:>7.4f}" for key, _ in _METRICS)
        lines.append(f"{kind:<{width}}{cells}  {scores['queries']:>7}")
    lines += ["", f"{plural(report['zero_results'], 'query', 'queries')} with no result"]
    return "\n".join(lines)
