"""Step 16, first half: new units and buildings placed. Every running process is checked
("Timers must ... perform validation checks every turn") and those that are due complete.

"New units and buildings placed"; "Naval units are constructed from a Port, and when
completed will be placed on the map at the Port from which they were constructed."
"""

from __future__ import annotations

from sheetmaster.kit import Context, Timer

from .. import data
from ..settings import INTEGRATION_PAYMENT
from ..tables import Railroad, Unit
from ..world import GoldenWorld
from .administration_checks import capital_site_problem, peacetime_problem
from .common import CURRENCY, entrenched_infantry, treasury
from .processes import (
    CAPITAL_MOVE,
    CONSTRUCTION,
    FORT_REACTIVATION,
    INTEGRATION,
    PORT_UPGRADE,
    PRODUCTION,
    PROVINCE_UPGRADE,
    RAILROAD,
    SALVAGE,
)
from .setup import new_building

PLACE_RULE = ("New units and buildings placed. " + data.FORT_RULE + " " + data.REACTIVATE_RULE)


def place_new_units_and_buildings(ctx: Context) -> None:
    for timer in ctx.timers.find():
        if timer.started < ctx.turn:
            _check(ctx, timer)
    for timer in ctx.timers.due():
        done = COMPLETE.get(timer.kind)
        if done is not None:
            done(ctx, timer)


def _check(ctx: Context, timer: Timer) -> None:
    """The conditions a running process must meet every season."""
    world: GoldenWorld = ctx.world
    province = timer.details.get("province", "")
    if timer.kind == CONSTRUCTION and timer.details.get("what") == data.FORT and \
            not entrenched_infantry(world, timer.owner, province):
        _refund(ctx, timer, "no entrenched Infantry stayed in the province")
    elif timer.kind == FORT_REACTIVATION and not entrenched_infantry(world, timer.owner,
                                                                     province):
        ctx.timers.cancel(timer, "no Infantry stayed entrenched in the province")
        fort = world.fort(province)
        if fort is not None:
            fort.state = data.MOTHBALLED
    elif timer.kind == CAPITAL_MOVE:
        why = peacetime_problem(world, timer.owner) or capital_site_problem(
            world, timer.owner, province)
        if why:
            ctx.timers.cancel(timer, f"the move is off: {why}")
    elif timer.kind == INTEGRATION:
        _integration_season(ctx, timer)


def _integration_season(ctx: Context, timer: Timer) -> None:
    """ "multiple stages of scheduled payments on condition that some military force is
    present": each season it is paid while the nation's forces stay; else it lapses."""
    world: GoldenWorld = ctx.world
    nation = world.nations[timer.owner]
    where = timer.details["province"]
    if world.provinces[where].owner or world.provinces[where].occupied_by:
        ctx.timers.cancel(timer, f"{where} is no longer neutral")
        return
    if not world.land_units_in(where, nation.name):
        ctx.timers.cancel(timer, f"no forces of {nation.name} remain in {where}")
        return
    payment = ctx.setting(INTEGRATION_PAYMENT)
    if not CURRENCY.can_pay(nation, payment):
        ctx.timers.cancel(timer, f"{nation.name} cannot pay this season's {payment}")
        return
    ctx.timers.pay(timer, payment)
    CURRENCY.spend(ctx, nation, payment, f"the integration of {where}")


