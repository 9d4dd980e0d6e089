"""Canals: begun with `build-canal`, finished by investment (digest F19, F20).

"`build-canal` begins construction of a building or canal." "`invest-canal` spends up to 50
currency per year in a canal which is under construction." A canal opens when what was
invested reaches its cost (the Canals tab's 'cost', from the rulebook's p.12).
"""

from __future__ import annotations

from sheetmaster.kit import Context, MissingSetting, Order, Problem, Status
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..settings import CANAL_START
from ..tables import BUILDING, CANALS, OPEN, Canal, CanalInvestment, Nation
from ..world import GoldenWorld
from .common import CURRENCY
from .processes import CANAL


def build_canal(ctx: Context, order: Order, nation: Nation) -> None:
    world: GoldenWorld = ctx.world
    canal = world.canals[order.fields["canal"]]
    if canal.state:
        ctx.resolve(order, Status.REJECTED, reasons.CANAL_STATE.say(canal=canal.name,
                                                                    state=canal.state))
        return
    if not any(canal.sea_zone in p.seas for p in world.provinces_of(nation.name)):
        ctx.resolve(order, Status.REJECTED, f"none of your provinces touches "
                                            f"{canal.sea_zone}, the canal's sea zone")
        return
    cost = ctx.setting(CANAL_START)
    if not pay(ctx, order, nation, cost, CURRENCY, f"beginning the {canal.name} canal"):
        return
    canal.state, canal.owner = BUILDING, nation.name
    ctx.timers.start(CANAL, nation.name, canal.name, None, order_row=order.row,
                     data={"canal": canal.name})
    ctx.emit(nation.name, "canal", f"{nation.name} begins the {canal.name} canal")
    ctx.resolve(order, Status.APPLIED, f"the {canal.name} canal is begun, for {cost}")


def invest_canal(ctx: Context, order: Order, nation: Nation) -> None:
    """Any nation may invest, up to 50 a calendar year in each canal (digest F6); an order
    over what is left is partly applied (F19)."""
    world: GoldenWorld = ctx.world
    canal = world.canals[order.fields["canal"]]
    if canal.state != BUILDING:
        ctx.resolve(order, Status.REJECTED, reasons.CANAL_STATE.say(
            canal=canal.name, state=canal.state or "not begun"))
        return
    year = ctx.date.year
    entry = next((r for r in world.canal_investments if r.canal == canal.name and
                  r.year == year and r.nation == nation.name), None)
    done = entry.amount if entry is not None else 0
    room = data.CANAL_PER_YEAR - done
    if room <= 0:
        ctx.resolve(order, Status.REJECTED, reasons.CANAL_YEAR_CAP.say(done=done,
                                                                       canal=canal.name))
        return
    amount = min(order.fields["amount"], room)
    if not pay(ctx, order, nation, amount, CURRENCY, f"the {canal.name} canal"):
        return
    if entry is None:
        entry = CanalInvestment(canal.name, year or 0, nation.name, 0)
        world.canal_investments.append(entry)
    entry.amount += amount
    canal.total += amount
    timer = next((t for t in ctx.timers.find(kind=CANAL) if t.details["canal"] == canal.name), None)
    if timer is not None:
        ctx.timers.pay(timer, amount)
    status = Status.APPLIED if amount == order.fields["amount"] else Status.PARTIAL
    note = "" if status is Status.APPLIED else f" (of {order.fields['amount']}: 50 a year)"
    ctx.resolve(order, status, f"invested {amount} in the {canal.name} canal{note}; "
                               f"{canal.total} of {_cost(canal)}")
    if canal.total >= _cost(canal):
        _open(ctx, canal, timer)


def _open(ctx: Context, canal: Canal, timer) -> None:
    world: GoldenWorld = ctx.world
    canal.state = OPEN
    world.seas[canal.sea_zone].open = True
    text = f"Canal Complete: the {canal.name} canal is open"
    if timer is not None:
        ctx.timers.complete(timer, text)
    else:
        ctx.emit(canal.owner, "canal", text)


def _cost(canal: Canal) -> int:
    if canal.cost is None:
        raise MissingSetting(Problem(CANALS.tab, canal.row, "cost",
                                     f"is blank, and this turn needs it (the investment that "
                                     f"finishes the {canal.name} canal)"))
    return canal.cost

