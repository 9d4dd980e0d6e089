"""Phase C: transfers proposed by one player and accepted by every other player involved."""

from __future__ import annotations

from sheetmaster.kit import Context, Lines, OrderBatch, Status, plural
from sheetmaster.rules.common import agreements

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
    """Deals go in the posting order of their first row, against current balances. Their log
    lines are gathered, in the order they happen, and logged at once (a quarter of a million
    deals at 10^6)."""
    deals = agreements.collect(ctx, PROPOSE, ACCEPT, check_item=_check_item, parties=_parties)
    f = deals.proposals.fields  # each proposal row as an item, its 'from' filled in
    rows = list(zip(f["from"], f["to"], f["item"], f["amount"], f["territory"]))
    world: ClaimsWorld = ctx.world
    log = Lines()
    for d in range(len(deals)):
        items = [rows[i] for i in deals.items[d]]
        why = deals.refusal(d) or _cannot_apply(world, items)
        if not why:
            _apply(world, items, deals.names[d], log)
        line = deals.close(d, Status.REJECTED if why else Status.APPLIED, why)
        if line:
            log.add(deals.proposers[d], "deal", line)
    ctx.emit_all(log)
    exile_players_without_territory(ctx)


#: one row of a proposal: (from, to, item, amount, territory).
Item = tuple[str, str, str, int, str]


def _parties(rows: OrderBatch, i: int) -> tuple[str, str]:
    return rows.fields["from"][i], rows.fields["to"][i]


def _check_item(rows: OrderBatch, i: int) -> str:
    """Why one row of a proposal is refused ('' if it is fine); 'from' blank means you."""
    f = rows.fields
    giver = f["from"][i] = f["from"][i] or rows.players[i]
    if giver == f["to"][i]:
        return reasons.GIVE_TO_SELF.say()
    item = f["item"][i]
    if item == "territory" and not f["territory"][i]:
        return reasons.NEEDS_TERRITORY.say()
    if item != "territory" and not f["amount"][i]:
        return reasons.NEEDS_AMOUNT.say(item=item)
    return ""


def _apply(world: ClaimsWorld, items: list[Item], name: str, log: Lines) -> None:
    """Move every item of deal ``name``; the giver's and the taker's log say what moved."""
    players = world.players
    for giver, taker, item, amount, territory in items:
        if item == "territory":
            what = territory
            world.set_owner(world.territories[territory], taker)
        else:
            world.add(players[giver], item, -amount)
            world.add(players[taker], item, amount)
            what = units(amount, item)
        log.add(giver, "transfer", f"gave {what} to {taker} (deal {name})")
        log.add(taker, "transfer", f"received {what} from {giver} (deal {name})")


def _cannot_apply(world: ClaimsWorld, items: list[Item]) -> str:
    """Why the whole deal is cancelled against current balances ('' if it is not).

    Balances are checked after the whole deal, so a swap needs no stock in hand up front.
    """
    if len(items) == 1 and items[0][2] != "territory":  # most deals: one amount, two players
        giver, taker, item, amount, _ = items[0]
        return _below_zero(world, sorted(((giver, item), (taker, item))),
                           {(giver, item): -amount, (taker, item): amount})
    change: dict[tuple[str, str], int] = {}  # (player, item) -> net change
    given: set[str] = set()
    for giver, taker, item, amount, territory in items:
        if item == "territory":
            if territory in given:
                return reasons.TERRITORY_TWICE.say(territory=territory)
            given.add(territory)
            if world.territories[territory].owner != giver:
                return reasons.NOT_OWNER.say(player=giver, territory=territory)
        else:
            change[giver, item] = change.get((giver, item), 0) - amount
            change[taker, item] = change.get((taker, item), 0) + amount
    return _below_zero(world, sorted(change), change)


def _below_zero(world: ClaimsWorld, holdings: list[tuple[str, str]],
                change: dict[tuple[str, str], int]) -> str:
    """Why the first of ``holdings`` (player, item) that ``change`` takes below 0 cancels the
    deal ('' if none does)."""
    held, players = world.held, world.players
    for name, item in holdings:
        result = held(players[name], item) + change[name, item]
        if result < 0:
            return reasons.BELOW_ZERO.say(player=name, held=units(result, item))
    return ""


def units(amount: int, item: str) -> str:
    """An amount of an item: '5 gold', '2 iron', '1 army', '3 armies'."""
    return plural(amount, "army") if item == "armies" else f"{amount} {item}"
