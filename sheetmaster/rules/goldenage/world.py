"""The Golden Age world in memory: nations, provinces, sea zones, units, buildings,
railroads, canals and agreements, with the indexes the phases need. Phases change it;
:meth:`GoldenWorld.to_tables` writes it back to the tabs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sheetmaster.kit import (
    COAST,
    LAND,
    RAIL,
    SEA,
    MapGraph,
    Names,
    World,
    values,
)

from . import data
from .tables import (
    Agreement,
    Building,
    Canal,
    CanalInvestment,
    Nation,
    Province,
    Railroad,
    SeaZone,
    Unit,
)


def gone(why: str, turn: int) -> str:
    """The status of a unit that is no more: its row stays, marked so."""
    return f"gone ({why}, turn {turn})"


@dataclass
class GoldenWorld(World):
    """Mutable game model the phases act on."""

    turn: int = 0
    nations: dict[str, Nation] = field(default_factory=dict)
    provinces: dict[str, Province] = field(default_factory=dict)
    seas: dict[str, SeaZone] = field(default_factory=dict)
    #: every row of the Units tab (gone ones too), new ones at the end.
    unit_rows: list[Unit] = field(default_factory=list)
    #: units in play (not gone), by id.
    units: dict[str, Unit] = field(default_factory=dict)
    buildings: list[Building] = field(default_factory=list)
    railroads: list[Railroad] = field(default_factory=list)
    canals: dict[str, Canal] = field(default_factory=dict)
    #: the Canal investments tab: one row a canal, year and investor.
    canal_investments: list[CanalInvestment] = field(default_factory=list)
    agreements: dict[str, Agreement] = field(default_factory=dict)
    graph: MapGraph = field(default_factory=MapGraph)
    #: where -> ids of the units there that are not aboard a ship (ships in port: the port's
    #: province), in the Units tab's order.
    at: dict[str, list[str]] = field(default_factory=dict)
    #: derived columns written back (set by phase 20 from the Settings tab).
    classifications: dict[str, str] = field(default_factory=dict)
    #: the turn's plans and outcomes, handed from phase to phase.
    turn_state: Any = None
    #: (item, level, column) -> the Settings tab's number, read once a turn.
    settings_cache: dict[tuple[str, int, str], Any] = field(default_factory=dict)
    _unit_names: Names | None = None
    _sides: Names | None = None
    #: unit name base -> the smallest number that may be free (see new_unit_id)
    _free_from: dict[str, int] = field(default_factory=dict)
    _deal_names: set[str] | None = None
    _names: dict[str, Names] | None = None
    _keys: set[str] = field(default_factory=set)
    _buildings_at: dict[str, list[Building]] = field(default_factory=dict)
    _rails_at: dict[str, list[Railroad]] = field(default_factory=dict)

    # -- lookups for reading orders -------------------------------------------------------
    def names(self) -> dict[str, Names]:
        """Name lookups by category; units' are made again after units come and go."""
        if self._unit_names is None:
            self._unit_names = Names(self.units)
        return {**self.map_names(), "unit": self._unit_names,
                "agreement": Names(self.agreements)}

    def map_names(self) -> dict[str, Names]:
        """The lookups of what no turn adds to or takes from: nations, provinces, sea zones,
        canals (made once, not once an order asks: issue 26.1)."""
        if self._names is None:
            self._names = {"player": Names(self.nations), "province": Names(self.provinces),
                           "sea zone": Names(self.seas), "canal": Names(self.canals)}
        return self._names

    def side_names(self) -> Names:
        """The sides a force may fight: every nation, and the Rebels (made once)."""
        if self._sides is None:
            self._sides = Names((*self.nations, data.REBELS))
        return self._sides

    def emails(self) -> dict[str, str]:
        return {n.name: n.email for n in self.nations.values() if n.email}

    def unit(self, text: str) -> Unit | None:
        found = self.units.get(text)
        if found is None:
            if self._unit_names is None:
                self._unit_names = Names(self.units)
            name = self._unit_names.get(text)
            found = self.units.get(name) if name else None
        return found

    # -- places -----------------------------------------------------------------------------
    def is_province(self, name: str) -> bool:
        return name in self.provinces

    def is_sea(self, name: str) -> bool:
        return name in self.seas

    def here(self, where: str) -> list[Unit]:
        """The units at a province or sea zone (not those aboard ships)."""
        return [self.units[u] for u in self.at.get(where, ())]

    def land_units_in(self, province: str, nation: str | None = None) -> list[Unit]:
        return [u for u in self.here(province) if not u.at_sea and
                (nation is None or u.nation == nation)]

    def ships_in_zone(self, zone: str) -> list[Unit]:
        return [u for u in self.here(zone) if u.at_sea]

    def zone_of(self, ship: Unit) -> str:
        """The sea zone a ship is in (a ship in port: its port's zone)."""
        if ship.at in self.seas:
            return ship.at
        port = self.port(ship.at)
        return port.sea_zone if port else ""

    def adjacent_land(self, a: str, b: str) -> bool:
        return b in self.provinces[a].borders if a in self.provinces else False

    def coastal(self, province: str, zone: str) -> bool:
        return zone in self.provinces[province].seas

    # -- buildings ----------------------------------------------------------------------------
    def add_building(self, building: Building) -> Building:
        self.buildings.append(building)
        self._buildings_at.setdefault(building.province, []).append(building)
        return building

    def add_railroad(self, rail: Railroad) -> Railroad:
        self.railroads.append(rail)
        for end in rail.ends():
            self._rails_at.setdefault(end, []).append(rail)
        self.graph.add(rail.a, rail.b, RAIL)
        return rail

    def buildings_in(self, province: str, kind: str | None = None) -> list[Building]:
        return [b for b in self._buildings_at.get(province, ()) if kind is None or b.type == kind]

    def port(self, province: str) -> Building | None:
        return next(iter(self.buildings_in(province, data.PORT)), None)

    def fort(self, province: str) -> Building | None:
        return next(iter(self.buildings_in(province, data.FORT)), None)

    def rails_at(self, province: str) -> list[Railroad]:
        return self._rails_at.get(province, [])

    def railroad(self, a: str, b: str) -> Railroad | None:
        return next((r for r in self.rails_at(a) if set(r.ends()) == {a, b}), None)

    def economic_value(self, province: str) -> int:
        """ "Economic Value (derived; 'base + factories + railroads')": base, +1 if upgraded,
        +1 per finished factory, +1 per railroad attached (digest F16, F17)."""
        p = self.provinces[province]
        return (p.base_value + int(p.upgraded) + len(self.buildings_in(province, data.FACTORY))
                + len(self.rails_at(province)))

    def factory_limit(self, province: str) -> int:
        return math.ceil(self.economic_value(province) / 3)

    # -- relations --------------------------------------------------------------------------
    def at_war(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` fight when they meet: at war, or one of them rebels."""
        if not a or not b or a == b:
            return False
        if data.REBELS in (a, b):
            return True
        nation = self.nations.get(a)
        return nation is not None and b in nation.at_war

    def declare_war(self, a: str, b: str) -> bool:
        """Put ``a`` and ``b`` at war (both rows); True if they were at peace."""
        if not a or not b or a == b or data.REBELS in (a, b) or self.at_war(a, b):
            return False
        self.nations[a].at_war = (*self.nations[a].at_war, b)
        self.nations[b].at_war = (*self.nations[b].at_war, a)
        return True

    def friendly_port(self, province: str, nation: str) -> Building | None:
        """A port the nation holds: its own unoccupied province's, or one in a province it
        occupies ("can be used as a supply connection for the occupying force")."""
        port = self.port(province)
        if port is None or self.provinces[province].holder != nation:
            return None
        return port

    # -- units --------------------------------------------------------------------------------
    def new_unit_id(self, nation: str, kind: str) -> str:
        """The first '<nation> <kind> <n>' no unit has had (names are never freed, so the
        search goes on from where the last one stopped: the Rebels' thousands of new units
        stay linear; issue 26.1)."""
        base = f"{nation or 'Rebels'} {kind}"
        n = self._free_from.get(base, 1)
        while f"{base} {n}".casefold() in self._keys:
            n += 1
        self._free_from[base] = n
        return f"{base} {n}"

    def deal_taken(self, deal: str) -> bool:
        """Whether an agreement has that name, in any spelling that folds the same (the names
        folded once, then kept as agreements are made: issue 26.1)."""
        if self._deal_names is None:
            self._deal_names = {values.fold(n) for n in self.agreements}
        return values.fold(deal) in self._deal_names

    def add_agreement(self, agreement: Agreement) -> None:
        self.agreements[agreement.name] = agreement
        if self._deal_names is not None:
            self._deal_names.add(values.fold(agreement.name))

    def add_unit(self, unit: Unit) -> Unit:
        self.unit_rows.append(unit)
        self._keys.add(unit.name.casefold())
        if unit.alive:
            self.units[unit.name] = unit
            if not unit.aboard:
                self.at.setdefault(unit.at, []).append(unit.name)
        self._unit_names = None
        return unit

    def place(self, unit: Unit, where: str) -> None:
        """Move a unit that is not aboard to ``where``."""
        if not unit.aboard:
            self.at[unit.at].remove(unit.name)
        unit.at = where
        unit.aboard = ()
        self.at.setdefault(where, []).append(unit.name)

    def board(self, unit: Unit, ships: Iterable[Unit]) -> None:
        ships = list(ships)
        if not unit.aboard:
            self.at[unit.at].remove(unit.name)
        unit.aboard = tuple(s.name for s in ships)
        unit.at = ships[0].at
        for ship in ships:
            ship.cargo.append(unit.name)

    def land(self, unit: Unit, province: str) -> None:
        """Take a unit off its ship(s) into ``province``."""
        for ship_id in unit.aboard:
            ship = self.units.get(ship_id)
            if ship is not None and unit.name in ship.cargo:
                ship.cargo.remove(unit.name)
        unit.aboard = ()
        unit.at = province
        self.at.setdefault(province, []).append(unit.name)

    def move_ship(self, ship: Unit, where: str) -> None:
        self.at[ship.at].remove(ship.name)
        ship.at = where
        self.at.setdefault(where, []).append(ship.name)
        for cargo in ship.cargo:
            self.units[cargo].at = where

    def remove(self, unit: Unit, why: str) -> list[Unit]:
        """The unit is no more (its row stays, marked gone); so is its cargo. Returns every
        unit removed (name the cargo in the log line that says why)."""
        removed = [unit]
        for cargo in list(unit.cargo):
            removed += self.remove(self.units[cargo], f"lost with {unit.name}: {why}")
        if unit.aboard:
            for ship_id in unit.aboard:
                ship = self.units.get(ship_id)
                if ship is not None and unit.name in ship.cargo:
                    ship.cargo.remove(unit.name)
        else:
            self.at[unit.at].remove(unit.name)
        del self.units[unit.name]
        unit.cargo = []
        unit.status = gone(why, self.turn)
        self._unit_names = None
        return removed

    def units_of(self, nation: str) -> list[Unit]:
        return [u for u in self.units.values() if u.nation == nation]

    def provinces_of(self, nation: str) -> list[Province]:
        return [p for p in self.provinces.values() if p.owner == nation]


def build_graph(world: GoldenWorld) -> MapGraph:
    """Land borders, sea borders and coasts (province - sea zone); railroads are added as
    they are loaded or finished (:meth:`GoldenWorld.add_railroad`)."""
    graph = MapGraph.from_rows(world.provinces, {LAND: "borders"})
    for zone in world.seas.values():
        for other in zone.borders:
            if zone.name < other:
                graph.add(zone.name, other, SEA)
    for province in world.provinces.values():
        for zone in province.seas:
            graph.add(province.name, zone, COAST)
    return graph


def fold(text: str) -> str:
    return values.fold(text)
