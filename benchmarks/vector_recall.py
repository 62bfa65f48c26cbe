"""Recall@10 of the clustered (approximate) vector search against exact search over all vectors.

    .venv/bin/python benchmarks/vector_recall.py BUNDLE QUERIES.jsonl [--clusters K --probe P ...]

The vector ranking is the engine's (engine/search.py, vector mode without graph): cosines at or
above `vector_threshold`, best first, ties by chunk. Exact = every vector; approximate = only the
chunks of the probed clusters (engine/vector.py probed_mask). The clusters are the bundle's own
(a clustered bundle), or made here from its vectors by index/kmeans.py with each --clusters K
(and --probe P, default kmeans.probe_for(K)), so one unclustered bundle measures many layouts.
Recall@10 = mean over queries with an exact top 10 of |approx top 10 & exact top 10| / |exact
top 10|. Also prints the share of the vector bytes a query reads (the probed clusters' sizes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import orjson

from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.bundle.vector_shards import Clusters
from mkdocs_graphsearch.engine.encoder import query_vector
from mkdocs_graphsearch.engine.filters import parse_query
from mkdocs_graphsearch.engine.keyword import completed_query, keyword_scores
from mkdocs_graphsearch.engine.results import rank_chunks
from mkdocs_graphsearch.engine.vector import cosines, probed_clusters, query_levels
from mkdocs_graphsearch.index.kmeans import probe_for, spherical_kmeans, unit_rows

TOP = 10


def made_clusters(rows: np.ndarray, scales: np.ndarray, count: int, probe: int | None) -> Clusters:
    """Clusters as the build makes them (the quantized centroids included)."""
    from mkdocs_graphsearch.bundle.vector_shards import CENTROIDS, clustered_files, read_centroids

    centroids, assignment = spherical_kmeans(unit_rows(rows, scales), count)
    k = centroids.shape[0]
    files, entry = clustered_files(rows, scales, centroids, assignment, min(probe or probe_for(k), k))
    manifest = {"vectors": {"dim": rows.shape[1], "clusters": entry}}
    c_rows, c_scales = read_centroids(files[CENTROIDS], manifest)
    members = [np.flatnonzero(assignment == i) for i in range(k)]
    return Clusters(c_rows, c_scales, members, entry["probe"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("queries")
    parser.add_argument("--clusters", type=int, nargs="*", default=[], help="re-cluster with each K")
    parser.add_argument("--probe", type=int, nargs="*", default=[], help="probe counts to try (default: the rule)")
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
    exact = []
    for vector in vectors:
        cos = cosines(bundle.vectors, bundle.vector_scales, vector, levels)
        cos[cos < threshold] = 0.0
        exact.append(cos)
    layouts: list[Clusters] = []
    if bundle.clusters is not None:
        layouts.append(bundle.clusters)
    for count in args.clusters:
        for probe in args.probe or [None]:
            layouts.append(made_clusters(bundle.vectors, bundle.vector_scales, count, probe))
    n = bundle.n_chunks
    print(f"{bundle.path}: {n} chunks, {len(vectors)} of {len(queries)} queries have a vector")
    for clusters in layouts:
        recalls, read = [], []
        for vector, cos in zip(vectors, exact, strict=True):
            want = rank_chunks(cos)[:TOP]
            probed = probed_clusters(clusters, vector, levels)
            mask = np.zeros(n, dtype=bool)
            for cluster in probed:
                mask[clusters.members[cluster]] = True
            read.append(mask.sum() / n)
            if want:
                got = rank_chunks(np.where(mask, cos, 0.0))[:TOP]
                recalls.append(len(set(got) & set(want)) / len(want))
        sizes = [m.size for m in clusters.members]
        print(
            f"clusters {len(sizes)} (sizes {min(sizes)}..{max(sizes)}), probe {clusters.probe}: "
            f"recall@{TOP} {np.mean(recalls):.4f} (min {min(recalls):.2f}, {len(recalls)} queries), "
            f"vectors read {np.mean(read) * 100:.1f} % (max {max(read) * 100:.1f} %)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
