"""Where a province's marks go on the GM's own map image: a spot inside the province, clear
of everything the GM painted there (its name, a river, a border), as near its middle as can
be.

On a key image the province is its own pixels (those of its key colour); the GM's name and
lines inside it are pixels of other colours. A box is clear when every pixel under it is the
province's: counted for every position at once with a summed-area table of the province's
pixels in a window around its middle, so each marked province costs a few numpy passes over
that window, never a loop over pixels. A province too small or too crowded for the box gets
the spot with the fewest of other pixels under it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: (left, top, right, bottom) in pixels; right and bottom excluded.
Spot = tuple[int, int, int, int]


def spots(index: np.ndarray, province: int, anchor: tuple[int, int],
          sizes: Sequence[tuple[int, int]], gap: int = 2) -> list[Spot]:
    """A clear box of each size inside ``province`` (its number in ``index``), placed in
    turn: the first nearest above the ``anchor``, the next below the first, and so on; a box
    keeps ``gap`` pixels from the other colours and from the boxes placed before it."""
    height, width = index.shape
    tall = sum(h for _, h in sizes) + gap * (len(sizes) + 1)
    wide = max(w for w, _ in sizes) + 2 * gap
    half = int(max(tall, wide) * 3)
    x, y = anchor
    left, top = max(0, x - half), max(0, y - half)
    right, bottom = min(width, x + half + 1), min(height, y + half + 1)
    free = index[top:bottom, left:right] == province
    out: list[Spot] = []
    aim = y - (tall - 2 * gap) / 2
    for w, h in sizes:
        spot = _best(free, (w + 2 * gap, h + 2 * gap), (x - left, aim - top + h / 2))
        box = (spot[0] + gap, spot[1] + gap, spot[0] + gap + w, spot[1] + gap + h)
        free[box[1]:box[3], box[0]:box[2]] = False
        out.append((box[0] + left, box[1] + top, box[2] + left, box[3] + top))
        aim += h + gap
    return out


def _best(free: np.ndarray, size: tuple[int, int], aim: tuple[float, float]
          ) -> tuple[int, int]:
    """The top-left corner of the box of ``size`` over the most free pixels (all, where it
    can), nearest ``aim`` (the box's wanted middle) among those."""
    w, h = size
    rows, cols = free.shape
    if w > cols or h > rows:
        return (max(0, int(aim[0] - w / 2)), max(0, int(aim[1] - h / 2)))
    table = np.zeros((rows + 1, cols + 1), dtype=np.int64)
    table[1:, 1:] = free.cumsum(axis=0).cumsum(axis=1)
    count = table[h:, w:] - table[:-h, w:] - table[h:, :-w] + table[:-h, :-w]
    ys, xs = np.mgrid[0:count.shape[0], 0:count.shape[1]]
    distance = (xs + w / 2 - aim[0]) ** 2 + (ys + h / 2 - aim[1]) ** 2
    most = count == count.max()
    pick = np.flatnonzero(most.ravel())[np.argmin(distance[most])]
    return (int(pick % count.shape[1]), int(pick // count.shape[1]))
