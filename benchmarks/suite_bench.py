"""Where the test suite's time goes: each stage of scripts/test.sh (ruff, mypy, pytest, node) in
wall and CPU seconds, and pytest's tests and files ranked by CPU seconds (benchmarks/suite_cpu.py).

    python benchmarks/suite_bench.py [--code CHECKOUT] [--clean] --out benchmarks/results/X.json
    python benchmarks/suite_bench.py --from PYTEST_LOG CPU_PREFIX --out ...   # a run made by hand

`--code` runs another checkout's suite (an export of main for a same-window before/after; its
`../shared` must resolve). `--clean` first removes the embedding caches the tests keep
(.cache/test-embeddings, example-site/.cache) and gives mypy an empty cache: a clean clone's
run. On a shared machine compare CPU seconds; wall seconds are recorded beside the load.
`--from` reads a pytest run made with `-p suite_cpu` (benchmarks/ on PYTHONPATH,
SUITE_CPU_OUT=CPU_PREFIX) and its `--durations` output.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from common import HERE, repo_path, save_report

STAGES = ["ruff", "mypy", "pytest", "node"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _commands(code: Path, workers: int, mypy_cache: str) -> dict[str, list[str]]:
    venv = code / ".venv" / "bin"
    return {
        "ruff": [str(venv / "ruff"), "check", "."],
        "mypy": [str(venv / "mypy"), "--cache-dir", mypy_cache],
        "pytest": [str(venv / "python"), "-m", "pytest", "-n", str(workers), "-p", "no:cacheprovider",
                   "-p", "suite_cpu", "-q", "--durations=60"],
        "node": ["node", "--test", "test/"],
    }


def run_stages(code: Path, names: list[str], workers: int, cpu_prefix: str, log_dir: Path) -> dict[str, dict]:
    """Each stage in turn: its wall and CPU seconds (it and its children), exit code, last line."""
    mypy_cache = tempfile.mkdtemp(prefix="suite-bench-mypy-")
    commands = _commands(code, workers, mypy_cache)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(code), str(HERE)]), "SUITE_CPU_OUT": cpu_prefix}
    stages = {}
    try:
        for name in names:
            log = log_dir / f"{name}.log"
            cpu, wall, load = _children_cpu(), time.time(), os.getloadavg()[0]
            with log.open("wb") as out:
                done = subprocess.run(commands[name], cwd=code / "js" if name == "node" else code, env=env,
                                      stdout=out, stderr=subprocess.STDOUT)
            lines = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
            stages[name] = {
                "command": " ".join([Path(commands[name][0]).name, *commands[name][1:]]).replace(mypy_cache, "EMPTY"),
                "exit": done.returncode, "wall_s": round(time.time() - wall, 1),
                "cpu_s": round(_children_cpu() - cpu, 1), "load_start": round(load, 2),
                "load_end": round(os.getloadavg()[0], 2), "last_line": lines[-1] if lines else "",
            }
            print(f"{name}: {stages[name]}", flush=True)
    finally:
        shutil.rmtree(mypy_cache, ignore_errors=True)
    return stages


def _timed(cpu_prefix: str) -> list[dict]:
    """The per-test lines suite_cpu.py wrote (one file a worker), each with its worker's name."""
    tests = []
    for path in sorted(Path(cpu_prefix).parent.glob(f"{Path(cpu_prefix).name}-*.jsonl")):
        worker = path.stem.rsplit("-", 1)[-1]
        tests += [{**json.loads(line), "worker": worker} for line in path.read_text(encoding="utf-8").splitlines()]
    return tests


def compare(before: str, after: str, top: int) -> dict:
    """Two runs' CPU seconds over the tests both finished (runs stopped early compare too)."""
    one, other = ({t["id"]: t for t in _timed(prefix)} for prefix in (before, after))
    both = sorted(set(one) & set(other))
    moved = sorted(both, key=lambda i: one[i]["cpu"] - other[i]["cpu"], reverse=True)[:top]
    return {
        "tests_in_both": len(both), "files_in_both": len({i.split("::")[0] for i in both}),
        "cpu_s_before": round(sum(one[i]["cpu"] for i in both), 1),
        "cpu_s_after": round(sum(other[i]["cpu"] for i in both), 1),
        "most_cpu_saved": [{"test": i, "cpu_s_before": one[i]["cpu"], "cpu_s_after": other[i]["cpu"],
                            "wall_s_before": one[i]["wall"], "wall_s_after": other[i]["wall"]} for i in moved],
    }


