"""The map picture of a game's state: from the GM's own key image, or from the map graph.

With an image, every province is recoloured by its owner, occupied ones are hatched with the
occupier's colour, capitals get a star and units a count per player; what the GM painted in
other colours (borders, sea, labels) stays as painted. A blank, unknown or shared key colour,
or a province missing from the image, is a problem naming tab, row and column, raised before
any picture exists (and so before a resolve writes anything).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Problems

from .colours import hex_colour
from .graph import draw_graph
from .key_image import load_pixels
from .layout import TooBig
from .marks import badges, legend, star
from .recolour import Painted, key_code, paint, province_index
from .state import MapData, read_map


class NoPicture(ValueError):
    """There is no picture to draw: the ruleset has no map, or the map tab is empty."""


def map_picture(ruleset: Ruleset, state: GameState, *, image: str | Path | None = None,
                title: str = "") -> Image.Image:
    """The picture of ``state``'s map; raises StateError naming every problem."""
    if ruleset.map is None:
        raise NoPicture(f"the {ruleset.name} rules have no map to draw")
    problems = Problems()
    data = read_map(ruleset, state, problems, title)
    problems.raise_if_any()
    if not data.provinces:
        raise NoPicture(f"the {ruleset.map.tab} tab has no rows yet")
    if image is None:
        try:
            return draw_graph(data)
        except TooBig as exc:
            raise NoPicture(str(exc)) from None
    return recoloured(data, load_pixels(image), Path(image).name, problems)


def recoloured(data: MapData, pixels: np.ndarray, source: str, problems: Problems
               ) -> Image.Image:
    """The GM's image recoloured, marked and given a legend."""
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
    picture = Image.fromarray(painted.pixels, "RGBA")
    _mark(picture, data, painted)
    opaque = bool((pixels[..., 3] == 255).all())
    picture = picture.convert("RGB") if opaque else picture
    return legend(picture, data, int(np.clip(picture.width / 60, 14, 40)))


def _mark(picture: Image.Image, data: MapData, painted: Painted) -> None:
    """Stars on capitals and unit counts, at a point inside each province."""
    counts = painted.counts[painted.counts > 0]
    typical = float(np.sqrt(np.median(counts))) if len(counts) else 20.0
    radius = float(np.clip(typical * 0.16, 5, 22))
    size = int(np.clip(typical * 0.2, 8, 22))
    draw = ImageDraw.Draw(picture)
    for place, (x, y) in zip(data.provinces, painted.anchors.tolist()):
        if x < 0:
            continue
        if place.capital:
            star(draw, x, y - (radius if place.units else 0), radius)
        if place.units:
            badges(draw, data, place, x, y + (size if place.capital else 0), size)


def png_bytes(picture: Image.Image) -> bytes:
    """The picture as PNG bytes (the same picture gives the same bytes)."""
    out = io.BytesIO()
    picture.save(out, "PNG", compress_level=6)
    return out.getvalue()
