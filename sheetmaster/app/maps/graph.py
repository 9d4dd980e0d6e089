"""The map drawn from the map graph alone, when the GM has no map image: each province a
disc in its owner's colour where the layout (or the GM's pins) puts it, land borders as
lines, other links (by sea, by waterway) dashed, coastal provinces ringed in blue with each
sea's name between its coasts, capitals starred, occupation hatched, units counted.

Names and badges are placed by :mod:`~sheetmaster.app.maps.placement`, never on a disc, a
mark or each other. Where the names do not fit, the whole map is spread wider and placed
again: the picture is as small as its names allow, from a start sized for a chat preview.
It is never wider than a chat preview keeps its names legible (``MAX_WIDTH``: names 11
pixels high where Discord shows the picture 550 pixels wide); a map that needs more room
there writes the names that found no place as short codes (:mod:`~sheetmaster.app.maps.abbrev`,
the whole names in the legend's key), and only when codes are not enough grows downwards.
The names are placed before the badges and depend only on the map graph and the pins, so
they stay put from turn to turn while armies come and go.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely import STRtree

from sheetmaster.kit.mapgraph import LAND

from . import placement
from .abbrev import abbreviations
from .colours import RGB, darker, parse_colour
from .layout import Point, layout
from .marks import (
    BLACK,
    LEGIBLE,
    PAPER,
    PREVIEW,
    WHITE,
    Key,
    badge_size,
    badges,
    font,
    legend,
    mark_keys,
    pill_width,
    pills_size,
    star,
    text_size,
)
from .placement import Box, Wanted, box_at
from .state import MapData, Province

SEA_FILL: RGB = parse_colour("#cfe3f3")
SEA_INK: RGB = parse_colour("#5b8db8")
LAND_LINE: RGB = (120, 115, 105)
#: a province's disc, and the blue ring around a coastal one, in pixels.
RADIUS, COAST = 12, 5
#: the letters, in pixels: provinces' and seas' names, unit counts, the legend (its title a
#: third larger).
NAME_SIZE, SEA_SIZE, BADGE_SIZE, LEGEND_SIZE = 16, 16, 14, 16
#: the widest picture whose names are still LEGIBLE pixels high shown PREVIEW pixels wide
#: (Discord's chat): 800 pixels.
MAX_WIDTH = NAME_SIZE * PREVIEW // LEGIBLE
#: loosened within MAX_WIDTH, a map grows at most this many times as tall as it is wide.
TALL = 2.0
#: the usual distance between neighbouring discs tried first, in pixels; while some name
#: finds no free place, the map is spread by GROWTH and placed again, at most TRIES times.
SPACING, GROWTH, TRIES = 50.0, 1.08, 24
MAX_SIDE = 6000
#: no two discs closer than this share of the usual distance (a cluster the layout drew
#: tight is loosened where it is, rather than the whole map spread for its names).
CLOSEST = 0.6
#: the empty border around the discs, where names near the edge still fit.
MARGIN = (24, 24)
_SEA = "\x00sea "  # sea nodes' names cannot clash with a province's


@dataclass
class GraphPlan:
    """Where everything goes: the picture's size, each disc's centre, each box."""

    size: tuple[int, int]
    #: each province's centre (and each sea node's, under ``_SEA + sea``).
    at: dict[str, Point]
    #: each province's outer radius (its disc, and its blue ring when coastal).
    reach: dict[str, float]
    #: province -> the box of its name; sea -> the box of its name.
    names: dict[str, Box]
    seas: dict[str, Box]
    #: province -> the box of its unit badges.
    badges: dict[str, Box]
    #: things that found no free place and were drawn at their first choice anyway.
    crowded: list[str]
    #: what is written for each province and each sea: its name, or its code.
    labels: dict[str, str]
    sea_labels: dict[str, str]
    #: the codes written for whole names (code -> name), for the legend's key.
    codes: dict[str, str]


def draw_graph(data: MapData, max_width: int | None = MAX_WIDTH) -> Image.Image:
    """The whole picture: discs, lines, marks and the legend (``max_width``: see
    :func:`plan_graph`)."""
    plan = plan_graph(data, max_width)
    at = plan.at
    picture = Image.new("RGB", plan.size, PAPER)
    draw = ImageDraw.Draw(picture)
    for place in data.provinces:
        if place.seas:
            draw.ellipse(_circle(*at[place.name], RADIUS + COAST), fill=SEA_FILL,
                         outline=SEA_INK, width=2)
    for a, b, weight in _borders(data):
        if weight < 1:
            _dashed(draw, at[a], at[b], SEA_INK, width=2)
        else:
            draw.line((at[a], at[b]), fill=LAND_LINE, width=3)
    for place in data.provinces:
        _disc(picture, draw, data, place, *at[place.name])
    for sea, box in plan.seas.items():
        draw.text(_middle(box), plan.sea_labels[sea], fill=darker(SEA_INK, 0.8),
                  font=font(SEA_SIZE), anchor="mm", stroke_width=3, stroke_fill=PAPER)
    for place in data.provinces:
        draw.text(_middle(plan.names[place.name]), plan.labels[place.name], fill=BLACK,
                  font=font(NAME_SIZE), anchor="mm", stroke_width=3, stroke_fill=WHITE)
        if place.name in plan.badges:
            badges(draw, data, place, *_middle(plan.badges[place.name]), BADGE_SIZE)
    seas = {s for s in plan.sea_labels.values()}
    codes = [(code, name, darker(SEA_INK, 0.8) if code in seas else BLACK)
             for code, name in plan.codes.items()]
    return legend(picture, data, LEGEND_SIZE, graph_keys(data), codes)


def graph_keys(data: MapData) -> list[Key]:
    """The legend's explanation of every mark this drawing makes."""
    keys = mark_keys(data, BADGE_SIZE)
    kinds = {kind for p in data.provinces for kind, others in p.links.items() if others}
    if LAND in kinds:
        keys.append(Key("border", lambda d, b: d.line((b[0], _mid(b), b[2], _mid(b)),
                                                       fill=LAND_LINE, width=3)))
    water = sorted(kinds - {LAND})
    if water:
        keys.append(Key(" or ".join(water) + " link",
                        lambda d, b: _dashed(d, (b[0], _mid(b)), (b[2], _mid(b)), SEA_INK, 2)))
    if any(p.seas for p in data.provinces):
        keys.append(Key("coastal: on a sea", _coast_key))
        keys.append(Key("a sea's name", lambda d, b: d.text(((b[0] + b[2]) / 2, _mid(b)), "Sea",
                                                    fill=darker(SEA_INK, 0.8), anchor="mm",
                                                    font=font(LEGEND_SIZE))))
    return keys


