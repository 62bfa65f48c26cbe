"""What `graphsearch` reads besides a bundle: query files, checked line by line, and query text.

A bad line is an `InputError` naming the file and line (the CLI prints it, exit code 2), so no
engine ever sees an item without a "query" string (the JS one would search "undefined").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from mkdocs_graphsearch.files.bounded import MAX_QUERY_FILE, RefusedInput, read_bounded


class InputError(ValueError):
    """Bad input from the command line or a file it names."""


def checked_text(text: str, what: str) -> str:
    """`text` if it is real text: an argument of bytes that are not UTF-8 arrives as lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{what} is not valid UTF-8") from None
    return text


def check_apart(cache: Path, out: Path, out_option: str) -> None:
    """InputError, before anything is written, when the cache folder and an output folder are one
    or either holds the other: the cache's upkeep deletes files by name in its folder (a bundle's
    `encoder-model.*.bin` matches an old cache format's), an output folder is published with all
    it holds (the cache holds page texts and the model's path), and a cache folder is disposable."""
    cache_path, out_path = cache.resolve(), out.resolve()
    if cache_path == out_path:
        where = f"is {out_option} {out}: the cache's upkeep would delete output files, the output publish the cache"
    elif cache_path.is_relative_to(out_path):
        where = f"is inside {out_option} {out}: the cache would be published with it"
    elif out_path.is_relative_to(cache_path):
        where = f"holds {out_option} {out}: clearing the cache would delete the output"
    else:
        return
    raise InputError(f"--cache-dir {cache} {where}; give --cache-dir a folder apart from it (or '' for no cache)")


def read_input(path: Path, what: str) -> bytes:
    """A query or checks file's bytes, bounded (files/bounded.py): a special file, a file larger
    than MAX_QUERY_FILE or an unreadable one is an InputError naming it."""
    try:
        return read_bounded(path, MAX_QUERY_FILE, what)
    except RefusedInput as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None


def read_queries(path: str, *, judged: bool) -> list[dict[str, Any]]:
    """A .jsonl file's objects, each with a "query" string (judged: and `relevant` judgments)."""
    lines = read_input(Path(path), "query file").splitlines()
    items = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError as error:
            raise InputError(f"{path}:{number}: not valid JSON ({error})") from None
        problem = _problem(item, judged)
        if problem:
            raise InputError(f"{path}:{number}: {problem}")
        items.append(item)
    if not items:
        raise InputError(f"{path} holds no queries")
    return items


def _problem(item: object, judged: bool) -> str | None:
    if not isinstance(item, dict):
        return 'expected a JSON object like {"id": ..., "query": "..."}'
    if not isinstance(item.get("query"), str):
        return 'no "query" string'
    if not judged:
        return None
    if not isinstance(item.get("type", ""), str):
        return '"type" is not a string'
    relevant = item.get("relevant")
    if not isinstance(relevant, list) or not all(_is_judgment(r) for r in relevant):
        return '"relevant" must be a list of {"path": string, "anchor": string, "grade": number}'
    return None


def _is_judgment(item: object) -> bool:
    return (
        isinstance(item, dict)
        and isinstance(item.get("path"), str)
        and isinstance(item.get("anchor"), str)
        and isinstance(item.get("grade"), (int, float))
        and not isinstance(item.get("grade"), bool)
    )
