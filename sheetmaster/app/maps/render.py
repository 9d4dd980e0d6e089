"""The map picture of a game's state: from the GM's own key image, or from the map graph.

With an image, every province is recoloured by its owner, occupied ones are hatched with the
occupier's colour, capitals get a star and units a count per player; what the GM painted in
other colours (borders, sea, labels) stays as painted. A blank, unknown or shared key colour,
or a province missing from the image, is a problem naming tab, row and column, raised before
any picture exists (and so before a resolve writes anything).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Problems

from .colours import hex_colour
from .graph import MAX_WIDTH, draw_graph
from .key_image import load_pixels
from .layout import TooBig
from .marks import LEGIBLE, PREVIEW, badge_size, badges, legend, mark_keys, star
from .recolour import Painted, key_code, paint, province_index
from .spots import Spot, spots
from .state import MapData, Province, read_map


class NoPicture(ValueError):
    """There is no picture to draw: the ruleset has no map, or the map tab is empty."""


def map_picture(ruleset: Ruleset, state: GameState, *, image: str | Path | None = None,
                title: str = "", full_size: bool = False) -> Image.Image:
    """The picture of ``state``'s map; raises StateError naming every problem. Drawn from
    the borders, it is at most ``MAX_WIDTH`` wide, legible in a chat's preview;
    ``full_size``: as wide as its whole names need (the GM's copy of a large map)."""
    if ruleset.map is None:
        raise NoPicture(f"the {ruleset.name} rules have no map to draw")
    problems = Problems()
    data = read_map(ruleset, state, problems, title)
    problems.raise_if_any()
    if not data.provinces:
        raise NoPicture(f"the {ruleset.map.tab} tab has no rows yet")
    if image is None:
        try:
            return draw_graph(data, None if full_size else MAX_WIDTH)
        except TooBig as exc:
            raise NoPicture(str(exc)) from None
    return recoloured(data, load_pixels(image), Path(image).name, problems)


@dataclass
class ImagePlan:
    """The GM's image recoloured, and where each mark goes on it."""

    index: np.ndarray  # (H, W): each pixel's province number, -1 for none
    painted: Painted
    #: (kind, province, box): a "capital" star or the "units" badges.
    marks: list[tuple[str, Province, Spot]]


def plan_image(data: MapData, pixels: np.ndarray, source: str, problems: Problems
               ) -> ImagePlan:
    """Recolour the GM's image and place its marks; raises StateError naming every
    province that has no key colour or is nowhere in the image."""
    tab, column = data.spec.tab, data.key_column
    for place in data.provinces:
        if place.key is None:
            problems.add(tab, place.row, column, f"is blank; with a map image each row needs "
                         f"the colour '{place.name}' is painted in")
    problems.raise_if_any()
    index = province_index(pixels, [key_code(p.key) for p in data.provinces])  # type: ignore
    hatches = [None if p.occupier is None else data.ink(p.occupier) for p in data.provinces]
    side = max(2, int(round(np.sqrt(pixels.shape[0] * pixels.shape[1]) / 250)))
    painted = paint(pixels, index, [data.fill(p.owner) for p in data.provinces], hatches,
                    stripe=side)
    for place, count in zip(data.provinces, painted.counts.tolist()):
        if count == 0:
            problems.add(tab, place.row, column,
                         f"{hex_colour(place.key)} is nowhere in the map image {source}: "  # type: ignore
                         f"paint '{place.name}' in it, or correct its colour")
    problems.raise_if_any()
    return ImagePlan(index, painted, _marks(data, index, painted))


def recoloured(data: MapData, pixels: np.ndarray, source: str, problems: Problems
               ) -> Image.Image:
    """The GM's image recoloured, marked and given a legend."""
    plan = plan_image(data, pixels, source, problems)
    picture = Image.fromarray(plan.painted.pixels, "RGBA")
    draw = ImageDraw.Draw(picture)
    size = mark_size(plan.painted)
    for kind, place, (left, top, right, bottom) in plan.marks:
        middle = ((left + right) / 2, (top + bottom) / 2)
        if kind == "capital":
            star(draw, *middle, (right - left) / 2)
        else:
            badges(draw, data, place, *middle, size)
    opaque = bool((pixels[..., 3] == 255).all())
    picture = picture.convert("RGB") if opaque else picture
    return legend(picture, data, legend_size(picture.width), mark_keys(data, size))


def legend_size(width: int) -> int:
    """The legend's letters on a GM's image: LEGIBLE pixels high shown PREVIEW pixels wide
    in a chat (a 50th of its width), within 14 and 48."""
    return int(np.clip(np.ceil(width * LEGIBLE / PREVIEW), 14, 48))


def mark_size(painted: Painted) -> int:
    """The size of the marks' letters: by the typical province's size."""
    counts = painted.counts[painted.counts > 0]
    typical = float(np.sqrt(np.median(counts))) if len(counts) else 20.0
    return int(np.clip(typical * 0.2, 8, 22))


def _marks(data: MapData, index: np.ndarray, painted: Painted
           ) -> list[tuple[str, Province, Spot]]:
    """A star on each capital and the unit badges, inside each province, clear of what the
    GM painted there (its name above all)."""
    size = mark_size(painted)
    radius = round(size * 0.8)
    out: list[tuple[str, Province, Spot]] = []
    for number, (place, (x, y)) in enumerate(zip(data.provinces, painted.anchors.tolist())):
        if x < 0 or not (place.capital or place.units):
            continue
        wanted = [("capital", (2 * radius + 1, 2 * radius + 1))] if place.capital else []
        if place.units:
            w, h = badge_size(data, place, size)
            wanted.append(("units", (int(np.ceil(w)), int(np.ceil(h)))))
        found = spots(index, number, (x, y), [s for _, s in wanted], gap=max(2, size // 3))
        out += [(kind, place, spot) for (kind, _), spot in zip(wanted, found)]
    return out


def png_bytes(picture: Image.Image) -> bytes:
    """The picture as PNG bytes (the same picture gives the same bytes)."""
    out = io.BytesIO()
    picture.save(out, "PNG", compress_level=6)
    return out.getvalue()
