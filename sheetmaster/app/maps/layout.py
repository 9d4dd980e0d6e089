"""Where to draw each province when the GM has no map image: a force-directed layout
(Fruchterman-Reingold) of the map graph, deterministic, with pinned provinces held in place.

The layout must not jump from turn to turn: it depends only on the graph and the pins, never
on owners, and it starts each province from a point derived from its name (not from its row),
so adding a province or reordering the tab moves the others little. networkx's spring layout
was the obvious library, but it seeds by node order and needs scipy beyond 500 nodes; this is
the same algorithm in a few numpy lines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

import numpy as np

Point = tuple[float, float]

#: provinces laid out without pins at most; beyond, the GM pins positions or gives an image.
MAX_FREE = 2500


class TooBig(ValueError):
    """Too many provinces to lay out (they would be unreadable anyway)."""


def name_point(name: str) -> Point:
    """A point in the unit square that depends on the name alone."""
    digest = hashlib.blake2b(name.encode("utf-8"), digest_size=8).digest()
    return (int.from_bytes(digest[:4], "big") / 2**32,
            int.from_bytes(digest[4:], "big") / 2**32)


def layout(nodes: Iterable[str], edges: Iterable[tuple[str, str, float]],
           pins: Mapping[str, Point] | None = None, iterations: int | None = None
           ) -> dict[str, Point]:
    """Each node's position: pinned ones where their pins say (scaled into the unit square
    with the others), free ones placed by the forces. ``edges`` are (a, b, weight)."""
    names = sorted(set(nodes))
    pins = {n: p for n, p in (pins or {}).items() if n in set(names)}
    free_count = len(names) - len(pins)
    if free_count > MAX_FREE:
        raise TooBig(f"{free_count} provinces have no position to draw them at (at most "
                     f"{MAX_FREE} are laid out by themselves): give a map image, or pin them")
    if not names:
        return {}
    at = {n: i for i, n in enumerate(names)}
    pairs = sorted({(min(at[a], at[b]), max(at[a], at[b]), w) for a, b, w in edges
                    if a in at and b in at and a != b})
    scale, offset = _pin_frame(pins.values())
    fixed = np.zeros(len(names), dtype=bool)
    pos = np.array([name_point(n) for n in names], dtype=np.float64)
    for name, (x, y) in pins.items():
        pos[at[name]] = ((x - offset[0]) / scale, (y - offset[1]) / scale)
        fixed[at[name]] = True
    if pairs and pins:
        _start_near_pinned_neighbours(pos, fixed, pairs)
    start = pos.copy()
    if not fixed.all():
        _relax(pos, fixed, pairs, iterations)
    if not pins:
        pos = _normalised(_turned_towards(pos, start))
    return {n: (float(pos[i, 0]), float(pos[i, 1])) for n, i in at.items()}


def _pin_frame(pins: Iterable[Point]) -> tuple[float, tuple[float, float]]:
    """Scale and offset that put the pins into the unit square, aspect kept."""
    points = np.array(list(pins), dtype=np.float64).reshape(-1, 2)
    if len(points) == 0:
        return 1.0, (0.0, 0.0)
    low, high = points.min(axis=0), points.max(axis=0)
    span = float((high - low).max())
    return (span if span > 0 else 1.0), (float(low[0]), float(low[1]))


def _start_near_pinned_neighbours(pos: np.ndarray, fixed: np.ndarray,
                                  pairs: list[tuple[int, int, float]]) -> None:
    """A free node with pinned neighbours starts at their middle (plus its own jitter)."""
    total = np.zeros_like(pos)
    seen = np.zeros(len(pos))
    for a, b, _ in pairs:
        if fixed[a] and not fixed[b]:
            total[b] += pos[a]
            seen[b] += 1
        if fixed[b] and not fixed[a]:
            total[a] += pos[b]
            seen[a] += 1
    near = seen > 0
    pos[near] = total[near] / seen[near, None] + (pos[near] - 0.5) * 0.1


def _relax(pos: np.ndarray, fixed: np.ndarray, pairs: list[tuple[int, int, float]],
           iterations: int | None) -> None:
    """Fruchterman-Reingold: all nodes repel, edges attract, a weak pull to the middle keeps
    islands near each other; the step shrinks each round. Pinned nodes do not move."""
    n = len(pos)
    if iterations is None:
        iterations = 300 if n <= 200 else max(60, 300 * 200 // n)
    k = 1.0 / np.sqrt(n)
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    w = np.array([p[2] for p in pairs], dtype=np.float64)
    centre = pos[fixed].mean(axis=0) if fixed.any() else np.array([0.5, 0.5])
    free = ~fixed
    for step in range(iterations):
        temperature = 0.1 * (1 - step / iterations) + 1e-3
        delta = pos[:, None, :] - pos[None, :, :]
        distance = np.sqrt((delta ** 2).sum(axis=-1))
        np.fill_diagonal(distance, 1.0)
        distance = np.maximum(distance, 1e-3)
        force = (delta * (k * k / distance ** 2)[..., None]).sum(axis=1)
        if len(a):
            edge = pos[a] - pos[b]
            length = np.maximum(np.sqrt((edge ** 2).sum(axis=-1)), 1e-3)
            pull = edge * (length * w / k)[:, None]
            np.subtract.at(force, a, pull)
            np.add.at(force, b, pull)
        force += (centre - pos) * (0.05 * k * n ** 0.5)
        size = np.maximum(np.sqrt((force ** 2).sum(axis=-1)), 1e-9)
        move = force * (np.minimum(size, temperature) / size)[:, None]
        pos[free] += move[free]
        # Rounded every step: machines whose float sums differ in the last bit (SIMD widths)
        # still settle on the very same layout.
        np.round(pos, 9, out=pos)


def _turned_towards(pos: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The layout turned (or mirrored) about its middle to best match where each node
    started: the forces settle the shape, this keeps its orientation from turn to turn even
    when a province is added (the starts depend on names alone)."""
    moved, began = pos - pos.mean(axis=0), start - start.mean(axis=0)
    u, _, vt = np.linalg.svd(moved.T @ began)
    return moved @ (u @ vt)


def _normalised(pos: np.ndarray) -> np.ndarray:
    low, high = pos.min(axis=0), pos.max(axis=0)
    span = float((high - low).max())
    return (pos - low) / (span if span > 0 else 1.0)
