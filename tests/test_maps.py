"""The map picture: reading the map from the tabs, recolouring a GM's key image, the layout
without one, and the problems that stop a turn before anything is written."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PIL import Image

from sheetmaster import rules
from sheetmaster.app.maps.colours import parse_colour
from sheetmaster.app.maps.layout import TooBig, layout
from sheetmaster.app.maps.marks import legend
from sheetmaster.app.maps.recolour import key_code, paint, province_index
from sheetmaster.app.maps.render import NoPicture, map_picture
from sheetmaster.app.maps.state import read_map
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import prepare
from sheetmaster.kit.mapgraph import LAND
from sheetmaster.kit.mapspec import MapSpec, Units
from sheetmaster.kit.ruleset import Ruleset, RulesetError
from sheetmaster.kit.schema import Column, Kind, Problems, StateError, Table
from tests import toy

MAP = MapSpec("Lands", owner="owner", links={LAND: "borders"},
              units=(Units("Units", location="at", owner="owner"),),
              occupation_from_units=True, nobody="nobody")
RULES = toy.ruleset(map=MAP)
KEYS = {"A": "#ff0000", "B": "#00ff00", "C": "#0000ff", "D": "#ffff00", "E": "#ff00ff",
        "F": "#00ffff"}
BORDER = (10, 10, 10)


def lands(**columns: dict[str, str]) -> list[dict[str, str]]:
    rows = [dict(r) for r in toy.LAND_ROWS]
    for row in rows:
        for column, cells in columns.items():
            if row["land"] in cells:
                row[column] = cells[row["land"]]
    return rows


def game(land_rows=None, units=(), realms=None, rules=RULES):
    tables = {"Lands": land_rows or lands(**{"map colour": KEYS}), "Units": list(units)}
    if realms is not None:
        tables["Realms"] = realms
    return prepare(rules, toy.state(rules, tables=tables)).state


def read(state, rules=RULES):
    problems = Problems()
    data = read_map(rules, state, problems)
    return data, problems


def key_image(tmp_path, leave_out: str = "", shape=(40, 60)):
    """Six 20 x 20 provinces in two rows, a dark 1-pixel border between them."""
    height, width = shape
    pixels = np.zeros((height, width, 3), dtype=np.uint8)
    for i, name in enumerate("ABCDEF"):
        top, left = (i // 3) * 20, (i % 3) * 20
        colour = (200, 200, 200) if name == leave_out else parse_colour(KEYS[name])
        pixels[top:top + 20, left:left + 20] = colour
    pixels[19, :], pixels[:, 19], pixels[:, 39] = BORDER, BORDER, BORDER
    path = tmp_path / "key.png"
    Image.fromarray(pixels, "RGB").save(path)
    return path


# --- reading the map from the tabs ---------------------------------------------------------

def test_owners_colours_and_units_are_read_from_the_tabs():
    state = game(lands(owner={"A": "Stark", "B": "stark", "C": "Tully", "F": "nobody"},
                       **{"map colour": KEYS}),
                 units=[{"unit": "u1", "owner": "Stark", "at": "A"},
                        {"unit": "u2", "owner": "Stark", "at": "A"},
                        {"unit": "u3", "owner": "Tully", "at": "B"}],
                 realms=[{**r, "colour": "teal" if r["realm"] == "Tully" else ""}
                         for r in toy.REALM_ROWS])
    data, problems = read(state)
    assert not problems.items
    by = {p.name: p for p in data.provinces}
    assert (by["A"].owner, by["B"].owner, by["F"].owner) == ("Stark", "Stark", "")
    assert data.colours["Tully"] == (0, 128, 128)
    assert data.colours["Stark"] == parse_colour("#1f77b4")  # the palette's first
    assert by["A"].units == {"Stark": 2} and by["B"].units == {"Tully": 1}
    # "a province holding another nation's regiment" is occupied by it
    assert by["B"].occupier == "Tully" and by["A"].occupier is None
    assert by["A"].links[LAND] == ("B", "D", "E")
    assert by["A"].key == (255, 0, 0)


def test_a_bad_colour_names_tab_row_and_column():
    state = game(lands(**{"map colour": {**KEYS, "C": "chartreuse-ish"}}),
                 realms=[{**r, "colour": "#12345"} if r["realm"] == "Arryn" else r
                         for r in toy.REALM_ROWS])
    _, problems = read(state)
    found = {(p.tab, p.row, p.column) for p in problems.items}
    assert ("Lands", 4, "map colour") in found
    assert ("Realms", 4, "colour") in found
    assert any("'chartreuse-ish' is not a colour" in p.message for p in problems.items)


def test_two_provinces_sharing_a_key_colour_is_a_problem():
    _, problems = read(game(lands(**{"map colour": {**KEYS, "E": "#FF0000"}})))
    (problem,) = problems.items
    assert (problem.tab, problem.row, problem.column) == ("Lands", 6, "map colour")
    assert "#ff0000 is also the key colour of 'A' (row 2)" in problem.message


def test_a_half_pinned_province_is_a_problem():
    _, problems = read(game(lands(**{"map colour": KEYS, "map x": {"A": 3}})))
    (problem,) = problems.items
    assert (problem.row, problem.column) == (2, "map y")
    assert "give both" in problem.message


def test_capitals_from_a_column_or_from_the_players_tab():
    marked = toy.ruleset(map=MapSpec("Lands", capital="terrain"))
    state = game(lands(terrain={"C": "Hill"}, **{"map colour": KEYS}), rules=marked)
    data, _ = read(state, marked)
    assert [p.name for p in data.provinces if p.capital] == ["C"]
    clans = rules.get("clans")  # its Clans tab names each clan's capital province
    tables, orders, settings = clans.example()
    data, problems = read(prepare(clans, build_state(clans, tables, orders,
                                                     settings=settings)).state, clans)
    assert not problems.items
    assert sorted(p.name for p in data.provinces if p.capital) == \
        sorted(row["capital"] for row in tables["Clans"])


def test_a_map_naming_undeclared_tabs_or_columns_is_refused_when_declared():
    with pytest.raises(RulesetError, match="tab 'Provinces'"):
        toy.ruleset(map=MapSpec("Provinces"))
    with pytest.raises(RulesetError, match="column 'where' of tab Units"):
        toy.ruleset(map=MapSpec("Lands", units=(Units("Units", "where", "owner"),)))


def test_declaring_a_map_adds_its_optional_columns_to_the_tabs():
    lands, realms = RULES.table("Lands"), RULES.table("Realms")
    assert lands.names[-3:] == ["map colour", "map x", "map y"]
    assert realms.names[-1] == "colour"
    assert all(lands.column(c).optional for c in ("map colour", "map x", "map y"))
    assert "the land's colour in the GM's map image" in lands.column("map colour").help
    assert toy.ruleset().table("Lands").names == toy.LANDS.names  # no map: left alone
    own = toy.ruleset(map=MapSpec("Lands", key_colour="terrain"))
    assert own.table("Lands").names == [*toy.LANDS.names, "map x", "map y"]


SEAS = Table("Seas", (Column("sea", Kind.NAME),), key="sea", noun="sea")
AT_SEA = toy.ruleset(tables=(SEAS,), map=MapSpec(
    "Lands", units=(Units("Units", "at", "owner", off_map=("Seas",)),)))


def test_units_off_the_map_are_not_drawn_and_are_no_problem():
    tables = {"Seas": [{"sea": "Narrow Sea"}],
              "Units": [{"unit": "u1", "owner": "Stark", "at": "narrow sea"},
                        {"unit": "u2", "owner": "Stark", "at": "A"},
                        {"unit": "u3", "owner": "Tully", "at": "Summer Sea"}]}
    data, problems = read(toy.state(AT_SEA, tables=tables), AT_SEA)
    assert {p.name: p.units for p in data.provinces if p.units} == {"A": {"Stark": 1}}
    (problem,) = problems.items  # a place that is neither a land nor a sea
    assert (problem.tab, problem.row, problem.column) == ("Units", 4, "at")
    assert "'Summer Sea' is not a row of the 'Lands' tab" in problem.message
    with pytest.raises(RulesetError, match="tab 'Oceans'"):
        toy.ruleset(map=MapSpec("Lands", units=(Units("Units", "at", "owner",
                                                      off_map=("Oceans",)),)))


def test_the_map_tab_itself_can_hold_the_units_a_blank_cell_being_none():
    """1800: "the nation whose regiment stands here (one at most)" is a Provinces column."""
    on_map = toy.ruleset(map=MapSpec("Lands", units=(Units("Lands", "land", "owner"),)))
    state = toy.state(on_map, tables={"Lands": lands(owner={"A": "Stark", "C": "Tully",
                                                            "D": "nobody"})})
    data, problems = read(state, on_map)
    assert not problems.items
    assert {p.name: p.units for p in data.provinces if p.units} == \
        {"A": {"Stark": 1}, "C": {"Tully": 1}}


GONE_REALMS = Table("Realms", (*toy.REALMS.columns, Column("capital", Kind.TEXT),
                               Column("status", Kind.TEXT)),
                    key="realm", lists_players=True, noun="realm", entity=toy.Realm,
                    retired=("status", "gone"))


def test_a_gone_player_keeps_its_colour_but_leaves_the_legend_and_its_capital():
    """decades: "the row is kept" once a state is annexed; the others' colours must not
    shift because of it."""
    gone = Ruleset(**{**{f: getattr(RULES, f) for f in ("name", "title", "version",
                                                         "order_kinds", "order_columns",
                                                         "phases", "build_world")},
                      "tables": (GONE_REALMS, toy.LANDS, toy.UNITS),
                      "map": MapSpec("Lands", players_capital="capital")})
    realms = [{**r, "capital": "ABCD"[i], "status": "gone (annexed)" if i == 1 else ""}
              for i, r in enumerate(toy.REALM_ROWS)]
    data, problems = read(toy.state(gone, tables={"Realms": realms}), gone)
    assert not problems.items
    assert data.gone == {"Tully"}
    assert data.colours["Arryn"] == parse_colour("#2ca02c")  # the palette's third, still
    assert [p.name for p in data.provinces if p.capital] == ["A", "C", "D"]
    tully = parse_colour("#ff7f0e")  # the palette's second

    def shown(data) -> bool:
        strip = np.asarray(legend(Image.new("RGB", (400, 10)), data, 16))
        return bool((strip == tully).all(axis=-1).any())

    assert not shown(data) and shown(replace(data, gone=frozenset()))


def test_the_legend_names_nobodys_colour_only_when_a_province_is_nobodys():
    everyone = {n: "Stark" for n in "ABCDEF"}

    def legend_has_neutral(state) -> bool:
        data, _ = read(state)
        strip = np.asarray(legend(Image.new("RGB", (400, 10)), data, 16))
        return bool((strip == data.neutral).all(axis=-1).any())

    assert legend_has_neutral(game())
    assert not legend_has_neutral(game(lands(owner=everyone, **{"map colour": KEYS})))


def test_the_drawing_without_an_image_names_provinces_by_the_label_column():
    labelled = toy.ruleset(map=MapSpec("Lands", label="terrain", links={LAND: "borders"}))
    state = toy.state(labelled, tables={"Lands": lands(terrain={"A": "Hill"})})
    data, _ = read(state, labelled)
    assert [p.label for p in data.provinces][:2] == ["Hill", "B"]


# --- recolouring ---------------------------------------------------------------------------

def test_recolouring_paints_each_province_and_keeps_every_other_pixel(tmp_path):
    pixels = np.asarray(Image.open(key_image(tmp_path)).convert("RGBA")).copy()
    keys = [key_code(parse_colour(KEYS[n])) for n in "ABCDEF"]
    index = province_index(pixels, keys)
    fills = [(1, 2, 3)] * 3 + [(9, 9, 9)] * 3
    painted = paint(pixels, index, fills)
    out = painted.pixels
    assert (out[5, 5, :3] == (1, 2, 3)).all() and (out[30, 50, :3] == (9, 9, 9)).all()
    assert (out[19, :, :3] == BORDER).all()  # the GM's borders stay as painted
    assert painted.counts.tolist() == [19 * 19, 19 * 19, 19 * 20, 20 * 19, 20 * 19, 20 * 20]
    for (x, y), n in zip(painted.anchors.tolist(), range(6)):
        assert index[y, x] == n


def test_occupied_provinces_are_hatched_with_the_occupiers_colour(tmp_path):
    pixels = np.asarray(Image.open(key_image(tmp_path)).convert("RGBA")).copy()
    index = province_index(pixels, [key_code(parse_colour(KEYS[n])) for n in "ABCDEF"])
    painted = paint(pixels, index, [(200, 0, 0)] * 6, [None, (0, 0, 200)], stripe=3)
    b = painted.pixels[0:19, 20:39, :3].reshape(-1, 3)
    colours = {tuple(c) for c in b.tolist()}
    assert colours == {(200, 0, 0), (0, 0, 200)}
    share = (b == (0, 0, 200)).all(axis=1).mean()
    assert 0.35 < share < 0.65
    a = painted.pixels[0:19, 0:19, :3].reshape(-1, 3)
    assert {tuple(c) for c in a.tolist()} == {(200, 0, 0)}


def test_a_crescent_gets_its_marks_inside_it():
    pixels = np.zeros((41, 41, 4), dtype=np.uint8)
    ys, xs = np.mgrid[0:41, 0:41]
    ring = (np.hypot(xs - 20, ys - 20) < 20) & (np.hypot(xs - 20, ys - 20) > 12)
    pixels[ring] = (255, 0, 0, 255)
    index = province_index(pixels, [key_code((255, 0, 0))])
    painted = paint(pixels, index, [(0, 255, 0)])
    (x, y), = painted.anchors.tolist()
    assert ring[y, x]


def test_the_picture_from_a_key_image_recolours_by_owner(tmp_path):
    state = game(lands(owner={"A": "Stark", "E": "Stark"}, **{"map colour": KEYS}),
                 units=[{"unit": "u", "owner": "Tully", "at": "A"}])
    picture = map_picture(RULES, state, image=key_image(tmp_path), title="t")
    assert picture.width == 60 and picture.height > 40  # and a legend below
    pixels = np.asarray(picture.convert("RGB"))
    stark, neutral = parse_colour("#1f77b4"), parse_colour(MAP.neutral)
    assert tuple(pixels[25, 45]) == neutral  # F, nobody's
    assert tuple(pixels[21, 21]) == stark  # E, Stark's
    assert tuple(pixels[19, 5]) == BORDER


def test_a_province_missing_from_the_image_stops_with_tab_row_column(tmp_path):
    state = game()
    with pytest.raises(StateError) as caught:
        map_picture(RULES, state, image=key_image(tmp_path, leave_out="D"))
    (problem,) = caught.value.problems
    assert (problem.tab, problem.row, problem.column) == ("Lands", 5, "map colour")
    assert "#ffff00 is nowhere in the map image key.png" in problem.message


def test_a_blank_key_colour_stops_only_when_there_is_an_image(tmp_path):
    state = game(lands(**{"map colour": {**KEYS, "B": ""}}))
    with pytest.raises(StateError) as caught:
        map_picture(RULES, state, image=key_image(tmp_path))
    assert [(p.row, p.column) for p in caught.value.problems] == [(3, "map colour")]
    assert map_picture(RULES, state).width > 100  # drawn from the borders instead


def test_an_empty_map_has_no_picture():
    state = prepare(RULES, toy.state(RULES, tables={"Lands": [], "Units": []})).state
    with pytest.raises(NoPicture, match="no rows"):
        map_picture(RULES, state)


# --- the layout without an image -----------------------------------------------------------

GRID = [(f"{r}{c}", f"{r}{c + 1}", 1.0) for r in "abcd" for c in range(4)] + \
       [(f"{r}{c}", f"{s}{c}", 1.0) for r, s in zip("abc", "bcd") for c in range(5)]
NODES = sorted({n for a, b, _ in GRID for n in (a, b)})


def test_the_layout_is_the_same_every_time_whatever_the_order_of_the_rows():
    first = layout(NODES, GRID)
    assert layout(list(reversed(NODES)), list(reversed(GRID))) == first
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in first.values())


def test_neighbours_are_drawn_closer_than_strangers():
    at = layout(NODES, GRID)

    def gap(a, b):
        return np.hypot(at[a][0] - at[b][0], at[a][1] - at[b][1])

    assert max(gap(a, b) for a, b, _ in GRID) < gap("a0", "d4")


def test_a_turn_that_changes_owners_and_units_draws_every_province_where_it_was():
    from sheetmaster.app.maps.graph import positions

    quiet, _ = read(game())
    busy, _ = read(game(lands(owner={"A": "Stark", "B": "Tully", "C": "Tully"},
                              **{"map colour": KEYS}),
                        units=[{"unit": "u", "owner": "Stark", "at": "B"}]))
    assert positions(quiet) == positions(busy)


def test_pinned_provinces_keep_their_place_when_a_province_is_added():
    pins = {n: (float(ord(n[0])), float(n[1])) for n in NODES if n[1] in "04"}
    before = layout(NODES, GRID, pins)
    after = layout([*NODES, "e0"], [*GRID, ("d0", "e0", 1.0)], pins)
    assert all(before[n] == after[n] for n in pins)


def test_pinned_provinces_stay_where_the_gm_put_them():
    pins = {"a0": (100.0, 100.0), "d4": (500.0, 300.0)}
    at = layout(NODES, GRID, pins)
    assert at["a0"] == (0.0, 0.0) and at["d4"] == (1.0, 0.5)
    assert 0 < at["b2"][0] < 1


def test_too_many_unpinned_provinces_are_refused(monkeypatch):
    monkeypatch.setattr("sheetmaster.app.maps.layout.MAX_FREE", 10)
    with pytest.raises(TooBig, match="give a map image, or pin them"):
        layout(NODES, GRID)
    assert len(layout(NODES, GRID, {n: (1.0, i) for i, n in enumerate(NODES)})) == 20
