"""The claims world built from the tabs' rows (with the checks only the claims game needs),
and the tabs written back from it after the turn."""

from __future__ import annotations

import re
from typing import Any

from sheetmaster.kit import BadValue, Problems, WrittenTab, lookup_name, values

from .tables import GOLD, PLAYERS, STANDARD_RESOURCES, TERRITORIES, WAR_RESULTS, Player, WarResult
from .world import ClaimsWorld, Side, War

_AMOUNT = re.compile(r"^(?P<name>.*?)\s*[:=x]?\s*(?P<n>[0-9]+)$")


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


def parse_special(cell: str) -> dict[str, int]:
    """'Spice: 1, Silk: 2' -> {'Spice': 1, 'Silk': 2}."""
    out: dict[str, int] = {}
    for part in values.name_list(cell):
        match = _AMOUNT.match(part)
        if not match or not match["name"]:
            raise BadValue(f"{values.show(part)} is not 'Name: amount'")
        out[match["name"].strip()] = out.get(match["name"].strip(), 0) + int(match["n"])
    return out


def _player_columns(world: ClaimsWorld, players: list[Player]) -> dict[str, list[Any]]:
    """Each player's resources as held now (standard ones in their columns, special ones in
    'other resources') and the territories they own."""
    columns: dict[str, list[Any]] = {r: [p.resources.get(r, 0) for p in players]
                                     for r in STANDARD_RESOURCES}
    columns["other resources"] = [_special_text(p.resources) for p in players]
    columns["territories"] = [world.count[p.name] for p in players]
    return columns


def _special_text(resources: dict[str, int]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in resources.items()
                     if k not in STANDARD_RESOURCES and v)


#: the tabs written back after every turn
WRITTEN: tuple[WrittenTab[ClaimsWorld], ...] = (
    WrittenTab(TERRITORIES, lambda w: w.territories.values()),
    WrittenTab(PLAYERS, lambda w: w.players.values(), _player_columns),
    WrittenTab(WAR_RESULTS, lambda w: w.outcomes,
               lambda w, rows: {"turn": [w.turn] * len(rows)}),
)
