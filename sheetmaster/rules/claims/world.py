"""The claims game in memory: territories, players and wars, from the tabs' row objects.

Phases work on this model (dict lookups) rather than on DataFrames, so a turn with a million
territories and a million orders stays fast; :meth:`ClaimsWorld.to_tables` writes it back.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

import pandas as pd

from sheetmaster import values
from sheetmaster.entities import write_rows
from sheetmaster.mapgraph import LAND, WATERWAY, MapGraph
from sheetmaster.model import GameState
from sheetmaster.ruleset import World
from sheetmaster.schema import Problems, lookup_name
from sheetmaster.values import BadValue, Names

from .tables import (
    GOLD,
    PLAYERS,
    STANDARD_RESOURCES,
    TERRITORIES,
    WAR_RESULTS,
    Player,
    Territory,
    WarResult,
)

_AMOUNT = re.compile(r"^(?P<name>.*?)\s*[:=x]?\s*(?P<n>[0-9]+)$")


@dataclass
class Side:
    name: str
    members: list[str]


@dataclass
class War:
    name: str
    sides: dict[str, Side]  # folded side name -> side
    active: bool


class ClaimsWorld(World):
    """Mutable game model the claims phases act on."""

    def __init__(self, loaded) -> None:
        territories = loaded.rows[TERRITORIES.tab]
        self.territories: dict[str, Territory] = dict(zip(map(attrgetter("name"), territories),
                                                          territories))
        self.players: dict[str, Player] = {p.name: p for p in loaded.rows[PLAYERS.tab]}
        self.territory_names: Names = loaded.names[TERRITORIES.tab]
        #: "connected to via either the border of a territory he currently owns, or a
        #: waterway to a territory he currently owns"
        self.map = MapGraph.from_rows(self.territories, {LAND: "borders",
                                                         WATERWAY: "waterways"})
        self.count: Counter[str] = Counter(map(attrgetter("owner"), self.territories.values()))
        del self.count[""]  # neutral
        self.wars: dict[str, War] = {}
        #: winner -> players they may claim from this turn (from last turn's wars).
        self.may_claim_from: dict[str, set[str]] = {}
        self.special_resources: dict[str, str] = {}  # folded -> as written
        #: this turn's war results, one a side, appended to the War results tab.
        self.outcomes: list[WarResult] = []

    # -- lookups for reading orders ------------------------------------------------------
    def names(self) -> dict[str, Names]:
        items = [GOLD, *STANDARD_RESOURCES, "armies", "territory",
                 *self.special_resources.values()]
        return {
            "player": Names(self.players),
            "territory": self.territory_names,
            "item": Names(items),
            "war": Names(war.name for war in self.wars.values()),
        }

    def emails(self) -> dict[str, str]:
        return {p.name: p.email for p in self.players.values() if p.email}

    # -- changes ---------------------------------------------------------------------------
    def set_owner(self, territory: Territory, owner: str) -> None:
        if territory.owner:
            self.count[territory.owner] -= 1
        territory.owner = owner
        if owner:
            self.count[owner] += 1

    def held(self, player: Player, item: str) -> int:
        if item == GOLD:
            return player.gold
        if item == "armies":
            return player.armies
        return player.resources.get(item, 0)

    def add(self, player: Player, item: str, amount: int) -> None:
        if item == GOLD:
            player.gold += amount
        elif item == "armies":
            player.armies += amount
        else:
            player.resources[item] = player.resources.get(item, 0) + amount

    # -- back to tables -------------------------------------------------------------------
    def to_tables(self, before: GameState) -> dict[str, pd.DataFrame]:
        players = list(self.players.values())
        for p in players:
            for r in STANDARD_RESOURCES:
                setattr(p, r, p.resources.get(r, 0))
            p.other_resources = _special_text(p.resources)
            p.territories = self.count[p.name]
        for o in self.outcomes:
            o.turn = before.turn
        return {TERRITORIES.tab: write_rows(TERRITORIES, before.tables[TERRITORIES.tab],
                                            list(self.territories.values())),
                PLAYERS.tab: write_rows(PLAYERS, before.tables[PLAYERS.tab], players),
                WAR_RESULTS.tab: write_rows(WAR_RESULTS, before.tables[WAR_RESULTS.tab],
                                            self.outcomes)}


def _special_text(resources: dict[str, int]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in resources.items()
                     if k not in STANDARD_RESOURCES and v)


def parse_special(cell: str) -> dict[str, int]:
    """'Spice: 1, Silk: 2' -> {'Spice': 1, 'Silk': 2}."""
    out: dict[str, int] = {}
    for part in values.name_list(cell):
        match = _AMOUNT.match(part)
        if not match or not match["name"]:
            raise BadValue(f"{values.show(part)} is not 'Name: amount'")
        out[match["name"].strip()] = out.get(match["name"].strip(), 0) + int(match["n"])
    return out


def build_world(loaded, problems: Problems) -> ClaimsWorld:
    """The world from the tabs' rows, with the checks only the claims game needs."""
    world = ClaimsWorld(loaded)
    _fold_resources(world)
    for player in world.players.values():
        _read_resources(world, player, problems)
    _group_wars(world, loaded.rows["Wars"], problems)
    _read_war_results(world, loaded, problems)
    return world