def plan_graph(data: MapData, max_width: int | None = MAX_WIDTH) -> GraphPlan:
    """Discs laid out, spread until every name has a free place; then the badges. Never
    wider than ``max_width`` (None: as wide as the names need): there, crowded clusters are
    loosened where they are, and names still without a place are written as codes; a map
    whose names fit no such picture is drawn as wide as they need."""
    unit, whole = laid_out(data), _whole(data)
    fit = _Fit(data, unit, whole, max_width)
    if fit.missing and max_width is not None:
        fit = _Fit(data, unit, whole, None)
    scene, labels = fit.scene, fit.labels
    crowded = [k for k, b in (*fit.names.items(), *fit.seas.items()) if b is None]
    names = {k: b or _first(scene.name(k, everywhere=True)) for k, b in fit.names.items()}
    seas = {k: b or _first(_sea_wanted(k, labels[_SEA + k], scene.at[_SEA + k], fit.spacing))
            for k, b in fit.seas.items()}
    badge_boxes = scene.badges(fit.slots, [*names.values(), *seas.values()])
    crowded += [k for k, b in badge_boxes.items() if b is None]
    badge_boxes = {k: b or _first(scene.badge(k, everywhere=True))
                   for k, b in badge_boxes.items()}
    return GraphPlan(scene.size, scene.at, scene.reach, names, seas,  # type: ignore[arg-type]
                     badge_boxes, crowded, {k: labels[k] for k in names},
                     {k: labels[_SEA + k] for k in seas}, fit.written())


