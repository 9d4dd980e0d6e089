"""Turn 0: each nation deploys its starting resources (digest F55)."""

from __future__ import annotations

import re

from sheetmaster.kit import Context, Order, Status, values

from .. import data, reasons
from ..orders import DEPLOY
from ..tables import Building, Nation, Unit
from ..world import GoldenWorld
from .common import own_province

DEPLOY_RULE = ("The `deploy` order places a Nation's starting resource on the map, and is only "
               "available on Turn 0. Available starting resources differ by Nation. See page 4 "
               "for restrictions.")
_TIMES = re.compile(r"^(?P<name>.*?)\s*x\s*(?P<n>[0-9]+)$", re.I)


def deploy(ctx: Context) -> None:
    """Each `deploy` places one resource still listed in the nation's 'to deploy' cell: a
    unit in one of its provinces (a ship at one of its ports), or a building there."""
    for order in ctx.orders(DEPLOY):
        nation = ctx.world.nations[order.player]
        left = _resources(nation.to_deploy)
        wanted = values.Names(left).get(order.fields["resource"])
        if wanted is None:
            ctx.resolve(order, Status.REJECTED, reasons.NO_DEPLOY.say(
                resource=values.show(order.fields["resource"]),
                left=", ".join(left) or "none left"))
            continue
        province = own_province(ctx, order)
        if province is None:
            continue
        placed = _place(ctx, order, nation, wanted, province.name)
        if not placed:
            continue
        left.remove(wanted)
        nation.to_deploy = _written(left)
        ctx.emit(nation.name, "deploy", f"{nation.name} deployed {placed}")
        ctx.resolve(order, Status.APPLIED, f"deployed {placed}")


def _place(ctx: Context, order: Order, nation: Nation, kind: str, province: str) -> str:
    world: GoldenWorld = ctx.world
    if kind in data.UNIT_TYPES:
        if kind in data.SEA_TYPES and world.port(province) is None:
            ctx.resolve(order, Status.REJECTED, reasons.NOT_COASTAL_PORT.say(province=province))
            return ""
        unit = world.add_unit(Unit(world.new_unit_id(nation.name, kind), nation.name, kind,
                                   nation.tech, province, (), 0, "", "", ""))
        return f"{unit.name} in {province}"
    if kind in (data.PORT, data.FORT) and world.buildings_in(province, kind):
        ctx.resolve(order, Status.REJECTED, reasons.HAS_ONE.say(province=province, what=kind))
        return ""
    zone = order.fields["sea zone"] or ""
    if kind == data.PORT and zone not in world.provinces[province].seas:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_COASTAL.say(
            province=province, where=zone or "a sea zone (fill in 'sea zone')"))
        return ""
    building = new_building(world, kind, province, zone if kind == data.PORT else "")
    return f"a {kind} in {province} ({building.name})"


def new_building(world: GoldenWorld, kind: str, province: str, zone: str = "") -> Building:
    number = len(world.buildings_in(province, kind)) + 1
    name = f"{province} {kind}" + (f" {number}" if number > 1 else "")
    taken = {b.name.casefold() for b in world.buildings}
    while name.casefold() in taken:
        number += 1
        name = f"{province} {kind} {number}"
    return world.add_building(Building(name, kind, province, zone,
                                       1 if kind == data.PORT else 0, data.ACTIVE, False,
                                       name))


def _resources(cell: str) -> list[str]:
    """'Infantry x3, Warship' -> ['Infantry', 'Infantry', 'Infantry', 'Warship']."""
    out: list[str] = []
    names = values.Names((*data.UNIT_TYPES, *data.BUILDING_TYPES))
    for part in values.name_list(cell):
        match = _TIMES.match(part)
        name, times = (match["name"], int(match["n"])) if match else (part, 1)
        out += [names.get(name) or name] * times
    return out


def _written(left: list[str]) -> str:
    counts: dict[str, int] = {}
    for name in left:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in counts.items())
