"""Semantic search benchmark: ranking quality per mode, build cost of embeddings, bundle size per part.

    .venv/bin/python benchmarks/semantic_bench.py [--corpus mkdocs-docs --corpus k8s-docs] [--skip-k8s-build]

Three parts, each figure taken in this run on this machine:

1. quality, on each judged set (mkdocs-docs: ../shared/eval, the dev set; uv-docs:
   tests/eval, held out): `graphsearch index` with embeddings, then `graphsearch eval` for keyword,
   vector and hybrid, the vector modes with the bundle's static query encoder and with the full
   ONNX model (`--query-encoder model`); nDCG@10 / MRR@10 / hit@5, nDCG@10 per query type,
   zero-result queries, and PASS/FAIL for the targets of issue 4;
2. build, for each `--corpus`: `mkdocs build` wall time with no plugins, with our plugin and
   `embeddings: false`, with our plugin and an empty embedding cache (first build) and with the
   cache warm (cached rebuild), ratios against the plain build, and embedding throughput;
3. bundle: bytes raw and gzip -9 of each part of the bundle the first build wrote.

Prints tables and writes every figure to benchmarks/results/semantic-DATE.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import common
from common import bundle_parts, gz, part_kind, tool

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared"
#: (name, corpus folder, judged queries, role)
QUALITY_SETS = (
    ("mkdocs-docs", SHARED / "corpora" / "mkdocs-docs", SHARED / "eval" / "mkdocs-docs.queries.jsonl", "dev"),
    ("uv-docs", SHARED / "corpora" / "uv-docs", REPO / "tests" / "eval" / "uv-docs.queries.jsonl", "held-out"),
)
#: label -> (eval --mode, --query-encoder)
RUNS = {
    "keyword": ("keyword", "static"),
    "vector (static)": ("vector", "static"),
    "vector (model)": ("vector", "model"),
    "hybrid (static)": ("hybrid", "static"),
    "hybrid (model)": ("hybrid", "model"),
}
#: bundle part -> the kinds of file it is made of (common.part_kind)
PARTS = {
    "keyword (every first keystroke)": ("manifest", "keyword"),
    "term shards + dictionary": ("postings", "terms"),
    "text + display fragments": ("text", "display"),
    "graph": ("graph",),
    "vectors (+ centroids)": ("vectors", "centroids"),
    "encoder": ("encoder", "encoder-model"),
    "vocabulary shards": ("vocab",),
}
PROGRESS = re.compile(r"embedding: (\d+)/(\d+) chunks,? \(?(\d+)/s\)?")
# issue 4 targets
TARGET_HYBRID = 0.70
TARGET_MODEL_GAP = 0.03
TARGET_OVER_KEYWORD = 0.06
TARGET_OVER_KEYWORD_NL = 0.10


def die(message: str) -> None:
    common.die("semantic_bench", message)


def note(message: str) -> None:
    print(f"[{dt.datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def run(cmd: list[str], label: str, timeout: float | None = None, echo_progress: bool = False) -> dict:
    """Run cmd; wall time, stdout, stderr, and the embedding progress lines seen (echoed if asked)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out_chunks: list[str] = []
    err_lines: list[str] = []
    progress: list[tuple[int, int, int]] = []
    reader = threading.Thread(target=lambda: out_chunks.append(proc.stdout.read()), daemon=True)
    reader.start()
    timed_out = False
    deadline = None if timeout is None else t0 + timeout

    def read_err() -> None:
        for line in proc.stderr:
            err_lines.append(line)
            m = PROGRESS.search(line)
            if m:
                progress.append((int(m.group(1)), int(m.group(2)), int(m.group(3))))
                if echo_progress:
                    note(f"  {label}: {line.strip()}")

    err_reader = threading.Thread(target=read_err, daemon=True)
    err_reader.start()
    while proc.poll() is None:
        if deadline is not None and time.perf_counter() > deadline:
            proc.kill()
            timed_out = True
            break
        time.sleep(0.2)
    proc.wait()
    wall = time.perf_counter() - t0
    reader.join(5)
    err_reader.join(5)
    stderr = "".join(err_lines)
    if timed_out:
        return {"wall_s": wall, "timed_out": True, "progress": progress, "stdout": "", "stderr": stderr}
    if proc.returncode != 0:
        die(f"{label} failed ({proc.returncode}):\n{''.join(out_chunks)[-2000:]}\n{stderr[-4000:]}")
    return {"wall_s": wall, "timed_out": False, "progress": progress, "stdout": "".join(out_chunks), "stderr": stderr}


