"""Paying for an order: take the cost from a treasury, or reject the order and change
nothing. One "not enough" reason for every game, in its own currency's name."""

from __future__ import annotations

from typing import Any

from sheetmaster.kit import Context, Order, Reason, Status

NOT_ENOUGH = Reason("NOT_ENOUGH", "not enough {currency}: it costs {cost}, you have {have}")


def pay(ctx: Context, order: Order, holder: Any, cost: Any, *, attr: str,
        currency: str | None = None) -> bool:
    """Take ``cost`` from ``holder.<attr>`` (its treasury), or reject ``order`` with the
    reason and change nothing. ``currency`` names it in the reason (default: ``attr``)."""
    why = shortfall(holder, cost, attr=attr, currency=currency)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return False
    setattr(holder, attr, getattr(holder, attr) - cost)
    return True


def shortfall(holder: Any, cost: Any, *, attr: str, currency: str | None = None) -> str:
    """Why ``holder.<attr>`` cannot pay ``cost`` ('' if it can): the reason :func:`pay`
    rejects an order with, for a phase that records outcomes itself."""
    have = getattr(holder, attr)
    return NOT_ENOUGH.say(currency=currency or attr, cost=cost, have=have) if have < cost \
        else ""


def can_pay(holder: Any, cost: Any, *, attr: str) -> bool:
    return getattr(holder, attr) >= cost