def _fold_resources(world: ClaimsWorld) -> None:
    """A territory's resource: '' | 'gold' | a standard resource | a special resource, named
    as the first territory that has it spells it."""
    standard = {GOLD, *STANDARD_RESOURCES}
    special = world.special_resources
    for t in world.territories.values():
        if t.resource:
            kind = values.fold(t.resource)
            t.resource = kind if kind in standard else special.setdefault(kind, t.resource)


def _read_resources(world: ClaimsWorld, player: Player, problems: Problems) -> None:
    """Standard resources from their columns; special ones from 'other resources', spelt as
    the Territories tab spells them (so 'amber: 1' and an 'Amber' territory are one)."""
    held = {r: getattr(player, r) for r in STANDARD_RESOURCES}
    try:
        special = parse_special(player.other_resources)
    except BadValue as exc:
        problems.add(PLAYERS.tab, player.row, "other resources", str(exc))
        special = {}
    for name, units in special.items():
        name = world.special_resources.get(values.fold(name), name)
        held[name] = held.get(name, 0) + units
    player.resources = held


def _group_wars(world: ClaimsWorld, rows, problems: Problems) -> None:
    for r in rows:
        if not r.war or not r.side:
            continue
        war = world.wars.setdefault(values.fold(r.war), War(r.war, {}, not r.ended))
        if r.ended:
            war.active = False
        if values.fold(r.side) in war.sides:
            problems.add("Wars", r.row, "side", f"war '{r.war}' lists side '{r.side}' twice")
            continue
        for other in war.sides.values():
            for n in sorted(set(r.members) & set(other.members), key=r.members.index):
                problems.add("Wars", r.row, "members",
                             f"'{n}' is on two sides of war '{r.war}' ('{other.name}' too)")
        war.sides[values.fold(r.side)] = Side(r.side, list(r.members))


def _read_war_results(world: ClaimsWorld, loaded, problems: Problems) -> None:
    """ "a player can make claims on territory belonging to players he has defeated on the
    turn after he defeated them, and this claim only persists for one turn."

    Only last turn's rows name players that must still be in the Players tab."""
    by_war: dict[str, list[WarResult]] = {}
    players = loaded.names[PLAYERS.tab]
    for r in loaded.rows[WAR_RESULTS.tab]:
        if not r.outcome:
            problems.add(WAR_RESULTS.tab, r.row, "outcome", "is blank; write won, lost or tied")
        elif r.turn == loaded.state.turn - 1:
            r.members = tuple(n for n in (
                lookup_name(players, m, problems, WAR_RESULTS.tab, r.row, "members",
                            "a player in the Players tab") for m in r.members) if n)
            by_war.setdefault(values.fold(r.war), []).append(r)
    for sides in by_war.values():
        losers = {m for r in sides if r.outcome == "lost" for m in r.members}
        for r in sides:
            if r.outcome == "won":
                for m in r.members:
                    world.may_claim_from.setdefault(m, set()).update(losers - {m})
