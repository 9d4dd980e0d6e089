"""The map drawn from the map graph alone, when the GM has no map image: each province a
disc in its owner's colour where the layout (or the GM's pins) puts it, land borders as
lines, waterways dashed, coastal provinces ringed in blue with each sea's name between its
coasts, capitals starred, occupation hatched, units counted."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from sheetmaster.kit.mapgraph import LAND

from .colours import RGB, darker, parse_colour
from .layout import Point, layout
from .marks import BLACK, PAPER, WHITE, badges, font, legend, star
from .state import MapData, Province

SEA_FILL: RGB = parse_colour("#cfe3f3")
SEA_INK: RGB = parse_colour("#5b8db8")
LAND_LINE: RGB = (120, 115, 105)
#: the usual distance between neighbouring discs, in pixels.
SPACING = 110
MAX_SIDE = 6000
_SEA = "\x00sea "  # sea nodes' names cannot clash with a province's


def draw_graph(data: MapData) -> Image.Image:
    """The whole picture: discs, lines, marks and the legend."""
    at, size = positions(data)
    edges = _edges(data)
    seas = sorted({s for p in data.provinces for s in p.seas})
    radius = max(8, min(26, SPACING * 0.2))
    picture = Image.new("RGB", size, PAPER)
    draw = ImageDraw.Draw(picture)
    label = font(13)
    for place in data.provinces:
        if place.seas:
            draw.ellipse(_box(*at[place.name], radius + 7), fill=SEA_FILL, outline=SEA_INK,
                         width=2)
    drawn: set[tuple[str, str]] = set()
    for a, b, weight in edges:
        if (b, a) in drawn or (a, b) in drawn:
            continue
        drawn.add((a, b))
        if weight < 1:
            _dashed(draw, at[a], at[b], SEA_INK, width=2)
        else:
            draw.line((at[a], at[b]), fill=LAND_LINE, width=3)
    for place in data.provinces:
        _disc(picture, draw, data, place, *at[place.name], radius)
    for sea in seas:
        draw.text(at[_SEA + sea], sea, fill=darker(SEA_INK, 0.8), font=font(15),
                  anchor="mm", stroke_width=3, stroke_fill=PAPER)
    for place in data.provinces:
        x, y = at[place.name]
        draw.text((x, y + radius + 3), place.label, fill=BLACK, font=label, anchor="ma",
                  stroke_width=3, stroke_fill=WHITE)
        badges(draw, data, place, x, y - radius - 11, 12)
    return legend(picture, data, 16)


def _edges(data: MapData) -> list[tuple[str, str, float]]:
    """Borders (weight 1) and other links such as waterways (weight 0.5)."""
    return [(p.name, other, 1.0 if kind == LAND else 0.5)
            for p in data.provinces for kind, others in p.links.items() for other in others]


def positions(data: MapData, spacing: float = SPACING
              ) -> tuple[dict[str, Point], tuple[int, int]]:
    """Where each province (and each sea's name) is drawn, in pixels, and the picture's
    size: the GM's pins or the layout, scaled so neighbours are about ``spacing`` apart."""
    seas = sorted({s for p in data.provinces for s in p.seas})
    coasts = [(p.name, _SEA + s, 0.2) for p in data.provinces for s in p.seas]
    pins = {p.name: p.pin for p in data.provinces if p.pin is not None}
    at = layout([*(p.name for p in data.provinces), *(_SEA + s for s in seas)],
                _edges(data) + coasts, pins)
    points = np.array(list(at.values()), dtype=np.float64).reshape(-1, 2)
    low, high = points.min(axis=0), points.max(axis=0)
    nearest = _typical_spacing(points)
    scale = spacing / nearest if nearest > 0 else spacing
    span = (high - low) * scale
    if span.max() > MAX_SIDE - 200:
        scale *= (MAX_SIDE - 200) / span.max()
        span = (high - low) * scale
    margin = (90, 70)
    size = (int(span[0]) + 2 * margin[0], int(span[1]) + 2 * margin[1])
    return ({name: (round((x - low[0]) * scale) + margin[0],
                    round((y - low[1]) * scale) + margin[1])
             for name, (x, y) in at.items()}, size)


def _typical_spacing(points: np.ndarray) -> float:
    """The median distance from a node to its nearest other node."""
    if len(points) < 2:
        return 0.0
    sample = points[: min(len(points), 800)]
    delta = sample[:, None, :] - points[None, :, :]
    distance = np.sqrt((delta ** 2).sum(axis=-1))
    distance[distance == 0] = np.inf
    return float(np.median(distance.min(axis=1)))


def _box(x: float, y: float, r: float) -> tuple[float, float, float, float]:
    return (x - r, y - r, x + r, y + r)


def _disc(picture: Image.Image, draw: ImageDraw.ImageDraw, data: MapData, place: Province,
          x: float, y: float, radius: float) -> None:
    fill = data.fill(place.owner)
    draw.ellipse(_box(x, y, radius), fill=fill)
    if place.occupier is not None:
        _hatch(picture, x, y, radius, data.ink(place.occupier))
    draw.ellipse(_box(x, y, radius), outline=darker(fill, 0.45), width=3)
    if place.capital:
        star(draw, x, y, radius * 0.72)


def _hatch(picture: Image.Image, x: float, y: float, radius: float, colour: RGB) -> None:
    """Diagonal stripes of the occupier's colour across the disc."""
    side = int(2 * radius) + 2
    stripes = Image.new("RGB", (side, side), colour)
    mask = Image.new("L", (side, side), 0)
    pen = ImageDraw.Draw(mask)
    pen.ellipse((1, 1, side - 2, side - 2), fill=255)
    for offset in range(0, 2 * side + 10, 10):  # clear every other band
        pen.polygon([(offset + 5, 0), (offset + 10, 0), (offset + 10 - side, side),
                     (offset + 5 - side, side)], fill=0)
    picture.paste(stripes, (int(x - side / 2), int(y - side / 2)), mask)


def _dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, colour: RGB, width: int) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    dash, gap = 9.0, 6.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        end = min(t + dash, length)
        draw.line(((a[0] + ux * t, a[1] + uy * t), (a[0] + ux * end, a[1] + uy * end)),
                  fill=colour, width=width)
        t = end + gap
