"""One BLAS thread while a bundle is computed, and only then (index/builder.py).

OpenBLAS's spinning threads slow the encoder fit's products on a busy or small machine, and a
product summed in another order gives other bytes: the bundle must not depend on the core count.
The limit is never put in the environment (the MkDocs process is the user's). threadpoolctl's
limit is process-wide, and OpenBLAS limited at run time still gives other bytes when two threads
call it at once, so the builds of one process compute one at a time (two builds in threads share a
cache folder in the tests; MkDocs itself builds one site at a time).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from threadpoolctl import threadpool_limits

_ONE_BUILD = threading.Lock()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS libraries limited to one thread inside the block, one block of the process at a time;
    the limits that were there before are restored when it ends."""
    with _ONE_BUILD, threadpool_limits(limits=1, user_api="blas"):
        yield
