"""A pytest plugin for benchmarks/suite_bench.py: each test's CPU seconds (its process's own and
its waited-for subprocesses') and wall seconds, one JSON line a test, in SUITE_CPU_OUT-WORKER.jsonl.

CPU seconds rank the tests on a shared machine, where wall seconds follow the other work.
Loaded with `-p suite_cpu` and benchmarks/ on PYTHONPATH; it does nothing without SUITE_CPU_OUT.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Iterator

import pytest


def cpu_seconds() -> float:
    """User and system seconds of this process and of its children that have been waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    cpu, wall = cpu_seconds(), time.time()
    yield
    out = os.environ.get("SUITE_CPU_OUT")
    if out:
        line = {"id": item.nodeid, "cpu": round(cpu_seconds() - cpu, 3), "wall": round(time.time() - wall, 3),
                "end": round(time.time(), 3)}
        with open(f"{out}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl", "a", encoding="utf-8") as file:
            file.write(json.dumps(line) + "\n")