# ---------------------------------------------------------------- 1. quality

def weighted(report: dict, types: tuple[str, ...]) -> tuple[float | None, int]:
    """nDCG@10 over the given query types, each type's mean weighted by its query count."""
    rows = [report["by_type"][t] for t in types if t in report["by_type"]]
    n = sum(r["queries"] for r in rows)
    return (sum(r["ndcg@10"] * r["queries"] for r in rows) / n if n else None), n


def targets(reports: dict, role: str) -> list[dict]:
    kw, hs, hm = reports["keyword"], reports["hybrid (static)"], reports["hybrid (model)"]
    h, k, m = hs["overall"]["ndcg@10"], kw["overall"]["ndcg@10"], hm["overall"]["ndcg@10"]
    h_nl, n_nl = weighted(hs, ("natural", "paraphrase"))
    k_nl, _ = weighted(kw, ("natural", "paraphrase"))
    h_id = hs["by_type"].get("identifier", {}).get("ndcg@10")
    k_id = kw["by_type"].get("identifier", {}).get("ndcg@10")
    out = [
        {"target": f"hybrid (static) nDCG@10 >= {TARGET_HYBRID:.2f}" + ("" if role == "dev" else " (dev-set target)"),
         "value": f"{h:.4f}", "pass": h >= TARGET_HYBRID if role == "dev" else None},
        {"target": f"|hybrid (static) - hybrid (model)| <= {TARGET_MODEL_GAP:.2f}",
         "value": f"{h - m:+.4f}", "pass": abs(h - m) <= TARGET_MODEL_GAP + 1e-9},
        {"target": f"hybrid (static) - keyword >= {TARGET_OVER_KEYWORD:.2f} overall",
         "value": f"{h - k:+.4f}", "pass": h - k >= TARGET_OVER_KEYWORD - 1e-9},
    ]
    if h_nl is not None and k_nl is not None:
        out.append({"target": f"hybrid (static) - keyword >= {TARGET_OVER_KEYWORD_NL:.2f} on natural+paraphrase "
                              f"({n_nl} q, count-weighted)",
                    "value": f"{h_nl - k_nl:+.4f} ({h_nl:.4f} vs {k_nl:.4f})",
                    "pass": h_nl - k_nl >= TARGET_OVER_KEYWORD_NL - 1e-9})
    if h_id is not None and k_id is not None:
        out.append({"target": "no loss on identifier (hybrid (static) >= keyword)",
                    "value": f"{h_id - k_id:+.4f} ({h_id:.4f} vs {k_id:.4f})", "pass": h_id >= k_id})
    return out


def bench_quality(name: str, docs: Path, queries: Path, role: str, cache_root: Path, tmp: Path) -> dict:
    for path in (docs, queries):
        if not path.exists():
            die(f"{path} is missing")
    bundle = tmp / f"quality-{name}"
    cache = cache_root / name  # one folder per corpus: the fitted-encoder cache keeps one site's fit
    warm = cache.is_dir() and any(cache.iterdir())
    note(f"[quality {name}] graphsearch index (cache {cache}, {'warm' if warm else 'empty'})")
    built = run([tool("graphsearch"), "index", str(docs), "--out", str(bundle), "--cache-dir", str(cache)],
                f"graphsearch index {name}", echo_progress=True)
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    if not manifest.get("vectors"):
        die(f"the {name} bundle has no vectors (embedding model unavailable?):\n{built['stderr'][-2000:]}")
    reports = {}
    for label, (mode, encoder) in RUNS.items():
        note(f"[quality {name}] eval {label}")
        r = run([tool("graphsearch"), "eval", str(bundle), str(queries), "--mode", mode,
                 "--query-encoder", encoder, "--json"], f"graphsearch eval {name} {label}")
        report = json.loads(r["stdout"].strip().splitlines()[-1])
        if report.get("mode") != mode:
            die(f"eval {name} {label}: asked for mode {mode}, the engine ran {report.get('mode')}")
        reports[label] = report | {"wall_s": round(r["wall_s"], 2)}
    return {
        "corpus": name, "role": role, "queries_file": common.repo_path(queries), "counts": manifest["counts"],
        "index_wall_s": round(built["wall_s"], 2), "index_cache": common.repo_path(cache),
        "cache_was_warm": warm,
        "runs": reports, "targets": targets(reports, role),
    }


