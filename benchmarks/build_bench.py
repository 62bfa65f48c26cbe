"""Build benchmark: `mkdocs build` with the plugin, cold / warm / after a one-page edit, against
plain `mkdocs build` (the plugin removed) of the same docs, with each build's peak memory.

    .venv/bin/python benchmarks/build_bench.py                       # ../shared/corpora/mkdocs-docs
    .venv/bin/python benchmarks/build_bench.py --corpus k8s-docs     # big: one cold build, ~15 min
    .venv/bin/python benchmarks/build_bench.py --throughput-only     # model chunks/s only
    .venv/bin/python benchmarks/build_bench.py --corpus k8s-docs --cold-only --no-throughput  # plain
                                                  # and cold builds only (the cold rate)
    .venv/bin/python benchmarks/build_bench.py --code /tmp/old --no-throughput  # another commit's
                                                  # plugin (`git archive COMMIT | tar -x -C /tmp/old`)
    .venv/bin/python benchmarks/build_bench.py --seed-cache .cache/eval --no-throughput  # cold from a
                                                  # copy of an embedding cache (embeds what it lacks)

For each corpus (a folder of markdown files under ../shared/corpora, copied to a temporary folder
so it can be edited), in this order, each build a fresh `python -m mkdocs build -q` process:

1. plain: `theme: mkdocs`, `plugins: []`;
2. cold: `plugins: [graphsearch]` with an empty cache folder (or a copy of `--seed-cache`) and
   site folder;
3. warm: the same again, nothing changed;
3b. ci: the same again without the last site folder (removed first), as a CI job that keeps
   only the cache folder between runs builds;
4. edit: one page gets a paragraph appended (`--edit PAGE`, default the first page in sorted
   order), then the plugin build again (the query encoder is refitted: the figure issue 10's
   incremental fit is about);
5. plain again on the edited docs (the ratio edit / plain uses the median of the plain builds).

Each ratio is given by wall time (`ratios`) and by CPU seconds (`cpu_ratios`, user + system of
the build process: issue 23's warm and edit targets).

Wall time of each build, and its peak resident memory (ru_maxrss of that process, from wait4),
the 1-minute load average before and after it (the machine is shared: say how busy it was).

Bytecode: the builds run as an installed plugin does, from compiled modules. The builds keep
their `.pyc` files in BYTECODE (outside the checkout and the venv, PYTHONPYCACHEPREFIX), and one
untimed process imports the build's modules first (`warm_bytecode`). Without this an environment
with PYTHONDONTWRITEBYTECODE=1 compiles the plugin's ~90 modules on every build (0.4 s of a
mkdocs-docs build on 2 busy cores), a cost no installed plugin pays. `--bytecode off` measures
with the caller's environment unchanged.

Then, unless `--no-throughput`, the embedding model's speed on the corpus's passages: chunks/s
with batch 1 (one window per model call, no padding) and with the default batching, measured in
the same process, alternating (`--throughput-rounds` rounds of each, over the first
`--throughput-chunks` passages), on the cores this process may use; also per CPU second of this
process (user + system, every onnxruntime thread), a figure other processes' load moves far less
than wall time.

With `--model-start`, what running the model costs an edit build, in a process of its own as a
build imports the plugin (`--code`) with the builds' cache folder: CPU seconds of importing the
embedder, importing onnxruntime, starting the session (the converted model read from the cache,
the session made, the vocabulary probed) and embedding one edited passage with its token states.

Writes every figure to benchmarks/results/build-DATE.json (paths relative to the repository).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common
from common import repo_path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPORA = REPO.parent / "shared" / "corpora"
EDIT = "\n\nA paragraph the build benchmark appended, so that exactly one page changed.\n"


def die(message: str) -> None:
    common.die("build_bench", message)


def note(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


#: Where the builds' compiled modules go (see the module docstring); None: the caller's environment.
BYTECODE: Path | None = Path(tempfile.gettempdir()) / f"build-bench-pycache-{os.getuid()}"
#: What a build imports (the rest it imports is compiled by the first build that needs it).
BUILD_MODULES = (
    "mkdocs.__main__, mkdocs.commands.build, mkdocs.contrib.search, mkdocs.themes.mkdocs, onnxruntime, "
    "mkdocs_graphsearch.plugin, mkdocs_graphsearch.index.semantic, mkdocs_graphsearch.index.embed"
)


def build_env(code: Path) -> dict[str, str]:
    """The environment of a build importing the plugin from `code`."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(code), os.environ.get("PYTHONPATH")])))
    if BYTECODE is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(BYTECODE)
    return env


