"""The map's state, read from a game's tabs as the ruleset's :class:`MapSpec` says.

Every problem is collected with its tab, row and column, so a broken colour or an unknown
province stops a resolve before anything is written, like any broken state tab.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sheetmaster.engine.turn import find_tab
from sheetmaster.kit import values
from sheetmaster.kit.mapspec import MapSpec, Units
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Problems, Table
from sheetmaster.kit.values import BadValue, Names

from .colours import NOBODY, RGB, BadColour, hex_colour, palette_colour, parse_colour


@dataclass
class Province:
    name: str
    row: int
    #: the name drawn without an image (the spec's label column; else the name).
    label: str = ""
    owner: str = ""
    capital: bool = False
    #: None: not occupied; a player's name; '' for someone who is no player (rebels).
    occupier: str | None = None
    #: the province's key colour in the GM's map image.
    key: RGB | None = None
    pin: tuple[float, float] | None = None
    #: edge kind -> neighbouring provinces.
    links: dict[str, tuple[str, ...]] = field(default_factory=dict)
    seas: tuple[str, ...] = ()
    #: player ('' for nobody's units) -> units standing here.
    units: dict[str, int] = field(default_factory=dict)


@dataclass
class MapData:
    """Everything a map picture shows."""

    spec: MapSpec
    provinces: list[Province]
    #: the players in the players tab's order, each with their colour.
    colours: dict[str, RGB]
    neutral: RGB
    #: players the players tab marks retired (a state gone, annexed): not in the legend.
    gone: frozenset[str] = frozenset()
    title: str = ""
    #: where the key colours were read from, for messages.
    key_column: str = ""

    def fill(self, owner: str) -> RGB:
        return self.colours.get(owner, self.neutral) if owner else self.neutral

    def ink(self, player: str) -> RGB:
        """The colour of a player's units and occupation ('' : nobody's)."""
        return self.colours.get(player, NOBODY) if player else NOBODY


def read_map(ruleset: Ruleset, state: GameState, problems: Problems,
             title: str = "") -> MapData:
    """The map of ``state`` (a game's tabs, raw or checked) by ``ruleset.map``."""
    spec: MapSpec = ruleset.map
    players_table = ruleset.players_table()
    colours, players, gone = _players(spec, players_table, state, problems)
    frame, tab = _frame(state, spec.tab, problems)
    table = _declared(ruleset, spec.tab)
    key = table.key if table is not None and table.key else \
        (str(frame.columns[0]) if len(frame.columns) else "")
    col = _Columns(frame)
    owner_none = _none_words(table, spec.owner)
    rows = frame.index.tolist()
    names, owners, keys = col.cells(key), col.cells(spec.owner), col.cells(spec.key_colour)
    capitals, occupiers = col.cells(spec.capital), col.cells(spec.occupied_by)
    xs, ys, seas = col.cells(spec.x), col.cells(spec.y), col.cells(spec.seas)
    labels = col.cells(spec.label)
    links = {kind: col.cells(column) for kind, column in spec.links.items()
             if col.has(column)}
    provinces: list[Province] = []
    for i, row in enumerate(rows):
        name = values.text(names[i])
        if not name:
            continue
        place = Province(name, int(row), values.text(labels[i]) or name)
        place.owner = _player(owners[i], players, owner_none, problems, tab, row, spec.owner)
        place.capital = _marked(capitals[i])
        place.occupier = _occupier(occupiers[i], players)
        place.key = _colour(keys[i], problems, tab, row, spec.key_colour)
        place.pin = _pin(xs[i], ys[i], spec, problems, tab, row)
        place.seas = tuple(values.name_list(seas[i]))
        place.links = {kind: tuple(values.name_list(cells[i])) for kind, cells in links.items()}
        provinces.append(place)
    by_name = Names([p.name for p in provinces])
    places = {p.name: p for p in provinces}
    for place in provinces:
        place.links = {kind: tuple(n for n in (by_name.get(x) for x in names) if n)
                       for kind, names in place.links.items()}
    _check_keys(provinces, tab, spec.key_colour, problems)
    if spec.players_capital and players_table is not None:
        _players_capitals(spec, players_table, state, by_name, places, problems)
    for units in spec.units:
        _count_units(ruleset, units, state, by_name, places, players, problems)
    if spec.occupation_from_units:
        for place in provinces:
            if place.owner and place.occupier is None:
                place.occupier = _strongest_other(place)
    neutral = parse_colour(spec.neutral)
    return MapData(spec, provinces, colours, neutral, frozenset(gone), title, spec.key_colour)


class _Columns:
    """A frame's columns found by their folded names (case and spaces do not matter)."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._frame = frame
        self._by_fold = {values.fold(str(c)): c for c in frame.columns}

    def has(self, name: str) -> bool:
        return bool(name) and values.fold(name) in self._by_fold

    def cells(self, name: str) -> list[Any]:
        """The column's cells, or blanks when the tab has no such column."""
        if not self.has(name):
            return [None] * len(self._frame)
        return self._frame[self._by_fold[values.fold(name)]].tolist()


def _frame(state: GameState, tab: str, problems: Problems) -> tuple[pd.DataFrame, str]:
    name = find_tab(state.tables, tab)
    if name is None:
        problems.add(tab, None, None, f"the game has no tab named '{tab}'")
        return pd.DataFrame(), tab
    return state.tables[name], tab


def _declared(ruleset: Ruleset, tab: str) -> Table | None:
    try:
        return ruleset.table(tab)
    except KeyError:
        return None


def _none_words(table: Table | None, column: str) -> set[str]:
    if table is None:
        return set()
    try:
        return {values.fold(w) for w in table.column(column).none_words}
    except KeyError:
        return set()


def _players(spec: MapSpec, table: Table | None, state: GameState,
             problems: Problems) -> tuple[dict[str, RGB], Names, set[str]]:
    """Each player's colour: their own, or the palette's by their place in the tab (gone
    players keep their place, so nobody's colour changes when one is annexed)."""
    if table is None or not table.key:
        return {}, Names([]), set()
    frame, tab = _frame(state, table.tab, problems)
    col = _Columns(frame)
    colours: dict[str, RGB] = {}
    gone = _retired(table, col)
    out: set[str] = set()
    for index, (row, cell, colour) in enumerate(zip(frame.index.tolist(), col.cells(table.key),
                                                    col.cells(spec.colour))):
        name = values.text(cell)
        if not name:
            continue
        own = _colour(colour, problems, tab, row, spec.colour)
        colours[name] = own or palette_colour(index)
        if gone[index]:
            out.add(name)
    return colours, Names(colours), out


def _retired(table: Table | None, col: _Columns) -> list[bool]:
    """Each row: whether its Table declares it retired (status 'gone (...)')."""
    retired = table.retired if table is not None else None
    if not retired:
        return [False] * len(col.cells(""))
    word = values.fold(retired[1])
    return [values.fold(values.text(c)).startswith(word) for c in col.cells(retired[0])]


def _player(cell: Any, players: Names, none_words: set[str], problems: Problems, tab: str,
            row: int, column: str) -> str:
    text = values.text(cell)
    if not text or values.fold(text) in none_words:
        return ""
    found = players.get(text)
    if found is None:
        problems.add(tab, int(row), column, f"{values.show(text)} is not a player")
        return ""
    return found


def _marked(cell: Any) -> bool:
    """A capital cell: a player's name or yes marks one; blank or no does not."""
    text = values.text(cell)
    if not text:
        return False
    try:
        return values.yes_no(text)
    except BadValue:
        return True


def _occupier(cell: Any, players: Names) -> str | None:
    text = values.text(cell)
    if not text:
        return None
    try:
        if not values.yes_no(text):
            return None
    except BadValue:
        pass
    return players.get(text) or ""


def _colour(cell: Any, problems: Problems, tab: str, row: int, column: str) -> RGB | None:
    text = values.text(cell)
    if not text:
        return None
    try:
        return parse_colour(text)
    except BadColour as exc:
        problems.add(tab, int(row), column, str(exc))
        return None


def _pin(x: Any, y: Any, spec: MapSpec, problems: Problems, tab: str, row: int
         ) -> tuple[float, float] | None:
    if values.is_blank(x) and values.is_blank(y):
        return None
    got: list[float] = []
    for name, cell in ((spec.x, x), (spec.y, y)):
        if values.is_blank(cell):
            continue
        try:
            got.append(float(values.integer(cell)))
        except BadValue as exc:
            problems.add(tab, int(row), name, f"{exc} (a whole number expected)")
    if len(got) == 1:
        problems.add(tab, int(row), spec.y if values.is_blank(y) else spec.x,
                     f"give both '{spec.x}' and '{spec.y}', or neither")
    return (got[0], got[1]) if len(got) == 2 else None


def _check_keys(provinces: list[Province], tab: str, column: str, problems: Problems) -> None:
    """Each key colour belongs to one province only."""
    first: dict[RGB, Province] = {}
    for place in provinces:
        if place.key is None:
            continue
        other = first.setdefault(place.key, place)
        if other is not place:
            problems.add(tab, place.row, column,
                         f"{hex_colour(place.key)} is also the key colour of "
                         f"'{other.name}' (row {other.row}); each needs its own")


def _players_capitals(spec: MapSpec, table: Table, state: GameState, by_name: Names,
                      places: dict[str, Province], problems: Problems) -> None:
    """The capital each player still in the game names in the players tab."""
    frame, tab = _frame(state, table.tab, problems)
    col = _Columns(frame)
    for row, cell, gone in zip(frame.index.tolist(), col.cells(spec.players_capital),
                               _retired(table, col)):
        text = values.text(cell)
        if not text or gone:
            continue
        found = by_name.get(text)
        if found is None:
            problems.add(tab, int(row), spec.players_capital,
                         f"{values.show(text)} is not a row of the '{spec.tab}' tab")
        else:
            places[found].capital = True


def _count_units(ruleset: Ruleset, units: Units, state: GameState, by_name: Names,
                 places: dict[str, Province], players: Names, problems: Problems) -> None:
    frame, tab = _frame(state, units.tab, problems)
    col = _Columns(frame)
    table = _declared(ruleset, units.tab)
    none_words = _none_words(table, units.owner)
    off_map = _off_map(ruleset, units, state, problems)
    on_map_tab = values.fold(units.tab) == values.fold(ruleset.map.tab)
    counts = col.cells(units.count)
    for row, gone, cell, owner_cell, number in zip(
            frame.index.tolist(), _retired(table, col), col.cells(units.location),
            col.cells(units.owner), counts):
        where = values.text(cell)
        if gone or not where:
            continue
        place = by_name.get(where)
        if place is None and off_map.get(where) is not None:
            continue  # at sea, say: not drawn
        if place is None:
            problems.add(tab, int(row), units.location,
                         f"{values.show(where)} is not a row of the '{ruleset.map.tab}' tab")
            continue
        owner = _player(owner_cell, players, none_words, problems, tab, row, units.owner)
        if not owner and on_map_tab:
            continue  # a province's own column: blank is no unit, not nobody's unit
        count = 1
        if units.count:
            try:
                count = values.whole_number(number, blank=0)
            except BadValue as exc:
                problems.add(tab, int(row), units.count, str(exc))
                continue
        tally = places[place].units
        tally[owner] = tally.get(owner, 0) + count


def _off_map(ruleset: Ruleset, units: Units, state: GameState, problems: Problems) -> Names:
    """The places off the map (rows of ``units.off_map``'s tabs) a unit may stand in."""
    names: list[str] = []
    for tab in units.off_map:
        frame, _ = _frame(state, tab, problems)
        table = _declared(ruleset, tab)
        key = table.key if table is not None and table.key else None
        if key is not None and _Columns(frame).has(key):
            names += [values.text(c) for c in _Columns(frame).cells(key) if values.text(c)]
    return Names(names)


def _strongest_other(place: Province) -> str | None:
    """Whoever else has the most units in the province (first listed on a tie)."""
    others = [(n, who) for who, n in place.units.items() if who != place.owner and n > 0]
    if not others:
        return None
    best = max(n for n, _ in others)
    return next(who for n, who in others if n == best)
