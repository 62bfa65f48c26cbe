"""Snippets with the matched words marked (mirrored by js/src/snippet.js).

The text is split into words at runs of ASCII whitespace. A word is marked when any of its
tokens is a term the query matched. The snippet is the first window of `snippet_words` words
holding the most marked words, with "… " / " …" where text was cut. Every word is HTML-escaped
(& < > " ') and marked words are wrapped in <mark></mark>, so the snippet is safe HTML.
"""

from __future__ import annotations

import re
from collections.abc import Set

from mkdocs_graphsearch.text.tokenize import tokenize

_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def escape_html(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def snippet(text: str, matched: Set[str], window: int) -> str:
    words = [word for word in _WHITESPACE.split(text) if word]
    if not words:
        return ""
    marked = [bool(matched) and any(token in matched for token in tokenize(word)) for word in words]
    # Sliding window: the first start with the most marked words wins.
    count = sum(marked[:window])
    best_start, best_count = 0, count
    for start in range(1, len(words) - window + 1):
        count += marked[start + window - 1] - marked[start - 1]
        if count > best_count:
            best_start, best_count = start, count
    end = min(len(words), best_start + window)
    body = " ".join(
        f"<mark>{escape_html(word)}</mark>" if marked[i] else escape_html(word)
        for i, word in enumerate(words[best_start:end], start=best_start)
    )
    return ("… " if best_start > 0 else "") + body + (" …" if end < len(words) else "")
