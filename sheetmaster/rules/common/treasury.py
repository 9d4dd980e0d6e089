"""Paying for an order: take the cost from a treasury, or reject the order and change
nothing. Every game pays through :func:`pay`; a :class:`Purse` says once where the game keeps
its money, how its "not enough" reason words it and what its log says of a payment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sheetmaster.kit import Context, Order, Reason, Status

NOT_ENOUGH = Reason("NOT_ENOUGH", "not enough {currency}: it costs {cost}, {has}")


def _you_have(holder: Any, have: object) -> str:
    return f"you have {have}"


def _as_is(amount: Any) -> object:
    return amount


@dataclass(frozen=True)
class Purse:
    """One game's treasury: ``holder.<attr>`` holds the money.

    ``currency`` is the word after "not enough" in the reason ('coins', 'currency', 'to
    spend'; default: ``attr``), ``show`` writes an amount in it, ``has`` says what the holder
    has ("you have 5"), and ``paid(ctx, holder, cost, what)``, if given, is the game's log line
    for a payment (``what`` it was for)."""

    attr: str
    currency: str = ""
    show: Callable[[Any], object] = _as_is
    has: Callable[[Any, object], str] = _you_have
    paid: Callable[[Context, Any, Any, str], None] | None = None

    def balance(self, holder: Any) -> Any:
        return getattr(holder, self.attr)

    def can_pay(self, holder: Any, cost: Any) -> bool:
        return self.balance(holder) >= cost

    def shortfall(self, holder: Any, cost: Any) -> str:
        """Why ``holder`` cannot pay ``cost`` ('' if it can): the reason :func:`pay` rejects
        an order with, for a phase that records outcomes itself."""
        have = self.balance(holder)
        if have >= cost:
            return ""
        return NOT_ENOUGH.say(currency=self.currency or self.attr, cost=self.show(cost),
                              has=self.has(holder, self.show(have)))

    def take(self, holder: Any, cost: Any) -> None:
        """Take ``cost`` (the caller knows it can be paid), for a payment the caller logs
        its own way (a loan, a transfer)."""
        setattr(holder, self.attr, self.balance(holder) - cost)

    def spend(self, ctx: Context, holder: Any, cost: Any, what: str = "") -> None:
        """Take ``cost`` (the caller knows it can be paid) for ``what``, logged the game's
        way."""
        self.take(holder, cost)
        if self.paid is not None:
            self.paid(ctx, holder, cost, what)


def pay(ctx: Context, order: Order, holder: Any, cost: Any, purse: Purse, what: str = ""
        ) -> bool:
    """Take ``cost`` from ``holder``'s ``purse`` for ``what``, or reject ``order`` with the
    :data:`NOT_ENOUGH` reason and change nothing."""
    why = purse.shortfall(holder, cost)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return False
    purse.spend(ctx, holder, cost, what)
    return True