def fmt_table(head: tuple, body: list[tuple]) -> list[str]:
    widths = [max(len(str(x[i])) for x in [head, *body]) for i in range(len(head))]

    def line(x: tuple) -> str:
        cells = enumerate(zip(x, widths, strict=True))
        return "  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in cells)

    return [line(head), line(tuple("-" * w for w in widths)), *(line(x) for x in body)]


def quality_table(q: dict) -> str:
    runs = q["runs"]
    c = q["counts"]
    n = runs["keyword"]["overall"]["queries"]
    kw = runs["keyword"]["overall"]["ndcg@10"]
    lines = [f"== quality, {q['corpus']} ({q['role']} set, {n} queries; {c['pages']} pages, {c['chunks']} chunks; "
             f"index {q['index_wall_s']:.1f} s{', warm cache' if q['cache_was_warm'] else ', empty cache'})"]
    body = [(label, f"{r['overall']['ndcg@10']:.4f}", f"{r['overall']['ndcg@10'] - kw:+.4f}",
             f"{r['overall']['mrr@10']:.4f}", f"{r['overall']['hit@5']:.3f}", r["zero_results"])
            for label, r in runs.items()]
    lines += fmt_table(("mode (query encoder)", "nDCG@10", "vs keyword", "MRR@10", "hit@5", "zero-result"), body)
    lines.append("")
    types = list(runs["keyword"]["by_type"])
    body = [(f"{t} ({runs['keyword']['by_type'][t]['queries']})",
             *(f"{runs[label]['by_type'][t]['ndcg@10']:.4f}" for label in runs)) for t in types]
    lines.append("nDCG@10 per query type (queries):")
    lines += fmt_table(("type", *runs), body)
    lines.append("")
    lines.append("targets (issue 4):")
    for t in q["targets"]:
        verdict = "n/a " if t["pass"] is None else ("PASS" if t["pass"] else "FAIL")
        lines.append(f"  {verdict}  {t['target']}: {t['value']}")
    return "\n".join(lines)


# ---------------------------------------------------------------- 2. build and 3. bundle

def write_yml(path: Path, name: str, docs: Path, site: Path, plugins: list) -> Path:
    path.write_text(json.dumps({
        "site_name": name, "docs_dir": str(docs), "site_dir": str(site), "theme": "mkdocs", "plugins": plugins,
    }), encoding="utf-8")
    return path


def mkdocs_build(yml: Path, label: str, timeout: float | None = None, verbose: bool = False) -> dict:
    # INFO level (no -q) only where the plugin's progress lines are wanted; logging costs little
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(yml)] + ([] if verbose else ["-q"])
    return run(cmd, label, timeout=timeout, echo_progress=verbose)


def timed(yml: Path, label: str, repeats: int) -> dict:
    times = [mkdocs_build(yml, label)["wall_s"] for _ in range(repeats)]
    note(f"  {label}: median {statistics.median(times):.2f} s of {[round(t, 2) for t in times]}")
    return {"median_s": statistics.median(times), "runs_s": times}


def bundle_sizes(bundle: Path) -> dict:
    files = {part: {"raw": path.stat().st_size, "gzip": gz(path.read_bytes())}  # by logical name
             for part, path in bundle_parts(bundle).items()}
    parts = {}
    for part, kinds in PARTS.items():
        present = [n for n in files if part_kind(n) in kinds]
        parts[part] = {"files": present, "raw": sum(files[n]["raw"] for n in present),
                       "gzip": sum(files[n]["gzip"] for n in present)}
    other = [n for n in files if not any(part_kind(n) in kinds for kinds in PARTS.values())]
    if other:
        parts["other"] = {"files": other, "raw": sum(files[n]["raw"] for n in other),
                          "gzip": sum(files[n]["gzip"] for n in other)}
    total = {"raw": sum(f["raw"] for f in files.values()), "gzip": sum(f["gzip"] for f in files.values())}
    return {"files": files, "parts": parts, "total": total}