class _Fit:
    """The names placed at the smallest spacing where they all fit (or the largest tried):
    the map spread by GROWTH while some name has no place (within ``max_width`` only its
    crowded clusters loosen, while it is at most TALL times as tall as wide); then, within
    ``max_width``, those names and their neighbours' written as codes, a round at a time."""

    def __init__(self, data: MapData, unit: dict[str, Point], whole: dict[str, str],
                 max_width: int | None) -> None:
        self.whole, self.codes = whole, abbreviations(whole.values())
        self.short: set[str] = set()  # provinces, and _SEA + sea, written as their codes
        spacing, grown, step = SPACING, 0, 1.0
        for _ in range(TRIES + len(whole) + 1):
            self.labels = {k: self.codes[t] if k in self.short else t for k, t in whole.items()}
            at, size, across = positions(data, spacing, unit, max_width)
            self.scene = _Scene(data, at, size, self.labels)
            self.slots = self.scene.slots()
            self.spacing = spacing * across
            self.names, self.seas = self.scene.names(self.spacing, list(self.slots.values()))
            self.missing = [k for k, b in (*self.names.items(),
                                           *((_SEA + s, b) for s, b in self.seas.items()))
                            if b is None]
            if not self.missing:
                return
            if max_width is not None and across < 1 and size[1] > TALL * max_width \
                    and grown < TRIES:
                spacing /= step  # too tall: back to the last spacing, and no more growing
                grown = TRIES
            elif grown < TRIES - 1 and max(size) < MAX_SIDE:
                # many names without a place: a bigger step (a few: a small one)
                step = GROWTH ** (3 if len(self.missing) > len(self.names) / 10 else 1)
                spacing *= step
                grown += 1
            elif max_width is None or not self._shorten():
                return

    def _shorten(self) -> bool:
        """Write the names without a place as codes (those all are: their neighbours');
        False when none is left to shorten."""
        def longer(keys: list[str]) -> set[str]:
            return {k for k in keys if self.codes[self.whole[k]] != self.labels[k]}

        more = longer(self.missing) or longer(self.scene.near(self.missing, self.spacing * 1.5))
        self.short |= more
        return bool(more)

    def written(self) -> dict[str, str]:
        """Each code written on the map and the whole name it stands for."""
        return dict(sorted((self.codes[self.whole[k]], self.whole[k]) for k in self.short))


def _whole(data: MapData) -> dict[str, str]:
    """The whole name written for each province (its label) and sea (keyed _SEA + sea)."""
    seas = sorted({s for p in data.provinces for s in p.seas})
    return {**{p.name: p.label for p in data.provinces}, **{_SEA + s: s for s in seas}}


