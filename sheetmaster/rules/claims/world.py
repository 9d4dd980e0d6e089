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
from sheetmaster.schema import Problems
from sheetmaster.values import BadValue

from .tables import GOLD, PLAYERS, STANDARD_RESOURCES, TERRITORIES, WAR_RESULTS, WARS

_AMOUNT = re.compile(r"^(?P<name>.*?)\s*[:=x]?\s*(?P<n>[0-9]+)$")


@dataclass(slots=True)
class Territory:
    name: str
    row: int
    owner: str  # '' = neutral
    resource: str  # '' | 'gold' | a standard resource | a special resource's name
    capital_of: str
    neighbours: tuple[str, ...]  # land borders and waterways


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

    # -- lookups for reading orders ------------------------------------------------------
    def names(self) -> dict[str, dict[str, str]]:
        items = {values.fold(x): x for x in (GOLD, *STANDARD_RESOURCES, "armies", "territory")}
        items.update(self.special_resources)
        return {
            "player": {values.fold(p): p for p in self.players},
            "territory": {values.fold(t): t for t in self.territories},
            "item": items,
            "war": {key: war.name for key, war in self.wars.items()},
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
    _load_wars(world, state.tables[WARS.tab], problems)
    _load_war_results(world, state.tables[WAR_RESULTS.tab], state.turn, problems)
    return world


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
    players = {values.fold(p): p for p in world.players}
    known = {values.fold(t): t for t in df["territory"].tolist() if t}
    rows = df.index.tolist()
    standard = {GOLD, *STANDARD_RESOURCES}
    links: dict[str, tuple[str, ...]] = {}
    for row, name, owner, resource, capital, borders, water in zip(
            rows, *(df[c].tolist() for c in
                    ("territory", "owner", "resource", "capital of", "borders", "waterways"))):
        if not name:
            continue
        owner_name = _player(players, owner, tab, row, "owner", problems)
        capital_name = _player(players, capital, tab, row, "capital of", problems)
        kind = values.fold(resource) if resource else ""
        if kind and kind not in standard:
            kind = world.special_resources.setdefault(kind, resource)
        neighbours: list[str] = []
        for column, cell in (("borders", borders), ("waterways", water)):
            for other in values.name_list(cell):
                found = known.get(values.fold(other))
                if found is None:
                    problems.add(tab, row, column, f"'{other}' is not a territory in this tab")
                elif found == name:
                    problems.add(tab, row, column, f"'{name}' cannot border itself")
                else:
                    neighbours.append(found)
            links[(name, column)] = tuple(values.fold(x) for x in values.name_list(cell))
        world.territories[name] = Territory(name, row, owner_name, kind, capital_name,
                                            tuple(dict.fromkeys(neighbours)))
        if owner_name:
            world.count[owner_name] += 1
    _check_symmetric(world, links, problems)


def _check_symmetric(world: ClaimsWorld, links: dict, problems: Problems) -> None:
    """A border or waterway listed on one side must be listed on the other."""
    folded = {name: values.fold(name) for name in world.territories}
    by_fold = {f: n for n, f in folded.items()}
    for (name, column), others in links.items():
        for other in others:
            back = by_fold.get(other)
            if back is None or back == name:
                continue
            if folded[name] not in links.get((back, column), ()):
                problems.add(TERRITORIES.tab, world.territories[name].row, column,
                             f"'{name}' lists '{back}', but '{back}' (row "
                             f"{world.territories[back].row}) does not list '{name}' in "
                             f"its {column}")


def _player(players: dict[str, str], cell: str, tab: str, row: int, column: str,
            problems: Problems) -> str:
    if not cell:
        return ""
    found = players.get(values.fold(cell))
    if found is None:
        problems.add(tab, row, column, f"'{cell}' is not a player in the Players tab")
        return ""
    return found


def _load_wars(world: ClaimsWorld, df: pd.DataFrame, problems: Problems) -> None:
    players = {values.fold(p): p for p in world.players}
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
    players = {values.fold(p): p for p in world.players}
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
