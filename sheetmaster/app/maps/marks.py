"""What both kinds of map draw on top of the provinces: capitals, units, the legend (every
mark explained), and the title."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .colours import RGB, darker, ink_on
from .state import MapData, Province

WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
PAPER: RGB = (250, 248, 242)
#: a chat shows a posted picture at most PREVIEW pixels wide (Discord: 550), where letters
#: LEGIBLE pixels high are still read without opening it.
PREVIEW, LEGIBLE = 550, 11


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


def text_size(text: str, size: int, stroke: int = 0) -> tuple[float, float]:
    """The (width, height) of a box centred on where ``text`` is drawn with anchor "mm"
    that holds all its ink (its outline too)."""
    left, top, right, bottom = font(size).getbbox(text, anchor="mm", stroke_width=stroke)
    return (2.0 * max(-left, right), 2.0 * max(-top, bottom))


def _pills(data: MapData, place: Province, size: int) -> list[tuple[RGB, str, float]]:
    """Each player's pill with units here: colour, count, width (players tab order)."""
    pills = []
    for player in [*data.colours, ""]:
        count = place.units.get(player, 0)
        if count:
            pills.append((data.ink(player), str(count), pill_width(str(count), size)))
    return pills


def badge_size(data: MapData, place: Province, size: int) -> tuple[float, float]:
    """The (width, height) of a province's badges, their white rim included."""
    return pills_size([w for _, _, w in _pills(data, place, size)], size)


