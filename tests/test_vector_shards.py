"""The clustered vector layout (bundle/vector_shards.py, index/kmeans.py): deterministic bytes,
the size rule, the codes' bit layout, the probe rule, and a query scores only the chunks of the
clusters it probes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from conftest import VECTORS, build_bundle_dir, groups_layout
from mkdocs_graphsearch.bundle.display import DISPLAY_CHUNKS, DISPLAY_PAGES, page_range
from mkdocs_graphsearch.bundle.format import (
    FORMAT_VERSION,
    MANIFEST,
    BundleError,
    checksum,
    compact_files,
    display_fragment,
    file_name,
    graph_shard,
    hashed_name,
    listed_parts,
)
from mkdocs_graphsearch.bundle.read import load_bundle, read_vectors
from mkdocs_graphsearch.bundle.vector_shards import (
    CENTROIDS,
    Clusters,
    hood_of,
    pack_codes,
    quantize_codes,
    read_centroids,
    read_table,
    row_bytes,
    table_bytes,
    unpack_codes,
    vector_shard,
)
from mkdocs_graphsearch.bundle.write import sealed_manifest
from mkdocs_graphsearch.engine.encoder import query_vector
from mkdocs_graphsearch.engine.search import search
from mkdocs_graphsearch.engine.vector import probed_clusters, probed_files, query_levels
from mkdocs_graphsearch.index import kmeans
from mkdocs_graphsearch.index.kmeans import (
    CLUSTERS_PER_READ,
    PROBE,
    PROBE_SHARE,
    SINGLE_FILE_BYTES,
    TWO_LEVEL_CLUSTERS,
    cell_rule,
    chained,
    cluster_rule,
    grouped_in_cells,
    min_reads,
    probe_rule,
    spherical_kmeans,
)

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
    assert cluster_rule(small, 128) == 1
    # one file of 4-bit codes holds 1,927 chunks (uv-docs' 1,332 too); int8 rows: 992
    assert cluster_rule(1927, 128) == 1 and cluster_rule(1928, 128) > 1 and cluster_rule(993, 128, bits=8) > 1
    # forced (tests): CLUSTERS_PER_READ clusters hold PROBE_SHARE of the chunks
    per_read = CLUSTERS_PER_READ
    assert cluster_rule(small, 128, force=True) == round(per_read * small / math.ceil(small * PROBE_SHARE)) == 248
    # k8s-docs: twenty clusters hold the 999 chunks a query reads; it reads PROBE hoods of 500
    assert cluster_rule(12486, 128) == 250
    assert probe_rule(12486, None, None) == {
        "bits": 4, "centroid_bits": 4, "reads": 999, "probe": PROBE, "probe_chunks": 0, "cell_chunks": 7992,
        "cell_probe": 10, "hood_chunks": 500,
    }
    forced = {
        "bits": 8, "centroid_bits": 4, "reads": 999, "probe": 5, "probe_chunks": 0, "cell_chunks": 12486,
        "cell_probe": 5, "hood_chunks": 500,
    }
    assert probe_rule(12486, 5, 8) == forced
    assert probe_rule(12486, None, None, min_reads(128))["reads"] == 999


def test_a_site_just_over_one_file_reads_what_one_file_holds() -> None:
    """Just over one file (uv-docs' size of int8 rows, fastapi-docs' of codes): 8 % would be
    107 chunks; a query reads as many as one file holds as int8 rows, in PROBE clusters."""
    assert min_reads(128) == SINGLE_FILE_BYTES // 132 == 992
    assert probe_rule(1332, None, None, min_reads(128))["reads"] == 992
    assert probe_rule(900, None, None, min_reads(128))["reads"] == 900
    assert probe_rule(1332, None, None)["reads"] == 107
    assert cluster_rule(2482, 128) == round(CLUSTERS_PER_READ * 2482 / 992) == 50  # fastapi-docs


def test_the_requests_of_the_vector_side_do_not_grow_with_the_site() -> None:
    """The 100k site: still PROBE hoods a query, one level (two only beyond TWO_LEVEL_CLUSTERS,
    when asked for: 2 sqrt(clusters) cells covering 8 x the chunks read)."""
    assert cluster_rule(99888, 128) == 250 and cell_rule(99888, 250) == 1
    assert cell_rule(99888, TWO_LEVEL_CLUSTERS) == 1 and cell_rule(99888, 2528) == 101
    rule = probe_rule(99888, None, None)
    assert (rule["probe"], rule["reads"], rule["cell_chunks"], rule["hood_chunks"]) == (PROBE, 7992, 63936, 3996)


def test_cells_number_the_clusters_cell_by_cell() -> None:
    """grouped_in_cells: the clusters renumbered so each cell's are consecutive, in their order."""
    centroids = np.array([[1.0, 0.0], [0.0, 1.0], [0.9, 0.1], [0.1, 0.9]])
    centroids /= np.linalg.norm(centroids, axis=1)[:, None]
    assignment = np.array([0, 1, 2, 3, 3, 0])
    grouped, renumbered, (cells, counts) = grouped_in_cells(centroids, assignment, 2)
    assert counts == [2, 2] and cells.shape == (2, 2)
    assert renumbered.tolist() == [0, 2, 1, 3, 3, 0]  # clusters 0, 2 in cell 0; 1, 3 in cell 1
    assert np.array_equal(grouped, centroids[[0, 2, 1, 3]])


