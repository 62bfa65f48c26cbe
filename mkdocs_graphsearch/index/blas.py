"""One BLAS thread while a bundle is computed, and only then (index/builder.py).

OpenBLAS's spinning threads slow the encoder fit's products on a busy or small machine, and a
product summed in another order gives other bytes: the bundle must not depend on the core count.
The limit is never put in the environment (the MkDocs process is the user's), and it holds for as
long as any build in the process runs: threadpoolctl's limit is process-wide, so two builds at once
(threads) share one, set by the first to start and lifted by the last to finish.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from threadpoolctl import threadpool_limits

_LOCK = threading.Lock()
_builds = 0
_limit: threadpool_limits | None = None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS libraries limited to one thread inside the block (the outermost of overlapping blocks
    sets it, the last to leave restores what was there before)."""
    global _builds, _limit
    with _LOCK:
        if _builds == 0:
            _limit = threadpool_limits(limits=1, user_api="blas")
        _builds += 1
    try:
        yield
    finally:
        with _LOCK:
            _builds -= 1
            if _builds == 0 and _limit is not None:
                _limit.restore_original_limits()
                _limit = None
