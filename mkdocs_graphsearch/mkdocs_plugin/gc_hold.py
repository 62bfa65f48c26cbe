"""Garbage collection kept off the objects that are alive when the plugin's heavy work starts.

Why: a full collection walks every object that lives through a few younger ones, and once the
model starts (numpy, onnxruntime) and the bundle is built, the process holds many more of them
than a plain MkDocs build: those walks cost an edit build a large share of what it adds. Objects
frozen (`gc.freeze`) are skipped by every collection; collections still run for what is made
after, so garbage made meanwhile is still freed.

Only in the plugin's own phase: `release` (at the end of on_post_build, and on a failed build)
unfreezes them, so the MkDocs process is left as it was. Nothing is frozen when something else
froze objects before (`gc.get_freeze_count`): unfreezing would release theirs too.
"""

from __future__ import annotations

import gc


class GcHold:
    """Freezes the objects alive at each `hold` until `release`."""

    def __init__(self) -> None:
        self.held = False

    def hold(self) -> None:
        if self.held or gc.get_freeze_count() == 0:
            gc.freeze()  # cumulative: a second hold adds what was made since the first
            self.held = True

    def release(self) -> None:
        if self.held:
            gc.unfreeze()
            self.held = False