#: Codes and their bytes (the bit layout of bundle/vector_shards.py; js/test/vector-shards.test.js
#: decodes the same bytes): code j is bits j*b.. of the row, little-endian, two's complement.
PACKED = [
    (4, [1, -1, 7, -7], bytes([0xF1, 0x97])),
    (6, [1, -1, 31, -32], bytes([0xC1, 0xFF, 0x81])),
    (6, [5, 0], bytes([0x05, 0x00])),  # 12 bits: the last byte's high half is padding (0)
    (8, [1, -1, 127, -127], bytes([0x01, 0xFF, 0x7F, 0x81])),  # 8: vectors.bin's int8 bytes
]


@pytest.mark.parametrize(("bits", "codes", "packed"), PACKED)
def test_codes_have_the_documented_bit_layout(bits: int, codes: list[int], packed: bytes) -> None:
    array = np.array([codes], dtype=np.int8)
    assert pack_codes(array, bits) == packed
    assert unpack_codes(packed, 1, len(codes), bits).tolist() == [codes]


#: A table by columns (format 10; js/test/vector-shards.test.js reads the same bytes): three
#: rows of two 4-bit codes [[1, -1], [7, -7], [0, 2]] with chunk numbers 5, 9, 258 and scales 1, 2,
#: 0.5: the numbers' byte planes, dimension 0's codes (1, 7, 0), dimension 1's (-1, -7, 2), the
#: scales' byte planes.
TABLE = bytes(
    [5, 9, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0]
    + [0x71, 0x00, 0x9F, 0x02]
    + [0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0x3F, 0x40, 0x3F]
)


def test_a_table_by_columns_has_the_documented_layout() -> None:
    codes = np.array([[1, -1], [7, -7], [0, 2]], dtype=np.int8)
    chunks, scales = np.array([5, 9, 258]), np.array([1.0, 2.0, 0.5])
    assert table_bytes(codes, scales, 4, chunks) == TABLE
    read_chunks, rows, read_scales = read_table("t", TABLE, 3, 2, 4, True)
    assert read_chunks is not None and read_chunks.tolist() == [5, 9, 258]
    assert rows.tolist() == codes.tolist() and read_scales.tolist() == [1.0, 2.0, 0.5]
    assert read_table("t", TABLE[12:], 3, 2, 4, False)[1].tolist() == codes.tolist()
    with pytest.raises(BundleError, match="t has 27 bytes, expected 28"):
        read_table("t", TABLE[:-1], 3, 2, 4, True)


def test_codes_round_trip_and_int8_codes_are_the_int8_rows() -> None:
    rng = np.random.default_rng(5)
    points = rng.normal(size=(40, 13))
    for bits in range(2, 9):
        codes, scales = quantize_codes(points, bits)
        levels = 2 ** (bits - 1) - 1
        assert np.abs(codes).max() == levels and scales.dtype == np.float64
        assert np.array_equal(unpack_codes(pack_codes(codes, bits), 40, 13, bits), codes)
    # Re-quantizing int8 rows (max |row| = 127) to 8 bits gives them back, scales too.
    rows, scales = quantize_codes(points, 8)
    again = quantize_codes(rows.astype(np.float64) * scales[:, None], 8)
    assert np.array_equal(again[0], rows) and np.array_equal(again[1], scales)


