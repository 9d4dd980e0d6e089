"""All other actions of a player's turn, in posting order: demolition, prospecting, advisors,
research, moving the capital, and diplomacy (gifts of coins and techs)."""

from __future__ import annotations

from collections.abc import Callable

from sheetmaster.kit import Context, Order, Status, plural
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..orders import (
    ACCEPT,
    DEMOLISH,
    DISMISS,
    GIVE_COINS,
    GIVE_TECH,
    HIRE,
    MOVE_CAPITAL,
    OTHER_ACTIONS,
    PROSPECT,
    RESEARCH,
)
from ..tables import Clan
from .building import demolish
from .common import COINS, GUARDS, grant_tech
from .court import accept, dismiss, hire
from .prospecting import prospect
from .research import choose_research

CAPITAL_RULE = (
    "You can move your capital to different Province for 2500 Coins and only once a 'year' "
    "(every 4 Turns)."
)
DIPLOMACY_RULE = (
    "Currently, the only diplomatic options Players have are to give/trade away Coins and "
    "completed Techs."
)


def other_actions(ctx: Context) -> None:
    """Every other order of the player, in the order posted."""
    for order in ctx.orders(*OTHER_ACTIONS):
        clan = GUARDS.acting(ctx, order)
        if clan is not None:
            ACTIONS[order.kind](ctx, order, clan)


def move_capital(ctx: Context, order: Order, clan: Clan) -> None:
    """The Palace moves; at most once in any 4 turns (so also once a calendar year)."""
    province = GUARDS.own_territory(ctx, order, clan)
    if province is None:
        return
    if province.name == clan.capital:
        ctx.resolve(order, Status.REJECTED, reasons.CAPITAL_ALREADY.say(province=province.name))
        return
    last = clan.capital_moved
    if last and ctx.turn < last + data.MOVE_CAPITAL_EVERY:
        ctx.resolve(order, Status.REJECTED, reasons.CAPITAL_TOO_SOON.say(
            turn=last, next=last + data.MOVE_CAPITAL_EVERY))
        return
    if not pay(ctx, order, clan, data.MOVE_CAPITAL_COST, COINS):
        return
    old, clan.capital, clan.capital_moved = clan.capital, province.name, ctx.turn
    ctx.emit(clan.name, "capital moved", f"moved the capital from {old or '(none)'} to "
                                         f"{province.name} for {data.MOVE_CAPITAL_COST} coins; "
                                         f"coins now {clan.coins}")
    ctx.resolve(order, Status.APPLIED, f"capital now {province.name}")


def give_coins(ctx: Context, order: Order, clan: Clan) -> None:
    other = GUARDS.other_player(ctx, order, clan)
    amount = order.fields["amount"]
    if other is None or not pay(ctx, order, clan, amount, COINS):
        return
    other.coins += amount
    coins = plural(amount, "coin")
    ctx.emit(clan.name, "gift", f"gave {coins} to {other.name}; coins now {clan.coins}")
    ctx.emit(other.name, "gift", f"received {coins} from {clan.name}; coins now {other.coins}")
    ctx.resolve(order, Status.APPLIED, f"gave {coins} to {other.name}")


def give_tech(ctx: Context, order: Order, clan: Clan) -> None:
    """A completed tech is shared: the giver keeps it; the receiver needs no prerequisite."""
    other = GUARDS.other_player(ctx, order, clan)
    if other is None:
        return
    tech = order.fields["tech"]
    if not clan.has(tech):
        ctx.resolve(order, Status.REJECTED, reasons.NOT_YOUR_TECH.say(tech=tech))
        return
    if other.has(tech):
        ctx.resolve(order, Status.REJECTED, reasons.THEY_HAVE_TECH.say(clan=other.name,
                                                                      tech=tech))
        return
    grant_tech(ctx.world, other, tech)
    ctx.emit(clan.name, "gift", f"gave {tech} to {other.name}")
    ctx.emit(other.name, "gift", f"received {tech} from {clan.name}")
    ctx.resolve(order, Status.APPLIED, f"gave {tech} to {other.name}")


ACTIONS: dict[str, Callable[[Context, Order, Clan], None]] = {
    DEMOLISH: demolish, PROSPECT: prospect, HIRE: hire, ACCEPT: accept, DISMISS: dismiss,
    RESEARCH: choose_research, MOVE_CAPITAL: move_capital, GIVE_COINS: give_coins,
    GIVE_TECH: give_tech,
}
