"""What both kinds of map draw on top of the provinces: capitals, units, the legend."""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .colours import RGB, darker, ink_on
from .state import MapData, Province

WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
PAPER: RGB = (250, 248, 242)


#: DejaVu Sans, shipped with sheetmaster so every machine draws the same letters (accents,
#: Greek and Cyrillic included); its licence is beside it.
FONT = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The map's font at ``size`` pixels."""
    return ImageFont.truetype(FONT, max(6, int(size)))


def star(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float,
         fill: RGB = WHITE, outline: RGB = BLACK) -> None:
    """A five-pointed star: a capital."""
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    draw.polygon(points, fill=fill, outline=outline, width=max(1, round(radius / 6)))


def badges(draw: ImageDraw.ImageDraw, data: MapData, place: Province, x: float, y: float,
           size: int) -> None:
    """One pill per player with units here, the count in it, centred on (x, y)."""
    if not place.units:
        return
    face = font(size)
    pills = []
    for player in [*data.colours, ""]:
        count = place.units.get(player, 0)
        if count:
            text = str(count)
            width = draw.textlength(text, font=face) + size * 0.9
            pills.append((data.ink(player), text, max(width, size * 1.4)))
    gap = size * 0.2
    left = x - (sum(w for _, _, w in pills) + gap * (len(pills) - 1)) / 2
    top = y - size * 0.7
    for colour, text, width in pills:
        box = (left, top, left + width, top + size * 1.4)
        halo = max(1, size // 8)
        draw.rounded_rectangle((box[0] - halo, box[1] - halo, box[2] + halo, box[3] + halo),
                               radius=size * 0.7 + halo, fill=WHITE)
        draw.rounded_rectangle(box, radius=size * 0.7, fill=colour, outline=darker(colour, 0.4),
                               width=max(1, size // 10))
        draw.text((left + width / 2, top + size * 0.7), text, fill=ink_on(colour), font=face,
                  anchor="mm")
        left += width + gap


def legend(picture: Image.Image, data: MapData, size: int) -> Image.Image:
    """The picture with a strip below it: the title, then each player's colour and name."""
    face, small = font(size), font(max(8, int(size * 0.85)))
    width = picture.width
    pad = size
    probe = ImageDraw.Draw(picture)
    entries = [(name, colour) for name, colour in data.colours.items()
               if name not in data.gone]
    if any(not p.owner for p in data.provinces):
        entries.append((data.spec.nobody, data.neutral))
    rows: list[list[tuple[str, RGB, float]]] = [[]]
    line = pad
    for name, colour in entries:
        item = size * 1.6 + probe.textlength(name, font=small) + size * 1.2
        if rows[-1] and line + item > width - pad:
            rows.append([])
            line = pad
        rows[-1].append((name, colour, item))
        line += item
    title_height = size * 1.8 if data.title else 0
    height = int(pad + title_height + len(rows) * size * 1.8 + pad / 2)
    out = Image.new(picture.mode, (width, picture.height + height), PAPER)
    out.paste(picture, (0, 0))
    draw = ImageDraw.Draw(out)
    top = picture.height + pad / 2
    if data.title:
        draw.text((pad, top), data.title, fill=BLACK, font=face)
        top += title_height
    for row in rows:
        left = pad
        for name, colour, item in row:
            draw.rectangle((left, top, left + size * 1.2, top + size * 1.2), fill=colour,
                           outline=darker(colour, 0.5))
            draw.text((left + size * 1.6, top + size * 0.6), name, fill=BLACK, font=small,
                      anchor="lm")
            left += item
        top += size * 1.8
    return out