def test_the_probe_reads_clusters_best_first_until_both_counts_are_met() -> None:
    # Centroids along axes 0, 1, 2 (two tie on axis 1: the lower number first); sizes 5, 1, 1, 9.
    centroids = np.array([[100, 0, 0], [0, 100, 0], [0, 100, 0], [0, 0, 100]], dtype=np.int8)
    members = [np.arange(5), np.arange(5, 6), np.arange(6, 7), np.arange(7, 16)]
    query = [0.1, 0.9, 0.5]  # cosines: clusters 1 = 2 > 3 > 0
    clusters = Clusters(centroids, np.ones(4), members, probe=1)
    assert probed_clusters(clusters, query, 32767) == [1]
    clusters.probe_chunks = 2
    assert probed_clusters(clusters, query, 32767) == [1, 2]
    clusters.probe_chunks = 3  # 1 + 1 chunks: one more cluster, however big
    assert probed_clusters(clusters, query, 32767) == [1, 2, 3]
    clusters.probe, clusters.probe_chunks = 3, 0
    assert probed_clusters(clusters, query, 32767) == [1, 2, 3]
    clusters.probe_chunks = 16
    assert probed_clusters(clusters, query, 32767) == [1, 2, 3, 0]


@pytest.fixture(scope="module")
def clustered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    with groups_layout():
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


def test_chosen_clusters_are_probed_by_the_default_rule(tmp_path: Path) -> None:
    """`--vector-clusters K` without a probe: PROBE of them (all 3 here: every chunk); "auto"
    (the tests' clustered small site) makes the rule's clusters even for a site this small."""
    chosen = load_bundle(build_bundle_dir(tmp_path / "k", DOCS, embeddings=True, clusters=3))
    auto = load_bundle(build_bundle_dir(tmp_path / "auto", DOCS, embeddings=True, clusters="auto"))
    assert chosen.clusters is not None and auto.clusters is not None
    n = len(chosen.chunks["id"])
    assert chosen.clusters.probe == 3 and chosen.clusters.probe_chunks == 0  # all 3: every chunk
    assert len(auto.clusters.members) == min(n, 248) and auto.clusters.probe == min(n, PROBE)


def test_chained_numbers_the_clusters_along_their_centroids() -> None:
    """From the first cluster, each next the most similar not yet taken; cells keep their ranges."""
    angles = np.array([0, 5, 1, 4, 2, 3]) * 0.3  # centroids on an arc, numbered out of order
    centroids = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    assignment = np.array([0, 1, 2, 3, 4, 5, 5])
    rows, renumbered = chained(centroids, assignment, None)
    assert np.array_equal(rows, centroids[[0, 2, 4, 5, 3, 1]])  # along the arc
    assert renumbered.tolist() == [0, 5, 1, 4, 2, 3, 3]
    rows, renumbered = chained(centroids, assignment, [3, 3])
    assert np.array_equal(rows, centroids[[0, 2, 1, 3, 5, 4]])
    assert renumbered.tolist() == [0, 2, 1, 3, 5, 4, 4]


