"""The per-site cosine a section needs to be a result on the vector side alone.

A static query encoder turns any text into some vector: a word the site never uses still has
WordPiece pieces the site does use (`flamingo` -> `fl`, `##ami`, `##ngo`), and their mean can sit
close to some passage. How close depends on the site (its vocabulary, its passages, the PCA
basis), so a fixed number cannot separate such junk from a real semantic match on every site.
At build time we ask the site's own encoder the OFF_TOPIC texts below (everyday subjects no
documentation site is about) and take the highest cosine any of them reaches with any passage,
rounded up to CALIBRATION_STEP: a vector-only result must beat the best that off-topic text
can do here. Keyword matches are unaffected (they never need this threshold). A text whose known
pieces are all stop words (`knitting a wool scarf`: only `a`) has no vector in the engines
(engine/encoder.py `stop_pieces`), so it sets nothing here either: before that rule such texts
set the threshold on the dev set and the example site.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mkdocs_graphsearch.bundle.encoder_file import decode_encoder
from mkdocs_graphsearch.engine.encoder import StaticEncoder, encode_query
from mkdocs_graphsearch.engine.vector import cosines
from mkdocs_graphsearch.text.wordpiece import WordPiece

#: Everyday subjects, one short query each (the words a lost reader might type). Kept apart
#: from the examples the tests check (`flamingo`, `my cat is sick`), so those stay unseen.
OFF_TOPIC = (
    "banana bread recipe", "tomato soup", "orange juice", "chocolate cake", "grilled salmon",
    "football world cup", "tennis racket", "marathon training", "swimming lessons", "golf swing",
    "how tall is mount everest", "volcano eruption", "rainforest animals", "desert camel",
    "the weather in paris tomorrow", "summer holiday beach", "cheap flights to rome",
    "knitting a wool scarf", "wedding dress", "hair salon", "perfume", "lipstick",
    "pregnancy symptoms", "headache remedy", "broken leg", "dentist appointment",
    "guitar chords", "piano lessons", "opera singer", "jazz saxophone",
    "dog", "horse riding", "elephant", "penguin", "butterfly garden", "parrot",
    "chess opening", "poker", "birthday party ideas", "christmas tree",
    "grandmother", "baby names", "divorce lawyer", "poetry", "medieval castle", "pirates",
)
CALIBRATION_STEP = 0.01


def vector_only_threshold(
    quantized_rows: np.ndarray,
    scales: np.ndarray,
    encoder_files: tuple[bytes, bytes],
    wordpiece: WordPiece,
    max_query_pieces: int,
    query_levels: int,
    stop_pieces: Sequence[int] = (),
) -> float:
    """The best cosine any OFF_TOPIC query reaches with any passage, rounded up to the step.

    `quantized_rows`, `scales`: vectors.bin as the engines read it, and the manifest's
    `max_query_pieces`, `query_levels` and `stop_pieces`, so the cosines are theirs."""
    arrays = decode_encoder(*encoder_files)
    encoder = StaticEncoder(
        row_of={token: i for i, token in enumerate(arrays.tokens)},
        rows=arrays.rows,
        weights=arrays.weights,
        components=arrays.components,
        vocab_path=wordpiece.path,
        max_pieces=max_query_pieces,
        stop_pieces=frozenset(stop_pieces),
    )
    best = 0.0
    for text in OFF_TOPIC:
        vector = encode_query(encoder, wordpiece.pieces(text))
        if vector is not None:
            best = max(best, float(cosines(quantized_rows, scales, vector, query_levels).max()))
    return math.ceil(round(best / CALIBRATION_STEP, 6)) * CALIBRATION_STEP
