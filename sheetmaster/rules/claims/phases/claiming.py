"""Phases A and E: buying territory, one claim at a time in posting order."""

from __future__ import annotations

from sheetmaster.kit import Context, OrderBatch, Status, plural
from sheetmaster.rules.common.treasury import Purse

from .. import reasons
from ..orders import CLAIM_NEUTRAL, CLAIM_WAR
from ..world import ClaimsWorld, Player, Territory
from .exile import exile_players_without_territory

WAR_CLAIM_RULE = (
    "If, during the previous resolution phase, a player was on the winning side of a war, "
    "that player is eligible to purchase territories from all nations on the losing side of "
    "that war. The cost to purchase a territory in this manner is equal to (1/4 of that "
    "player's current number of territories), rounded down."
)
NEUTRAL_CLAIM_RULE = (
    "A player is eligible to loot any neutral territory that he is connected to via either "
    "the border of a territory he currently owns, or a waterway to a territory he currently "
    "owns. His borders are recalculated for every territory he claims - a player can 'chain' "
    "unclaimed territories. The cost to purchase a territory in this manner is equal to (1/2 "
    "of that player's current number of territories), rounded down."
)
#: Territory is bought with gold.
GOLD = Purse("gold")


def claim_war_territory(ctx: Context) -> None:
    """Phase A. Claims go in posting order; the cost is recomputed after every claim.

    "If a player's treasury would be reduced below 0 by this action, the claim is invalid."
    Afterwards, "If any player is reduced to 0 territories ... that player has gone into exile".
    """
    world: ClaimsWorld = ctx.world
    claims = ctx.batch(CLAIM_WAR)
    for i, me, name in claims.pending("territory"):
        territory = world.territories[name]
        owner = territory.owner
        if owner == me:
            claims.resolve(i, Status.REJECTED, reasons.ALREADY_YOURS.say(territory=name))
        elif not owner:
            claims.resolve(i, Status.REJECTED, reasons.IS_NEUTRAL.say(territory=name))
        elif owner not in world.may_claim_from.get(me, ()):
            claims.resolve(i, Status.REJECTED, reasons.NOT_ELIGIBLE.say(territory=name,
                                                                        owner=owner))
        else:
            buy(ctx, claims, i, world.players[me], territory, divisor=4)
    exile_players_without_territory(ctx)


def claim_neutral_territory(ctx: Context) -> None:
    """Phase E. Neutral territory next to (by border or waterway) one the player owns now."""
    world: ClaimsWorld = ctx.world
    territories, players, touches = world.territories, world.players, world.map.any_neighbour
    claims = ctx.batch(CLAIM_NEUTRAL)
    for i, me, name in claims.pending("territory"):
        territory = territories[name]
        owner = territory.owner
        if owner == me:
            claims.resolve(i, Status.REJECTED, reasons.ALREADY_YOURS.say(territory=name))
        elif owner:
            claims.resolve(i, Status.REJECTED, reasons.NOT_NEUTRAL.say(territory=name,
                                                                       owner=owner))
        elif not touches(name, lambda n, me=me: territories[n].owner == me):
            claims.resolve(i, Status.REJECTED, reasons.NOT_CONNECTED.say(territory=name))
        else:
            buy(ctx, claims, i, players[me], territory, divisor=2)


def buy(ctx: Context, claims: OrderBatch, i: int, player: Player, territory: Territory,
        divisor: int) -> None:
    """Claim ``i``: pay floor(territories / divisor) gold and take the territory, or change
    nothing.

    "0/4, 1/4, 2/4, and 3/4 rounded down are all equal to 0, not 1."
    A successful claim ends exile: "Once a player in exile claims at least one territory,
    he is no longer in exile."
    """
    world: ClaimsWorld = ctx.world
    owned = world.count[player.name]
    cost = owned // divisor
    why = GOLD.shortfall(player, cost)
    if why:
        claims.resolve(i, Status.REJECTED, why)
        return
    GOLD.spend(ctx, player, cost)
    previous = territory.owner
    world.set_owner(territory, player.name)
    source = f" from {previous}" if previous else ""
    ctx.emit(player.name, "claim",
             f"claimed {territory.name}{source} for {cost} gold ({plural(owned, 'territory')} / "
             f"{divisor}, rounded down); gold now {player.gold}, territories now "
             f"{world.count[player.name]}")
    if previous:
        ctx.emit(previous, "territory lost",
                 f"lost {territory.name} to {player.name}; territories now {world.count[previous]}")
    if player.in_exile:
        player.in_exile = False
        ctx.emit(player.name, "exile ended", f"claimed {territory.name} and left exile")
    claims.resolve(i, Status.APPLIED, f"paid {cost} gold ({plural(owned, 'territory')} / "
                                      f"{divisor})")
