"""Recolouring the GM's province map image, vectorised with numpy.

The GM paints each province in a key colour of its own; borders, sea and labels are painted
in other colours and stay as they are. A lookup table of all 2^24 colours maps every pixel
to its province in one gather, so a 4000 x 2000 image with 3,000 provinces is indexed,
recoloured and hatched in a few numpy passes (see benchmarks/map_recolour.py), never pixel by
pixel in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .colours import RGB

#: where the pixel's RGB sits in its little-endian 32-bit RGBA word.
_RGB_MASK = np.uint32(0xFFFFFF)


@dataclass
class Painted:
    """A recoloured map: its pixels, and per province its pixel count and a point in it."""

    pixels: np.ndarray  # (H, W, 4) uint8, RGBA
    counts: np.ndarray  # (n,) pixels of each province
    anchors: np.ndarray  # (n, 2) int: (x, y) of a pixel inside it; (-1, -1) if it has none


def key_code(colour: RGB) -> int:
    """A colour as the 24-bit code a pixel of that colour has in :func:`province_index`."""
    return colour[0] | (colour[1] << 8) | (colour[2] << 16)


def province_index(pixels: np.ndarray, keys: Sequence[int]) -> np.ndarray:
    """(H, W) int array: the number of the province whose key colour each pixel has, or -1.

    ``keys`` are :func:`key_code` values, all different.
    """
    dtype = np.int16 if len(keys) < np.iinfo(np.int16).max else np.int32
    lut = np.full(1 << 24, -1, dtype=dtype)
    lut[np.asarray(keys, dtype=np.int64)] = np.arange(len(keys), dtype=dtype)
    codes = pixels.view("<u4")[..., 0] & _RGB_MASK
    return lut[codes]


def paint(pixels: np.ndarray, index: np.ndarray, fills: Sequence[RGB],
          hatches: Sequence[RGB | None] = (), stripe: int = 8) -> Painted:
    """Each province's pixels in its fill; an occupied one (``hatches[i]`` not None) striped
    with its occupier's colour. Pixels of no province are kept as they are."""
    count = len(fills)
    words = pixels.view("<u4")[..., 0]
    palette = np.zeros(count + 1, dtype=np.uint32)  # index -1 reads the last entry
    palette[:count] = _rgba(fills) | _OPAQUE
    inside = index >= 0
    out = np.where(inside, palette[index], words)
    occupied = [i for i, h in enumerate(hatches[:count]) if h is not None]
    if occupied:
        flags = np.zeros(count + 1, dtype=bool)
        flags[occupied] = True
        where = np.flatnonzero(flags[index])
        width = index.shape[1]
        band = ((where // width + where % width) // max(1, stripe)) % 2 == 0
        where = where[band]
        ink = np.zeros(count + 1, dtype=np.uint32)
        ink[occupied] = _rgba([hatches[i] for i in occupied]) | _OPAQUE  # type: ignore[misc]
        out.ravel()[where] = ink[index.ravel()[where]]
    counts = np.bincount((index.ravel() + 1).astype(np.intp), minlength=count + 1)[1:]
    return Painted(out.view(np.uint8).reshape(pixels.shape), counts, anchors(index, counts))


_OPAQUE = np.uint32(0xFF000000)


def _rgba(colours: Sequence[RGB]) -> np.ndarray:
    """Colours as little-endian RGBA words with a zero alpha byte."""
    array = np.asarray(colours, dtype=np.uint32).reshape(-1, 3)
    return array[:, 0] | (array[:, 1] << 8) | (array[:, 2] << 16)


#: the anchors are found on a grid of about this many pixels, whatever the image's size.
_SAMPLE = 500_000


def anchors(index: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """A pixel inside each province, near its centre: its centroid when the centroid falls
    inside it, else its pixel nearest the centroid (a crescent, a ring, an archipelago).

    Centroids are taken on every ``step``-th pixel of every ``step``-th row (a large image
    needs no more to place a mark); a province too small to be on that grid is found at full
    resolution.
    """
    height, width = index.shape
    count = len(counts)
    step = max(1, int(np.sqrt(height * width / _SAMPLE)))
    grid = np.ascontiguousarray(index[::step, ::step])
    rows, cols = grid.shape
    bins = (grid.ravel() + 1).astype(np.intp)
    seen = np.bincount(bins, minlength=count + 1)[1:]
    xs = np.bincount(bins, weights=np.tile(np.arange(cols, dtype=np.float64) * step, rows),
                     minlength=count + 1)[1:]
    ys = np.bincount(bins, weights=np.repeat(np.arange(rows, dtype=np.float64) * step, cols),
                     minlength=count + 1)[1:]
    out = np.full((count, 2), -1, dtype=np.int64)
    safe = np.maximum(seen, 1)
    cx = np.clip(np.round(xs / safe).astype(np.int64), 0, width - 1)
    cy = np.clip(np.round(ys / safe).astype(np.int64), 0, height - 1)
    inside = (seen > 0) & (index[cy, cx] == np.arange(count))
    out[inside, 0], out[inside, 1] = cx[inside], cy[inside]
    astray = (seen > 0) & ~inside
    if astray.any():
        _nearest(out, grid.ravel(), astray, cx, cy, cols, step)
    tiny = (counts > 0) & (seen == 0)
    if tiny.any():
        _nearest(out, index.ravel(), tiny, None, None, width, 1)
    return out


def _nearest(out: np.ndarray, flat: np.ndarray, wanted: np.ndarray, cx: np.ndarray | None,
             cy: np.ndarray | None, width: int, step: int) -> None:
    """For each wanted province, its pixel of ``flat`` (a grid of every ``step``-th pixel)
    nearest its centroid (or nearest the middle of its own pixels, when none is given)."""
    flags = np.concatenate((wanted, [False]))
    pixels = np.flatnonzero(flags[flat])
    owner = flat[pixels].astype(np.int64)
    px, py = (pixels % width) * step, (pixels // width) * step
    if cx is None or cy is None:
        total = np.bincount(owner, minlength=len(wanted))
        cx = np.bincount(owner, weights=px, minlength=len(wanted)) / np.maximum(total, 1)
        cy = np.bincount(owner, weights=py, minlength=len(wanted)) / np.maximum(total, 1)
    distance = (px - cx[owner]) ** 2 + (py - cy[owner]) ** 2
    order = np.lexsort((distance, owner))
    first = np.concatenate(([True], owner[order][1:] != owner[order][:-1]))
    chosen, whose = pixels[order][first], owner[order][first]
    out[whose, 0], out[whose, 1] = (chosen % width) * step, (chosen // width) * step
