"""Recall@10 of the clustered (approximate) vector search against exact search, and the gzip
bytes of the vector files a query reads.

    .venv/bin/python benchmarks/vector_recall.py BUNDLE QUERIES.jsonl [--clusters K ...]
        [--probe P ... | --probe-share S ...] [--bits B] [--hood-reads R ... | --groups]
        [--cells G ... [--cell-reads R ...]]

The vector ranking is the engine's (engine/search.py, vector mode without graph): cosines at or
above `vector_threshold`, best first, ties by chunk. Approximate = only the chunks of the probed
clusters (engine/vector.py probed_clusters). The clusters are the bundle's own (a clustered
bundle), or made here from its vectors by index/kmeans.py with each --clusters K, each probe
rule (--probe P: P clusters; --probe-share S: the best clusters until S of the chunks are read;
default kmeans.probe_rule) and --bits B codes (default kmeans.BITS), so one unclustered bundle
measures many layouts. They are hood files as the build makes them (--probe P: P files; each
hood kmeans.HOOD_READS of the chunks read, or each --hood-reads R), or with --groups one
cluster a file (format 5). Recall@10 = mean over queries with an exact top 10 of |approx top 10 &
exact top 10| / |exact top 10|, against two exact searches: over the same codes ("same") and
over the bundle's stored vectors ("stored": today's int8 rows for an unclustered bundle). Bytes:
gzip -9 of centroids.bin plus the files holding the probed clusters (each group file once; hoods:
the files taken), mean
and max over the queries; files: those files (the requests of the vector side). QUERIES may name
several files, comma-separated (their queries together).

Two levels (--cells G: each layout, the bundle's own too, also with its clusters grouped in G
cells by index/kmeans.py grouped_in_cells; --cell-reads R: the cells taken cover R times the
chunks read, default kmeans.CELL_READS): bytes add the cells' files taken. Sites with copies of
the same passages (the generated 100k site) make exact ties; two more recalls against the same
codes count them fairly: "dup" counts an exact top-10 chunk as found when the approximate top 10
holds a chunk with the same code row and scale; "distinct" compares the top 10 distinct vectors
of both rankings.
"""

from __future__ import annotations

import argparse
import gzip
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.format import FORMAT_VERSION
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.vector_shards import (
    CENTROIDS,
    Clusters,
    cell_centroids,
    clustered_files,
    group_starts,
    hood_of,
    read_cell,
    read_centroids,
    read_group,
    vector_shard,
)
from mkdocs_graphsearch.engine.encoder import query_vector
from mkdocs_graphsearch.engine.filters import parse_query
from mkdocs_graphsearch.engine.keyword import completed_query, keyword_scores
from mkdocs_graphsearch.engine.results import rank_chunks
from mkdocs_graphsearch.engine.vector import cosines, probed_cells, probed_clusters, probed_files, query_levels
from mkdocs_graphsearch.index.kmeans import CELL_READS, grouped_in_cells, probe_rule, spherical_kmeans, unit_rows

TOP = 10


Layout = tuple[Clusters, np.ndarray, np.ndarray, dict[str, bytes], list[int]]


def read_layout(files: dict[str, bytes], entry: dict[str, Any], n: int, dim: int) -> Layout:
    """(clusters, every chunk's decoded codes and scales, files, each group file's first cluster)
    from the layout's files."""
    manifest = {"format": FORMAT_VERSION, "vectors": {"dim": dim, "clusters": entry}, "counts": {"chunks": n}}
    c_rows, c_scales = read_centroids(files[CENTROIDS], manifest)
    cell_rows, cell_scales = c_rows, c_scales
    if "cells" in entry:
        read = [read_cell(files[cell_centroids(g)], manifest, g) for g in range(len(entry["cells"]))]
        c_rows, c_scales = np.concatenate([r for r, _ in read]), np.concatenate([sc for _, sc in read])
    codes, code_scales = np.zeros((n, dim), dtype=np.int8), np.zeros(n)
    members = []
    hood_chunks = entry.get("hood_chunks", 0)
    for i in range(len(group_starts(entry))):
        held = hood_of(c_rows, c_scales, entry["sizes"], i, hood_chunks) if hood_chunks else None
        own = read_group(files[vector_shard(i)], manifest, i, held)[: 1 if held else None]  # hoods: its own first
        for chunks, cluster_rows, cluster_scales in own:
            codes[chunks], code_scales[chunks] = cluster_rows, cluster_scales
            members.append(chunks)
    clusters = Clusters(c_rows, c_scales, members, entry["probe"], entry["probe_chunks"], hood_chunks=hood_chunks)
    if "cells" in entry:
        clusters.cells, clusters.cell_chunks = entry["cells"], entry["cell_chunks"]
        clusters.cell_centroids, clusters.cell_scales = cell_rows, cell_scales
    return clusters, codes, code_scales, files, group_starts(entry)


