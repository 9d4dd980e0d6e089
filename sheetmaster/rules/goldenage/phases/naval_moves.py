"""Steps 4 and 5: naval movement, all ships at once, one movement action at a time.

"Naval movement by units which exert a Zone of Control or are immune to it. Other naval
movement." "The movement path must be specified exactly. Each step in the path consumes a
movement action and may result in naval combat." Ships move in lockstep; a ship that shares
a sea zone with a hostile ship after a step stops there and fights in step 6 (digest F41);
a hostile ship that enters a Battleship's zone of control (its zone or one next to it) stops
there (digest F40).
"""

from __future__ import annotations

from sheetmaster.kit import SEA, Context, Status, values

from .. import data
from ..settings import ZOC_IMMUNE
from ..tables import Unit
from ..world import GoldenWorld
from .common import turn_state
from .naval_orders import ShipPlan

ZOC_MOVE_RULE = "Naval movement by units which exert a Zone of Control or are immune to it"
OTHER_MOVE_RULE = "Other naval movement"


def immune_types(ctx: Context) -> set[str]:
    names = values.Names(data.SEA_TYPES)
    return {names.get(t) for t in values.name_list(ctx.setting(ZOC_IMMUNE))} - {None}


def hostile(ctx: Context, a: Unit, b: Unit) -> bool:
    """Two ships fight when they meet: their nations are at war, or one attacks the other's
    nation on sight."""
    if not a.nation or not b.nation or a.nation == b.nation or a.abandoned or b.abandoned:
        return False
    if ctx.world.at_war(a.nation, b.nation):
        return True
    plans = turn_state(ctx).ships
    pa, pb = plans.get(a.name), plans.get(b.name)
    return bool((pa and pa.attacks(b.nation)) or (pb and pb.attacks(a.nation)))


def move_zoc_ships(ctx: Context) -> None:
    immune = immune_types(ctx)
    _move_group(ctx, [p for p in _movers(ctx) if data.ZONE_OF_CONTROL.get(p.ship.type)
                      or p.ship.type in immune], immune)


def move_other_ships(ctx: Context) -> None:
    immune = immune_types(ctx)
    _move_group(ctx, [p for p in _movers(ctx) if not data.ZONE_OF_CONTROL.get(p.ship.type)
                      and p.ship.type not in immune], immune)


def _movers(ctx: Context) -> list[ShipPlan]:
    return [p for p in turn_state(ctx).ships.values() if p.move is not None]


def _move_group(ctx: Context, group: list[ShipPlan], immune: set[str]) -> None:
    world: GoldenWorld = ctx.world
    moving = [p for p in group if p.path]
    while moving:
        for plan in moving:
            world.move_ship(plan.ship, plan.path[plan.step])
            plan.step += 1
        still = []
        for plan in moving:
            if plan.ship.at in world.provinces or plan.step >= len(plan.path):
                continue  # in port, or at the end of its path
            why = _stop(ctx, plan.ship, immune)
            if why:
                plan.stopped = why
                continue
            still.append(plan)
        moving = still
    for plan in group:
        _report(ctx, plan)


def _stop(ctx: Context, ship: Unit, immune: set[str]) -> str:
    """Why a ship must stop where it is now ('' if it goes on)."""
    world: GoldenWorld = ctx.world
    zone = ship.at
    enemies = [s for s in world.ships_in_zone(zone) if hostile(ctx, ship, s)]
    if enemies:
        nations = ", ".join(dict.fromkeys(s.nation for s in enemies))
        return f"it met {nations}'s ships in {zone}"
    if ship.type in immune:
        return ""
    near = [zone, *world.graph.neighbours(zone, [SEA])]
    for other in near:
        for b in world.ships_in_zone(other):
            reach = data.ZONE_OF_CONTROL.get(b.type, 0)
            if reach and (other == zone or reach >= 1) and hostile(ctx, ship, b):
                return f"it entered the zone of control of {b.name} ({b.nation}) in {zone}"
    return ""


def _route(route: str) -> str:
    """'to Algiers', or 'along Tyrrhenian Sea -> Algiers' for a route of several zones."""
    return f"along {route}" if " -> " in route else f"to {route}"


def _report(ctx: Context, plan: ShipPlan) -> None:
    ship = plan.ship
    route = " -> ".join(plan.path[:plan.step])
    if plan.stopped:
        ctx.emit(ship.nation, "naval move", f"{ship.name} moved {_route(route)} and stopped "
                 f"in {ship.at}: {plan.stopped}")
        ctx.resolve(plan.move, Status.PARTIAL, f"stopped in {ship.at}: {plan.stopped}")
        return
    ctx.emit(ship.nation, "naval move", f"{ship.name} moved {_route(route)}")
    where = f"the port of {ship.at}" if ship.at in ctx.world.provinces else ship.at
    used = len(plan.path)
    ctx.resolve(plan.move, Status.APPLIED, f"moved to {where} ({used} action"
                                           f"{'s' * (used != 1)} of {plan.actions})")
