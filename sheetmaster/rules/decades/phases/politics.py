"""Step 2: the political decisions of the turn, in posting order: reforms, religion and
culture, cessions and independence, alliances, satellites, annexations, standing choices and
the GM's events. Hits apply at once, and what they trigger too (F32)."""

from __future__ import annotations

from sheetmaster import values
from sheetmaster.model import Order, Status
from sheetmaster.ruleset import Context

from .. import reasons
from ..orders import ACCEPT_PROVINCE, POLITICS
from .common import GUARDS
from .deals import PAIRS, answers, run_deal
from .statecraft import HANDLERS

POLITICS_RULE = (
    "Territories may be ceded to another state or granted full independence at any time, which "
    "if they do not match the state's religion or culture will improve happiness according to "
    "their proportion within the state. [...] In addition to PU, three other types of "
    "diplomatic relationship require recognition by the game, which is to say the must be "
    "officially declared in game to be valid. These are, Alliances, Satellite states, and wars."
)
TWO_SIDED = {*PAIRS, *PAIRS.values()}


def decide_politics(ctx: Context) -> None:
    """Every political order in posting order; a two-sided one takes effect at the later of
    its two rows (F6: a cession needs the recipient's 'accept province')."""
    orders = ctx.orders(*POLITICS)
    partner = pair_up(orders)
    for order in orders:
        if ctx.resolved(order) is not None:
            continue
        state = GUARDS.acting(ctx, order)
        if state is None:
            continue
        if order.kind not in TWO_SIDED:
            HANDLERS[order.kind](ctx, order, state)
            continue
        other = partner.get(order.row)
        if other is None:
            ctx.resolve(order, Status.REJECTED, _unanswered(order))
        elif other.row > order.row:
            continue  # it waits for its answer
        elif ctx.resolved(other) is not None:
            ctx.resolve(order, Status.REJECTED, f"{other.player}'s '{other.kind}' (order row "
                                                f"{other.row}) was rejected")
        else:
            run_deal(ctx, other, order)
    for order in orders:  # a row whose answer was refused waited for nothing
        other = partner.get(order.row)
        if ctx.resolved(order) is None and other is not None:
            ctx.resolve(order, Status.REJECTED, f"{other.player}'s '{other.kind}' (order row "
                                                f"{other.row}) was rejected")


def pair_up(orders: list[Order]) -> dict[int, Order]:
    """row -> the order that answers it (and back), each matched once, earliest first."""
    out: dict[int, Order] = {}
    for order in orders:
        if order.kind not in PAIRS or order.row in out:
            continue
        for other in orders:
            if other is not order and other.row not in out and \
                    other.kind == PAIRS[order.kind] and answers(order, other):
                out[order.row], out[other.row] = other, order
                break
    return out


def _unanswered(order: Order) -> str:
    if order.kind in PAIRS:
        return reasons.NOT_ACCEPTED.say(state=order.fields["state"], kind=PAIRS[order.kind])
    asked = next(k for k, v in PAIRS.items() if v == order.kind)
    named = order.fields["province"] if order.kind == ACCEPT_PROVINCE else order.player
    return reasons.NO_OFFER.say(kind=asked, state=values.show(named)
                                if order.kind == ACCEPT_PROVINCE else named)
