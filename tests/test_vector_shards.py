"""The clustered vector layout (bundle/vector_shards.py, index/kmeans.py): deterministic bytes,
the size rule, and a query scores only the chunks of the clusters it probes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import VECTORS, build_bundle_dir
from mkdocs_graphsearch.bundle.read import load_bundle
from mkdocs_graphsearch.engine.encoder import query_vector
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.engine.vector import probed_clusters, query_levels
from mkdocs_graphsearch.index.kmeans import SINGLE_FILE_BYTES, cluster_rule, spherical_kmeans

DOCS = VECTORS / "engine" / "docs"


def test_same_docs_give_byte_identical_clustered_bundles(tmp_path: Path) -> None:
    first = build_bundle_dir(tmp_path / "a", DOCS, embeddings=True, clusters=3, probe=1)
    second = build_bundle_dir(tmp_path / "b", DOCS, embeddings=True, clusters=3, probe=1)
    names = sorted(p.name for p in first.iterdir())
    assert any(name.startswith("vectors.2.") for name in names) and "centroids" in " ".join(names)
    assert names == sorted(p.name for p in second.iterdir())
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_kmeans_is_deterministic_and_breaks_ties_to_the_lower_cluster() -> None:
    rng = np.random.default_rng(3)
    points = rng.normal(size=(200, 16))
    points /= np.linalg.norm(points, axis=1)[:, None]
    a, b = spherical_kmeans(points, 12), spherical_kmeans(points.copy(), 12)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    # Two identical points as seeds: every row ties between clusters 0 and 1 -> all in 0.
    same = np.tile(points[:1], (4, 1))
    centroids, assignment = spherical_kmeans(same, 2)
    assert centroids.shape[0] == 1 and assignment.tolist() == [0, 0, 0, 0]


def test_small_sites_stay_one_file_unless_forced() -> None:
    small = SINGLE_FILE_BYTES // (128 + 4)
    assert cluster_rule(small, 128) == (1, 1)
    assert cluster_rule(small, 128, force=True) == (round(4 * small**0.5), -(-round(4 * small**0.5) // 5))
    assert cluster_rule(12486, 128) == (447, 90)  # k8s-docs: docs/format3-status.md


@pytest.fixture(scope="module")
def clustered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundle_dir(tmp_path_factory.mktemp("clustered"), DOCS, embeddings=True, clusters=3, probe=1)


def test_a_query_scores_only_the_probed_clusters(clustered: Path) -> None:
    bundle = load_bundle(clustered)
    assert bundle.clusters is not None and bundle.vectors is not None
    query = "what happens when a render fails"
    vector = query_vector(bundle, query)
    assert vector is not None
    [probed] = probed_clusters(bundle.clusters, vector, query_levels(bundle.manifest))
    members = set(bundle.clusters.members[probed].tolist())
    output = search(bundle, query, mode="vector", explain=True)
    hits = [s["id"] for page in output["results"] for s in page["sections"] if "vector" in s["via"]]
    assert hits and all(bundle.chunks["id"].index(hit) in members for hit in hits)
    # Probing every cluster is exact search: the frozen bundle's answer on the same data.
    bundle.clusters.probe = len(bundle.clusters.members)
    everything = search(bundle, query, mode="vector", explain=True)
    bundle.clusters = None
    assert everything == search(bundle, query, mode="vector", explain=True)