def warm_bytecode(code: Path, cwd: Path) -> None:
    """Compile what the builds import (untimed), so no timed build compiles the plugin."""
    if BYTECODE is not None:
        subprocess.run([sys.executable, "-c", f"import {BUILD_MODULES}"], cwd=cwd, env=build_env(code), check=True)


def timed_build(config: Path, code: Path) -> dict:
    """One `mkdocs build` in its own process, importing the plugin from `code`: wall seconds,
    peak RSS (MiB), load before/after."""
    # cwd: `python -m` puts the working folder first on sys.path
    return timed_run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)], config.parent, build_env(code)
    )


def timed_run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> dict:
    """One process: wall seconds, CPU seconds, its peak RSS (MiB), load before/after; stops the script if it fails."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd, env=env)
    assert proc.stderr is not None
    stderr = proc.stderr.read()  # read before reaping: a full pipe would block the build
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        die(f"{' '.join(argv)} failed:\n{stderr.decode(errors='replace')[-3000:]}")
    return {
        "wall_s": round(wall, 2),
        # user + system CPU of the process and its threads: less at the mercy of the load than wall
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),  # Linux: KiB
        "load_before": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def write_config(path: Path, name: str, docs: Path, site: Path, plugins: list, theme: str | dict = "mkdocs") -> Path:
    path.write_text(
        json.dumps({"site_name": name, "docs_dir": str(docs), "site_dir": str(site), "theme": theme,
                    "plugins": plugins}),
        encoding="utf-8",
    )
    return path


def bench_builds(
    name: str, source: Path, edit: str | None, work: Path, code: Path, seed: Path | None = None, cold_only: bool = False
) -> dict:
    docs = work / "docs"
    shutil.copytree(source, docs)
    if seed is not None:
        shutil.copytree(seed, work / "cache")
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    if not pages:
        die(f"no markdown files in {source}")
    page = edit or pages[0]
    if page not in pages:
        die(f"--edit {page}: no such page in {source}")
    plain = write_config(work / "plain.yml", name, docs, work / "site-plain", [])
    plugin = write_config(
        work / "plugin.yml", name, docs, work / "site-plugin", [{"graphsearch": {"cache_dir": str(work / "cache")}}]
    )
    runs: dict[str, dict] = {}
    warm_bytecode(code, work)
    first = (("plain", plain), ("cold", plugin)) + (() if cold_only else (("warm", plugin), ("ci", plugin)))
    for label, config in first:
        if label == "ci":  # a CI job keeps the cache folder, not the site
            shutil.rmtree(work / "site-plugin")
        note(f"[{name}] {label} build ...")
        runs[label] = timed_build(config, code)
        note(f"[{name}] {label}: {runs[label]}")
    if not cold_only:
        with (docs / page).open("a", encoding="utf-8") as out:
            out.write(EDIT)
    for label, config in () if cold_only else (("edit", plugin), ("plain_after_edit", plain)):
        note(f"[{name}] {label} build ...")
        runs[label] = timed_build(config, code)
        note(f"[{name}] {label}: {runs[label]}")
    plains = [runs[label] for label in ("plain", "plain_after_edit") if label in runs]
    plain_s = statistics.median([run["wall_s"] for run in plains])
    # CPU seconds (user + system): what issue 23's targets compare, less at the mercy of the load
    plain_cpu = statistics.median([run["cpu_s"] for run in plains])
    compared = [label for label in ("cold", "warm", "ci", "edit") if label in runs]
    # the sections the bundle holds (its manifest's chunk count): issue 23's cold-build rate
    manifest = json.loads((work / "site-plugin" / "search" / "manifest.json").read_text(encoding="utf-8"))
    sections = manifest["counts"]["chunks"]
    return {
        "corpus": repo_path(source),
        "seed_cache": repo_path(seed) if seed else None,
        "markdown_files": len(pages),
        "edited_page": page,
        "builds": runs,
        "plain_median_s": plain_s,
        "ratios": {label: round(runs[label]["wall_s"] / plain_s, 2) for label in compared},
        "plain_median_cpu_s": plain_cpu,
        "cpu_ratios": {label: round(runs[label]["cpu_s"] / plain_cpu, 2) for label in compared},
        "sections": sections,
        "cold_sections_per_cpu_s": round(sections / runs["cold"]["cpu_s"], 1),
    }


#: Run by --model-start in a process of its own (argv[1]: the cache folder, argv[2]: a passage).
MODEL_START = """
import json, resource, sys
from pathlib import Path
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
start = cpu()
from mkdocs_graphsearch.index.embed import Embedder, ModelSpec, onnxruntime_without_telemetry
imported = cpu()
embedder = Embedder(ModelSpec(stamp_dir=Path(sys.argv[1])), lazy=True)
made = cpu()
onnxruntime_without_telemetry()
ort = cpu()
embedder.session
session = cpu()
list(embedder.embed_many([sys.argv[2]], [True]))
done = cpu()
print(json.dumps({"import_embedder_cpu_s": imported - start, "embedder_cpu_s": made - imported,
                  "import_onnxruntime_cpu_s": ort - made, "session_cpu_s": session - ort,
                  "embed_one_passage_cpu_s": done - session}))
