"""What every phase needs: the state an order acts for, and paying from this turn's income."""

from __future__ import annotations

from decimal import Decimal

from sheetmaster.kit import Context, Order, Status

from .. import reasons
from ..economy import ev
from ..tables import State
from ..world import DecadesWorld


def acting(ctx: Context, order: Order) -> State | None:
    """The state giving ``order``, or None once the order is rejected: a state that is no
    more, or a non-player state ordered from the Orders tab (the GM orders those)."""
    world: DecadesWorld = ctx.world
    state = world.states[order.player]
    if not state.alive:
        ctx.resolve(order, Status.REJECTED, reasons.GONE.say(state=state.name,
                                                             status=state.status))
        return None
    if not order.from_gm and not world.played(state):
        ctx.resolve(order, Status.REJECTED, reasons.NOT_PLAYED.say(state=state.name))
        return None
    return state


def other_state(ctx: Context, order: Order, actor: State) -> State | None:
    """The state the order's 'state' column names: alive and not the actor."""
    world: DecadesWorld = ctx.world
    other = world.states[order.fields["state"]]
    if other is actor:
        ctx.resolve(order, Status.REJECTED, reasons.SELF.say(state=actor.name))
        return None
    if not other.alive:
        ctx.resolve(order, Status.REJECTED, reasons.TARGET_GONE.say(state=other.name))
        return None
    return other


def pay(ctx: Context, order: Order, state: State, cost: Decimal) -> bool:
    """Take ``cost`` from what the state may spend this turn, or reject the order."""
    if state.spendable < cost:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_ENOUGH.say(
            cost=ev(cost), state=state.name, have=ev(state.spendable)))
        return False
    state.spendable -= cost
    return True


def own_province(ctx: Context, order: Order, state: State):
    """The order's province, if the state controls it (else the order is rejected)."""
    world: DecadesWorld = ctx.world
    province = world.provinces[order.fields["province"]]
    if province.owner != state.name:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_YOURS.say(
            province=province.name, state=state.name, owner=province.owner))
        return None
    return province
