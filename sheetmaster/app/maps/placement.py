"""Placing names and marks on the map drawn from the borders where nothing else is.

Each thing to place (a province's name, a sea's name, a province's unit badges) comes with
its size and candidate positions, best first. A candidate is dropped when it leaves the
picture or meets an obstacle (a province's disc, a mark already drawn); among those left,
one that crosses fewer lines (borders) comes first. Things are placed most constrained
first, each at its best candidate left, and every other candidate that would overlap it is
dropped: no two placed boxes overlap, and none meets an obstacle. A thing with no candidate
left is reported, not drawn on top of another (the caller gives the map more room).

This is the classic candidate-position method of map labelling (point-feature label
placement) with a greedy choice; the geometry and its spatial index are shapely's (GEOS):
boxes against discs and lines, and an R-tree (``STRtree``) so each candidate is compared
with its neighbours only, never with every other box of a map of thousands of provinces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import STRtree

Point = tuple[float, float]
#: (left, top, right, bottom) in pixels.
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Wanted:
    """Something to place: a key naming it, its size, and where its centre may go."""

    key: str
    size: tuple[float, float]
    #: candidate centres, the best first.
    centres: Sequence[Point]
    #: the obstacle (its number) this thing may overlap: a badge on its own disc's rim.
    own: int = -1
    #: a cost per candidate, added to the lines it crosses (e.g. a name nearer another
    #: province than its own); none: no cost.
    costs: Sequence[float] = ()


def box_at(centre: Point, size: tuple[float, float]) -> Box:
    """The box of ``size`` (width, height) centred on ``centre``."""
    (x, y), (w, h) = centre, size
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def place(wanted: Sequence[Wanted], bounds: Box, obstacles: Sequence[shapely.Geometry] = (),
          lines: Sequence[shapely.Geometry] = (), gap: float = 2.0) -> dict[str, Box | None]:
    """Each wanted thing's box, or None where every candidate was taken or blocked.

    ``obstacles`` are never overlapped; ``lines`` may be crossed, the fewer the better;
    placed boxes keep ``gap`` pixels from each other and from the obstacles.
    """
    owner, boxes, rank, cost = _candidates(wanted)
    grown = _grown(boxes, gap / 2)
    left, top, right, bottom = bounds
    alive = ((boxes[:, 0] >= left) & (boxes[:, 1] >= top) & (boxes[:, 2] <= right)
             & (boxes[:, 3] <= bottom))
    if len(obstacles) and len(boxes):
        hit, what = STRtree(list(obstacles)).query(_grown(boxes, gap), predicate="intersects")
        own = np.array([w.own for w in wanted], dtype=np.int64)
        alive[hit[what != own[owner[hit]]]] = False
    if len(lines) and len(boxes):
        cost += np.bincount(STRtree(list(lines)).query(grown, predicate="intersects")[0],
                            minlength=len(boxes))
    choices = _choices(len(wanted), owner, alive, cost, rank)
    return _greedy(wanted, choices, boxes, grown, alive)


def _grown(boxes: np.ndarray, by: float) -> np.ndarray:
    """The boxes as shapely polygons, ``by`` pixels larger on every side."""
    return shapely.box(boxes[:, 0] - by, boxes[:, 1] - by, boxes[:, 2] + by, boxes[:, 3] + by)


def _candidates(wanted: Sequence[Wanted]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every candidate box of every wanted thing: its owner's number, the box, its rank and
    its own cost."""
    counts = [len(w.centres) for w in wanted]
    owner = np.repeat(np.arange(len(wanted), dtype=np.int64), counts)
    rank = np.concatenate([np.arange(n, dtype=np.int64) for n in counts] or [np.zeros(0, int)])
    centres = np.concatenate([np.asarray(w.centres, dtype=np.float64).reshape(-1, 2)
                              for w in wanted] or [np.zeros((0, 2))])
    half = np.repeat(np.asarray([w.size for w in wanted], dtype=np.float64).reshape(-1, 2),
                     counts, axis=0) / 2
    boxes = np.concatenate((centres - half, centres + half), axis=1)
    cost = np.concatenate([np.asarray(w.costs or np.zeros(n), dtype=np.float64)
                           for w, n in zip(wanted, counts)] or [np.zeros(0)])
    return owner, boxes, rank, cost


def _choices(count: int, owner: np.ndarray, alive: np.ndarray, cost: np.ndarray,
             rank: np.ndarray) -> list[np.ndarray]:
    """Each thing's usable candidates, the cheapest first (lines crossed and its own
    cost), then by preference."""
    usable = np.flatnonzero(alive)
    order = usable[np.lexsort((rank[usable], cost[usable], owner[usable]))]
    split = np.searchsorted(owner[order], np.arange(count + 1))
    return [order[split[i]:split[i + 1]] for i in range(count)]


def _greedy(wanted: Sequence[Wanted], choices: list[np.ndarray], boxes: np.ndarray,
            grown: np.ndarray, alive: np.ndarray) -> dict[str, Box | None]:
    """The most constrained thing first (fewest usable candidates; then by key), each at its
    best candidate still free; every candidate its box overlaps is dropped."""
    usable = np.flatnonzero(alive)
    tree = STRtree(grown[usable]) if len(usable) else None
    out: dict[str, Box | None] = {}
    for i in sorted(range(len(wanted)), key=lambda i: (len(choices[i]), wanted[i].key)):
        free = choices[i][alive[choices[i]]]
        if not len(free):
            out[wanted[i].key] = None
            continue
        best = int(free[0])
        out[wanted[i].key] = tuple(float(v) for v in boxes[best])  # type: ignore[assignment]
        if tree is not None:
            alive[usable[tree.query(grown[best], predicate="intersects")]] = False
    return out


def overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
