"""Phase D: army upkeep, army power from resources, and the resource reset."""

from __future__ import annotations

from sheetmaster.kit import Context, plural
from sheetmaster.rules.common.upkeep import disbanded_count

from ..world import ClaimsWorld

SUPPLY_RULE = (
    "The Game Master(s) subtract gold from a player's treasury equal to the total number of "
    "armies he has, unless that player is in exile. If this reduces a player to below 0 gold, "
    "then the Game Master(s) add 1 gold to that player's treasury, and subtract 1 from that "
    "player's total number of armies, and repeat this process until the player is at 0 gold. "
    "For every different resource that a player has at least one of in his treasury, the Game "
    "Master(s) grant a +0.1 bonus to the power of all armies that player is using, for this "
    "resolution phase only. The Game Master(s) then set every player's number of every "
    "resource to 0. (Resources cannot be stockpiled)"
)


def pay_upkeep_and_reset_resources(ctx: Context) -> None:
    world: ClaimsWorld = ctx.world
    for player in world.players.values():
        _pay_upkeep(ctx, player)
        held = sorted(k for k, v in player.resources.items() if v >= 1)
        player.power_tenths = 10 + len(held)
        if held:
            ctx.emit(player.name, "army power",
                     f"army power {format_power(player.power_tenths)} this turn "
                     f"({plural(len(held), 'resource')}: {', '.join(held)})")
            ctx.emit(player.name, "resources reset",
                     "resources set to 0: " + ", ".join(
                         f"{k} {v} -> 0" for k, v in player.resources.items() if v))
        player.resources = {k: 0 for k in player.resources}


def _pay_upkeep(ctx: Context, player) -> None:
    if player.in_exile or not player.armies:
        return
    before = player.gold
    disbanded = disbanded_count(player.armies, 1, player.gold)
    player.gold -= player.armies - disbanded
    ctx.emit(player.name, "upkeep", f"-{player.armies} gold upkeep for "
                                    f"{plural(player.armies, 'army')}; gold {before} -> "
                                    f"{player.gold}")
    if disbanded:
        player.armies -= disbanded
        ctx.emit(player.name, "armies disbanded",
                 f"{plural(disbanded, 'army')} disbanded for lack of gold; armies now "
                 f"{player.armies}")


def format_power(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"
