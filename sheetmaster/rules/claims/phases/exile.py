"""Exile: what happens to a player left with no territory."""

from __future__ import annotations

from sheetmaster.kit import Context, plural

from ..world import ClaimsWorld

EXILE_RULE = (
    "If any player is reduced to 0 territories owned by these actions, that player has gone "
    "into exile; a d6 will be rolled for every army the exiled player owns, and the Game "
    "Master(s) then subtract 1 from that player's total number of armies for each 1, 2, 3, or "
    "4 that was rolled. A player may enter exile at most once per turn, and upon entering "
    "exile, cannot enter exile again until they purchase a territory."
)


def exile_players_without_territory(ctx: Context) -> None:
    """Send every player left with 0 territories into exile (after phase A and phase C).

    A player already in exile, or exiled earlier this turn, is not exiled again.
    """
    world: ClaimsWorld = ctx.world
    for player in world.players.values():
        if world.count[player.name] or player.in_exile or player.exiled_this_turn:
            continue
        player.in_exile = True
        player.exiled_this_turn = True
        armies = player.armies
        ctx.emit(player.name, "exile", f"has no territory left and goes into exile with "
                                       f"{plural(armies, 'army')}")
        lost = 0
        for n in range(1, armies + 1):
            if ctx.dice.roll(6, player.name, f"exile, army {n} of {armies} (1-4 loses it)") <= 4:
                lost += 1
        player.armies -= lost
        ctx.emit(player.name, "armies lost in exile",
                 f"lost {lost} of {plural(armies, 'army')} in exile; armies now {player.armies}")