def _as_format_3(grouped: Path, out: Path) -> None:
    """The grouped bundle re-laid out as format 3 wrote it: one cluster a file, no `groups`, its
    codes by rows (format 10's tables read back), its display columns whole (format 6's compact
    ones read back: bundle/display.py) and its graph shards in CSR form (format 8's compact ones
    read back: bundle/graph_shards.py), graph.json and encoder.json files (format 9's manifest
    holds them), its display fragments ranges (format 10's may be grouped)."""
    manifest = json.loads((grouped / MANIFEST).read_bytes())
    bundle = load_bundle(grouped)
    clusters = manifest["vectors"]["clusters"]
    parts = {part: (grouped / file_name(manifest, part)).read_bytes() for part in listed_parts(manifest)}
    parts = {part: data for part, data in parts.items() if not part.startswith("vectors.")}
    parts.update((part, text.encode()) for part, text in manifest.pop("inline").items())  # files in format 3
    assert bundle.clusters is not None and bundle.vectors is not None and bundle.vector_scales is not None
    rows, scales = read_centroids(parts[CENTROIDS], manifest)
    parts[CENTROIDS] = pack_codes(rows, clusters["centroid_bits"]) + scales.astype("<f4").tobytes()
    for cluster, chunks in enumerate(bundle.clusters.members):
        codes = pack_codes(bundle.vectors[chunks], clusters["bits"])
        row_scales = bundle.vector_scales[chunks].astype("<f4").tobytes()
        parts[vector_shard(cluster)] = chunks.astype("<u4").tobytes() + codes + row_scales
    if "display_count" in manifest:  # format 10's grouped display fragments: one range in format 3
        parts = {part: data for part, data in parts.items() if not part.startswith("display.")}
        manifest["display_starts"] = [0]
        del manifest["display_count"]
        keyword = json.loads(parts["keyword.json"])
        del keyword["pages"]["display"]
        parts["keyword.json"] = json.dumps(keyword).encode()
    starts = manifest["display_starts"]
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else bundle.n_chunks
        first, last = page_range(bundle.chunks["page"], starts, len(bundle.pages["path"]), index)
        columns = {
            "chunks": {key: bundle.chunks[key][start:end] for key in DISPLAY_CHUNKS},
            "pages": {key: bundle.pages[key][first:last] for key in DISPLAY_PAGES},
        }
        parts[display_fragment(index)] = json.dumps(columns).encode()
    graph, starts = bundle.graph, manifest["graph_starts"]  # format 8's compact shards, as CSR
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else bundle.n_chunks
        first, last = graph["offsets"][start], graph["offsets"][end]
        shard = {"offsets": [offset - first for offset in graph["offsets"][start : end + 1]],
                 "targets": graph["targets"][first:last], "types": graph["types"][first:last]}
        parts[graph_shard(index)] = json.dumps(shard).encode()
    del clusters["groups"]
    manifest["format"], manifest["files"] = 3, compact_files({part: checksum(data) for part, data in parts.items()})
    out.mkdir()
    for part, data in parts.items():
        (out / hashed_name(part, data)).write_bytes(data)
    (out / MANIFEST).write_bytes(sealed_manifest(manifest))


