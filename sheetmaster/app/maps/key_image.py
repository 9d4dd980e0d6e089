"""The GM's key image, read within sheetmaster's pixel budget.

Recolouring holds several arrays of the image's size at once (its RGBA pixels, their colour
codes, the province index, the recoloured words, the picture drawn from them). Measured with
benchmarks/map_recolour.py's maps, it costs about 21 bytes of memory per pixel and 0.05 s of
CPU time per megapixel: the cost grows with the pixels, not with the file (a PNG of one
colour may be a few kilobytes and decode to gigabytes). So an image's size is read from its
header and checked against :data:`PIXEL_BUDGET` before a single pixel is decoded; Pillow's
own decompression-bomb guard (``DecompressionBombError``, and its warning, made an error
here) refuses what is far beyond it as the same error.
"""

from __future__ import annotations

import struct
import warnings
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

#: the most pixels a map image may have: 50 megapixels (10,000 x 5,000, say). Recolouring
#: costs about 21 bytes of memory per pixel (measured: 1.0 GB and 2.5 s of CPU time for a
#: 10,000 x 5,000 map of 3,000 provinces), so a map at the budget fits a CI runner easily.
PIXEL_BUDGET = 50_000_000

#: what Pillow raises for a damaged file, besides OSError (a truncated file, a bad chunk).
_DAMAGED = (OSError, ValueError, SyntaxError, EOFError, struct.error, zlib.error)


class MapImageError(ValueError):
    """The map image cannot be used: missing, not an image, damaged, or over the budget."""


def check_key_image(path: str | Path, budget: int | None = None) -> tuple[int, int]:
    """The image's (width, height), read from its header; its file's structure is checked
    (a truncated or damaged PNG) without decoding its pixels. Raises MapImageError."""
    with _opened(path, budget) as image:
        size = image.size
        try:
            image.verify()
        except _DAMAGED as exc:
            raise _damaged(path, exc) from None
    return size


def load_pixels(path: str | Path, budget: int | None = None) -> np.ndarray:
    """The image at ``path`` as (H, W, 4) RGBA bytes; raises MapImageError."""
    with _opened(path, budget) as image:
        try:
            return np.asarray(image.convert("RGBA"))
        except _DAMAGED as exc:
            raise _damaged(path, exc) from None


def _opened(path: str | Path, budget: int | None) -> Image.Image:
    """The image opened (its header read, no pixel decoded) if it is within the budget."""
    limit = PIXEL_BUDGET if budget is None else budget
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(path)
    except FileNotFoundError:
        raise MapImageError(f"the map image {path} does not exist") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_big(path, "", limit) from None
    except _DAMAGED as exc:
        raise _damaged(path, exc) from None
    width, height = image.size
    if width * height > limit:
        image.close()
        raise _too_big(path, f" ({width} x {height}, {width * height / 1e6:.1f} megapixels)",
                       limit)
    return image


def _too_big(path: str | Path, size: str, limit: int) -> MapImageError:
    return MapImageError(
        f"the map image {path} is too large{size}: a map image may have at most "
        f"{limit / 1e6:g} megapixels (each pixel costs about 21 bytes of memory to "
        f"recolour); scale it down")


def _damaged(path: str | Path, exc: BaseException) -> MapImageError:
    return MapImageError(f"the map image {path} cannot be read as an image (is it a whole "
                         f"PNG file?): {exc}")
