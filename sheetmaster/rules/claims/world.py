"""The claims game in memory: territories, players, wars, built from the validated tabs.

Phases work on this model (dict lookups) rather than on DataFrames, so a turn with a million
territories and a million orders stays fast; :meth:`ClaimsWorld.to_tables` turns it back
into the tabs' tables.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import pandas as pd

from sheetmaster import values
from sheetmaster.model import GameState
from sheetmaster.schema import Problems, lookup_name
from sheetmaster.values import BadValue, Names

from .tables import GOLD, PLAYERS, STANDARD_RESOURCES, TERRITORIES, WAR_RESULTS, WARS

_AMOUNT = re.compile(r"^(?P<name>.*?)\s*[:=x]?\s*(?P<n>[0-9]+)$")


@dataclass(slots=True)
class Territory:
    name: str
    row: int
    owner: str  # '' = neutral
    resource: str  # '' | 'gold' | a standard resource | a special resource's name
    capital_of: str
    borders: tuple[str, ...]
    waterways: tuple[str, ...]

    @property
    def neighbours(self) -> tuple[str, ...]:
        """Territories reached by a land border or a waterway."""
        return self.borders + self.waterways


@dataclass(slots=True)
class Player:
    name: str
    row: int
    gold: int
    armies: int
    in_exile: bool
    #: resource name -> units held (standard ones lower-case, special ones as written).
    resources: dict[str, int] = field(default_factory=dict)
    email: str = ""
    exiled_this_turn: bool = False
    #: army power x 10, set in phase D: 10 + one per distinct resource held.
    power_tenths: int = 10


@dataclass
class Side:
    name: str
    members: list[str]


@dataclass
class War:
    name: str
    sides: dict[str, Side]  # folded side name -> side
    active: bool


@dataclass
class WarOutcome:
    """One side's result in phase F, appended to the War results tab."""

    war: str
    side: str
    members: list[str]
    dice: str
    power: str
    score: str
    outcome: str


class ClaimsWorld:
    """Mutable game model the claims phases act on."""

    def __init__(self) -> None:
        self.territories: dict[str, Territory] = {}
        self.players: dict[str, Player] = {}
        self.count: Counter[str] = Counter()
        self.wars: dict[str, War] = {}
        #: winner -> players they may claim from this turn (from last turn's wars).
        self.may_claim_from: dict[str, set[str]] = {}
        self.special_resources: dict[str, str] = {}  # folded -> as written
        self.outcomes: list[WarOutcome] = []
        self.territory_names = Names(())

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
        terr = before.tables[TERRITORIES.tab].copy()
        terr["owner"] = pd.Series([t.owner for t in self.territories.values()],
                                  index=[t.row for t in self.territories.values()], dtype=object)
        players = before.tables[PLAYERS.tab].copy()
        plist = list(self.players.values())
        index = [p.row for p in plist]

        def column(data: list) -> pd.Series:
            return pd.Series(data, index=index, dtype=object)

        players["gold"] = column([p.gold for p in plist])
        for r in STANDARD_RESOURCES:
            players[r] = column([p.resources.get(r, 0) for p in plist])
        players["other resources"] = column([_special_text(p.resources) for p in plist])
        players["armies"] = column([p.armies for p in plist])
        players["in exile"] = column(["yes" if p.in_exile else "" for p in plist])
        players["territories"] = column([self.count[p.name] for p in plist])
        results = before.tables[WAR_RESULTS.tab]
        start = int(max(results.index)) + 1 if len(results) else 2
        new = pd.DataFrame(
            [[before.turn, o.war, o.side, ", ".join(o.members), o.dice, o.power, o.score,
              o.outcome] for o in self.outcomes],
            columns=[c.name for c in WAR_RESULTS.columns],
            index=range(start, start + len(self.outcomes)), dtype=object)
        if len(results) and len(new):
            new = pd.concat([results, new.reindex(columns=results.columns)])
        elif len(results):
            new = results
        return {TERRITORIES.tab: terr, PLAYERS.tab: players, WAR_RESULTS.tab: new}


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


def build_world(state: GameState, problems: Problems) -> ClaimsWorld:
    """Cross-check the tabs (owners, borders, wars) and build the world."""
    world = ClaimsWorld()
    _load_players(world, state.tables[PLAYERS.tab], problems)
    _load_territories(world, state.tables[TERRITORIES.tab], problems)
    _spell_special_resources(world)
    _load_wars(world, state.tables[WARS.tab], problems)
    _load_war_results(world, state.tables[WAR_RESULTS.tab], state.turn, problems)
    return world


def _spell_special_resources(world: ClaimsWorld) -> None:
    """Special resources a player holds are named as the Territories tab names them, so
    'amber: 1' and an 'Amber' territory are one resource (for army power, one resource)."""
    for player in world.players.values():
        held: dict[str, int] = {}
        for name, units in player.resources.items():
            if name not in STANDARD_RESOURCES:
                name = world.special_resources.get(values.fold(name), name)
            held[name] = held.get(name, 0) + units
        player.resources = held


