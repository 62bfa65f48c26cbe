"""Garbage collection kept off the objects that are alive when the plugin's heavy work starts.

Why: a full collection walks every object that lives through a few younger ones, and once the
model starts (numpy, onnxruntime) and the bundle is built, the process holds many more of them
than a plain MkDocs build: those walks cost an edit build a large share of what it adds. Objects
frozen (`gc.freeze`) are skipped by every collection; collections still run for what is made
after, so garbage made meanwhile is still freed.

In that phase the youngest generation is also collected less often (`YOUNG_THRESHOLD` new
objects rather than Python's 700): building a bundle makes many short-lived objects that
reference counting frees anyway, and a collection every few hundred of them was a good part of
what garbage collection cost an edit build. Garbage in cycles is still collected, a little later.

Only in the plugin's own phase: `release` (at the end of on_post_build, and on a failed build)
unfreezes them and puts the thresholds back, so the MkDocs process is left as it was. Nothing is
frozen when something else froze objects before (`gc.get_freeze_count`): unfreezing would
release theirs too.
"""

from __future__ import annotations

import gc

#: New objects between two collections of the youngest generation while held.
YOUNG_THRESHOLD = 10_000


class GcHold:
    """Freezes the objects alive at each `hold` until `release`, and collects less often meanwhile."""

    def __init__(self) -> None:
        self.held = False
        self.thresholds: tuple[int, int, int] | None = None  # what `release` puts back

    def hold(self) -> None:
        if self.held or gc.get_freeze_count() == 0:
            gc.freeze()  # cumulative: a second hold adds what was made since the first
            self.held = True
        if self.thresholds is None:
            self.thresholds = young, *older = gc.get_threshold()
            if young:  # 0: collection is off, left so
                gc.set_threshold(max(young, YOUNG_THRESHOLD), *older)

    def release(self) -> None:
        if self.held:
            gc.unfreeze()
            self.held = False
        if self.thresholds is not None:
            gc.set_threshold(*self.thresholds)
            self.thresholds = None
