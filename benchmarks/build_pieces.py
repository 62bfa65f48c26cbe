"""CPU of the pieces of a cached build that issue 23's CI and edit targets pay, for two (or more)
plugin checkouts measured in turn: what build_bench's whole-build CPU seconds cannot show on a
shared machine, where one build's CPU time moves by a tenth between runs.

    git archive COMMIT | tar -x -C /tmp/before
    .venv/bin/python benchmarks/build_pieces.py --seed-cache SEED --work DIR \\
        --code before=/tmp/before --code now=. --rounds 7

Per checkout (name=path): the corpus copied to WORK/NAME with a copy of `--seed-cache`, two plugin
builds (warm), the cache folder kept ("warm"), then one page edited (build_bench.EDIT appended)
and built, the cache kept again ("edited"); the page is put back. Then `--rounds` rounds, the
checkouts in turn, each in a process of its own that imports that checkout's plugin and measures
(CPU ms of this process, user + system):

- `write_edit`: bundle/write.py write_bundle of the edited bundle (from its bundle record) into an
  empty folder, the warm build's kept parts beside it: what an edit writes;
- `write_ci`: the same with the edited build's kept parts: every part linked back (a CI build);
- `fit_load`: the warm fit statistics read, checked and loaded (index/fit_cache.py);
- `fit_pack`: those statistics packed again (the same bytes);
- `code_digest`: bundle_reuse.package_digest with its stamp in place (a CI build's key);
- `english_words`: known_words.english_words;
- `gc_edit_ms`: garbage collection's CPU in an edit build (the edited page written again, a
  build in its own process, gc.callbacks).

Prints the minimum of each piece per checkout (the sample least disturbed by other processes)
and writes benchmarks/results/build-pieces-DATE.json (paths relative to the repository).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import build_bench as bb
import common
from common import repo_path

#: Run in a process of its own, the checkout first on sys.path: argv[1] the checkout's work folder.
PIECES = r"""
import gc, glob, json, shutil, sys, time
from pathlib import Path
work = Path(sys.argv[1])
from mkdocs_graphsearch.bundle.write import write_bundle
from mkdocs_graphsearch.files import cache_store
from mkdocs_graphsearch.index.fit_cache import FitState, unpack_entry
from mkdocs_graphsearch.index.known_words import english_words
from mkdocs_graphsearch.mkdocs_plugin import bundle_reuse
from mkdocs_graphsearch.mkdocs_plugin.page_state import state_file
site_key = state_file(work, work / "site").name.removeprefix("pages-").removesuffix(".cache")
def newest(pattern):
    return max(map(Path, glob.glob(str(pattern))), key=lambda path: path.stat().st_mtime_ns)
def record(cache):
    payload = bytes(cache_store.unframe((cache / f"bundle-{site_key}.cache").read_bytes(), "bundle", 1))
    head = bundle_reuse._head(payload)
    at, files = 4 + int.from_bytes(payload[:4], "little"), {}
    for name, size in head["files"]:
        files[name] = payload[at : at + size]
        at += size
    return files
def cpu(action):
    gc.collect()
    start = time.process_time()
    action()
    return (time.process_time() - start) * 1000
edited = record(work / "edited")
out = {}
for label, kept in (("write_edit", "warm"), ("write_ci", "edited")):
    scratch = work / "scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(work / kept / f"kept-parts-{site_key}.cache", scratch / "kept")
    out[label] = cpu(lambda: write_bundle(scratch / "search", edited, scratch / "kept"))
    shutil.rmtree(scratch)
fitstats = newest(work / "warm" / "fitstats-*.cache")
state = []
out["fit_load"] = cpu(lambda: state.append(FitState.load(unpack_entry(fitstats.read_bytes()), {100, 101, 102})))
entry = unpack_entry(fitstats.read_bytes())
out["fit_pack"] = cpu(lambda: state[0].pack(entry.fingerprint, entry.complete))
assert state[0].pack(entry.fingerprint, entry.complete) == fitstats.read_bytes()
bundle_reuse.package_digest(work / "warm")  # the stamp in place
bundle_reuse.package_digest.cache_clear()
out["code_digest"] = cpu(lambda: bundle_reuse.package_digest(work / "warm"))
out["english_words"] = cpu(lambda: english_words(4))
print(json.dumps(out))
"""

#: Run as the edit build's process: the build, then garbage collection's CPU ms on stderr's last line.
GC_BUILD = r"""
import gc, sys, time
import mkdocs.__main__
spent, started = [0.0], [0.0]
def clock(phase, info):
    if phase == "start":
        started[0] = time.process_time()
    else:
        spent[0] += time.process_time() - started[0]
