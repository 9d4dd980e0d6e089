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
    emit, players = ctx.emit, world.players
    for order in deal.items:
        f = order.fields
        giver, taker, item = f["from"], f["to"], f["item"]
        if item == "territory":
            what = f["territory"]
            world.set_owner(world.territories[what], taker)
        else:
            amount = f["amount"]
            world.add(players[giver], item, -amount)
            world.add(players[taker], item, amount)
            what = f"{amount} {item}"
        emit(giver, "transfer", f"gave {what} to {taker} (deal {deal.name})")
        emit(taker, "transfer", f"received {what} from {giver} (deal {deal.name})")
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
    held, players = world.held, world.players
    for (name, item), delta in sorted(change.items()) if len(change) > 1 else change.items():
        result = held(players[name], item) + delta
        if result < 0:
            return reasons.BELOW_ZERO.say(player=name, amount=result, item=item)
    return ""
