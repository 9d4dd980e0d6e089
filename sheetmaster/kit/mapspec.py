"""What a ruleset says once about its map, so that one drawing serves every game.

A ruleset declares ``Ruleset(map=MapSpec(...))``: which tab is the map and which of its
columns give the owner, capitals, occupation, the GM's key colours and pinned positions;
which tabs hold units and where they stand; and the players tab's colour column. The
drawing code (:mod:`sheetmaster.app.maps.render`) reads only this declaration, never a ruleset.

This module is light (no image libraries): a ruleset imports it when it is declared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sheetmaster.kit.schema import Column, Kind, Table

#: the default names of the map columns a GM fills in (see :func:`map_columns`).
KEY_COLOUR, MAP_X, MAP_Y, COLOUR = "map colour", "map x", "map y", "colour"


@dataclass(frozen=True)
class Units:
    """A tab of units (armies, regiments, fleets) standing in the map's provinces.

    The map tab itself may be one: ``Units("Provinces", location="province",
    owner="regiment")`` counts one unit where the 'regiment' column names a player (there a
    blank owner is no unit; in a tab of units it is a unit of nobody's).
    """

    #: the tab, e.g. "Armies"; rows its Table declares retired (status 'gone') are skipped.
    tab: str
    #: the column naming the province it stands in.
    location: str
    #: the column naming the player it belongs to (blank or a none-word: nobody's).
    owner: str
    #: a column giving how many units the row is (blank: each row is one unit).
    count: str = ""
    #: tabs of places off the map a unit may stand in (e.g. "Sea zones"): a unit there is
    #: not drawn, and naming such a place is no problem.
    off_map: tuple[str, ...] = ()


@dataclass(frozen=True)
class MapSpec:
    """A ruleset's map: the one declaration the map picture is drawn from."""

    #: the tab whose rows are the map's provinces (territories), keyed by their names.
    tab: str
    #: the column naming each province's owner (a row of the players tab; blank: nobody).
    owner: str = "owner"
    #: a column of the map tab that marks a capital: a player's name, or yes.
    capital: str = ""
    #: a column of the players tab naming each player's capital province.
    players_capital: str = ""
    #: a column of the map tab naming who occupies a province (a player, or any text).
    occupied_by: str = ""
    #: a province is occupied when another player's units stand in it (the one with most).
    occupation_from_units: bool = False
    #: the tabs of units drawn on the map, counted per province and player.
    units: tuple[Units, ...] = ()
    #: the players tab's colour column: #1f77b4, 1f77b4, #17b or a name like teal.
    colour: str = COLOUR
    #: the map tab's key colour column: each province's colour in the GM's map image.
    key_colour: str = KEY_COLOUR
    #: the map tab's pinned position columns (x to the right, y down, any scale).
    x: str = MAP_X
    y: str = MAP_Y
    #: edge kind (sheetmaster.kit.mapgraph: "land", "waterway", "sea"...) -> the map tab's
    #: column listing neighbouring provinces; drawn as lines when there is no image.
    links: Mapping[str, str] = field(default_factory=dict)
    #: a column naming the seas a province touches; each sea is drawn as a node of its own.
    seas: str = ""
    #: a column of the map tab giving the name drawn without an image (blank: the key).
    label: str = ""
    #: the colour of a province nobody owns, and what the legend calls it.
    neutral: str = "#e9e4d4"
    nobody: str = "neutral"


def map_columns(*, key_colour: str = KEY_COLOUR, x: str = MAP_X, y: str = MAP_Y,
                noun: str = "province") -> tuple[Column, ...]:
    """The optional map tab columns a GM fills in once: key colour and pinned position.

    ``Ruleset(map=MapSpec(...))`` adds them at the end of the map tab (see
    :func:`with_map_columns`); splice them into its Table yourself
    (``Table("Provinces", (..., *map_columns()))``) to have them elsewhere.
    """
    return (
        Column(key_colour, Kind.TEXT, f"the {noun}'s colour in the GM's map image, like "
               f"#a0c8f0 (each {noun} its own; only needed with a map image)", optional=True),
        Column(x, Kind.INTEGER, f"where to draw the {noun} when there is no map image: x, "
               "to the right (any scale; blank: laid out from the borders)", optional=True,
               blank=None),
        Column(y, Kind.INTEGER, f"where to draw the {noun}: y, downwards (blank: laid out "
               "from the borders)", optional=True, blank=None),
    )


def colour_column(name: str = COLOUR, noun: str = "player") -> Column:
    """The players tab's optional colour column."""
    return Column(name, Kind.TEXT, f"the {noun}'s colour on the map: #1f77b4, or a name like "
                  "teal (blank: one is picked)", optional=True, aliases=("color",))


def with_map_columns(tables: tuple[Table, ...], spec: MapSpec | None
                     ) -> tuple[Table, ...]:
    """``tables`` with the map's optional columns added where the ruleset did not declare
    them: the key colour and pinned position columns at the end of the map tab, the colour
    column at the end of the players tab. Declaring ``map=MapSpec(...)`` is then all a
    ruleset writes: a new workbook has the columns, and their cells are checked like any."""
    if spec is None:
        return tables
    players = next((t for t in tables if t.lists_players or t.key == "player"), None)
    out = []
    for table in tables:
        extra: tuple[Column, ...] = ()
        if table.tab == spec.tab:
            extra = map_columns(key_colour=spec.key_colour, x=spec.x, y=spec.y,
                                noun=table.noun or "province")
        elif table is players:
            extra = (colour_column(spec.colour, noun=table.noun or "player"),)
        missing = tuple(c for c in extra if c.name not in table.names)
        out.append(replace(table, columns=(*table.columns, *missing)) if missing else table)
    return tuple(out)


def map_slips(ruleset: Any) -> list[str]:
    """What a ruleset's map declaration names that its tables do not declare."""
    spec: MapSpec | None = ruleset.map
    if spec is None:
        return []
    tables = {t.tab: t for t in ruleset.tables}
    slips: list[str] = []

    def need(tab: str, *columns: str) -> None:
        table = tables.get(tab)
        if table is None:
            slips.append(f"the map names tab '{tab}', which the ruleset does not declare")
            return
        for column in columns:
            if column and column not in table.names:
                slips.append(f"the map names column '{column}' of tab {tab}, which is not "
                             "declared")

    need(spec.tab, spec.owner, spec.capital, spec.occupied_by, spec.seas, spec.label,
         *spec.links.values())
    if spec.players_capital:
        players = ruleset.players_table()
        if players is None:
            slips.append("the map names the players' capitals, but no tab lists the players")
        else:
            need(players.tab, spec.players_capital)
    for units in spec.units:
        need(units.tab, units.location, units.owner, units.count)
        for tab in units.off_map:
            need(tab)
    return slips