class _Scene:
    """The discs where they are drawn at one spacing, and what is placed around them."""

    def __init__(self, data: MapData, at: dict[str, Point], size: tuple[int, int],
                 labels: dict[str, str]) -> None:
        self.data, self.at, self.size, self.labels = data, at, size, labels
        self.bounds: Box = (0, 0, size[0], size[1])
        self.number = {p.name: i for i, p in enumerate(data.provinces)}
        self.reach = {p.name: float(RADIUS + (COAST if p.seas else 0)) for p in data.provinces}
        self.discs = [shapely.Point(at[p.name]).buffer(self.reach[p.name], quad_segs=8)
                      for p in data.provinces]
        self.lines = [shapely.LineString((at[a], at[b])) for a, b, _ in _borders(data)]
        self.centres = STRtree(shapely.points([at[p.name] for p in data.provinces]))

    def near(self, keys: list[str], distance: float) -> list[str]:
        """The provinces and seas (keyed _SEA + sea) within ``distance`` of any of ``keys``:
        the names that crowd theirs."""
        every = list(self.at)
        points = shapely.points([self.at[k] for k in every])
        _, found = STRtree(points).query(shapely.points([self.at[k] for k in keys]),
                                         predicate="dwithin", distance=distance)
        return sorted({every[i] for i in found.tolist()})

    def slots(self) -> dict[str, Box]:
        """A place on every disc's rim kept free of names for a one-digit badge, whether
        or not the province has units now: the names are placed the same way every turn,
        and a badge always finds its province's rim. None where the rules count no units."""
        if not self.data.spec.units:
            return {}
        slot = pills_size([pill_width("9", BADGE_SIZE)], BADGE_SIZE)
        wanted = [self.badge(p.name, size=slot, rings=1) for p in self.data.provinces]
        got = placement.place(wanted, self.bounds, self.discs, self.lines)
        return {k: b for k, b in got.items() if b is not None}

    def names(self, spacing: float, slots: list[Box]
              ) -> tuple[dict[str, Box | None], dict[str, Box | None]]:
        """Every province's and sea's name, clear of the discs, the badges' slots and each
        other."""
        provinces = self.data.provinces
        seas = sorted({s for p in provinces for s in p.seas})
        wanted = [self.name(p.name) for p in provinces]
        wanted += [_sea_wanted(s, self.labels[_SEA + s], self.at[_SEA + s], spacing)
                   for s in seas]
        obstacles = [*self.discs, *(shapely.box(*b) for b in slots)]
        got = placement.place(wanted, self.bounds, obstacles, self.lines)
        return {p.name: got[p.name] for p in provinces}, {s: got[_SEA + s] for s in seas}

    def badges(self, slots: dict[str, Box], taken: list[Box]) -> dict[str, Box | None]:
        """Every province's unit badges at its slot on its disc's rim (or elsewhere on the
        rim, or just beside the disc), clear of the other discs, the star and every name."""
        wanted = [self.badge(p.name, slot=slots.get(p.name))
                  for p in self.data.provinces if p.units]
        obstacles = [*self.discs, *(shapely.box(*b) for b in taken)]
        return placement.place(wanted, self.bounds, obstacles, self.lines)

    def name(self, name: str, everywhere: bool = False) -> Wanted:
        """A province's name: beside its disc, never nearer another disc (``everywhere``:
        the misleading places too, for a name drawn anyway where none is free)."""
        label = self.labels[name]
        size = text_size(label, NAME_SIZE, stroke=3)
        centres = _around(self.at[name], self.reach[name], size)
        return Wanted(name, size, centres if everywhere else self.clear(name, centres, size))

    def badge(self, name: str, *, size: tuple[float, float] | None = None, rings: int = 4,
              slot: Box | None = None, everywhere: bool = False) -> Wanted:
        """Badges on the disc's rim, the upper corners first (as on a game piece), then the
        sides; then beside the disc, a little farther each time; never nearer another disc.
        With a ``slot``, its side of the rim comes first."""
        number, reach, (x, y) = self.number[name], self.reach[name], self.at[name]
        w, h = size or badge_size(self.data, self.data.provinces[number], BADGE_SIZE)
        a, b = w / 2, h / 2
        centres: list[Point] = []
        for d in (RADIUS - 2.0, reach + 2, reach + 2 + b, reach + 2 + h)[:rings]:
            c = d / math.sqrt(2)
            ring = [(x + c + a, y - c - b), (x - c - a, y - c - b), (x + d + a, y),
                    (x - d - a, y), (x, y - d - b), (x + c + a, y + c + b),
                    (x - c - a, y + c + b), (x, y + d + b)]
            if slot is not None:
                ring.sort(key=lambda p: _side(p, (x, y)) != _side(_middle(slot), (x, y)))
            centres += ring
        return Wanted(name, (w, h), centres if everywhere else self.clear(name, centres, (w, h)),
                      own=number)

    def clear(self, name: str, centres: list[Point], size: tuple[float, float]
              ) -> list[Point]:
        """The candidates nearer their own province's centre than any other's: a name or a
        badge nearer another disc would be read as the other's."""
        if not centres:
            return centres
        boxes = shapely.box(*np.array([box_at(c, size) for c in centres]).T)
        own = shapely.distance(boxes, shapely.Point(self.at[name]))
        box, near = self.centres.query(boxes, predicate="dwithin", distance=own)
        keep = np.ones(len(centres), dtype=bool)
        keep[box[near != self.number[name]]] = False
        return [c for c, k in zip(centres, keep.tolist()) if k]


def _side(point: Point, centre: Point) -> tuple[int, int]:
    """Which of the eight sides of ``centre`` a point is on."""
    return (int(np.sign(round(point[0] - centre[0], 3))),
            int(np.sign(round(point[1] - centre[1], 3))))


def _around(centre: Point, reach: float, size: tuple[float, float]) -> list[Point]:
    """Places for a name beside its disc, nearest first: below it, above, right, left, then
    slid along each side, then the four corners; then the same a little farther."""
    (x, y), (w, h) = centre, size
    out: list[Point] = []
    for step in (2.0, 2 + h * 0.5, 2 + h):
        gap = reach + step
        below, above = y + gap + h / 2, y - gap - h / 2
        right, left = x + gap + w / 2, x - gap - w / 2
        corner = reach * 0.7 + step
        out += [(x, below), (x, above), (right, y), (left, y)]
        for slide in (w / 4, w / 2 - reach / 2):
            out += [(x + slide, below), (x - slide, below), (x + slide, above),
                    (x - slide, above)]
        out += [(right, y + h / 2), (right, y - h / 2), (left, y + h / 2), (left, y - h / 2)]
        out += [(x + sx * (corner + w / 2), y + sy * (corner + h / 2))
                for sy in (1, -1) for sx in (1, -1)]
    return out


