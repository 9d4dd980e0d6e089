"""The claims game in memory: territories, players and wars, from the tabs' row objects.

Phases work on this model (dict lookups) rather than on DataFrames, so a turn with a million
territories and a million orders stays fast; ``load.py`` builds it from the rows and writes it back.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from sheetmaster.kit import LAND, WATERWAY, MapGraph, Names, World

from .tables import (
    GOLD,
    PLAYERS,
    STANDARD_RESOURCES,
    TERRITORIES,
    Player,
    Territory,
    WarResult,
)


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
        self.turn: int = loaded.state.turn

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
