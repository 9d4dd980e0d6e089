"""Costs, upkeep, strengths and income read from the Settings tab, and the supply network
(provinces connected to a nation's capital)."""

from __future__ import annotations

from sheetmaster.kit import LAND, RAIL, SEA, Context

from .. import data
from ..settings import ACTIONS, COST, INCOME_COL, UPKEEP, VALUE, number
from ..tables import Nation, Unit
from ..world import GoldenWorld


def unit_upkeep(ctx: Context, unit: Unit) -> int:
    return int(number(ctx, unit.type, unit.tech, UPKEEP))


def fort_upkeep(ctx: Context, nation: Nation) -> int:
    return int(number(ctx, data.FORT, nation.tech, UPKEEP))


def active_forts(world: GoldenWorld, nation: str) -> list:
    return [b for b in world.buildings if b.type == data.FORT and b.active and
            world.provinces[b.province].owner == nation]


def unit_cost(ctx: Context, kind: str, tech: int) -> int:
    return int(number(ctx, kind, tech, COST))


def movement_actions(ctx: Context, ship: Unit) -> int:
    """ "Max Movement Actions: 10..18"; "Supply Range: (equal to max movement actions)"."""
    return int(number(ctx, ship.type, ship.tech, ACTIONS))


def income_per_value(ctx: Context, tech: int) -> int:
    return int(number(ctx, data.INCOME, tech, VALUE))


def port_income(ctx: Context, level: int) -> int:
    return int(number(ctx, data.PORT, level, INCOME_COL))


def supply_network(world: GoldenWorld, nation: str) -> set[str]:
    """The provinces connected to the nation's capital: owned and unoccupied, linked by land
    borders and railroads, or by sea between two of its ports (not blockaded) through sea
    zones no enemy blockades ("a sea/passive blockade disconnects a tile from the capital")."""
    owner = world.nations.get(nation)
    provinces = world.provinces

    def held(name: str) -> bool:
        p = provinces.get(name)
        return p is not None and p.owner == nation and not p.occupied_by

    if owner is None or not held(owner.capital):
        return set()
    ports: dict[str, str] = {}
    by_zone: dict[str, list[str]] = {}
    for b in world.buildings:
        if b.type == data.PORT and not b.blockaded and held(b.province):
            ports[b.province] = b.sea_zone
            by_zone.setdefault(b.sea_zone, []).append(b.province)
    graph = world.graph
    seen = {owner.capital}
    queue = [owner.capital]
    network: set[str] = set()
    while queue:
        node = queue.pop()
        if node in provinces:
            network.add(node)
            nxt = [n for n in graph.neighbours(node, [LAND, RAIL]) if held(n)]
            zone = ports.get(node)
            if zone is not None and _open_to(world, zone, nation):
                nxt.append(zone)
        else:
            nxt = [z for z in graph.neighbours(node, [SEA]) if _open_to(world, z, nation)]
            nxt += by_zone.get(node, ())
        for n in nxt:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return network


def _open_to(world: GoldenWorld, zone: str, nation: str) -> bool:
    """A sea zone the nation's sea links may cross: no enemy blockades it."""
    sea = world.seas.get(zone)
    return sea is not None and not any(world.at_war(nation, b) for b in sea.blockaders)