def _sea_wanted(sea: str, text: str, centre: Point, spacing: float) -> Wanted:
    """A sea's name (``text``: its name or code): near its node (which the layout puts
    between its coasts), on a grid around it, nearest first (sideways counts half: a name
    is wide)."""
    size = text_size(text, SEA_SIZE, stroke=3)
    step = max(4.0, size[1] * 0.75)
    reach = int(spacing * 2.2 / step)
    grid = np.arange(-reach, reach + 1, dtype=np.float64) * step
    dx, dy = (a.ravel() for a in np.meshgrid(grid, grid))
    order = np.lexsort((dx, dy, (dx / 2) ** 2 + dy ** 2))
    return Wanted(_SEA + sea, size, np.column_stack((centre[0] + dx[order],
                                                     centre[1] + dy[order])))


def _first(wanted: Wanted) -> Box:
    return box_at(wanted.centres[0], wanted.size)


def _borders(data: MapData) -> list[tuple[str, str, float]]:
    """Each link drawn once: (a, b, 1.0) for a land border, 0.5 for any other kind."""
    seen: dict[tuple[str, str], float] = {}
    for a, b, weight in _edges(data):
        pair = (min(a, b), max(a, b))
        seen[pair] = max(seen.get(pair, 0.0), weight)
    return [(a, b, w) for (a, b), w in seen.items()]


def _edges(data: MapData) -> list[tuple[str, str, float]]:
    """Borders (weight 1) and other links such as waterways (weight 0.5)."""
    return [(p.name, other, 1.0 if kind == LAND else 0.5)
            for p in data.provinces for kind, others in p.links.items() for other in others]


def laid_out(data: MapData) -> dict[str, Point]:
    """The layout of the provinces and seas' nodes in the unit square (pins kept)."""
    seas = sorted({s for p in data.provinces for s in p.seas})
    coasts = [(p.name, _SEA + s, 0.2) for p in data.provinces for s in p.seas]
    pins = {p.name: p.pin for p in data.provinces if p.pin is not None}
    return layout([*(p.name for p in data.provinces), *(_SEA + s for s in seas)],
                  _edges(data) + coasts, pins)


def positions(data: MapData, spacing: float = SPACING, at: dict[str, Point] | None = None,
              max_width: int | None = None
              ) -> tuple[dict[str, Point], tuple[int, int], float]:
    """Where each province (and each sea's name) is drawn, in pixels, the picture's size,
    and the share of ``spacing`` that ``max_width`` leaves: the GM's pins or the layout
    (``at``, if laid out already), scaled so neighbours are about ``spacing`` apart (or as
    far as ``max_width`` allows), then nudged so no two discs (with their rings) are nearer
    than a share of ``spacing`` (held to ``max_width``: the crowded clusters loosened where
    they are, into the room the map has)."""
    at = laid_out(data) if at is None else at
    pins = {p.name for p in data.provinces if p.pin is not None}
    names = list(at)
    points = np.array([at[n] for n in names], dtype=np.float64).reshape(-1, 2)
    land = np.array([not n.startswith(_SEA) for n in names])
    nearest = _typical_spacing(points[land])
    scale = spacing / nearest if nearest > 0 else spacing
    span = (points.max(axis=0) - points.min(axis=0)) * scale
    if span.max() > MAX_SIDE - 200:
        scale *= (MAX_SIDE - 200) / span.max()
    edge = np.array([RADIUS + COAST + MARGIN[0], RADIUS + COAST + MARGIN[1]])
    room = np.inf if max_width is None else max(max_width - 2 * edge[0], 1.0)
    across = min(1.0, room / span[0]) if span[0] > 0 else 1.0
    points = points * (scale * across)
    pinned = np.array([n in pins for n in names])
    before = points.copy()
    _apart(points, land, pinned, max(2 * (RADIUS + COAST) + 6, spacing * CLOSEST))
    _with_coasts(points, before, names, data)
    low, high = points.min(axis=0), points.max(axis=0)
    if high[0] - low[0] > room:  # pushed apart wider than the picture may be
        points[:, 0] = low[0] + (points[:, 0] - low[0]) * (room / (high[0] - low[0]))
        high[0] = low[0] + room
    size = (int(np.ceil(high[0] - low[0] + 2 * edge[0])),
            int(np.ceil(high[1] - low[1] + 2 * edge[1])))
    return ({n: (round(float(x - low[0] + edge[0]), 2), round(float(y - low[1] + edge[1]), 2))
             for n, (x, y) in zip(names, points)}, size, across)