def pills_size(widths: Sequence[float], size: int) -> tuple[float, float]:
    """The (width, height) of pills of these widths side by side, white rim included."""
    halo = max(1, size // 8)
    return (sum(widths) + size * 0.2 * (len(widths) - 1) + 2 * halo, size * 1.4 + 2 * halo)


def pill_width(text: str, size: int) -> float:
    """The width of one pill holding ``text``."""
    return max(font(size).getlength(text) + size * 0.9, size * 1.4)


def badges(draw: ImageDraw.ImageDraw, data: MapData, place: Province, x: float, y: float,
           size: int) -> None:
    """One pill per player with units here, the count in it, centred on (x, y)."""
    if not place.units:
        return
    _draw_pills(draw, _pills(data, place, size), x, y, size)


def _draw_pills(draw: ImageDraw.ImageDraw, pills: list[tuple[RGB, str, float]], x: float,
                y: float, size: int) -> None:
    face = font(size)
    gap = size * 0.2
    left = x - (sum(w for _, _, w in pills) + gap * (len(pills) - 1)) / 2
    top = y - size * 0.7
    for colour, text, width in pills:
        box = (left, top, left + width, top + size * 1.4)
        halo = max(1, size // 8)
        round_off = int(size * 0.7)  # whole pixels: Pillow needs the corners to fit
        draw.rounded_rectangle((box[0] - halo, box[1] - halo, box[2] + halo, box[3] + halo),
                               radius=round_off + halo, fill=WHITE)
        draw.rounded_rectangle(box, radius=round_off, fill=colour, outline=darker(colour, 0.4),
                               width=max(1, size // 10))
        draw.text((left + width / 2, top + size * 0.7), text, fill=ink_on(colour), font=face,
                  anchor="mm")
        left += width + gap


Swatch = Callable[[ImageDraw.ImageDraw, tuple[float, float, float, float]], None]


@dataclass(frozen=True)
class Key:
    """One entry of the legend: a small drawing of a mark, and what it means."""

    text: str
    swatch: Swatch


def mark_keys(data: MapData, size: int) -> list[Key]:
    """The legend's entries for the marks both kinds of map draw, those this map has."""
    keys = []
    if any(p.capital for p in data.provinces):
        keys.append(Key("capital", lambda d, b: star(d, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2,
                                                      (b[3] - b[1]) * 0.6)))
    if any(p.units for p in data.provinces):
        owner = next(iter(data.colours), "")

        def pill(d: ImageDraw.ImageDraw, b: tuple[float, float, float, float]) -> None:
            _draw_pills(d, [(data.ink(owner), "2", size * 1.4)], (b[0] + b[2]) / 2,
                        (b[1] + b[3]) / 2, size)

        keys.append(Key("units there (in their owner's colour)", pill))
    if any(p.occupier is not None for p in data.provinces):
        keys.append(Key("occupied (stripes in the occupier's colour)", _stripes))
    return keys


def _stripes(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """A square striped as an occupied province is (grey on the neutral colour)."""
    left, top, right, bottom = _square_in(box)
    side = bottom - top
    draw.rectangle((left, top, right, bottom), fill=(233, 228, 212))
    for offset in np.arange(-side, side, 6.0):  # lines x - y = const, cut to the square
        x0, x1 = max(left, left + offset), min(right, left + offset + side)
        if x1 > x0:
            draw.line((x0, bottom - (x0 - left - offset), x1, bottom - (x1 - left - offset)),
                      fill=(90, 90, 90), width=2)
    draw.rectangle((left, top, right, bottom), outline=(90, 90, 90))


def _square_in(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The square as high as ``box``, in its middle."""
    middle, half = (box[0] + box[2]) / 2, (box[3] - box[1]) / 2
    return (middle - half, box[1], middle + half, box[3])


#: a parenthesised remark after the game's name: "Golden Age 1861 (every number ...)".
_REMARK = re.compile(r"\s*\((?=[^()]*\s)[^()]*\)\s*$")


def game_name(setting: str) -> str:
    """The game's name for a map's title: the Game tab's 'game' setting without what the GM
    noted beside the name (a second line, a parenthesised remark of several words); a
    single word in parentheses ("Europa (1900)") stays, as part of the name."""
    first = setting.strip().splitlines()[0].strip() if setting.strip() else ""
    return _REMARK.sub("", first) or first


def legend(picture: Image.Image, data: MapData, size: int, keys: Sequence[Key] = (),
           codes: Sequence[tuple[str, str, RGB]] = ()) -> Image.Image:
    """The picture with a strip below it: the title, each player's colour and name, then
    each mark the picture draws and what it means, then each code written on the map for
    a name (code, name, the code's colour)."""
    face, small = font(round(size * 1.3)), font(size)
    pad = size
    entries: list[tuple[str, Swatch]] = [
        (name, _square(colour)) for name, colour in data.colours.items()
        if name not in data.gone]
    if any(not p.owner for p in data.provinces):
        entries.append((data.spec.nobody, _square(data.neutral)))
    lead = max((small.getlength(code) for code, _, _ in codes), default=0.0) / size + 0.5
    rows = _flow(entries, picture.width, size, small) + \
        _flow([(k.text, k.swatch) for k in keys], picture.width, size, small) + \
        _flow([(name, _code(code, ink, small)) for code, name, ink in codes],
              picture.width, size, small, lead=max(lead, 2.0))
    title = _wrapped(data.title, face, picture.width - 2 * pad)
    title_height = size * 1.6 * len(title) + (size * 0.4 if title else 0)
    height = int(pad + title_height + len(rows) * size * 1.8 + pad / 2)
    out = Image.new(picture.mode, (picture.width, picture.height + height), PAPER)
    out.paste(picture, (0, 0))
    draw = ImageDraw.Draw(out)
    top = picture.height + pad / 2
    for line in title:
        draw.text((pad, top), line, fill=BLACK, font=face)
        top += size * 1.6
    top += size * 0.4 if title else 0
    for row in rows:
        for left, text, swatch, lead in row:
            swatch(draw, (left, top, left + size * 1.6, top + size * 1.2))
            draw.text((left + size * lead, top + size * 0.6), text, fill=BLACK, font=small,
                      anchor="lm")
        top += size * 1.8
    return out


def _square(colour: RGB) -> Swatch:
    def swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        draw.rectangle(_square_in(box), fill=colour, outline=darker(colour, 0.5))
    return swatch


def _code(code: str, ink: RGB, face: ImageFont.FreeTypeFont) -> Swatch:
    """A code as the map writes it, in place of a swatch (left-aligned)."""
    def swatch(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        draw.text((box[0], (box[1] + box[3]) / 2), code, fill=ink, font=face, anchor="lm")
    return swatch


def _flow(entries: list[tuple[str, Swatch]], width: int, size: int,
          face: ImageFont.FreeTypeFont, lead: float = 2.0
          ) -> list[list[tuple[float, str, Swatch, float]]]:
    """The entries in rows across ``width``: (left, text, swatch, lead) each, the text
    ``lead`` sizes right of the swatch's left."""
    rows: list[list[tuple[float, str, Swatch, float]]] = []
    left = width
    for text, swatch in entries:
        item = size * lead + face.getlength(text) + size * 1.2
        if not rows or (rows[-1] and left + item > width - size):
            rows.append([])
            left = size
        rows[-1].append((left, text, swatch, lead))
        left += item
    return rows


def _wrapped(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``, broken between words (a word wider than
    the whole line cut short with an ellipsis)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and face.getlength(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(_fitted(word, face, width))
    return lines


def _fitted(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, cut short with an ellipsis where it is wider than ``width``."""
    if not text or face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""
