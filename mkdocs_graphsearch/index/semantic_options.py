"""What a build asks of the semantic part of a bundle (index/semantic.py builds it).

Kept apart from semantic.py, which loads numpy and the vector code: the plugin makes these
options on every build, and a build whose bundle is the last build's (mkdocs_plugin/bundle_reuse.py)
needs no more of them than the model's fingerprint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs_graphsearch.index.embed import Embedder

__all__ = ["Progress", "SemanticOptions"]

#: (done, total, chunks per second) -> None; called at most every semantic.PROGRESS_SECONDS.
Progress = Callable[[int, int, float], None]


@dataclass
class SemanticOptions:
    embedder: Embedder
    cache_dir: Path | None
    progress: Progress | None = None
    #: Reuse the last fitted encoder even if passages changed (`mkdocs serve`: an edit must not
    #: cost a model pass over the whole site; `mkdocs build` always refits).
    reuse_encoder: bool = False
    #: The clustered vector layout (index/kmeans.py clustered_layout): None = its rule, "auto" =
    #: the rule even for a small site, a number = that many clusters (1: one vectors.bin).
    vector_clusters: int | str | None = None
    vector_probe: int | None = None
    vector_bits: int | None = None
    #: Cells grouping the clusters (two levels): None = the rule, 1 = one level.
    vector_cells: int | None = None
