"""Phase G: armies are built."""

from __future__ import annotations

from sheetmaster.kit import Context, Status, plural

from .. import reasons
from ..orders import BUILD
from ..world import ClaimsWorld

ARMY_COST = 5
BUILD_RULE = (
    "Players in Exile cannot build armies. The Game Master(s) subtract 5 gold from the "
    "treasury of a player who declares he is building an army, and add 1 to the total number "
    "of armies that player possesses. If this reduces a player below 0 gold, then the Game "
    "Master(s) add 5 gold to that player's treasury, and subtract 1 army from that player's "
    "total number of armies (i.e., the army purchase is undone). This is repeated for every "
    "army that player declared to build."
)


def build_armies(ctx: Context) -> None:
    """Each army is bought one at a time and undone when gold would go below 0.

    Gold never rises during the repetition, so once one purchase is undone every later one
    is too: the player gets min(asked, gold // 5) armies.
    """
    world: ClaimsWorld = ctx.world
    for order in ctx.orders(BUILD):
        player = world.players[order.player]
        asked = order.fields["amount"]
        if player.in_exile:
            ctx.resolve(order, Status.REJECTED, reasons.IN_EXILE.say(action="build armies"))
            continue
        built = min(asked, player.gold // ARMY_COST)
        if built == 0:
            ctx.resolve(order, Status.REJECTED, reasons.NONE_BUILT.say(gold=player.gold))
            continue
        player.gold -= built * ARMY_COST
        player.armies += built
        ctx.emit(player.name, "armies built",
                 f"built {plural(built, 'army')} for {built * ARMY_COST} gold; armies now "
                 f"{player.armies}, gold now {player.gold}")
        if built < asked:
            ctx.emit(player.name, "build undone",
                     f"{plural(asked - built, 'more army')} would take gold below 0: purchase "
                     f"undone")
            ctx.resolve(order, Status.PARTIAL, reasons.SOME_BUILT.say(built=built, asked=asked))
        else:
            ctx.resolve(order, Status.APPLIED, f"built {built} for {built * ARMY_COST} gold")
