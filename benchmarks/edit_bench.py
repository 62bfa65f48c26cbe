"""Edit benchmark: a one-page edit, then a warm and a plain build, repeated, for two plugin
checkouts in turn, so a shared machine's load falls on both alike (one build_bench run of each
is at the mercy of whoever else is busy).

    git archive COMMIT | tar -x -C /tmp/before
    .venv/bin/python benchmarks/edit_bench.py --code before=/tmp/before --seed before=.cache/eval \\
        --code now=. --seed now=.cache/eval-now --repeat 5

Per checkout (name=path, as many as given): the corpus copied to WORK/NAME, its cache folder a
copy of the `--seed` for that name (else empty), one cold and one warm plugin build (untimed),
the cache and the built site kept, then one page edited (`--edit`, default the first page;
build_bench.EDIT appended). Then `--repeat` rounds, the checkouts in turn (reversed every other
round), each: the kept cache and site restored (the site matters since bundle/kept.py: a build
may move the last bundle's parts into the cache's kept folder), `edit` (the plugin build after the edit), `warm`
(the same again), `ci` (the same again without the site folder, removed first: a CI job that keeps
only the cache folder), `plain` (`plugins: []`). Builds as build_bench.py runs them (own process, compiled modules, wall
time, CPU time, peak RSS, load). Prints medians and the ratios of the medians to plain (also to
the median of every checkout's plain builds, and of CPU seconds: on a busy shared machine wall
times of one kind vary 2x between rounds, CPU seconds much less); writes
benchmarks/results/edit-DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import statistics
from pathlib import Path

import build_bench as bb
import common
from common import repo_path

THEME = {"name": "mkdocs", "highlightjs": False}


def pairs(values: list[str], what: str) -> dict[str, Path]:
    out = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name:
            common.die("edit_bench", f"{what} {value!r}: give NAME=PATH")
        out[name] = Path(path).resolve()
    return out


def prepare(name: str, code: Path, seed: Path | None, source: Path, edit: str | None, work: Path) -> dict:
    folder = work / name
    if folder.exists():
        shutil.rmtree(folder)
    docs = folder / "docs"
    shutil.copytree(source, docs)
    if seed is not None:
        shutil.copytree(seed, folder / "cache")
    plain = bb.write_config(folder / "plain.yml", source.name, docs, folder / "site-plain", [], THEME)
    plugin = bb.write_config(
        folder / "plugin.yml", source.name, docs, folder / "site-plugin",
        [{"graphsearch": {"cache_dir": str(folder / "cache")}}], THEME,
    )
    bb.warm_bytecode(code, folder)
    for _ in ("cold", "warm"):
        bb.timed_build(plugin, code)
    shutil.copytree(folder / "cache", folder / "cache-warm")
    shutil.copytree(folder / "site-plugin", folder / "site-plugin-warm")
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    page = edit or pages[0]
    with (docs / page).open("a", encoding="utf-8") as out:
        out.write(bb.EDIT)
    return {"code": code, "folder": folder, "plain": plain, "plugin": plugin, "page": page}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="mkdocs-docs", help="a folder name under ../shared/corpora")
    parser.add_argument("--code", action="append", required=True, help="NAME=PATH of a checkout (repeatable)")
    parser.add_argument("--seed", action="append", default=[], help="NAME=PATH: that checkout's seed cache")
    parser.add_argument("--edit", help="the page to edit (relative to the docs); default: the first")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--work", type=Path, default=bb.HERE / ".cache" / "edit-bench")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    source = bb.CORPORA / args.corpus
    if not source.is_dir():
        common.die("edit_bench", f"no corpus {source}")
    codes, seeds = pairs(args.code, "--code"), pairs(args.seed, "--seed")
    started = dt.datetime.now()
    setups = {name: prepare(name, code, seeds.get(name), source, args.edit, args.work) for name, code in codes.items()}
    runs: dict[str, dict[str, list[dict]]] = {name: {"edit": [], "warm": [], "ci": [], "plain": []} for name in codes}
    for round_ in range(args.repeat):
        order = list(setups) if round_ % 2 == 0 else list(reversed(setups))
        for name in order:
            setup = setups[name]
            for kept in ("cache", "site-plugin"):
                shutil.rmtree(setup["folder"] / kept)
                shutil.copytree(setup["folder"] / f"{kept}-warm", setup["folder"] / kept)
            for kind in ("edit", "warm", "ci", "plain"):
                if kind == "ci":
                    shutil.rmtree(setup["folder"] / "site-plugin")
                runs[name][kind].append(bb.timed_build(setup["plugin" if kind != "plain" else "plain"], setup["code"]))
                bb.note(f"{round_} {name} {kind}: {runs[name][kind][-1]}")
    summary = {}
    all_plain = statistics.median(r["wall_s"] for kinds in runs.values() for r in kinds["plain"])
    for name, kinds in runs.items():
        median = {kind: statistics.median(r["wall_s"] for r in values) for kind, values in kinds.items()}
        cpu = {kind: statistics.median(r["cpu_s"] for r in values) for kind, values in kinds.items()}
        summary[name] = {
            "median_s": median,
            "edit_over_plain": round(median["edit"] / median["plain"], 2),
            "warm_over_plain": round(median["warm"] / median["plain"], 2),
            # every plain build of the run (the same work whichever checkout): a steadier denominator
            "edit_over_all_plain": round(median["edit"] / all_plain, 2),
            "median_cpu_s": cpu,
            "cpu_edit_over_plain": round(cpu["edit"] / cpu["plain"], 2),
            "cpu_warm_over_plain": round(cpu["warm"] / cpu["plain"], 2),
            "cpu_ci_over_plain": round(cpu["ci"] / cpu["plain"], 2),
            "peak_rss_mib": {kind: max(r["peak_rss_mib"] for r in values) for kind, values in kinds.items()},
            "load": [min(r["load_before"] for v in kinds.values() for r in v),
                     max(r["load_after"] for v in kinds.values() for r in v)],
        }
        print(f"{name}: {json.dumps(summary[name])}")
    report = {
        "started": started.isoformat(timespec="seconds"),
        "corpus": repo_path(source),
        "edited_page": next(iter(setups.values()))["page"],
        "codes": {name: repo_path(code) for name, code in codes.items()},
        "seeds": {name: repo_path(seed) for name, seed in seeds.items()},
        "summary": summary,
        "runs": runs,
    }
    common.save_report("edit", json.dumps(report, indent=2), args.out, started)


if __name__ == "__main__":
    main()