def bench_build(name: str, args, tmp: Path) -> dict:
    docs = SHARED / "corpora" / name
    if not docs.is_dir():
        die(f"no corpus {docs}")
    work = tmp / f"build-{name}"
    work.mkdir()
    cache = work / "cache"  # empty: the first build embeds everything
    pages = sum(1 for _ in docs.rglob("*.md"))
    note(f"[build {name}] {pages} markdown files")
    plain = write_yml(work / "plain.yml", name, docs, work / "site-plain", [])
    keyword = write_yml(work / "keyword.yml", name, docs, work / "site-keyword",
                        [{"graphsearch": {"embeddings": False}}])
    semantic = write_yml(work / "semantic.yml", name, docs, work / "site-semantic",
                         [{"graphsearch": {"cache_dir": str(cache)}}])
    result: dict = {"corpus": name, "markdown_files": pages}
    builds = result["builds"] = {}
    builds["plain"] = timed(plain, f"{name} mkdocs build, plugins: []", args.build_repeats)
    builds["keyword_only"] = timed(keyword, f"{name} mkdocs build, graphsearch embeddings: false", args.build_repeats)

    note(f"[build {name}] first build, empty cache (progress every ~5 s)")
    first = mkdocs_build(semantic, f"{name} first build", timeout=args.first_build_timeout, verbose=True)
    builds["first"] = {"median_s": first["wall_s"], "runs_s": [first["wall_s"]], "timed_out": first["timed_out"],
                       "progress": first["progress"]}
    if first["timed_out"]:
        done = first["progress"][-1] if first["progress"] else None
        note(f"[build {name}] first build stopped after {first['wall_s']:.0f} s (--first-build-timeout); "
             f"last progress {done}")
        result["timed_out"] = True
        return result
    note(f"  {name} first build: {first['wall_s']:.2f} s")
    bundle = work / "site-semantic" / "search"
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    result["counts"] = manifest["counts"]
    result["sizes"] = bundle_sizes(bundle)  # before the rebuild rewrites it (same bytes expected)
    if not manifest.get("vectors"):
        die(f"{name}: the plugin build wrote no vectors (model unavailable?):\n{first['stderr'][-2000:]}")
    builds["cached"] = timed(semantic, f"{name} cached rebuild", args.build_repeats)

    chunks = manifest["counts"]["chunks"]
    extra = first["wall_s"] - builds["keyword_only"]["median_s"]
    last = first["progress"][-1] if first["progress"] else None
    result["throughput"] = {
        "chunks": chunks,
        "embedding_extra_s": extra,
        "chunks_per_s_from_wall": chunks / extra if extra > 0 else None,
        "chunks_per_s_progress_line": last[2] if last and last[0] == last[1] else None,
        "last_progress_line": last,
    }
    return result


def kib(n: float) -> str:
    return f"{n / 1024:,.1f} KiB"


def build_table(b: dict) -> str:
    bl = b["builds"]
    plain = bl["plain"]["median_s"]
    head = f"== build, {b['corpus']}: {b['markdown_files']} md files"
    if "counts" in b:
        head += f", {b['counts']['pages']} pages, {b['counts']['chunks']} chunks"
    lines = [head]
    body = []
    labels = {"plain": "mkdocs build, plugins: [] (plain)",
              "keyword_only": "graphsearch, embeddings: false",
              "first": "graphsearch, empty cache (first build)",
              "cached": "graphsearch, warm cache (cached rebuild)"}
    for key, label in labels.items():
        if key not in bl:
            continue
        x = bl[key]
        runs = len(x["runs_s"])
        t = x["median_s"]
        shown = f"{t:.2f} s" + (" (stopped: timeout)" if x.get("timed_out") else "")
        body.append((label, shown, "1 run" if runs == 1 else f"median of {runs}", f"{t / plain:.2f}x"))
    lines += fmt_table(("build", "wall", "runs", "vs plain"), body)
    tp = b.get("throughput")
    if tp:
        per_s = tp["chunks_per_s_from_wall"]
        lines.append(
            "embedding throughput: {} chunks / ({:.1f} s first - {:.1f} s keyword-only) = {} chunks/s; "
            "plugin's last progress line: {}".format(
                tp["chunks"], bl["first"]["median_s"], bl["keyword_only"]["median_s"],
                f"{per_s:.1f}" if per_s else "-",
                (f"{tp['last_progress_line'][0]}/{tp['last_progress_line'][1]} chunks "
                 f"({tp['last_progress_line'][2]}/s, embedding loop only)") if tp["last_progress_line"] else "none"))
    if b.get("timed_out"):
        last = bl["first"]["progress"][-1] if bl["first"]["progress"] else None
        lines.append(f"first build stopped at the --first-build-timeout; last progress line: {last}")
    return "\n".join(lines)


