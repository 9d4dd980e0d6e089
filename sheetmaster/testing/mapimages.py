"""Province key images, made rather than painted: the shipped example games' maps, and the
large synthetic map the recolouring benchmark draws.

A key image is what a GM paints for ``sheetmaster map`` / ``resolve``: each province filled
in its own key colour, with borders, sea and labels in other colours. Here the provinces are
Voronoi cells around each province's position, cut by the sea.

``python -m sheetmaster.testing.mapimages templates/`` writes the example games' key images
(``claims-example-map.png``, ``clans-example-map.png``) again.
"""

from __future__ import annotations

import hashlib
import math
import sys
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from sheetmaster.app.maps.colours import RGB
from sheetmaster.app.maps.marks import LEGIBLE, PREVIEW, font
from sheetmaster.engine.builder import example_game

SEA: RGB = (158, 196, 222)
BORDER: RGB = (52, 48, 44)
LABEL: RGB = (40, 36, 32)


def key_colour(name: str, taken: set[RGB] | None = None) -> RGB:
    """A soft colour that depends on the name alone (the next free one if it is taken)."""
    salt = 0
    while True:
        digest = hashlib.blake2b(f"{name}/{salt}".encode(), digest_size=3).digest()
        colour = (96 + digest[0] % 144, 96 + digest[1] % 144, 96 + digest[2] % 144)
        if taken is None or (colour not in taken and colour not in (SEA, BORDER, LABEL)):
            if taken is not None:
                taken.add(colour)
            return colour
        salt += 1


def voronoi_key_image(points: Mapping[str, tuple[float, float]], keys: Mapping[str, RGB],
                      size: tuple[int, int], reach: float) -> Image.Image:
    """Each province the pixels nearest its point, up to ``reach`` pixels away (a wavy
    coast); sea beyond; dark borders and coasts; each name written at its point, as
    high as a chat's preview of the picture needs (LEGIBLE pixels shown PREVIEW wide)."""
    width, height = size
    names = list(points)
    centres = np.array([points[n] for n in names], dtype=np.float64)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    best = np.full((height, width), np.inf)
    owner = np.full((height, width), -1, dtype=np.int32)
    for i, (cx, cy) in enumerate(centres):
        distance = np.hypot(xs - cx, ys - cy)
        closer = distance < best
        best[closer], owner[closer] = distance[closer], i
    wave = 1 + 0.12 * np.sin(xs / 23.0) * np.cos(ys / 31.0) + 0.06 * np.sin((xs + ys) / 11.0)
    owner[best > reach * wave] = -1
    palette = np.array([keys[n] for n in names] + [SEA], dtype=np.uint8)
    pixels = palette[owner]
    edge = np.zeros((height, width), dtype=bool)
    edge[:, 1:] |= owner[:, 1:] != owner[:, :-1]
    edge[1:, :] |= owner[1:, :] != owner[:-1, :]
    edge[:, :-1] |= edge[:, 1:].copy()
    pixels[edge] = BORDER
    picture = Image.fromarray(pixels, "RGB")
    draw = ImageDraw.Draw(picture)
    draw.fontmode = "1"  # solid letters: no blend of label and key colours to stay behind
    letters = font(max(12, math.ceil(width * LEGIBLE / PREVIEW)))
    for name, (cx, cy) in zip(names, centres):
        draw.text((cx, cy - 10), name, fill=LABEL, font=letters, anchor="mm")
    return picture