def _refund(ctx: Context, timer: Timer, why: str) -> None:
    """Cancel with half of what was paid refunded, rounded down (digest F15)."""
    refund = int(ctx.timers.cancel(timer, why, refund=int(timer.paid) // 2))
    nation = ctx.world.nations.get(timer.owner)
    if nation is not None and refund:
        nation.currency += refund
        treasury(ctx, nation, f"refunded {refund} for {timer.subject}")


def _production(ctx: Context, timer: Timer) -> None:
    world: GoldenWorld = ctx.world
    where, kind = timer.details["province"], timer.details["what"]
    nation = world.nations[timer.owner]
    if world.provinces[where].holder != nation.name:
        _refund(ctx, timer, f"{where} is no longer held")
        return
    names = []
    for _ in range(int(timer.details.get("count") or 1)):
        unit = world.add_unit(Unit(world.new_unit_id(nation.name, kind), nation.name, kind,
                                   nation.tech, where, (), 0, "", "", ""))
        names.append(unit.name)
    ctx.timers.complete(timer, f"{', '.join(names)} ready in {where}")


def _construction(ctx: Context, timer: Timer) -> None:
    world: GoldenWorld = ctx.world
    where, kind = timer.details["province"], timer.details["what"]
    building = new_building(world, kind, where, timer.details.get("sea zone") or "")
    ctx.timers.complete(timer, f"{building.name} ({kind}) built in {where}")


def _port_upgrade(ctx: Context, timer: Timer) -> None:
    port = ctx.world.port(timer.details["province"])
    if port is None:
        ctx.timers.cancel(timer, "the port is gone")
        return
    port.level = int(timer.details["level"])
    ctx.timers.complete(timer, f"the Port of {port.province} is now level {port.level}")


def _railroad(ctx: Context, timer: Timer) -> None:
    world: GoldenWorld = ctx.world
    a, b = timer.details["province"], timer.details["to"]
    number = len(world.railroads) + 1
    taken = {r.name.casefold() for r in world.railroads}
    while f"R{number}".casefold() in taken:
        number += 1
    world.add_railroad(Railroad(f"R{number}", a, b, timer.owner))
    ctx.timers.complete(timer, f"railroad {a} - {b} (R{number}) finished")


def _province_upgrade(ctx: Context, timer: Timer) -> None:
    province = ctx.world.provinces[timer.details["province"]]
    province.upgraded = True
    ctx.timers.complete(timer, f"{province.name}'s value rises by 1")


def _reactivation(ctx: Context, timer: Timer) -> None:
    fort = ctx.world.fort(timer.details["province"])
    if fort is not None:
        fort.state = data.ACTIVE
    ctx.timers.complete(timer, f"the Fort in {timer.details['province']} is active again")


def _capital_move(ctx: Context, timer: Timer) -> None:
    """ "... and costs (50 currency multiplied by tech level) at the end of those 4 turns"."""
    world: GoldenWorld = ctx.world
    nation = world.nations[timer.owner]
    cost = data.MOVE_CAPITAL_COST_PER_TECH * nation.tech
    if not CURRENCY.can_pay(nation, cost):
        ctx.timers.cancel(timer, f"the move costs {cost} and {nation.name} has "
                                 f"{nation.currency}")
        return
    CURRENCY.take(nation, cost)
    ctx.timers.pay(timer, cost)
    treasury(ctx, nation, f"paid {cost} to move the capital")
    old, nation.capital = nation.capital, timer.details["province"]
    ctx.timers.complete(timer, f"{nation.name}'s capital moves from {old} to {nation.capital}")


def _salvage(ctx: Context, timer: Timer) -> None:
    """F60: a year's use of captured superior equipment, then salvage for half its cost."""
    world: GoldenWorld = ctx.world
    unit = world.units.get(timer.details["unit"])
    nation = world.nations.get(timer.owner)
    if unit is None or nation is None or unit.nation != nation.name:
        ctx.timers.cancel(timer, "the equipment is no longer held")
        return
    value = int(timer.details["value"])
    world.remove(unit, "salvaged")
    nation.currency += value
    treasury(ctx, nation, f"salvaged {unit.name} for {value}")
    ctx.timers.complete(timer, f"{unit.name} salvaged for {value}")


COMPLETE = {PRODUCTION: _production, CONSTRUCTION: _construction, PORT_UPGRADE: _port_upgrade,
            RAILROAD: _railroad, PROVINCE_UPGRADE: _province_upgrade,
            FORT_REACTIVATION: _reactivation, CAPITAL_MOVE: _capital_move, SALVAGE: _salvage}
