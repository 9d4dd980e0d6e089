"""Steps 10 and 11: what the losers of a land battle leave behind.

"Generals in enemy-occupied territory retreat or disband. Equipment in enemy-occupied
territory are captured or destroyed (artillery and warships-in-port as applicable)."
"Occupying a province containing enemy Artillery or General units allows the occupying force
to roll for the chance to capture the Artillery units or kill the General."
"""

from __future__ import annotations

from sheetmaster.kit import Context

from .. import data
from ..settings import CAPTURE_ARTILLERY, KILL_GENERAL
from ..tables import Unit
from ..world import GoldenWorld
from .common import both, percent_chance, turn_state
from .economy import unit_cost
from .processes import SALVAGE

GENERALS_RULE = "Generals in enemy-occupied territory retreat or disband"
EQUIPMENT_RULE = ("Equipment in enemy-occupied territory are captured or destroyed (artillery "
                  "and warships-in-port as applicable)")


def generals_retreat(ctx: Context) -> None:
    """A defeated force's Generals: the victor's kill roll, then the survivors retreat to an
    adjacent province of their nation that no enemy holds or entered this turn, or disband
    (digest F58)."""
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    for where, (victor, names) in state.defeated.items():
        for unit in _alive(world, names, data.GENERAL):
            if victor != data.REBELS and percent_chance(ctx, ctx.setting(KILL_GENERAL), victor,
                                              f"killing {unit.name} in {where}",
                                              f"kill {unit.name}"):
                world.remove(unit, f"killed in {where} by {victor}")
                both(ctx, victor, unit.nation, "general killed",
                     f"{victor} killed {unit.name} ({unit.nation}) in {where}")
                continue
            refuge = _refuge(ctx, unit, where)
            if refuge:
                world.place(unit, refuge)
                ctx.emit(unit.nation, "general retreats", f"{unit.name} retreated from "
                                                          f"{where} to {refuge}")
            else:
                world.remove(unit, f"disbanded: no retreat from {where}")
                ctx.emit(unit.nation, "general disbands", f"{unit.name} had nowhere to "
                         f"retreat from {where} and disbanded")


def capture_equipment(ctx: Context) -> None:
    """A defeated force's Artillery: the victor's capture roll, else destroyed; warships in
    the port of a province an enemy takes are captured (digest F59). Captured equipment of a
    higher tech than the captor's serves a year, then is salvaged for half its cost (F60)."""
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    for where, (victor, names) in state.defeated.items():
        for unit in _alive(world, names, data.ARTILLERY):
            if victor != data.REBELS and percent_chance(ctx, ctx.setting(CAPTURE_ARTILLERY), victor,
                                              f"capturing {unit.name} in {where}",
                                              f"capture {unit.name}"):
                _capture(ctx, unit, victor, where)
            else:
                world.remove(unit, f"destroyed in {where}")
                both(ctx, unit.nation, victor, "artillery destroyed",
                     f"{unit.name} ({unit.nation}) was destroyed in {where}")
    for where, victor in state.taken.items():
        if victor == data.REBELS:
            continue
        for ship in [s for s in world.here(where) if s.at_sea and s.nation != victor and
                     s.nation and (world.at_war(victor, s.nation))]:
            lost = [world.units[c] for c in ship.cargo]
            for cargo in lost:
                world.remove(cargo, f"captured with {ship.name} in {where}")
            if lost:
                ctx.emit(ship.nation, "captured", f"{', '.join(u.name for u in lost)}, aboard "
                         f"{ship.name}, are lost with it")
            _capture(ctx, ship, victor, where)


def _capture(ctx: Context, unit: Unit, victor: str, where: str) -> None:
    world: GoldenWorld = ctx.world
    loser = unit.nation
    unit.nation, unit.posture, unit.supply_penalties = victor, "", 0
    both(ctx, victor, loser, "captured", f"{victor} captured {unit.name} ({unit.type}, tech "
                                         f"{unit.tech}) from {loser} in {where}")
    if unit.tech > world.nations[victor].tech:
        ctx.timers.start(SALVAGE, victor, unit.name, data.SALVAGE_SEASONS,
                         data={"unit": unit.name, "value": unit_cost(ctx, unit.type,
                                                                     unit.tech) // 2})


def _alive(world: GoldenWorld, names: list[str], kind: str) -> list[Unit]:
    return [world.units[n] for n in names if n in world.units and
            world.units[n].type == kind]


def _refuge(ctx: Context, unit: Unit, where: str) -> str:
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    for name in world.provinces[where].borders:
        province = world.provinces[name]
        if province.holder != unit.nation or name in state.contested:
            continue
        if any(world.at_war(unit.nation, u.nation or data.REBELS)
               for u in world.land_units_in(name)):
            continue
        return name
    return ""