def made_layout(rows: np.ndarray, scales: np.ndarray, count: int, rule: dict[str, int]) -> Layout:
    """Clusters as the build makes them, one a file (what a query reads, cluster by cluster)."""
    n, dim = rows.shape
    centroids, assignment = spherical_kmeans(unit_rows(rows, scales), count)
    rule = {**rule, "probe": min(rule["probe"], centroids.shape[0]), "group_bytes": 0}
    files, entry = clustered_files(rows.astype(np.float64) * scales[:, None], centroids, assignment, rule)
    return read_layout(files, entry, n, dim)


def in_cells(layout: Layout, rule: dict[str, int], cells: int) -> Layout:
    """A one-level layout's clusters grouped in `cells` cells (the build's grouped_in_cells)."""
    clusters, codes, code_scales, _, _ = layout
    n, dim = codes.shape
    assignment = np.zeros(n, dtype=np.int64)
    for i, members in enumerate(clusters.members):
        assignment[members] = i
    centroids = unit_rows(clusters.centroids, clusters.centroid_scales)
    centroids, assignment, grouped = grouped_in_cells(centroids, assignment, cells)
    rule = {key: value for key, value in rule.items() if key != "hood_chunks"}  # no hoods under cells
    files, entry = clustered_files(
        codes.astype(np.float64) * code_scales[:, None], centroids, assignment, {**rule, "group_bytes": 0}, grouped
    )
    return read_layout(files, entry, n, dim)


def distinct_first(ranked: list[int], canon: np.ndarray) -> list[int]:
    """The first TOP chunks of `ranked` with distinct vectors."""
    out: list[int] = []
    seen: set[int] = set()
    for chunk in ranked:
        if canon[chunk] not in seen:
            seen.add(int(canon[chunk]))
            out.append(chunk)
            if len(out) == TOP:
                break
    return out


