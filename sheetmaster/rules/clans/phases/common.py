"""Checks and payments every clans phase shares."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status
from sheetmaster.rules.common import treasury

from .. import reasons
from ..tables import Clan, Province
from ..world import ClansWorld


def acting_clan(ctx: Context, order: Order) -> Clan | None:
    """The clan giving ``order`` if it may act, else the order is rejected."""
    clan = ctx.world.clans[order.player]
    if clan.destroyed:
        ctx.resolve(order, Status.REJECTED, reasons.DESTROYED.say(when=clan.destroyed))
        return None
    if not clan.started:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_STARTED.say())
        return None
    return clan


def own_province(ctx: Context, order: Order, clan: Clan) -> Province | None:
    province = ctx.world.provinces[order.fields["province"]]
    if province.owner != clan.name:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_YOURS.say(
            province=province.name, owner=province.owner or "the Independents"))
        return None
    return province


def other_clan(ctx: Context, order: Order, clan: Clan, column: str = "clan") -> Clan | None:
    """The living clan an order names in ``column``, other than the clan giving it."""
    other = ctx.world.clans[order.fields[column]]
    if other is clan:
        ctx.resolve(order, Status.REJECTED, reasons.SELF.say())
        return None
    if other.destroyed or not other.started:
        why = reasons.TARGET_DESTROYED if other.destroyed else reasons.TARGET_NOT_STARTED
        ctx.resolve(order, Status.REJECTED, why.say(clan=other.name))
        return None
    return other


def pay(ctx: Context, order: Order, clan: Clan, cost: int) -> bool:
    """Take ``cost`` coins, or reject the order and change nothing."""
    return treasury.pay(ctx, order, clan, cost, attr="coins")


def grant_tech(world: ClansWorld, clan: Clan, tech: str) -> None:
    """A tech the clan gets whole (an extra, a gift): a project on it ends, points kept."""
    clan.techs.append(tech)
    if clan.researching == tech:
        clan.researching = ""