gc.callbacks.append(clock)
sys.argv = ["mkdocs", "build", "-q", "-f", sys.argv[1]]
try:
    mkdocs.__main__.cli()
except SystemExit as stop:
    if stop.code:
        raise
print(f"gc_edit_ms {spent[0] * 1000:.2f}", file=sys.stderr)
"""


def prepare(name: str, code: Path, source: Path, seed: Path, page: str, work: Path) -> Path:
    folder = work / name
    shutil.copytree(source, folder / "docs")
    shutil.copytree(seed, folder / "cache")
    config = bb.write_config(
        folder / "plugin.yml", source.name, folder / "docs", folder / "site",
        [{"graphsearch": {"cache_dir": str(folder / "cache")}}],
    )
    bb.warm_bytecode(code, folder)
    for _ in range(2):
        bb.timed_build(config, code)
    shutil.copytree(folder / "cache", folder / "warm", symlinks=True)
    original = (folder / "docs" / page).read_bytes()
    (folder / "docs" / page).write_bytes(original + bb.EDIT.encode())
    bb.timed_build(config, code)
    shutil.copytree(folder / "cache", folder / "edited", symlinks=True)
    (folder / "docs" / page).write_bytes(original)
    return folder


def gc_edit(folder: Path, code: Path, page: str) -> float:
    """An edit build from the warm cache (its site as the warm build left it is not kept: a CI
    build's site), garbage collection's CPU ms."""
    for sub in ("cache", "site"):
        shutil.rmtree(folder / sub, ignore_errors=True)
    shutil.copytree(folder / "warm", folder / "cache", symlinks=True)
    text = (folder / "docs" / page).read_bytes()
    (folder / "docs" / page).write_bytes(text + bb.EDIT.encode())
    try:
        run = subprocess.run([sys.executable, "-c", GC_BUILD, str(folder / "plugin.yml")], cwd=folder,
                             env=bb.build_env(code), capture_output=True, text=True, check=True)
    finally:
        (folder / "docs" / page).write_bytes(text)
    return float(run.stderr.strip().splitlines()[-1].split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="mkdocs-docs", help="a folder name under ../shared/corpora")
    parser.add_argument("--edit", help="the page to edit (default: the first in sorted order)")
    parser.add_argument("--seed-cache", type=Path, required=True, help="a cache folder to start from (copied)")
    parser.add_argument("--code", action="append", required=True, help="NAME=PATH of a plugin checkout")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--work", type=Path, required=True, help="a new folder for the copies")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    codes = {name: Path(path).resolve() for name, _, path in (value.partition("=") for value in args.code)}
    source = bb.CORPORA / args.corpus
    if args.work.exists():
        bb.die(f"--work {args.work} exists: give a new folder")
    pages = sorted(p.relative_to(source).as_posix() for p in source.rglob("*.md"))
    page = args.edit or pages[0]
    started = dt.datetime.now()
    seed = args.seed_cache.resolve()
    folders = {name: prepare(name, code, source, seed, page, args.work) for name, code in codes.items()}
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in codes}
    loads = []
    for round_ in range(args.rounds):
        order = list(codes) if round_ % 2 == 0 else list(codes)[::-1]
        for name in order:
            loads.append(os.getloadavg()[0])
            run = subprocess.run([sys.executable, "-c", PIECES, str(folders[name])], cwd=folders[name],
                                 env=bb.build_env(codes[name]), capture_output=True, text=True, check=True)
            pieces = json.loads(run.stdout) | {"gc_edit_ms": gc_edit(folders[name], codes[name], page)}
            for key, value in pieces.items():
                samples[name].setdefault(key, []).append(round(value, 2))
            bb.note(f"round {round_ + 1} {name}: {pieces}")
    least = {name: {key: min(values) for key, values in pieces.items()} for name, pieces in samples.items()}
    report = {
        "started": started.isoformat(timespec="seconds"),
        "corpus": repo_path(source),
        "edited_page": page,
        "codes": {name: repo_path(code) for name, code in codes.items()},
        "rounds": args.rounds,
        "min_cpu_ms": least,
        "samples_cpu_ms": samples,
        "load_1min": {"min": round(min(loads), 2), "max": round(max(loads), 2)},
    }
    keys = list(next(iter(least.values())))
    print(f"{'piece (min CPU ms)':<20}" + "".join(f"{name:>12}" for name in codes))
    for key in keys:
        print(f"{key:<20}" + "".join(f"{least[name][key]:>12.2f}" for name in codes))
    print(f"load {report['load_1min']['min']}-{report['load_1min']['max']}")
    common.save_report("build-pieces", json.dumps(report, indent=2), args.out, started)


if __name__ == "__main__":
    main()
