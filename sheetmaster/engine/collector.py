"""The cyclic garbage collector, paused while a turn is read, resolved and written.

A turn of a big game makes millions of objects (cells, rows, orders, results, events) and no
reference cycles worth collecting: with the collector on, every 700 allocations it traverses
the young ones, and every so often all of them. Paused, a 10^5-territory workbook loads in
two thirds of the time and a 10^6-territory turn resolves in three quarters.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The collector off inside the block, then on again as the caller had it.

    Turned back on, the collector would traverse every object the block made and kept (a
    turn's events, results and tables) at the next allocation: 1.8 s after a turn of a
    million orders, and as much again a little later. So they go straight to the oldest
    generation first (``gc.freeze()`` then ``gc.unfreeze()``: two list splices, no
    traversal), unless the caller froze objects of its own, which ``unfreeze`` would release.
    Nested blocks leave the work to the outermost one.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


__all__ = ["paused"]
