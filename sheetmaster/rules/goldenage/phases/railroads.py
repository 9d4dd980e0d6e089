"""Railroads: a railroad project between two provinces (step 4's economic orders), at most as
many at once as the nation's tech level; it opens when its timer completes
(:mod:`.construction`)."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status

from .. import data, reasons
from ..tables import Nation
from ..world import GoldenWorld
from .common import fully_controls
from .processes import RAILROAD
from .projects import start_project


def order_railroad(ctx: Context, order: Order, nation: Nation) -> None:
    """ "Number of simultaneous railroad construction projects possible is equal to the tech
    level of a Nation." Both ends must be the builder's, fully controlled."""
    world: GoldenWorld = ctx.world
    a, b = order.fields["province"], order.fields["to"]
    why = ""
    if not world.adjacent_land(a, b):
        why = reasons.NOT_ADJACENT.say(to=b, at=a)
    elif not (fully_controls(world, nation.name, a) and fully_controls(world, nation.name, b)):
        why = reasons.NOT_FULLY_CONTROLLED.say(province=a if not fully_controls(
            world, nation.name, a) else b)
    elif world.railroad(a, b) is not None or any(
            {t.details.get("province"), t.details.get("to")} == {a, b}
            for t in ctx.timers.among((RAILROAD,), a, keys=("province", "to"))):
        why = reasons.HAS_RAILROAD.say(a=a, b=b)
    else:
        building = ctx.timers.owned(RAILROAD, nation.name)
        if len(building) >= nation.tech:
            why = reasons.RAIL_LIMIT.say(count=len(building), tech=nation.tech)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return
    start_project(ctx, order, nation, RAILROAD, data.RAILROAD, nation.tech, a, extra={"to": b})
