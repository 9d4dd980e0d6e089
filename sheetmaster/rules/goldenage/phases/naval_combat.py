"""Step 6: naval combat, then what ships do where they ended their movement.

"Fleets fight three engagements. The fleet which wins at least two engagements is the
victor. The remaining ships of the losing fleet automatically retreat one zone towards the
nearest friendly port, or enters a friendly if one is adjacent to the location of the
battle. The winning fleet remains pinned but may carry out any Supply, Support, or Blockade
orders which were intended to be performed from the sea zone in which combat occured."
"""

from __future__ import annotations

from sheetmaster.kit import GM_ONLY, SEA, Context, Status

from .. import data
from ..settings import NAVAL_DIE, SHIPS_LOST, STRENGTH, number
from ..tables import Unit
from ..world import GoldenWorld
from .common import turn_state
from .naval_actions import after_movement, settle_blockades
from .naval_moves import hostile
from .naval_orders import closed

NAVAL_RULE = data.NAVAL_COMBAT_RULE + (
    " The remaining ships of the losing fleet automatically retreat one zone towards the "
    "nearest friendly port, or enters a friendly if one is adjacent to the location of the "
    "battle.")


def fight_at_sea(ctx: Context) -> None:
    """Every sea zone where hostile ships stand sees a battle between each pair of hostile
    nations there; then ships act where they ended (landings, supply, support, blockade)."""
    world: GoldenWorld = ctx.world
    for zone in world.seas:
        ships = sorted((s for s in world.ships_in_zone(zone) if s.nation and not s.abandoned),
                       key=_row)
        sides = list(dict.fromkeys(s.nation for s in ships))
        for i, a in enumerate(sides):
            for b in sides[i + 1:]:
                fleet_a = [s for s in world.ships_in_zone(zone) if s.nation == a]
                fleet_b = [s for s in world.ships_in_zone(zone) if s.nation == b]
                if fleet_a and fleet_b and any(hostile(ctx, x, y) for x in fleet_a
                                               for y in fleet_b):
                    _battle(ctx, zone, a, fleet_a, b, fleet_b)
    plans = turn_state(ctx).ships
    for plan in sorted(plans.values(), key=lambda p: p.ship.row or 10**9):
        after_movement(ctx, plan)
    settle_blockades(ctx)
    for plan in plans.values():
        order = plan.attack_order
        if order is not None and ctx.resolved(order) is None:
            if plan.met:
                ctx.resolve(order, Status.APPLIED, f"fought {', '.join(sorted(plan.met))}")
            else:
                ctx.resolve(order, Status.NOT_NEEDED, "met no ships it attacks")


def _battle(ctx: Context, zone: str, a: str, fleet_a: list[Unit], b: str,
            fleet_b: list[Unit]) -> None:
    world: GoldenWorld = ctx.world
    if world.declare_war(a, b):
        ctx.emit(a, "war", f"{a} and {b} are at war: their ships attacked on sight in {zone}")
    die = ctx.setting(NAVAL_DIE)
    strength = {a: _strength(ctx, fleet_a), b: _strength(ctx, fleet_b)}
    wins = {a: 0, b: 0}
    lines = []
    for i in range(1, data.ENGAGEMENTS + 1):
        rolls = {n: ctx.dice.roll(die, n, f"naval engagement {i} in {zone}",
                                  name=f"naval {zone} {n}") for n in (a, b)}
        score = {n: rolls[n] + strength[n] for n in (a, b)}
        winner = a if score[a] > score[b] else b if score[b] > score[a] else ""
        if winner:
            wins[winner] += 1
        lines.append(f"{i}: {a} {rolls[a]}+{strength[a]}={score[a]}, {b} {rolls[b]}+"
                     f"{strength[b]}={score[b]} ({winner or 'drawn'})")
    victor = a if wins[a] >= data.ENGAGEMENTS_TO_WIN else \
        b if wins[b] >= data.ENGAGEMENTS_TO_WIN else ""
    plans = turn_state(ctx).ships
    for ship in fleet_a + fleet_b:
        plan = plans.get(ship.name)
        if plan is not None:
            plan.fought = True
            plan.met.add(b if ship.nation == a else a)
    outcome = f"{victor} wins" if victor else "no fleet wins two engagements; both stay"
    ctx.emit(a, "naval battle", f"naval battle in {zone}, {a} against {b}: "
             f"{'; '.join(lines)}: {outcome}")
    if b in world.nations:
        ctx.emit(b, "naval battle", f"naval battle in {zone} against {a}: {outcome}",
                 audience=b)
    if victor:
        _defeat(ctx, zone, fleet_b if victor == a else fleet_a)


def _strength(ctx: Context, fleet: list[Unit]) -> int:
    return sum(int(number(ctx, s.type, s.tech, STRENGTH)) for s in fleet)


def _defeat(ctx: Context, zone: str, fleet: list[Unit]) -> None:
    """The loser loses ships (the weakest first, then the most recently listed), and the rest
    retreat."""
    world: GoldenWorld = ctx.world
    plans = turn_state(ctx).ships
    lost = int(ctx.setting(SHIPS_LOST))
    ranked = sorted(fleet, key=lambda s: (int(number(ctx, s.type, s.tech, STRENGTH)),
                                          -_row(s)))
    for ship in ranked[:lost]:
        lost = world.remove(ship, f"sunk in {zone}")
        if ship.name in plans:
            plans[ship.name].sunk = True
        aboard = f", with {', '.join(u.name for u in lost[1:])} aboard" if lost[1:] else ""
        ctx.emit(ship.nation, "sunk", f"{ship.name} ({ship.type}) was sunk in {zone}{aboard}")
    for ship in [s for s in fleet if s.alive]:
        if ship.name in plans:
            plans[ship.name].retreated = True
        _retreat(ctx, ship, zone)


def _row(ship: Unit) -> int:
    """Where the ship's row is: new units (row 0) come after every row of the tab."""
    return ship.row or 10**9


def _retreat(ctx: Context, ship: Unit, zone: str) -> None:
    """Into a friendly port on this zone, else one zone nearer the nearest friendly port
    (ties: the first in the zone's border list; digest F49)."""
    world: GoldenWorld = ctx.world
    ports = {b.sea_zone: b.province for b in world.buildings if b.type == data.PORT and
             world.friendly_port(b.province, ship.nation) is not None}
    if zone in ports:
        world.move_ship(ship, ports[zone])
        ctx.emit(ship.nation, "retreat", f"{ship.name} retreated into the port of "
                                         f"{ports[zone]}")
        return
    distance = world.graph.distances(sorted(ports), [SEA],
                                     enter=lambda z: not closed(world, z, ship.nation))
    options = [z for z in world.graph.neighbours(zone, [SEA]) if z in distance]
    if not options:
        ctx.emit(ship.nation, "retreat", f"{ship.name} cannot retreat from {zone}: no "
                 "friendly port can be reached; it stays (GM: see the rulebook)", GM_ONLY)
        return
    best = min(options, key=lambda z: distance[z])
    world.move_ship(ship, best)
    ctx.emit(ship.nation, "retreat", f"{ship.name} retreated from {zone} to {best}")
