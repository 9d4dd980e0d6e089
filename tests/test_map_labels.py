"""The map's names and marks: placed where nothing else is (issue 27, "maps worth posting").

Checked on the geometry the drawing is planned from, not on pixels: on every example game's
map drawn from the borders, no two names, sea names or badges overlap, none lies on a disc
(so none on a capital's star), every name is nearer its own disc than any other; on the
painted maps, every mark lies on its own province's pixels only, clear of the names the GM
painted. Then the placement itself, the legend and the title.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
import shapely
from PIL import Image

from sheetmaster import rules
from sheetmaster.app.commands.maps import map_title
from sheetmaster.app.maps.abbrev import abbreviations
from sheetmaster.app.maps.graph import (
    LEGEND_SIZE,
    MAX_WIDTH,
    NAME_SIZE,
    SEA_SIZE,
    GraphPlan,
    draw_graph,
    graph_keys,
    plan_graph,
)
from sheetmaster.app.maps.key_image import load_pixels
from sheetmaster.app.maps.marks import LEGIBLE, PREVIEW, game_name, legend, mark_keys
from sheetmaster.app.maps.placement import Wanted, overlap, place
from sheetmaster.app.maps.render import plan_image
from sheetmaster.app.maps.spots import spots
from sheetmaster.app.maps.state import MapData, Province, read_map
from sheetmaster.app.runs import ruleset_of
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import fairness
from sheetmaster.kit.mapgraph import LAND
from sheetmaster.kit.mapspec import MapSpec
from sheetmaster.kit.schema import Problems
from sheetmaster.stores.xlsx import XlsxStore
from tests.test_map_golden import TEMPLATES

MAPPED = sorted(name for name, r in rules.BUILT_IN.items() if r.map is not None)
PAINTED = [name for name in MAPPED if (TEMPLATES / f"{name}-example-map.png").exists()]


@cache
def example(game: str) -> tuple[MapData, str]:
    """The example game's map after its turn is resolved, and its map's title."""
    workbook = TEMPLATES / f"{game}-example.xlsx"
    state = XlsxStore(workbook).load()
    ruleset = ruleset_of(state)
    result = resolve(ruleset, state, secret=fairness.read_secret(workbook))
    problems = Problems()
    data = read_map(ruleset, result.after, problems)
    problems.raise_if_any()
    return data, map_title(result.after, result.turn)


@cache
def planned(game: str) -> GraphPlan:
    return plan_graph(example(game)[0])


def boxes_of(plan: GraphPlan) -> dict[str, tuple[float, float, float, float]]:
    return {**{f"name {k}": b for k, b in plan.names.items()},
            **{f"sea {k}": b for k, b in plan.seas.items()},
            **{f"badges {k}": b for k, b in plan.badges.items()}}


@pytest.mark.parametrize("game", MAPPED)
def test_no_two_names_or_badges_overlap(game):
    plan = planned(game)
    assert not plan.crowded
    boxes = boxes_of(plan)
    clashes = [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes.items(), 2)
               if overlap(box_a, box_b)]
    assert clashes == []
    width, height = plan.size
    assert all(b[0] >= 0 and b[1] >= 0 and b[2] <= width and b[3] <= height
               for b in boxes.values())


@pytest.mark.parametrize("game", MAPPED)
def test_names_lie_on_no_disc_and_badges_only_on_their_own(game):
    plan = planned(game)
    data = example(game)[0]
    assert set(plan.names) == {p.name for p in data.provinces}
    assert set(plan.badges) == {p.name for p in data.provinces if p.units}
    discs = {n: shapely.Point(plan.at[n]).buffer(r) for n, r in plan.reach.items()}
    for label, box in boxes_of(plan).items():
        kind, _, whose = label.partition(" ")
        hit = {n for n, disc in discs.items() if disc.intersects(shapely.box(*box))}
        assert hit <= ({whose} if kind == "badges" else set()), label


@pytest.mark.parametrize("game", MAPPED)
def test_each_name_and_badge_is_nearest_its_own_disc(game):
    plan = planned(game)
    for name, box in [*plan.names.items(), *plan.badges.items()]:
        shape = shapely.box(*box)
        own = shape.distance(shapely.Point(plan.at[name]))
        nearer = [n for n in plan.reach if n != name
                  and shape.distance(shapely.Point(plan.at[n])) < own]
        assert nearer == [], name


@pytest.mark.parametrize("game", PAINTED)
def test_marks_on_a_painted_map_cover_only_their_own_province(game):
    data, _ = example(game)
    plan = plan_image(data, load_pixels(TEMPLATES / f"{game}-example-map.png"), "key",
                      Problems())
    numbers = {p.name: i for i, p in enumerate(data.provinces)}
    assert plan.marks  # every example painted map has capitals
    for kind, province, (left, top, right, bottom) in plan.marks:
        under = plan.index[top:bottom, left:right]
        assert under.size and (under == numbers[province.name]).all(), (kind, province.name)
    for (_, _, a), (_, _, b) in itertools.combinations(plan.marks, 2):
        assert not overlap(a, b)


@pytest.mark.parametrize("game", MAPPED)
def test_the_legend_explains_every_mark_and_the_title_is_game_and_turn(game):
    data, title = example(game)
    texts = [k.text for k in graph_keys(data)]
    assert ("capital" in texts) == any(p.capital for p in data.provinces)
    assert any(t.startswith("units") for t in texts) == any(p.units for p in data.provinces)
    assert ("coastal: on a sea" in texts) == any(p.seas for p in data.provinces)
    assert "border" in texts
    assert "(" not in title and title.endswith(", after turn " + title.rsplit(" ", 1)[1])


# --- the placement -------------------------------------------------------------------------

def test_a_thing_takes_its_best_candidate_that_is_free():
    got = place([Wanted("a", (10, 10), [(5, 5), (30, 5)])], (0, 0, 100, 100),
                [shapely.Point(5, 5).buffer(3)])
    assert got == {"a": (25.0, 0.0, 35.0, 10.0)}


def test_two_things_wanting_one_place_share_it_out_without_overlapping():
    wanted = [Wanted("a", (10, 10), [(20, 20), (40, 20)]),
              Wanted("b", (10, 10), [(20, 20)])]
    got = place(wanted, (0, 0, 100, 100))
    assert got == {"b": (15.0, 15.0, 25.0, 25.0), "a": (35.0, 15.0, 45.0, 25.0)}


def test_a_thing_with_no_free_candidate_is_reported_not_drawn_over_another():
    wanted = [Wanted("a", (10, 10), [(20, 20)]), Wanted("b", (10, 10), [(22, 22)])]
    got = place(wanted, (0, 0, 100, 100))
    assert sorted(v is None for v in got.values()) == [False, True]


def test_a_candidate_crossing_fewer_lines_comes_first_and_the_edge_is_a_wall():
    line = shapely.LineString(((0, 20), (100, 20)))
    wanted = [Wanted("a", (10, 10), [(50, 20), (50, 60), (50, 98)])]
    assert place(wanted, (0, 0, 100, 100), lines=[line]) == {"a": (45.0, 55.0, 55.0, 65.0)}


def test_a_badge_may_overlap_its_own_disc_only():
    discs = [shapely.Point(10, 10).buffer(5), shapely.Point(40, 10).buffer(5)]
    own = Wanted("mine", (6, 6), [(14, 10)], own=0)
    other = Wanted("theirs", (6, 6), [(36, 10)], own=0)
    got = place([own, other], (0, 0, 100, 100), discs)
    assert got["mine"] is not None and got["theirs"] is None


def test_a_spot_on_a_painted_province_keeps_clear_of_the_gms_name():
    index = np.zeros((60, 60), dtype=np.int64)
    index[25:35, 10:50] = -1  # the GM's name across the middle
    (box,) = spots(index, 0, (30, 30), [(12, 12)], gap=2)
    left, top, right, bottom = box
    assert (index[top - 2:bottom + 2, left - 2:right + 2] == 0).all()
    assert abs((top + bottom) / 2 - 30) < 20  # still near the middle


# --- the title -----------------------------------------------------------------------------

@pytest.mark.parametrize(("setting", "name"), [
    ("Example: Golden Age 1861 (every number in Settings is the example's)",
     "Example: Golden Age 1861"),
    ("Europa (1900)", "Europa (1900)"),
    ("The Long War\nturn deadlines are Sundays", "The Long War"),
    ("  Plain  ", "Plain"),
    ("", ""),
])
def test_the_title_names_the_game_without_the_gms_note(setting, name):
    assert game_name(setting) == name


def test_the_painted_maps_legend_has_no_lines_or_seas():
    data, _ = example("clans")
    assert [k.text for k in mark_keys(data, 14)] == [
        "capital", "units there (in their owner's colour)"]


def test_a_title_wider_than_the_picture_wraps_and_keeps_the_turn():
    from sheetmaster.app.maps.marks import _wrapped, font

    title = "Example: the Matter of Britain, after turn 2"
    lines = _wrapped(title, font(20), 260)
    assert len(lines) > 1 and " ".join(lines) == title
    assert all(font(20).getlength(line) <= 260 for line in lines)
    assert _wrapped("Constantinople-and-the-Straits", font(20), 100)[0].endswith("\u2026")


# --- legible in a chat's preview -----------------------------------------------------------

def preview_height(size: int, width: int) -> float:
    """Letters of ``size`` pixels in a picture ``width`` wide, shown PREVIEW wide."""
    return size * PREVIEW / width


@pytest.mark.parametrize("game", MAPPED)
def test_every_name_is_legible_at_a_chats_preview_width(game):
    """"Legible at Discord's preview width": the picture is as wide as its plan (the legend
    never widens it), and shown 550 pixels wide its names, seas' names and legend are at
    least 11 pixels high; every name is written whole, or as a code the legend spells out."""
    data, title = example(game)
    plan = planned(game)
    assert draw_graph(data).width == plan.size[0] <= MAX_WIDTH
    for size in (NAME_SIZE, SEA_SIZE, LEGEND_SIZE):
        assert preview_height(size, plan.size[0]) >= LEGIBLE
    for province in data.provinces:
        written = plan.labels[province.name]
        assert written == province.label or plan.codes[written] == province.label
    for sea, written in plan.sea_labels.items():
        assert written == sea or plan.codes[written] == sea


@pytest.mark.parametrize("game", PAINTED)
def test_a_painted_maps_legend_is_legible_at_a_chats_preview_width(game):
    from sheetmaster.app.maps.key_image import load_pixels as pixels_of
    from sheetmaster.app.maps.render import legend_size

    width = pixels_of(TEMPLATES / f"{game}-example-map.png").shape[1]
    assert preview_height(legend_size(width), width) >= LEGIBLE


@pytest.mark.parametrize("game", PAINTED)
def test_the_names_painted_on_an_example_key_image_are_legible_at_preview_width(game):
    """The shipped key images' names (sheetmaster.testing.mapimages) are painted in solid
    LABEL pixels: their tallest stroke (an 'l', a 'k': 0.76 of the letters' size in DejaVu
    Sans) is measured, shown PREVIEW wide."""
    from sheetmaster.testing.mapimages import LABEL

    pixels = np.asarray(Image.open(TEMPLATES / f"{game}-example-map.png").convert("RGB"))
    ink = (pixels == LABEL).all(axis=-1)
    run, tallest = np.zeros(ink.shape[1], dtype=np.int64), 0
    for row in ink:
        run = np.where(row, run + 1, 0)
        tallest = max(tallest, int(run.max()))
    assert preview_height(tallest, ink.shape[1]) >= 0.72 * LEGIBLE


def crowded_map(names: list[str], columns: int) -> MapData:
    """Provinces in a grid, each bordering the next in its row and column."""
    rows = [names[i:i + columns] for i in range(0, len(names), columns)]
    links: dict[str, set[str]] = {n: set() for n in names}
    for r, row in enumerate(rows):
        for c, name in enumerate(row):
            for other in ([row[c + 1]] if c + 1 < len(row) else []) + \
                    ([rows[r + 1][c]] if r + 1 < len(rows) and c < len(rows[r + 1]) else []):
                links[name].add(other)
                links[other].add(name)
    provinces = [Province(n, i + 2, n, links={LAND: tuple(sorted(links[n]))})
                 for i, n in enumerate(names)]
    return MapData(MapSpec("Lands", owner="owner", links={LAND: "borders"}), provinces, {},
                   (230, 225, 210))


LONG = [f"{word} {part}" for word in ("Upper", "Lower", "Middle", "Greater", "Northern",
                                      "Southern") for part in ("Marchland", "Riverside",
                                                              "Highlands", "Forestdale")]


def test_names_that_find_no_place_within_the_width_are_written_as_codes_in_the_legend():
    data = crowded_map(LONG, 4)
    plan = plan_graph(data, max_width=400)
    assert plan.size[0] <= 400 and not plan.crowded
    assert plan.codes  # some names did not fit whole
    for province in data.provinces:
        written = plan.labels[province.name]
        assert written == province.label or plan.codes[written] == province.label
    assert all(len(code) <= 4 for code in plan.codes)
    boxes = list(boxes_of(plan).values())
    assert not any(overlap(a, b) for a, b in itertools.combinations(boxes, 2))
    assert plan_graph(data, max_width=None).codes == {}  # as wide as the names need


def test_the_legend_spells_out_every_code():
    data = crowded_map(LONG, 4)
    short = draw_graph(data, max_width=400)
    whole = legend(Image.new("RGB", (400, 100)), data, LEGEND_SIZE, [])
    assert short.height - plan_graph(data, max_width=400).size[1] > whole.height - 100


def test_a_map_too_big_for_the_width_is_drawn_as_wide_as_its_whole_names_need():
    data = crowded_map(LONG, 4)
    plan = plan_graph(data, max_width=120)
    assert plan.codes == {} and not plan.crowded and plan.size[0] > 120


@pytest.mark.parametrize(("names", "codes"), [
    (["Burgundy", "Brittany", "Brandenburg"], ["Bur", "Bri", "Bra"]),
    (["East Prussia", "Eastern Mediterranean"], ["EPr", "EMe"]),
    (["Irish Sea", "Ionian Sea"], ["Iri", "ISe"]),
    (["Kent", "York", "Paris"], ["Kent", "York", "Par"]),
    (["Tyrol", "Tyrrhenian Sea"], ["Tyr", "TSe"]),
    (["Saxony", "Sax"], ["Sao", "Sax"]),  # a code is never another name
])
def test_codes_are_short_unique_and_depend_on_the_names_alone(names, codes):
    got = abbreviations(names)
    assert [got[n] for n in names] == codes
    assert abbreviations(reversed(names)) == got
