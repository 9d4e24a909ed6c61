"""The server's garbage collector, kept from stalling the event loop.

CPython's full collection walks every object the collector tracks, and a server holds
many that live long: the games, the tables in play, and each open websocket (about 180
objects apiece, most of them the coroutines of the ASGI stack it waits in). With 1 000
spectators connected one full pass took over 100 ms of CPU here, and it comes whenever
the objects that survived since the last one reach a quarter of those that did — every
few seconds under load — stalling every table's moves for that long.

So the long-lived objects are moved out of the collector's way (``gc.freeze``) every
``FREEZE_EVERY`` seconds, and after every ``FREEZE_AFTER`` connections opened, after a
pass over the young generations: the passes that come then walk only what is new. A
frozen object is still freed when nothing refers to it (reference counting); only
garbage in reference cycles waits, until the full collection made every ``FULL_EVERY``
seconds (one pause of that length then, instead of one every few seconds). Measured: a
thousand websockets opened, frozen and closed left 216 objects in cycles.

Every pass is timed (``gc.callbacks``) for ``/api/stats``.
"""

from __future__ import annotations

import gc
import time
from typing import Any

#: seconds between two freezes of what survived (a pass over the young objects first)
FREEZE_EVERY = 5.0
#: seconds between two full collections (everything unfrozen, collected, frozen again)
FULL_EVERY = 600.0
#: connections opened that make the next freeze come at once (a crowd arriving)
FREEZE_AFTER = 100


class Collector:
    """Freezes the survivors now and then, collects in full rarely, times every pass."""

    def __init__(self, freeze_every: float = FREEZE_EVERY,
                 full_every: float = FULL_EVERY) -> None:
        self.freeze_every = freeze_every
        self.full_every = full_every
        self._frozen_at = self._full_at = time.monotonic()
        self._began = 0.0
        #: per generation: passes, their milliseconds in all, the longest
        self.passes = [0, 0, 0]
        self.total_ms = [0.0, 0.0, 0.0]
        self.longest_ms = [0.0, 0.0, 0.0]
        self.freezes = 0
        self.full = 0
        self._opened = 0

    def start(self) -> None:
        """Everything loaded so far lives as long as the server: collect once, freeze,
        and time the passes from now on."""
        gc.collect()
        gc.freeze()
        self._frozen_at = self._full_at = time.monotonic()
        if self._timed not in gc.callbacks:
            gc.callbacks.append(self._timed)

    def stop(self) -> None:
        if self._timed in gc.callbacks:
            gc.callbacks.remove(self._timed)

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        gen = info["generation"]
        ms = (time.perf_counter() - self._began) * 1000
        self.passes[gen] += 1
        self.total_ms[gen] += ms
        self.longest_ms[gen] = max(self.longest_ms[gen], ms)

    def opened(self) -> None:
        """A connection was opened: a crowd arriving is frozen as it comes, before the
        survivors it leaves make the next full pass a long one."""
        self._opened += 1
        if self._opened >= FREEZE_AFTER:
            self._freeze(time.monotonic())

    def _freeze(self, now: float) -> None:
        self._frozen_at = now
        self._opened = 0
        self.freezes += 1
        gc.collect(1)
        gc.freeze()

    def tick(self, now: float) -> None:
        """Called by the server's ticker."""
        if now - self._full_at >= self.full_every:
            self._full_at = self._frozen_at = now
            self.full += 1
            gc.unfreeze()
            gc.collect()
            gc.freeze()
        elif now - self._frozen_at >= self.freeze_every:
            self._freeze(now)

    def stats(self) -> dict[str, Any]:
        return {"passes": list(self.passes),
                "ms": [round(t, 1) for t in self.total_ms],
                "longest_ms": [round(t, 1) for t in self.longest_ms],
                "freezes": self.freezes, "full_collections": self.full,
                "frozen": gc.get_freeze_count()}