def _load_players(world: ClaimsWorld, df: pd.DataFrame, problems: Problems) -> None:
    cols = ["player", "gold", *STANDARD_RESOURCES, "other resources", "armies", "in exile",
            "email"]
    for row, name, gold, *rest in zip(df.index.tolist(), *(df[c].tolist() for c in cols)):
        res, (other, armies, exile, email) = rest[:5], rest[5:]
        if name is None:
            continue
        resources = dict(zip(STANDARD_RESOURCES, res))
        try:
            resources.update(parse_special(other))
        except BadValue as exc:
            problems.add(PLAYERS.tab, row, "other resources", str(exc))
        world.players[name] = Player(name, row, gold, armies, exile == "yes", resources,
                                     values.text(email))


def _load_territories(world: ClaimsWorld, df: pd.DataFrame, problems: Problems) -> None:
    tab = TERRITORIES.tab
    players = Names(world.players)
    player_exact = players.exact
    known = world.territory_names = Names(t for t in df["territory"].tolist() if t)
    exact = known.exact
    standard = {GOLD, *STANDARD_RESOURCES}

    def linked(name: str, row: int, column: str, cell: str) -> tuple[str, ...]:
        if not cell:
            return ()
        parts = cell.split(",") if ";" not in cell and "\n" not in cell else \
            values.name_list(cell)
        found = []
        for other in parts:
            other = other.strip()
            canonical = exact(other) or (known.get(other) if other else "")
            if canonical and canonical != name:
                found.append(canonical)
            elif canonical is None:
                problems.add(tab, row, column, f"'{other}' is not a territory in this tab")
            elif canonical:
                problems.add(tab, row, column, f"'{name}' cannot border itself")
        return tuple(found)

    territories = world.territories
    count = world.count
    for row, name, owner, resource, capital, borders, water in zip(
            df.index.tolist(), *(df[c].tolist() for c in
                                 ("territory", "owner", "resource", "capital of", "borders",
                                  "waterways"))):
        if not name:
            continue
        owner_name = (player_exact(owner) or _player(players, owner, tab, row, "owner",
                                                     problems)) if owner else ""
        capital_name = _player(players, capital, tab, row, "capital of", problems) \
            if capital else ""
        kind = ""
        if resource:
            kind = values.fold(resource)
            if kind not in standard:
                kind = world.special_resources.setdefault(kind, resource)
        territories[name] = Territory(name, row, owner_name, kind, capital_name,
                                      linked(name, row, "borders", borders),
                                      linked(name, row, "waterways", water))
        if owner_name:
            count[owner_name] += 1
    _check_symmetric(world, problems)


def _check_symmetric(world: ClaimsWorld, problems: Problems) -> None:
    """A border or waterway listed on one side must be listed on the other."""
    territories = world.territories
    for column in ("borders", "waterways"):
        for name, territory in territories.items():
            for other in getattr(territory, column):
                if name not in getattr(territories[other], column):
                    problems.add(TERRITORIES.tab, territory.row, column,
                                 f"'{name}' lists '{other}', but '{other}' (row "
                                 f"{territories[other].row}) does not list '{name}' in "
                                 f"its {column}")


def _player(players: Names, cell: str, tab: str, row: int, column: str,
            problems: Problems) -> str:
    return lookup_name(players, cell, problems, tab, row, column,
                       "a player in the Players tab")


def _load_wars(world: ClaimsWorld, df: pd.DataFrame, problems: Problems) -> None:
    players = Names(world.players)
    for row, war, side, members, ended in zip(
            df.index.tolist(), *(df[c].tolist() for c in ("war", "side", "members", "ended"))):
        if not war or not side:
            continue
        entry = world.wars.setdefault(values.fold(war), War(war, {}, ended != "yes"))
        if ended == "yes":
            entry.active = False
        if values.fold(side) in entry.sides:
            problems.add(WARS.tab, row, "side", f"war '{war}' lists side '{side}' twice")
            continue
        names = [_player(players, m, WARS.tab, row, "members", problems)
                 for m in values.name_list(members)]
        names = [n for n in names if n]
        for other in entry.sides.values():
            for n in set(names) & set(other.members):
                problems.add(WARS.tab, row, "members",
                             f"'{n}' is on two sides of war '{war}' ('{other.name}' too)")
        entry.sides[values.fold(side)] = Side(side, names)


def _load_war_results(world: ClaimsWorld, df: pd.DataFrame, turn: int,
                      problems: Problems) -> None:
    """ "a player can make claims on territory belonging to players he has defeated on the
    turn after he defeated them, and this claim only persists for one turn." """
    players = Names(world.players)
    by_war: dict[str, list[tuple[list[str], str]]] = {}
    for row, t, war, members, outcome in zip(
            df.index.tolist(), *(df[c].tolist() for c in
                                 ("turn", "war", "members", "outcome"))):
        word = values.fold(outcome)
        if word not in ("won", "lost", "tied"):
            problems.add(WAR_RESULTS.tab, row, "outcome",
                         f"{values.show(outcome)} is not won, lost or tied")
            continue
        if t != turn - 1:
            continue
        names = [_player(players, m, WAR_RESULTS.tab, row, "members", problems)
                 for m in values.name_list(members)]
        by_war.setdefault(values.fold(war), []).append(([n for n in names if n], word))
    for sides in by_war.values():
        losers = {m for members, word in sides if word == "lost" for m in members}
        for members, word in sides:
            if word == "won":
                for m in members:
                    world.may_claim_from.setdefault(m, set()).update(losers - {m})
