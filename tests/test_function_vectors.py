"""Per-function vectors of the mirrored engine parts (OSA distance, varints, fusion, page
grouping): the Python reference gives every pinned answer; js/test/function_vectors.test.js
checks the JS runtime against the same files. Written by scripts/make_function_vectors.py."""

from __future__ import annotations

import importlib.util
from typing import Any

import orjson
import pytest

from conftest import ROOT, VECTORS
from mkdocs_graphsearch.bundle.format import MAX_VARINT

_spec = importlib.util.spec_from_file_location("make_function_vectors", ROOT / "scripts" / "make_function_vectors.py")
assert _spec and _spec.loader
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

FILES = {name: orjson.loads((VECTORS / name).read_bytes()) for name in make.families()}
CASES = [
    pytest.param(kind, case, id=f"{name}:{kind}:{i}")
    for name, kinds in FILES.items()
    for kind, cases in kinds.items()
    for i, case in enumerate(cases)
]


@pytest.mark.parametrize(("kind", "case"), CASES)
def test_reference_gives_the_pinned_answer(kind: str, case: dict[str, Any]) -> None:
    if case.get("error") is True:
        with pytest.raises(ValueError):
            make.answer(kind, case)
    else:
        assert make.answer(kind, case) == case["expected"]


def test_files_hold_the_generators_inputs() -> None:
    """A case added to the script but not written (or edited in the file by hand) fails here."""
    for name, kinds in make.families().items():
        written = {
            kind: [{k: v for k, v in case.items() if k != "expected"} for case in cases]
            for kind, cases in FILES[name].items()
        }
        assert written == orjson.loads(orjson.dumps(kinds)), name


def test_vectors_reach_the_edges() -> None:
    osa = FILES["fuzzy.json"]["osa"]
    assert {c["expected"] for c in osa} >= {None, 0, 1, 2, 3}
    assert any(c["a"] == "" and c["b"] == "" for c in osa)
    assert any(max(map(ord, c["a"] + c["b"] + "a")) > 0xFFFF for c in osa)  # astral: two UTF-16 units in JS
    decoded = [v for c in FILES["varints.json"]["decode"] for v in c["expected"].get("values", [])]
    assert {2**32, MAX_VARINT} <= set(decoded)
    errors = {c["expected"].get("error") for c in FILES["varints.json"]["decode"]} - {None}
    assert len(errors) == 3  # cut off, too long, above 2^53 - 1
    fused = [score for c in FILES["fuse.json"]["fuse"] for _, score in c["expected"]]
    assert len(fused) > len(set(fused))  # ties
    pages = [p["score"] for c in FILES["results.json"]["group_by_page"] for p in c["expected"]]
    assert len(pages) > len(set(pages))
