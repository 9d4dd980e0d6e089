"""Phase C: transfers proposed by one player and accepted by every other player involved."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sheetmaster import values
from sheetmaster.model import Order, Status
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


@dataclass
class Deal:
    name: str
    proposer: str
    items: list[Order] = field(default_factory=list)
    accepts: list[Order] = field(default_factory=list)
    #: why the deal cannot go through before it is even tried ('' if it can).
    broken: str = ""
    #: everyone who gives or receives, once all the proposal's rows are read.
    parties: set[str] = field(default_factory=set)

    def involved(self) -> set[str]:
        return {p for o in self.items for p in (o.fields["from"], o.fields["to"])}


def resolve_transfers(ctx: Context) -> None:
    """Deals go in the posting order of their first row, against current balances."""
    deals = _collect_deals(ctx)
    for deal in deals.values():
        _settle(ctx, deal)
    exile_players_without_territory(ctx)


def _collect_deals(ctx: Context) -> dict[str, Deal]:
    deals: dict[str, Deal] = {}
    for order in ctx.orders(PROPOSE):
        f = order.fields
        f["from"] = f["from"] or order.player
        key = values.fold(f["deal"])
        deal = deals.setdefault(key, Deal(f["deal"], order.player))
        if deal.proposer != order.player:
            ctx.resolve(order, Status.REJECTED, reasons.DEAL_TAKEN.say(
                deal=values.show(deal.name), proposer=deal.proposer))
        elif f["from"] == f["to"]:
            ctx.resolve(order, Status.REJECTED, reasons.GIVE_TO_SELF.say())
            deal.broken = deal.broken or f"row {order.row} was rejected"
        elif f["item"] == "territory" and not f["territory"]:
            ctx.resolve(order, Status.REJECTED, reasons.NEEDS_TERRITORY.say())
            deal.broken = deal.broken or f"row {order.row} was rejected"
        elif f["item"] != "territory" and not f["amount"]:
            ctx.resolve(order, Status.REJECTED, reasons.NEEDS_AMOUNT.say(item=f["item"]))
            deal.broken = deal.broken or f"row {order.row} was rejected"
        else:
            deal.items.append(order)
    for rejected in ctx.rejected_rows(PROPOSE):
        deal = deals.get(values.fold(values.text(rejected.record.get("deal"))))
        if deal is not None and deal.proposer == rejected.player:
            deal.broken = deal.broken or f"row {rejected.row} was rejected"
    for deal in deals.values():
        deal.parties = deal.involved()
    for order in ctx.orders(ACCEPT):
        key = values.fold(order.fields["deal"])
        deal = deals.get(key)
        if deal is None:
            ctx.resolve(order, Status.REJECTED, reasons.NO_SUCH_DEAL.say(
                deal=values.show(order.fields["deal"])))
        elif order.player not in deal.parties:
            ctx.resolve(order, Status.REJECTED, reasons.NOT_INVOLVED.say(
                deal=values.show(deal.name)))
        else:
            deal.accepts.append(order)
    return deals


def _settle(ctx: Context, deal: Deal) -> None:
    world: ClaimsWorld = ctx.world
    involved = deal.parties
    missing = sorted(involved - {deal.proposer} - {o.player for o in deal.accepts})
    if deal.items and deal.proposer not in involved:
        why = reasons.NOT_INVOLVED.say(deal=values.show(deal.name))
    elif deal.broken:
        why = f"cancelled: {deal.broken}, and a deal goes through whole or not at all"
    elif missing:
        why = reasons.NOT_ACCEPTED.say(players=", ".join(missing))
    else:
        why = _cannot_apply(world, deal)
    if why:
        _finish(ctx, deal, Status.REJECTED, why)
        return
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
        ctx.emit(giver.name, "transfer", f"gave {what} to {taker.name} (deal {deal.name})")
        ctx.emit(taker.name, "transfer", f"received {what} from {giver.name} (deal {deal.name})")
    _finish(ctx, deal, Status.APPLIED, "")


def _cannot_apply(world: ClaimsWorld, deal: Deal) -> str:
    """Why the whole deal is cancelled against current balances ('' if it is not).

    Balances are checked after the whole deal, so a swap needs no stock in hand up front.
    """
    change: Counter[tuple[str, str]] = Counter()
    given: set[str] = set()
    for order in deal.items:
        f = order.fields
        if f["item"] == "territory":
            territory = world.territories[f["territory"]]
            if territory.name in given:
                return reasons.TERRITORY_TWICE.say(territory=territory.name)
            given.add(territory.name)
            if territory.owner != f["from"]:
                return reasons.NOT_OWNER.say(player=f["from"], territory=territory.name)
        else:
            change[(f["from"], f["item"])] -= f["amount"]
            change[(f["to"], f["item"])] += f["amount"]
    for (name, item), delta in sorted(change.items()):
        result = world.held(world.players[name], item) + delta
        if result < 0:
            return reasons.BELOW_ZERO.say(player=name, amount=result, item=item)
    return ""


def _finish(ctx: Context, deal: Deal, status: Status, why: str) -> None:
    note = why or f"deal {deal.name} went through"
    for order in deal.items + deal.accepts:
        ctx.resolve(order, status, note)
    if deal.items:
        ctx.emit(deal.proposer, "deal", note if not why else f"deal {deal.name}: {why}")