def test_group_files_hold_consecutive_clusters_and_read_as_format_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default probe reads the whole small site: groups of half a query's reads hold half
    its bytes each. Read as the same clusters one a file (format 3), the vectors and every
    answer are the same."""
    monkeypatch.setattr(kmeans, "GROUPS_PER_READ", 2)
    with groups_layout():
        grouped = build_bundle_dir(tmp_path / "grouped", DOCS, embeddings=True, clusters=3)
    manifest = json.loads((grouped / MANIFEST).read_bytes())
    assert manifest["format"] == FORMAT_VERSION and manifest["vectors"]["clusters"]["groups"] == [0, 2]
    assert len(manifest["files"]["vectors.#.bin"]) == 2
    _as_format_3(grouped, tmp_path / "format-3")
    new, old = load_bundle(grouped), load_bundle(tmp_path / "format-3")
    assert old.manifest["format"] == 3 and len(old.manifest["files"]["vectors.#.bin"]) == 3
    assert np.array_equal(new.vectors, old.vectors) and np.array_equal(new.vector_scales, old.vector_scales)
    for query in ("what happens when a render fails", "retry policy", "deploy"):
        for mode in ("vector", "hybrid"):
            assert search(new, query, mode=mode, explain=True) == search(old, query, mode=mode, explain=True)


def test_a_small_site_stores_one_vectors_bin_of_codes(tmp_path: Path) -> None:
    """Below the clustered layout's size, vectors.bin holds `vectors.bits`-bit codes (format 5):
    the rows both engines score are the int8 rows re-quantized as the clustered layout does, and
    written as int8 bytes (bits 8) the same vectors read back unchanged."""
    folder = build_bundle_dir(tmp_path / "coded", DOCS, embeddings=True)
    manifest = json.loads((folder / MANIFEST).read_bytes())
    bundle = load_bundle(folder)
    n, dim = bundle.n_chunks, manifest["vectors"]["dim"]
    assert "clusters" not in manifest["vectors"] and manifest["vectors"]["bits"] == kmeans.BITS
    assert (folder / file_name(manifest, "vectors.bin")).stat().st_size == dim * row_bytes(n, kmeans.BITS) + 4 * n
    assert bundle.vectors is not None and bundle.vector_scales is not None
    assert np.abs(bundle.vectors).max() <= 2 ** (kmeans.BITS - 1) - 1
    data = pack_codes(bundle.vectors, 8) + bundle.vector_scales.astype("<f4").tobytes()
    rows, scales = read_vectors(data, n, dim, 8, columns=False)
    assert np.array_equal(rows, bundle.vectors) and np.array_equal(scales, bundle.vector_scales)


def test_a_hood_is_its_cluster_then_the_nearest_until_it_holds_enough_chunks() -> None:
    """hood_of: the centre first, then by centroid cosine (ties to the lower number), taken while
    the hood holds fewer than `chunks` chunks, the last one whole."""
    centroids = np.array([[10, 0], [7, 7], [10, 1], [0, 10], [7, 7]], dtype=np.int8)
    scales, sizes = np.ones(5), [2, 3, 1, 4, 2]
    assert hood_of(centroids, scales, sizes, 0, 1) == [0]
    assert hood_of(centroids, scales, sizes, 0, 3) == [0, 2]
    assert hood_of(centroids, scales, sizes, 0, 4) == [0, 2, 1]  # 1 before 4: a tie, the lower number
    assert hood_of(centroids, scales, sizes, 3, 7) == [3, 1] and hood_of(centroids, scales, sizes, 3, 8) == [3, 1, 4]


def test_a_query_reads_its_best_clusters_hoods_skipping_clusters_already_held() -> None:
    """probed_files: down the clusters best first, a cluster no file taken holds takes its own
    file; probed_clusters: every cluster those files hold."""
    centroids = np.array([[10, 0], [9, 3], [0, 10], [3, 9]], dtype=np.int8)
    members = [np.array([0, 1]), np.array([2, 3]), np.array([4, 5]), np.array([6, 7])]
    clusters = Clusters(centroids, np.ones(4), members, probe=1, hood_chunks=4)
    query = [1.0, 0.2]  # clusters best first: 0, 1, 3, 2
    assert probed_files(clusters, query, 32767) == [0] and probed_clusters(clusters, query, 32767) == [0, 1]
    clusters.probe = 2  # 1 is in 0's hood: the next file is 3's
    assert probed_files(clusters, query, 32767) == [0, 3]
    assert probed_clusters(clusters, query, 32767) == [0, 1, 2, 3]


def test_hood_files_hold_each_hood_and_read_as_the_same_vectors(tmp_path: Path) -> None:
    """The default layout: one file per cluster holding its hood, no groups; every chunk's row
    and scale read back as the group layout's, and a query scores the chunks of its hoods only."""
    hoods = build_bundle_dir(tmp_path / "hoods", DOCS, embeddings=True, clusters=3, probe=1)
    with groups_layout():
        grouped = build_bundle_dir(tmp_path / "grouped", DOCS, embeddings=True, clusters=3, probe=1)
    manifest = json.loads((hoods / MANIFEST).read_bytes())
    rule = manifest["vectors"]["clusters"]
    assert manifest["format"] == FORMAT_VERSION and "groups" not in rule and rule["hood_chunks"] >= 1
    new, old = load_bundle(hoods), load_bundle(grouped)
    assert new.clusters is not None and new.vectors is not None and old.vectors is not None
    assert np.array_equal(new.vectors, old.vectors) and np.array_equal(new.vector_scales, old.vector_scales)
    dim = manifest["vectors"]["dim"]
    for center in range(len(rule["sizes"])):  # one table by columns, chunk numbers first
        data = (hoods / file_name(manifest, vector_shard(center))).read_bytes()
        held = sum(rule["sizes"][c] for c in new.clusters.hood(center))
        assert len(data) == 8 * held + dim * row_bytes(held, rule["bits"])
    vector = query_vector(new, "what happens when a render fails")
    assert vector is not None
    held = probed_clusters(new.clusters, vector, query_levels(new.manifest))
    allowed = {int(chunk) for cluster in held for chunk in new.clusters.members[cluster]}
    output = search(new, "what happens when a render fails", mode="vector", explain=True)
    hits = [s["id"] for page in output["results"] for s in page["sections"] if "vector" in s["via"]]
    assert hits and all(new.chunks["id"].index(hit) in allowed for hit in hits)
