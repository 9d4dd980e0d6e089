"""What the decades phases share: the game's order guards and purse (the shared ones, worded
for decades): the state an order acts for, the province it names, the other state it names,
and paying from what the state may spend this turn."""

from __future__ import annotations

from sheetmaster.kit import Context, Order
from sheetmaster.rules.common.guards import Guards
from sheetmaster.rules.common.treasury import Purse

from .. import reasons
from ..tables import Province, State
from .economy import ev


def _cannot_act(ctx: Context, order: Order, state: State) -> str:
    """A state that is no more, or a non-player state ordered from the Orders tab (the GM
    orders those), gives no orders."""
    if not state.alive:
        return reasons.GONE.say(state=state.name, status=state.status)
    if not order.from_gm and not ctx.world.played(state):
        return reasons.NOT_PLAYED.say(state=state.name)
    return ""


def _not_yours(province: Province, state: State) -> str:
    return reasons.NOT_YOURS.say(province=province.name, state=state.name,
                                 owner=province.owner)


def _not_target(state: State) -> str:
    return "" if state.alive else reasons.TARGET_GONE.say(state=state.name)


GUARDS = Guards("states", "state", yourself=lambda state: f"{state.name} itself",
                not_yours=_not_yours, cannot_act=_cannot_act, not_target=_not_target)
#: A state pays from this turn's income (what it may spend this turn).
SPENDABLE = Purse("spendable", currency="to spend", show=ev,
                  has=lambda state, have: f"{state.name} has {have} left this turn")
