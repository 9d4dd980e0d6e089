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
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from .colours import RGB

#: where the pixel's RGB sits in its little-endian 32-bit RGBA word.
_RGB_MASK = np.uint32(0xFFFFFF)


class MapImageError(OSError):
    """The map image cannot be read (missing, not an image)."""


@dataclass
class Painted:
    """A recoloured map: its pixels, and per province its pixel count and a point in it."""

    pixels: np.ndarray  # (H, W, 4) uint8, RGBA
    counts: np.ndarray  # (n,) pixels of each province
    anchors: np.ndarray  # (n, 2) int: (x, y) of a pixel inside it; (-1, -1) if it has none


def load_pixels(path: str | Path) -> np.ndarray:
    """The image at ``path`` as (H, W, 4) RGBA bytes."""
    try:
        with Image.open(path) as image:
            return np.asarray(image.convert("RGBA")).copy()
    except FileNotFoundError:
        raise MapImageError(f"the map image {path} does not exist") from None
    except (UnidentifiedImageError, OSError) as exc:
        raise MapImageError(f"the map image {path} cannot be read as an image: {exc}") \
            from None


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
    out = pixels.copy()
    words = out.view("<u4")[..., 0]
    inside = index >= 0
    where = index[inside]
    words[inside] = _rgba(fills)[where] | np.uint32(0xFF000000)
    occupied = np.array([h is not None for h in hatches] + [False] * (count - len(hatches)),
                        dtype=bool)
    if occupied.any():
        flags = np.concatenate(([False], occupied))
        striped = flags[index + 1]
        height, width = index.shape
        diagonal = np.add.outer(np.arange(height, dtype=np.int32),
                                np.arange(width, dtype=np.int32))
        striped &= (diagonal // max(1, stripe)) % 2 == 0
        colours = _rgba([h or (0, 0, 0) for h in hatches] + [(0, 0, 0)] * (count -
                                                                             len(hatches)))
        words[striped] = colours[index[striped]] | np.uint32(0xFF000000)
    counts = np.bincount(where, minlength=count)
    return Painted(out, counts, anchors(index, counts))


def _rgba(colours: Sequence[RGB]) -> np.ndarray:
    """Colours as little-endian RGBA words with a zero alpha byte."""
    array = np.asarray(colours, dtype=np.uint32).reshape(-1, 3)
    return array[:, 0] | (array[:, 1] << 8) | (array[:, 2] << 16)


def anchors(index: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """A pixel inside each province, near its centre: its centroid when the centroid falls
    inside it, else its pixel nearest the centroid (a crescent, a ring, an archipelago)."""
    height, width = index.shape
    count = len(counts)
    flat = index.ravel()
    bins = flat.astype(np.int64) + 1
    xs = np.bincount(bins, weights=np.tile(np.arange(width, dtype=np.float64), height),
                     minlength=count + 1)[1:]
    ys = np.bincount(bins, weights=np.repeat(np.arange(height, dtype=np.float64), width),
                     minlength=count + 1)[1:]
    present = counts > 0
    out = np.full((count, 2), -1, dtype=np.int64)
    safe = np.maximum(counts, 1)
    cx = np.clip(np.round(xs / safe).astype(np.int64), 0, width - 1)
    cy = np.clip(np.round(ys / safe).astype(np.int64), 0, height - 1)
    inside = present & (index[cy, cx] == np.arange(count))
    out[inside, 0], out[inside, 1] = cx[inside], cy[inside]
    outside = present & ~inside
    if outside.any():
        wanted = np.concatenate(([False], outside))
        pixels = np.flatnonzero(wanted[bins])
        owner = flat[pixels].astype(np.int64)
        px, py = pixels % width, pixels // width
        distance = (px - cx[owner]) ** 2 + (py - cy[owner]) ** 2
        order = np.lexsort((distance, owner))
        first = np.concatenate(([True], owner[order][1:] != owner[order][:-1]))
        chosen = pixels[order][first]
        out[owner[order][first], 0] = chosen % width
        out[owner[order][first], 1] = chosen // width
    return out