def size_table(results: list[dict]) -> str:
    done = [b for b in results if "sizes" in b]
    if not done:
        return ""
    head = ["part"]
    for b in done:
        head += [f"{b['corpus']} raw", f"{b['corpus']} gzip"]
    rows = []
    for part in [*PARTS, "other"]:
        if not any(part in b["sizes"]["parts"] for b in done):
            continue
        row = [part]
        for b in done:
            p = b["sizes"]["parts"].get(part, {"raw": 0, "gzip": 0})
            row += [kib(p["raw"]), kib(p["gzip"])]
        rows.append(tuple(row))
    row = ["total"]
    for b in done:
        row += [kib(b["sizes"]["total"]["raw"]), kib(b["sizes"]["total"]["gzip"])]
    rows.append(tuple(row))
    lines = ["== bundle bytes per part (files of the first build's search/; gzip -9 per file, summed)"]
    lines += fmt_table(tuple(head), rows)
    for b in done:
        lines.append(f"{b['corpus']} files (raw / gzip): " + ", ".join(
            f"{k} {v['raw']:,} / {v['gzip']:,}" for k, v in b["sizes"]["files"].items()))
    return "\n".join(lines)


# ---------------------------------------------------------------- main

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", action="append",
                        help="corpus under ../shared/corpora for the build and bundle parts (repeatable; "
                             "default: mkdocs-docs and k8s-docs)")
    parser.add_argument("--skip-k8s-build", action="store_true",
                        help="leave k8s-docs out of the build and bundle parts (its first build embeds "
                             "~12,500 chunks: several minutes)")
    parser.add_argument("--skip-quality", action="store_true", help="no quality part")
    parser.add_argument("--skip-build", action="store_true", help="no build and bundle parts")
    parser.add_argument("--build-repeats", type=int, default=3,
                        help="runs of the plain, keyword-only and cached builds, median reported (default 3); "
                             "the first build runs once")
    parser.add_argument("--first-build-timeout", type=float, default=1800,
                        help="seconds before a first (empty-cache) build is stopped and reported as such")
    parser.add_argument("--quality-cache", type=Path, default=HERE / ".cache" / "semantic-bench",
                        help="embedding cache of the quality bundles, one subfolder per corpus (default "
                             "benchmarks/.cache/semantic-bench, ignored by git; '' for a temporary one)")
    parser.add_argument("--out", type=Path, help="JSON output (default benchmarks/results/semantic-DATE.json)")
    args = parser.parse_args()

    if not (SHARED / "corpora").is_dir():
        die(f"needs the shared corpora and queries at {SHARED} (../shared next to the repository); not found")
    corpora = args.corpus or ["mkdocs-docs", "k8s-docs"]
    if args.skip_k8s_build:
        corpora = [c for c in corpora if c != "k8s-docs"]
    if args.skip_build:
        corpora = []

    started = dt.datetime.now()
    load_start = os.getloadavg()
    quality: list[dict] = []
    builds: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="semantic-bench-") as tmp_name:
        tmp = Path(tmp_name)
        cache_root = args.quality_cache if str(args.quality_cache) not in ("", ".") else tmp / "quality-cache"
        if not args.skip_quality:
            for name, docs, queries, role in QUALITY_SETS:
                q = bench_quality(name, docs, queries, role, cache_root, tmp)
                quality.append(q)
                print(quality_table(q), flush=True)
                print(flush=True)
        for name in corpora:
            b = bench_build(name, args, tmp)
            builds.append(b)
            print(build_table(b), flush=True)
            print(flush=True)
        sizes = size_table(builds)
        if sizes:
            print(sizes, flush=True)
            print(flush=True)
    seconds = (dt.datetime.now() - started).total_seconds()
    load_end = os.getloadavg()
    print(f"load average (1/5/15 min) at start {' '.join(f'{x:.2f}' for x in load_start)}, at end "
          f"{' '.join(f'{x:.2f}' for x in load_end)}; {os.cpu_count()} CPUs; total {seconds:.0f} s")
    report = {
        "benchmark": "semantic",
        "started": started.isoformat(timespec="seconds"),
        "seconds": round(seconds, 1),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
                    "loadavg_start": load_start, "loadavg_end": load_end},
        "settings": {k: common.repo_path(v) if isinstance(v, Path) else v for k, v in vars(args).items() if k != "out"}
        | {"corpus": corpora},
        "quality": quality,
        "build": [{k: v for k, v in b.items()} for b in builds],
    }
    common.save_report("semantic", json.dumps(report, indent=1, default=str), args.out, started)


if __name__ == "__main__":
    main()