def pytest_summary(log: Path, cpu_prefix: str, top: int) -> dict:
    """Counts from pytest's last line, its slowest wall durations, and the per-test CPU lines."""
    text = log.read_text(encoding="utf-8", errors="replace")
    last = [line for line in text.splitlines() if re.search(r"\b(passed|failed)\b.* in [0-9.]+s", line)]
    found = re.findall(r"(\d+) (passed|failed|skipped|errors?)", last[-1]) if last else []
    counts = {word: int(n) for n, word in found}
    durations = [
        {"s": float(s), "when": when, "test": test}
        for s, when, test in re.findall(r"^([0-9.]+)s (call|setup|teardown)\s+(.+)$", text, re.M)
    ]
    tests = _timed(cpu_prefix)
    files: dict[str, float] = defaultdict(float)
    for test in tests:
        files[test["id"].split("::")[0]] += test["cpu"]
    busy: dict[str, float] = defaultdict(float)
    for test in tests:
        busy[test["worker"]] += test["wall"]
    ends = [test["end"] for test in tests]
    return {
        "last_line": last[-1].strip("= ") if last else "",
        "counts": counts,
        "tests_timed": len(tests),
        "cpu_s_in_tests": round(sum(test["cpu"] for test in tests), 1),
        "worker_wall_s_in_tests": {worker: round(s, 1) for worker, s in sorted(busy.items())},
        # how long the first worker to finish waited for the last one (a tail with one core idle)
        "tail_s": round(max(ends) - min(max(t["end"] for t in tests if t["worker"] == w) for w in busy), 1)
        if tests else None,
        "top_cpu": [{"test": t["id"], "cpu_s": t["cpu"], "wall_s": t["wall"]}
                    for t in sorted(tests, key=lambda t: -t["cpu"])[:top]],
        "top_wall_durations": durations[:top],
        "files_cpu": [{"file": f, "cpu_s": round(s, 1)} for f, s in sorted(files.items(), key=lambda i: -i[1])[:top]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code", type=Path, default=HERE.parent, help="the checkout to test (default: this one)")
    parser.add_argument("--clean", action="store_true", help="start from empty test caches, as a clean clone does")
    parser.add_argument("--stages", nargs="+", choices=STAGES, default=STAGES, help="default: all four")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist processes (default: 2)")
    parser.add_argument("--top", type=int, default=20, help="how many tests and files to list (default: 20)")
    parser.add_argument("--from", dest="given", nargs=2, metavar=("PYTEST_LOG", "CPU_PREFIX"),
                        help="summarise a pytest run made by hand instead of running the stages")
    parser.add_argument("--compare", nargs=2, metavar=("CPU_PREFIX_BEFORE", "CPU_PREFIX_AFTER"),
                        help="with --from: CPU seconds of two runs over the tests both finished")
    parser.add_argument("--label", default="", help="what the run is (recorded)")
    parser.add_argument("--out", type=Path, help="the JSON report (default: benchmarks/results/suite-DATE.json)")
    args = parser.parse_args()
    started = dt.datetime.now(dt.timezone.utc)
    report: dict = {"what": "the test suite's stages and tests in wall and CPU seconds (benchmarks/suite_bench.py)",
                    "label": args.label, "date": started.strftime("%Y-%m-%d %H:%M UTC"), "nproc": os.cpu_count(),
                    "argv": [Path(sys.argv[0]).name, *(repo_path(a) if a.startswith("/") else a for a in sys.argv[1:])]}
    if args.given:
        log, prefix = Path(args.given[0]), args.given[1]
        report["pytest"] = pytest_summary(log, prefix, args.top)
        if args.compare:
            report["compare"] = compare(*args.compare, args.top)
    else:
        code = args.code.resolve()
        if args.clean:
            for cache in (code / ".cache" / "test-embeddings", code / "example-site" / ".cache"):
                shutil.rmtree(cache, ignore_errors=True)
        with tempfile.TemporaryDirectory(prefix="suite-bench-") as work:
            prefix = str(Path(work) / "cpu")
            report["clean"] = args.clean
            report["stages"] = run_stages(code, args.stages, args.workers, prefix, Path(work))
            if "pytest" in args.stages:
                report["pytest"] = pytest_summary(Path(work) / "pytest.log", prefix, args.top)
    save_report("suite", json.dumps(report, indent=1, ensure_ascii=False), args.out, started)


if __name__ == "__main__":
    main()
