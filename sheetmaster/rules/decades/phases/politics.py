"""Step 2: the political decisions of the turn, in posting order: reforms, religion and
culture, cessions and independence, alliances, satellites, annexations, standing choices and
the GM's events. Hits apply at once, and what they trigger too (F32)."""

from __future__ import annotations

from sheetmaster.kit import Context, Status
from sheetmaster.rules.common.agreements import partner_rejected

from ..orders import POLITICS
from .common import GUARDS
from .deals import OFFERS, PAIRS, run_deal
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
    partner = OFFERS.pair_up(orders)
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
            ctx.resolve(order, Status.REJECTED, OFFERS.unanswered(order))
        elif other.row > order.row:
            continue  # it waits for its answer
        elif ctx.resolved(other) is not None:
            ctx.resolve(order, Status.REJECTED, partner_rejected(other))
        else:
            run_deal(ctx, other, order)
    for order in orders:  # a row whose answer was refused waited for nothing
        other = partner.get(order.row)
        if ctx.resolved(order) is None and other is not None:
            ctx.resolve(order, Status.REJECTED, partner_rejected(other))

