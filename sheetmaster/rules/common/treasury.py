"""Paying for an order: take the cost from a treasury, or reject the order and change
nothing. One "not enough" reason for every game, in its own currency's name."""

from __future__ import annotations

from typing import Any

from sheetmaster.model import Order, Status
from sheetmaster.reasons import Reason
from sheetmaster.ruleset import Context

NOT_ENOUGH = Reason("NOT_ENOUGH", "not enough {currency}: it costs {cost}, you have {have}")


def pay(ctx: Context, order: Order, holder: Any, cost: Any, *, attr: str,
        currency: str | None = None) -> bool:
    """Take ``cost`` from ``holder.<attr>`` (its treasury), or reject ``order`` with the
    reason and change nothing. ``currency`` names it in the reason (default: ``attr``)."""
    have = getattr(holder, attr)
    if have < cost:
        ctx.resolve(order, Status.REJECTED, NOT_ENOUGH.say(currency=currency or attr,
                                                            cost=cost, have=have))
        return False
    setattr(holder, attr, have - cost)
    return True


def can_pay(holder: Any, cost: Any, *, attr: str) -> bool:
    return getattr(holder, attr) >= cost
