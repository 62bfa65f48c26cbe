"""The plugin runs inside the user's MkDocs process: importing it changes nothing there, and what
the build needs (one BLAS thread) holds only while the bundle is computed (issue 26)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from threadpoolctl import threadpool_info, threadpool_limits

from conftest import ROOT
from mkdocs_graphsearch.index import builder
from mkdocs_graphsearch.parse.markdown import parse_page

IMPORTS = """
import json, os, sys
before = dict(os.environ)
import mkdocs_graphsearch, mkdocs_graphsearch.plugin, mkdocs_graphsearch.commands.cli
import mkdocs_graphsearch.index.builder, mkdocs_graphsearch.index.embed
mkdocs_graphsearch.search, mkdocs_graphsearch.load_bundle
mkdocs_graphsearch.index.embed.onnxruntime_without_telemetry()  # its switch: for the import only
after = dict(os.environ)
changed = {k: [before.get(k), after.get(k)] for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
print(json.dumps(changed))
"""


def test_importing_the_package_leaves_the_environment_as_it_was() -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("OPENBLAS", "OMP_", "ORT_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", IMPORTS], env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {}, done.stdout


def _blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_the_bundle_is_computed_with_one_blas_thread_and_only_then(monkeypatch) -> None:
    seen: list[list[int]] = []
    related_files = builder.related_files

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(_blas_threads())
        return related_files(*args, **kwargs)

    monkeypatch.setattr(builder, "related_files", spy)
    page = parse_page("# Retries\n\nBack off.\n\n## Queues\n\nWorkers take jobs.\n", "index.md", {"index.md"})
    with threadpool_limits(limits=2, user_api="blas"):  # the user's setting, whatever the machine
        assert set(_blas_threads()) == {2}
        builder.build_files([page], warn=print)
        assert set(_blas_threads()) == {2}
    assert seen == [[1] * len(seen[0])] and seen[0], seen


def test_builds_in_threads_compute_one_at_a_time() -> None:
    """threadpoolctl's limit is process-wide, and OpenBLAS called from two threads at once gave
    other bytes than alone (test_cache_integrity.py's two builds at once): a second build waits
    for the first."""
    import threading

    from mkdocs_graphsearch.index.blas import one_blas_thread

    entered = threading.Event()

    def second() -> None:
        with one_blas_thread():
            entered.set()

    with one_blas_thread():
        thread = threading.Thread(target=second)
        thread.start()
        assert not entered.wait(0.5)  # the first build still runs: the second waits
    thread.join(60)
    assert entered.is_set()
