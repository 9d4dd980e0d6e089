"""Phase C: transfers proposed by one player and accepted by every other player involved."""

from __future__ import annotations

from sheetmaster.model import Order, Status
from sheetmaster.rules.common import agreements
from sheetmaster.rules.common.agreements import Agreement
from sheetmaster.ruleset import Context

from .. import reasons
from ..orders import ACCEPT, PROPOSE
from ..world import ClaimsWorld
from .exile import exile_players_without_territory

TRANSFER_RULE = (
    "If a Transfer has been agreed to by all participants involved (I.e. one player has "
    "Proposed, and all other players involved have Accepted), then that transfer is resolved. "
    "If a player's number of a specific resource, of a player's total gold, or of total armies "
    "would be reduced below 0 by a transfer, that transfer is entirely cancelled, and none of "
    "the items involved in it are moved or changed. If a player offered to give ownership of a "
    "territory they did not have, the transfer is entirely cancelled. Transfers which have been "
    "proposed, but NOT accepted, are not processed."
)


def resolve_transfers(ctx: Context) -> None:
    """Deals go in the posting order of their first row, against current balances."""
    for deal in agreements.collect(ctx, PROPOSE, ACCEPT, check_item=_check_item,
                                   parties=_parties).values():
        _settle(ctx, deal)
    exile_players_without_territory(ctx)


def _parties(order: Order) -> tuple[str, str]:
    return order.fields["from"], order.fields["to"]


def _check_item(order: Order) -> str:
    """Why one row of a proposal is refused ('' if it is fine); 'from' blank means you."""
    f = order.fields
    f["from"] = f["from"] or order.player
    if f["from"] == f["to"]:
        return reasons.GIVE_TO_SELF.say()
    if f["item"] == "territory" and not f["territory"]:
        return reasons.NEEDS_TERRITORY.say()
    if f["item"] != "territory" and not f["amount"]:
        return reasons.NEEDS_AMOUNT.say(item=f["item"])
    return ""


def _settle(ctx: Context, deal: Agreement) -> None:
    world: ClaimsWorld = ctx.world
    why = agreements.refusal(deal) or _cannot_apply(world, deal)
    if why:
        agreements.finish(ctx, deal, Status.REJECTED, why)
        return
    emit = ctx.emit
    for order in deal.items:
        f = order.fields
        giver, taker = world.players[f["from"]], world.players[f["to"]]
        if f["item"] == "territory":
            world.set_owner(world.territories[f["territory"]], taker.name)
            what = f["territory"]
        else:
            world.add(giver, f["item"], -f["amount"])
            world.add(taker, f["item"], f["amount"])
            what = f"{f['amount']} {f['item']}"
        emit(giver.name, "transfer", f"gave {what} to {taker.name} (deal {deal.name})")
        emit(taker.name, "transfer", f"received {what} from {giver.name} (deal {deal.name})")
    agreements.finish(ctx, deal, Status.APPLIED, "")


def _cannot_apply(world: ClaimsWorld, deal: Agreement) -> str:
    """Why the whole deal is cancelled against current balances ('' if it is not).

    Balances are checked after the whole deal, so a swap needs no stock in hand up front.
    """
    change: dict[tuple[str, str], int] = {}  # (player, item) -> net change
    given: set[str] = set()
    for order in deal.items:
        f = order.fields
        item = f["item"]
        if item == "territory":
            territory = world.territories[f["territory"]]
            if territory.name in given:
                return reasons.TERRITORY_TWICE.say(territory=territory.name)
            given.add(territory.name)
            if territory.owner != f["from"]:
                return reasons.NOT_OWNER.say(player=f["from"], territory=territory.name)
        else:
            amount, giver, taker = f["amount"], (f["from"], item), (f["to"], item)
            change[giver] = change.get(giver, 0) - amount
            change[taker] = change.get(taker, 0) + amount
    for (name, item), delta in sorted(change.items()):
        result = world.held(world.players[name], item) + delta
        if result < 0:
            return reasons.BELOW_ZERO.say(player=name, amount=result, item=item)
    return ""