def grid_key_image(width: int, height: int, provinces: int, seed: int = 1
                   ) -> tuple[np.ndarray, list[RGB]]:
    """A large key image: ``provinces`` Voronoi cells on a jittered grid, the rest sea,
    1-pixel borders. Returns (H, W, 4) RGBA pixels and the provinces' key colours."""
    rng = np.random.default_rng(seed)
    cells = int(np.ceil(provinces * 1.2))
    cols = max(1, int(round(np.sqrt(cells * width / height))))
    rows = int(np.ceil(cells / cols))
    cw, ch = width / cols, height / rows
    gx, gy = np.meshgrid(np.arange(cols), np.arange(rows))
    sx = (gx + 0.15 + 0.7 * rng.random(gx.shape)) * cw
    sy = (gy + 0.15 + 0.7 * rng.random(gy.shape)) * ch
    # the land: the cells nearest the middle (an oval continent), the rest is sea
    spread = ((sx / width - 0.5) / 0.5) ** 2 + ((sy / height - 0.5) / 0.5) ** 2
    order = np.argsort(spread.ravel(), kind="stable")
    number = np.full(rows * cols, -1, dtype=np.int64)
    number[order[:provinces]] = np.arange(provinces)
    number = number.reshape(rows, cols)
    ys, xs = np.mgrid[0:height, 0:width]
    ci = np.minimum((xs / cw).astype(np.int64), cols - 1)
    cj = np.minimum((ys / ch).astype(np.int64), rows - 1)
    best = np.full((height, width), np.inf, dtype=np.float32)
    owner = np.full((height, width), -1, dtype=np.int64)
    for dj in (-1, 0, 1):
        for di in (-1, 0, 1):
            i, j = np.clip(ci + di, 0, cols - 1), np.clip(cj + dj, 0, rows - 1)
            d = ((xs - sx[j, i]) ** 2 + (ys - sy[j, i]) ** 2).astype(np.float32)
            closer = d < best
            best[closer], owner[closer] = d[closer], number[j, i][closer]
    codes = rng.choice(1 << 24, size=provinces + 2, replace=False)
    codes = codes[~np.isin(codes, [_code(SEA), _code(BORDER)])][:provinces]
    keys = [((c >> 16) & 255, (c >> 8) & 255, c & 255) for c in codes.tolist()]
    palette = np.array(keys + [SEA], dtype=np.uint8)
    rgb = palette[owner]
    edge = np.zeros((height, width), dtype=bool)
    edge[:, 1:] |= owner[:, 1:] != owner[:, :-1]
    edge[1:, :] |= owner[1:, :] != owner[:-1, :]
    rgb[edge] = BORDER
    pixels = np.empty((height, width, 4), dtype=np.uint8)
    pixels[..., :3], pixels[..., 3] = rgb, 255
    return pixels, keys


def _code(colour: RGB) -> int:
    return (colour[0] << 16) | (colour[1] << 8) | colour[2]


def example_key_image(ruleset_name: str) -> Image.Image:
    """The key image of a shipped example game: its provinces where the map picture without
    an image draws them (its pins, or the layout), in the key colours its tab gives."""
    from sheetmaster import rules
    from sheetmaster.app.maps.graph import positions
    from sheetmaster.app.maps.state import read_map
    from sheetmaster.engine.builder import build_state
    from sheetmaster.engine.turn import prepare
    from sheetmaster.kit.schema import Problems

    ruleset = rules.get(ruleset_name)
    tables, orders, settings = example_game(ruleset)
    state = prepare(ruleset, build_state(ruleset, tables, orders, settings=settings)).state
    problems = Problems()
    data = read_map(ruleset, state, problems)
    problems.raise_if_any()
    reach, pad = 85, 40
    at, size, _ = positions(data, spacing=130, max_width=800 - 2 * pad)
    keys = {p.name: p.key for p in data.provinces}
    points = {p.name: (at[p.name][0] + pad, at[p.name][1] + pad) for p in data.provinces}
    return voronoi_key_image(points, keys, (size[0] + 2 * pad, size[1] + 2 * pad),
                             reach=reach)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    folder = Path((argv or sys.argv[1:] or ["templates"])[0])
    for name in ("claims", "clans"):
        target = folder / f"{name}-example-map.png"
        example_key_image(name).save(target, "PNG", optimize=True)
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
