"""Step 0's administrative orders: provisional and permanent capitals, renaming provinces,
succession (digest F10, F37, F56)."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status

from .. import reasons
from ..orders import PERMANENT_CAPITAL, PROVISIONAL_CAPITAL, RENAME, SUCCESSION
from ..tables import PERMANENT, PROVISIONAL, Nation
from ..world import GoldenWorld
from .common import own_core_province, own_province

PROVISIONAL_RULE = ("Establish Provisional Capital: Must be the first order issued on the turn "
                    "following the occupation of a Nation's current capital.")
PERMANENT_RULE = ("While using a provisional capital, and after recapturing an occupied "
                  "original capital, a Nation may choose an existing provisional or original "
                  "capital to promote to a permanent capital. Full seasonal income is restored "
                  "when a permanent capital is in use.")
ADMIN_RULE = "Change Province Name; Change Leader Name ('Succession')"


def administer(ctx: Context) -> None:
    """Capitals first (the provisional one "must be the first order"), then names."""
    for order in ctx.orders(PROVISIONAL_CAPITAL):
        _provisional(ctx, order, ctx.world.nations[order.player])
    for order in ctx.orders(PERMANENT_CAPITAL):
        _permanent(ctx, order, ctx.world.nations[order.player])
    for order in ctx.orders(RENAME):
        province = own_province(ctx, order, unoccupied=False)
        name = order.fields["name"]
        if province is None:
            continue
        old, province.title = province.title or province.name, name
        ctx.emit(order.player, "renamed", f"{province.name} ({old}) is now called {name}")
        ctx.resolve(order, Status.APPLIED, f"{province.name} renamed {name}")
    for order in ctx.orders(SUCCESSION):
        nation = ctx.world.nations[order.player]
        old, nation.leader = nation.leader, order.fields["name"]
        before = old or "the late leader"
        ctx.emit(nation.name, "succession", f"{nation.leader} succeeds {before} at the head "
                                            f"of {nation.name}")
        ctx.resolve(order, Status.APPLIED, f"{nation.leader} leads {nation.name}")


def _provisional(ctx: Context, order: Order, nation: Nation) -> None:
    if nation.capital:
        ctx.resolve(order, Status.REJECTED, reasons.CAPITAL_NOT_LOST.say(capital=nation.capital))
        return
    province = own_core_province(ctx, order)
    if province is None:
        return
    nation.capital, nation.capital_kind = province.name, PROVISIONAL
    first = next(o for o in ctx.all_orders() if o.player == nation.name)
    note = "" if first is order else " (it should be the turn's first order; accepted, " \
        "digest F56)"
    ctx.emit(nation.name, "capital", f"{nation.name} establishes its provisional capital in "
             f"{province.name}")
    ctx.resolve(order, Status.APPLIED, f"provisional capital: {province.name}{note}")


def _permanent(ctx: Context, order: Order, nation: Nation) -> None:
    world: GoldenWorld = ctx.world
    original = nation.original_capital
    if nation.capital_kind != PROVISIONAL or not nation.capital:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_PROVISIONAL.say())
        return
    back = original and world.provinces[original].owner == nation.name and \
        not world.provinces[original].occupied_by
    if not back:
        ctx.resolve(order, Status.REJECTED, reasons.ORIGINAL_NOT_BACK.say(
            capital=original or "(none recorded)"))
        return
    chosen = order.fields["province"]
    if chosen not in (original, nation.capital):
        ctx.resolve(order, Status.REJECTED, reasons.NOT_A_CAPITAL.say(province=chosen))
        return
    nation.capital, nation.capital_kind, nation.original_capital = chosen, PERMANENT, ""
    nation.income_halved = False
    ctx.emit(nation.name, "capital", f"{nation.name} makes {chosen} its permanent capital; "
             "full seasonal income is restored")
    ctx.resolve(order, Status.APPLIED, f"permanent capital: {chosen}")
