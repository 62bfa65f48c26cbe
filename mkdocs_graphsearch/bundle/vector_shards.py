"""The clustered vector layout (mirrored by js/src/vector-shards.js): a query reads the vectors
of a few clusters, not every vector of the site.

    centroids.bin     the clusters' unit centroids as vectors.bin stores passages: k int8 rows
                      of dim, then k float32 little-endian scales          -- semantic part
    vectors.<i>.bin   cluster i: its n_i chunk numbers (uint32 little-endian, rising), their
                      n_i int8 rows of dim, then their n_i float32 scales  -- when probed

The manifest's `vectors.clusters` = {"probe": p, "sizes": [n_0, .. n_k-1]} says how many
clusters a query reads and how many chunks each holds (every chunk in exactly one). A bundle
without `clusters` has one vectors.bin (one cluster: exact search over all vectors).

Query (engine/vector.py probed_clusters): cosine of the query with each centroid, exactly as with
passages (integer dot products); the `probe` best clusters, ties to the lower cluster number;
then the passages of those clusters only (every other chunk's cosine is 0). Clusters are made
at build time by index/kmeans.py (count and probe: kmeans.cluster_rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mkdocs_graphsearch.bundle.format import VECTORS, BundleError

CENTROIDS = "centroids.bin"


def vector_shard(index: int) -> str:
    """Logical name of cluster `index`'s file."""
    return f"vectors.{index}.bin"


@dataclass
class Clusters:
    """A clustered bundle's centroids (int8 rows, float64 scales), chunk numbers per cluster and probe."""

    centroids: np.ndarray
    centroid_scales: np.ndarray
    members: list[np.ndarray]
    probe: int


def pack_rows(rows: np.ndarray, scales: np.ndarray) -> bytes:
    """int8 rows, then float32 little-endian scales (vectors.bin's and centroids.bin's layout)."""
    return rows.astype(np.int8).tobytes() + scales.astype("<f4").tobytes()


def clustered_files(
    rows: np.ndarray, scales: np.ndarray, centroids: np.ndarray, assignment: np.ndarray, probe: int
) -> tuple[dict[str, bytes], dict[str, Any]]:
    """centroids.bin and one vectors.<i>.bin per cluster, and the manifest's `clusters` entry.
    `centroids` are unit float64 rows, quantized here as passages are (max|v| / 127 per row)."""
    peak = np.abs(centroids).max(axis=1)
    peak[peak == 0] = 1.0
    centroid_scales = (peak / 127.0).astype("<f4")
    centroid_rows = np.clip(np.rint(centroids / centroid_scales.astype(np.float64)[:, None]), -127, 127)
    files = {CENTROIDS: pack_rows(centroid_rows, centroid_scales)}
    sizes: list[int] = []
    for cluster in range(centroids.shape[0]):
        members = np.flatnonzero(assignment == cluster)
        sizes.append(int(members.size))
        files[vector_shard(cluster)] = members.astype("<u4").tobytes() + pack_rows(rows[members], scales[members])
    return files, {"probe": int(probe), "sizes": sizes}


def _rows(name: str, data: bytes, count: int, dim: int, offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    if len(data) != offset + count * (dim + 4):
        raise BundleError(f"{name} has {len(data)} bytes, expected {offset + count * (dim + 4)} (corrupted)")
    rows = np.frombuffer(data, dtype=np.int8, count=count * dim, offset=offset).reshape(count, dim)
    scales = np.frombuffer(data, dtype="<f4", count=count, offset=offset + count * dim).astype(np.float64)
    return rows, scales


def read_centroids(data: bytes, manifest: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """centroids.bin -> (int8 rows k x dim, float64 scales)."""
    return _rows(CENTROIDS, data, len(manifest["vectors"]["clusters"]["sizes"]), manifest["vectors"]["dim"])


def read_cluster(data: bytes, manifest: dict[str, Any], index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """vectors.<index>.bin -> (its chunk numbers, int8 rows, float64 scales), checked."""
    name = vector_shard(index)
    size = manifest["vectors"]["clusters"]["sizes"][index]
    rows, scales = _rows(name, data, size, manifest["vectors"]["dim"], offset=4 * size)
    chunks = np.frombuffer(data, dtype="<u4", count=size).astype(np.int64)
    if chunks.size and (np.any(np.diff(chunks) <= 0) or chunks[-1] >= manifest["counts"]["chunks"]):
        raise BundleError(f"{name}: its chunk numbers must rise and name chunks that exist (corrupted)")
    return chunks, rows, scales


def semantic_vector_parts(manifest: dict[str, Any]) -> tuple[str, ...]:
    """The vector files of a semantic bundle, in reading order: vectors.bin, or centroids.bin
    then each cluster's file. (Called before the shape check: a bad `clusters` gives no parts;
    the check then names it.)"""
    clusters = manifest["vectors"].get("clusters") if isinstance(manifest.get("vectors"), dict) else None
    if clusters is None:
        return (VECTORS,)
    sizes = clusters.get("sizes") if isinstance(clusters, dict) else None
    count = len(sizes) if isinstance(sizes, list) else 0
    return (CENTROIDS, *(vector_shard(i) for i in range(count)))