def top(bundle_threshold: float, cos: np.ndarray, count: int | None = TOP) -> list[int]:
    cos = cos.copy()
    cos[cos < bundle_threshold] = 0.0
    return rank_chunks(cos)[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("queries")
    parser.add_argument("--clusters", type=int, nargs="*", default=[], help="re-cluster with each K")
    parser.add_argument("--probe", type=int, nargs="*", default=[], help="probe counts to try")
    parser.add_argument("--probe-share", type=float, nargs="*", default=[], help="shares of the chunks to read")
    parser.add_argument("--bits", type=int, default=None, help="code bits when re-clustering")
    parser.add_argument("--centroid-bits", type=int, default=None, help="centroid code bits when re-clustering")
    parser.add_argument("--groups", action="store_true", help="one cluster a file (format 5), not hoods")
    parser.add_argument("--hood-reads", type=float, nargs="*", default=[], help="hoods of R x the chunks read")
    parser.add_argument("--cells", type=int, nargs="*", default=[], help="also in G cells (two levels)")
    parser.add_argument("--cell-reads", type=float, nargs="*", default=[CELL_READS], help="cells taken: R x reads")
    args = parser.parse_args()
    bundle = load_bundle(Path(args.bundle))
    if bundle.vectors is None or bundle.vector_scales is None:
        print("the bundle has no vectors", file=sys.stderr)
        return 1
    levels = query_levels(bundle.manifest)
    threshold = bundle.settings["vector_threshold"]
    queries = [
        orjson.loads(line)["query"]
        for path in args.queries.split(",")
        for line in Path(path).read_bytes().splitlines()
        if line.strip()
    ]
    vectors = []
    for query in queries:
        searched = parse_query(query).text
        vector = query_vector(bundle, completed_query(bundle, searched, keyword_scores(bundle, searched)))
        if vector is not None:
            vectors.append(vector)
    n = bundle.n_chunks
    stored = [top(threshold, cosines(bundle.vectors, bundle.vector_scales, v, levels)) for v in vectors]
    layouts: list[tuple[str, Clusters, np.ndarray, np.ndarray, dict[str, bytes], list[int]]] = []
    if bundle.clusters is not None:
        rule = bundle.manifest["vectors"]["clusters"]
        files = {name: bundle.files[name] for name in bundle.files if name.endswith(".bin")}
        name = f"bundle's own, bits {rule['bits']}, hood_chunks {rule.get('hood_chunks')}"
        layouts.append((name, bundle.clusters, bundle.vectors, bundle.vector_scales, files, group_starts(rule)))
    rules = [probe_rule(n, probe, args.bits) for probe in args.probe]
    share_rule = {**probe_rule(n, None, args.bits), "probe": 1}  # the best clusters until a share is read
    del share_rule["hood_chunks"]
    rules += [{**share_rule, "probe_chunks": math.ceil(n * share)} for share in args.probe_share]
    if args.centroid_bits:
        rules = [{**rule, "centroid_bits": args.centroid_bits} for rule in rules]
    if args.hood_reads:
        base = rules or [probe_rule(n, None, args.bits)]
        rules = [{**rule, "hood_chunks": math.ceil(r * rule["reads"])} for rule in base for r in args.hood_reads]
    if args.groups:
        rules = [{key: value for key, value in rule.items() if key != "hood_chunks"} for rule in rules]
    for count in args.clusters:
        for rule in rules or [probe_rule(n, None, args.bits)]:
            made = made_layout(bundle.vectors, bundle.vector_scales, count, rule)
            name = f"bits {rule['bits']}, centroid bits {rule['centroid_bits']}, hood_chunks {rule.get('hood_chunks')}"
            layouts.append((name, *made))
    for name, *layout in list(layouts):
        if layout[0].cells is not None:
            continue
        own = layout[0].probe_chunks  # or each --probe-share (the bundle's own clusters too)
        for cells in args.cells:
            for chunks in [math.ceil(n * share) for share in args.probe_share] or [own]:
                for reads in args.cell_reads:
                    rule = {"probe": 1, "probe_chunks": chunks, "cell_chunks": min(n, math.ceil(reads * chunks))}
                    rule = {**probe_rule(n, None, args.bits), **rule}
                    grouped = in_cells((layout[0], layout[1], layout[2], layout[3], layout[4]), rule, cells)
                    layouts.append((f"{name}, {cells} cells x {reads}, {chunks} chunks", *grouped))
    _, unique_index, canon_inverse = np.unique(
        np.hstack([bundle.vectors.view(np.uint8), bundle.vector_scales.astype("<f4")[:, None].view(np.uint8)]),
        axis=0,
        return_index=True,
        return_inverse=True,
    )
    canon = unique_index[canon_inverse.ravel()]
    print(f"{bundle.path}: {n} chunks, {len(vectors)} of {len(queries)} queries have a vector")
    for name, clusters, codes, code_scales, files, groups in layouts:
        gz = {part: len(gzip.compress(data, 9, mtime=0)) for part, data in files.items()}
        group_of = np.searchsorted(groups, np.arange(len(clusters.members)), side="right") - 1
        recall_same, recall_stored, recall_dup, recall_distinct, read, sent = [], [], [], [], [], []
        fetched: list[int] = []
        for vector, want_stored in zip(vectors, stored, strict=True):
            cos = cosines(codes, code_scales, vector, levels)
            ranked = top(threshold, cos, None)
            want = ranked[:TOP]
            probed = probed_clusters(clusters, vector, levels)
            mask = np.zeros(n, dtype=bool)
            for cluster in probed:
                mask[clusters.members[cluster]] = True
            read.append(mask.sum() / n)
            cells = probed_cells(clusters, vector, levels) if clusters.cells is not None else []
            if clusters.hood_chunks:  # the files taken, or the group files holding them
                wanted = set(probed_files(clusters, vector, levels))
            else:
                wanted = {int(group_of[c]) for c in probed}
            sent.append(
                gz[CENTROIDS] + sum(gz[cell_centroids(g)] for g in cells) + sum(gz[vector_shard(g)] for g in wanted)
            )
            fetched.append(1 + len(cells) + len(wanted))
            got_ranked = top(threshold, np.where(mask, cos, 0.0), None)
            got = set(got_ranked[:TOP])
            if want:
                recall_same.append(len(got & set(want)) / len(want))
                got_canon = {int(canon[c]) for c in got}
                recall_dup.append(sum(int(canon[c]) in got_canon for c in want) / len(want))
                want_distinct = {int(canon[c]) for c in distinct_first(ranked, canon)}
                got_distinct = {int(canon[c]) for c in distinct_first(got_ranked, canon)}
                recall_distinct.append(len(want_distinct & got_distinct) / len(want_distinct))
            if want_stored:
                recall_stored.append(len(got & set(want_stored)) / len(want_stored))
        sizes = [m.size for m in clusters.members]
        print(
            f"{name}: clusters {len(sizes)} (sizes {min(sizes)}..{max(sizes)}), probe {clusters.probe}, "
            f"probe_chunks {clusters.probe_chunks}: recall@{TOP} same codes {np.mean(recall_same):.4f} "
            f"(dup {np.mean(recall_dup):.4f}, distinct {np.mean(recall_distinct):.4f}), "
            f"stored vectors {np.mean(recall_stored):.4f} ({len(recall_same)} queries); vectors read "
            f"{np.mean(read) * 100:.1f} % (max {max(read) * 100:.1f} %); gzip centroids "
            f"{gz[CENTROIDS] / 1024:.1f} KiB + clusters = {np.mean(sent) / 1024:.1f} KiB (max {max(sent) / 1024:.1f}); "
            f"files {np.mean(fetched):.1f} (max {max(fetched)})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