def _with_coasts(points: np.ndarray, before: np.ndarray, names: list[str],
                 data: MapData) -> None:
    """Each sea's node moved as its coasts moved on average, so its name stays among them."""
    at = {n: i for i, n in enumerate(names)}
    coasts: dict[str, list[int]] = {}
    for place in data.provinces:
        for sea in place.seas:
            coasts.setdefault(_SEA + sea, []).append(at[place.name])
    for sea, rows in coasts.items():
        points[at[sea]] = before[at[sea]] + (points[rows] - before[rows]).mean(axis=0)


def _apart(points: np.ndarray, land: np.ndarray, pinned: np.ndarray, minimum: float) -> None:
    """Move discs that are closer than ``minimum`` apart along the line between them until
    none is (pinned ones stay; seas' nodes are no discs). Each round finds the close pairs
    with shapely's R-tree, so a large map costs no all-pairs distance matrix."""
    index = np.flatnonzero(land)
    for _ in range(60):
        where = shapely.points(points[index])
        a, b = STRtree(where).query(where, predicate="dwithin", distance=minimum)
        keep = a < b
        a, b = index[a[keep]], index[b[keep]]
        delta = points[b] - points[a]
        distance = np.hypot(delta[:, 0], delta[:, 1])
        close = distance < minimum - 1e-6
        if not close.any():
            return
        a, b, delta, distance = a[close], b[close], delta[close], distance[close]
        same = distance < 1e-9
        delta[same] = (1.0, 0.0)  # on top of each other: side by side
        distance[same] = 1.0
        push = delta / distance[:, None] * ((minimum - distance) / 2 + 0.5)[:, None]
        share_a = np.where(pinned[a], 0.0, np.where(pinned[b], 2.0, 1.0))[:, None]
        share_b = np.where(pinned[b], 0.0, np.where(pinned[a], 2.0, 1.0))[:, None]
        shift = np.zeros_like(points)
        np.subtract.at(shift, a, push * share_a)
        np.add.at(shift, b, push * share_b)
        points += shift
        np.round(points, 6, out=points)


def _typical_spacing(points: np.ndarray) -> float:
    """The median distance from a node to its nearest other node."""
    if len(points) < 2:
        return 0.0
    sample = points[: min(len(points), 800)]
    delta = sample[:, None, :] - points[None, :, :]
    distance = np.sqrt((delta ** 2).sum(axis=-1))
    distance[distance == 0] = np.inf
    return float(np.median(distance.min(axis=1)))


def _circle(x: float, y: float, r: float) -> tuple[float, float, float, float]:
    return (x - r, y - r, x + r, y + r)


def _middle(box: Box) -> Point:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _mid(box: Box) -> float:
    return (box[1] + box[3]) / 2


def _coast_key(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x, y = _middle(box)
    r = (box[3] - box[1]) / 2
    draw.ellipse(_circle(x, y, r), fill=SEA_FILL, outline=SEA_INK, width=2)
    draw.ellipse(_circle(x, y, r * 0.6), fill=PAPER, outline=LAND_LINE, width=1)


def _disc(picture: Image.Image, draw: ImageDraw.ImageDraw, data: MapData, place: Province,
          x: float, y: float) -> None:
    fill = data.fill(place.owner)
    draw.ellipse(_circle(x, y, RADIUS), fill=fill)
    if place.occupier is not None:
        hatch(picture, x, y, RADIUS, data.ink(place.occupier))
    draw.ellipse(_circle(x, y, RADIUS), outline=darker(fill, 0.45), width=2)
    if place.capital:
        star(draw, x, y, RADIUS * 0.8)


def hatch(picture: Image.Image, x: float, y: float, radius: float, colour: RGB) -> None:
    """Diagonal stripes of the occupier's colour across the disc."""
    side = int(2 * radius) + 2
    stripes = Image.new("RGB", (side, side), colour)
    mask = Image.new("L", (side, side), 0)
    pen = ImageDraw.Draw(mask)
    pen.ellipse((1, 1, side - 2, side - 2), fill=255)
    for offset in range(0, 2 * side + 10, 8):  # clear every other band
        pen.polygon([(offset + 4, 0), (offset + 8, 0), (offset + 8 - side, side),
                     (offset + 4 - side, side)], fill=0)
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