"""


def bench_model_start(work: Path, code: Path, rounds: int = 3) -> dict:
    """The model's costs in an edit build (MODEL_START), the median of `rounds` processes."""
    samples = []
    for _ in range(rounds):
        load = os.getloadavg()[0]
        out = subprocess.run([sys.executable, "-c", MODEL_START, str(work / "cache"), EDIT.strip()], cwd=work,
                             env=build_env(code), capture_output=True, text=True, check=True).stdout
        samples.append({**json.loads(out), "load": round(load, 2)})
    return {key: round(statistics.median(s[key] for s in samples), 3) for key in samples[0]} | {"samples": samples}


def cpu_seconds() -> float:
    """User + system CPU seconds of this process so far (all its threads)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def bench_throughput(source: Path, chunks: int, rounds: int) -> dict:
    """chunks/s of the model with batch 1 and with the default batching, alternating rounds."""
    sys.path.insert(0, str(REPO))
    from mkdocs_graphsearch.index.corpus import Corpus
    from mkdocs_graphsearch.index.embed import DEFAULT_BATCH_TOKENS, Embedder, ModelSpec
    from mkdocs_graphsearch.index.passages import passage_text
    from mkdocs_graphsearch.parse.folder import parse_folder

    texts = [passage_text(chunk) for chunk in Corpus.from_pages(parse_folder(source)).chunks][:chunks]
    spec = ModelSpec()
    embedders = {"batch 1": Embedder(spec, batch_tokens=1), "batched": Embedder(spec)}
    samples: dict[str, list[float]] = {label: [] for label in embedders}
    per_cpu: dict[str, list[float]] = {label: [] for label in embedders}
    loads = []
    outputs: dict[str, list] = {}
    for _ in range(rounds):
        for label, embedder in embedders.items():
            loads.append(os.getloadavg()[0])
            start, cpu = time.perf_counter(), cpu_seconds()
            out = list(embedder.embed_many(texts, states=True))
            samples[label].append(len(texts) / (time.perf_counter() - start))
            per_cpu[label].append(len(texts) / (cpu_seconds() - cpu))
            outputs[label] = out
            note(f"throughput {label}: {samples[label][-1]:.1f} chunks/s, {per_cpu[label][-1]:.1f} chunks per CPU s "
                 f"(load {loads[-1]:.2f})")
    one, batched = outputs["batch 1"], outputs["batched"]
    identical = all(
        a.vector.tobytes() == b.vector.tobytes() and a.states is not None and b.states is not None
        and a.states.tobytes() == b.states.tobytes()
        for a, b in zip(one, batched, strict=True)
    )
    median = {label: round(statistics.median(values), 1) for label, values in samples.items()}
    median_cpu = {label: round(statistics.median(values), 1) for label, values in per_cpu.items()}
    return {
        "chunks": len(texts),
        "threads": embedders["batched"].threads,
        "batch_tokens": DEFAULT_BATCH_TOKENS,
        "rounds": rounds,
        "chunks_per_s": {label: [round(v, 1) for v in values] for label, values in samples.items()},
        "median_chunks_per_s": median,
        "chunks_per_cpu_s": {label: [round(v, 1) for v in values] for label, values in per_cpu.items()},
        "median_chunks_per_cpu_s": median_cpu,
        "speedup": round(median["batched"] / median["batch 1"], 2),
        "outputs_identical": identical,
        "load_1min": {"min": round(min(loads), 2), "max": round(max(loads), 2)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="mkdocs-docs", help="a folder name under ../shared/corpora")
    parser.add_argument("--edit", help="the page (path relative to the docs) to edit; default: the first")
    parser.add_argument("--no-throughput", action="store_true", help="skip the model throughput part")
    parser.add_argument("--cold-only", action="store_true",
                        help="builds: plain and cold only (the cold rate, on a busy machine in less time)")
    parser.add_argument("--throughput-only", action="store_true", help="only the model throughput part")
    parser.add_argument("--throughput-chunks", type=int, default=300)
    parser.add_argument("--throughput-rounds", type=int, default=3)
    parser.add_argument("--code", type=Path, default=REPO,
                        help="the checkout whose mkdocs_graphsearch the builds import (default: this one), "
                             "e.g. an export of another commit to compare against")
    parser.add_argument("--label", default="", help="what --code is (e.g. 'main at c89cafc'), for the report")
    parser.add_argument("--seed-cache", type=Path, help="start the plugin's cache folder from a copy of this one")
    parser.add_argument("--work", type=Path, help="the docs copy, cache and sites (default: a temporary folder)")
    parser.add_argument("--bytecode", choices=("cached", "off"), default="cached",
                        help="builds from compiled modules (default), or with the environment as it is")
    parser.add_argument("--model-start", action="store_true",
                        help="also what running the model costs an edit build (needs --work)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.model_start and not args.work:
        die("--model-start reads the builds' cache folder: give --work")
    global BYTECODE
    if args.bytecode == "off":
        BYTECODE = None
    source = CORPORA / args.corpus
    if not source.is_dir():
        die(f"no corpus {source} (the shared corpora live in ../shared beside the repository)")
    started = dt.datetime.now()
    report: dict = {
        "started": started.isoformat(timespec="seconds"),
        "cpus": len(os.sched_getaffinity(0)),
        "python": sys.version.split()[0],
        "commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True).stdout.strip(),
        "code": repo_path(args.code),
        "label": args.label,
        "bytecode": args.bytecode,
    }
    if not args.throughput_only:
        seed = args.seed_cache.resolve() if args.seed_cache else None
        if args.work:
            if args.work.exists():
                die(f"--work {args.work} exists: give a new folder")
            args.work.mkdir(parents=True)
            report["builds"] = bench_builds(
                args.corpus, source, args.edit, args.work, args.code.resolve(), seed, args.cold_only
            )
            if args.model_start:
                report["model_start"] = bench_model_start(args.work, args.code.resolve())
        else:
            with tempfile.TemporaryDirectory(prefix="build-bench-") as tmp:
                report["builds"] = bench_builds(
                    args.corpus, source, args.edit, Path(tmp), args.code.resolve(), seed, args.cold_only
                )
    if not args.no_throughput:
        report["throughput"] = bench_throughput(source, args.throughput_chunks, args.throughput_rounds)
    print(table(report))
    common.save_report("build", json.dumps(report, indent=2), args.out, started)


def table(report: dict) -> str:
    lines = []
    builds = report.get("builds")
    if builds:
        lines.append(f"{builds['corpus']} ({builds['markdown_files']} pages, {builds['sections']} sections, "
                     f"edited {builds['edited_page']})")
        header = f"{'build':<18}{'wall s':>9}{'/ plain':>9}{'CPU s':>9}{'/ plain':>9}{'peak RSS MiB':>14}{'load':>12}"
        lines.append(header)
        for label, run in builds["builds"].items():
            ratio, cpu_ratio = builds["ratios"].get(label), builds.get("cpu_ratios", {}).get(label)
            lines.append(
                f"{label:<18}{run['wall_s']:>9.2f}{'' if ratio is None else f'{ratio:.2f}':>9}"
                f"{run['cpu_s']:>9.2f}{'' if cpu_ratio is None else f'{cpu_ratio:.2f}':>9}"
                f"{run['peak_rss_mib']:>14.1f}{run['load_before']:>6.1f}-{run['load_after']:<5.1f}"
            )
        lines.append(f"cold build: {builds['cold_sections_per_cpu_s']} sections per CPU s")
    start = report.get("model_start")
    if start:
        lines.append("model in an edit build, CPU s: " + ", ".join(
            f"{key.removesuffix('_cpu_s')} {value}" for key, value in start.items() if key != "samples"))
    throughput = report.get("throughput")
    if throughput:
        median, cpu = throughput["median_chunks_per_s"], throughput["median_chunks_per_cpu_s"]
        lines.append(
            f"model, {throughput['chunks']} chunks, {throughput['threads']} threads: batch 1 {median['batch 1']} "
            f"chunks/s, batched {median['batched']} chunks/s (x{throughput['speedup']}); per CPU s: batch 1 "
            f"{cpu['batch 1']}, batched {cpu['batched']}; outputs identical: "
            f"{throughput['outputs_identical']}, load {throughput['load_1min']['min']}-{throughput['load_1min']['max']}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
