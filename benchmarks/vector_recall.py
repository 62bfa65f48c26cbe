"""Recall@10 of the clustered (approximate) vector search against exact search, and the gzip
bytes of the vector files a query reads.

    .venv/bin/python benchmarks/vector_recall.py BUNDLE QUERIES.jsonl [--clusters K ...]
        [--probe P ... | --probe-share S ...] [--bits B]

The vector ranking is the engine's (engine/search.py, vector mode without graph): cosines at or
above `vector_threshold`, best first, ties by chunk. Approximate = only the chunks of the probed
clusters (engine/vector.py probed_clusters). The clusters are the bundle's own (a clustered
bundle), or made here from its vectors by index/kmeans.py with each --clusters K, each probe
rule (--probe P: P clusters; --probe-share S: the best clusters until S of the chunks are read;
default kmeans.probe_rule) and --bits B codes (default kmeans.BITS), so one unclustered bundle
measures many layouts. Recall@10 = mean over queries with an exact top 10 of |approx top 10 &
exact top 10| / |exact top 10|, against two exact searches: over the same codes ("same") and
over the bundle's stored vectors ("stored": today's int8 rows for an unclustered bundle). Bytes:
gzip -9 of centroids.bin plus the probed clusters' files, mean and max over the queries.
"""

from __future__ import annotations

import argparse
import gzip
import math
import sys
from pathlib import Path

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.read import load_bundle, read_file
from mkdocs_graphsearch.bundle.vector_shards import (
    CENTROIDS,
    Clusters,
    clustered_files,
    read_centroids,
    read_cluster,
    vector_shard,
)
from mkdocs_graphsearch.engine.encoder import query_vector
from mkdocs_graphsearch.engine.filters import parse_query
from mkdocs_graphsearch.engine.keyword import completed_query, keyword_scores
from mkdocs_graphsearch.engine.results import rank_chunks
from mkdocs_graphsearch.engine.vector import cosines, probed_clusters, query_levels
from mkdocs_graphsearch.index.kmeans import probe_rule, spherical_kmeans, unit_rows

TOP = 10


def made_layout(
    rows: np.ndarray, scales: np.ndarray, count: int, rule: dict[str, int]
) -> tuple[Clusters, np.ndarray, np.ndarray, dict[str, bytes]]:
    """Clusters as the build makes them: (clusters, every chunk's decoded codes and scales, files)."""
    n, dim = rows.shape
    centroids, assignment = spherical_kmeans(unit_rows(rows, scales), count)
    rule = {**rule, "probe": min(rule["probe"], centroids.shape[0])}
    files, entry = clustered_files(rows.astype(np.float64) * scales[:, None], centroids, assignment, rule)
    manifest = {"vectors": {"dim": dim, "clusters": entry}, "counts": {"chunks": n}}
    c_rows, c_scales = read_centroids(files[CENTROIDS], manifest)
    codes, code_scales = np.zeros_like(rows), np.zeros_like(scales)
    members = []
    for i in range(len(entry["sizes"])):
        chunks, cluster_rows, cluster_scales = read_cluster(files[vector_shard(i)], manifest, i)
        codes[chunks], code_scales[chunks] = cluster_rows, cluster_scales
        members.append(chunks)
    return Clusters(c_rows, c_scales, members, entry["probe"], entry["probe_chunks"]), codes, code_scales, files


def top(bundle_threshold: float, cos: np.ndarray) -> list[int]:
    cos = cos.copy()
    cos[cos < bundle_threshold] = 0.0
    return rank_chunks(cos)[:TOP]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("queries")
    parser.add_argument("--clusters", type=int, nargs="*", default=[], help="re-cluster with each K")
    parser.add_argument("--probe", type=int, nargs="*", default=[], help="probe counts to try")
    parser.add_argument("--probe-share", type=float, nargs="*", default=[], help="shares of the chunks to read")
    parser.add_argument("--bits", type=int, default=None, help="code bits when re-clustering")
    args = parser.parse_args()
    bundle = load_bundle(Path(args.bundle))
    if bundle.vectors is None or bundle.vector_scales is None:
        print("the bundle has no vectors", file=sys.stderr)
        return 1
    levels = query_levels(bundle.manifest)
    threshold = bundle.settings["vector_threshold"]
    queries = [orjson.loads(line)["query"] for line in Path(args.queries).read_bytes().splitlines() if line.strip()]
    vectors = []
    for query in queries:
        searched = parse_query(query).text
        vector = query_vector(bundle, completed_query(bundle, searched, keyword_scores(bundle, searched)))
        if vector is not None:
            vectors.append(vector)
    n = bundle.n_chunks
    stored = [top(threshold, cosines(bundle.vectors, bundle.vector_scales, v, levels)) for v in vectors]
    layouts: list[tuple[str, Clusters, np.ndarray, np.ndarray, dict[str, bytes]]] = []
    if bundle.clusters is not None:
        rule = bundle.manifest["vectors"]["clusters"]
        files = {CENTROIDS: read_file(bundle.path, bundle.manifest, CENTROIDS)}
        for i in range(len(bundle.clusters.members)):
            files[vector_shard(i)] = read_file(bundle.path, bundle.manifest, vector_shard(i))
        name = f"bundle's own, bits {rule['bits']}"
        layouts.append((name, bundle.clusters, bundle.vectors, bundle.vector_scales, files))
    rules = [probe_rule(n, probe, args.bits) for probe in args.probe]
    rules += [{**probe_rule(n, None, args.bits), "probe_chunks": math.ceil(n * s)} for s in args.probe_share]
    for count in args.clusters:
        for rule in rules or [probe_rule(n, None, args.bits)]:
            made = made_layout(bundle.vectors, bundle.vector_scales, count, rule)
            name = f"bits {rule['bits']}, centroid bits {rule['centroid_bits']}"
            layouts.append((name, *made))
    print(f"{bundle.path}: {n} chunks, {len(vectors)} of {len(queries)} queries have a vector")
    for name, clusters, codes, code_scales, files in layouts:
        gz = {part: len(gzip.compress(data, 9, mtime=0)) for part, data in files.items()}
        recall_same, recall_stored, read, sent = [], [], [], []
        for vector, want_stored in zip(vectors, stored, strict=True):
            cos = cosines(codes, code_scales, vector, levels)
            want = top(threshold, cos)
            probed = probed_clusters(clusters, vector, levels)
            mask = np.zeros(n, dtype=bool)
            for cluster in probed:
                mask[clusters.members[cluster]] = True
            read.append(mask.sum() / n)
            sent.append(gz[CENTROIDS] + sum(gz[vector_shard(c)] for c in probed))
            got = set(top(threshold, np.where(mask, cos, 0.0)))
            if want:
                recall_same.append(len(got & set(want)) / len(want))
            if want_stored:
                recall_stored.append(len(got & set(want_stored)) / len(want_stored))
        sizes = [m.size for m in clusters.members]
        print(
            f"{name}: clusters {len(sizes)} (sizes {min(sizes)}..{max(sizes)}), probe {clusters.probe}, "
            f"probe_chunks {clusters.probe_chunks}: recall@{TOP} same codes {np.mean(recall_same):.4f}, "
            f"stored vectors {np.mean(recall_stored):.4f} ({len(recall_same)} queries); vectors read "
            f"{np.mean(read) * 100:.1f} % (max {max(read) * 100:.1f} %); gzip centroids "
            f"{gz[CENTROIDS] / 1024:.1f} KiB + clusters = {np.mean(sent) / 1024:.1f} KiB (max {max(sent) / 1024:.1f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
