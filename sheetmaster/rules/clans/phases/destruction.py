"""The destruction of a clan, when its capital (Palace) falls."""

from __future__ import annotations

from sheetmaster.kit import Context

from ..tables import Clan, Province
from ..world import ClansWorld

DESTRUCTION_RULE = (
    "All Provinces conquered by the victorious Players remain in his/her hands; all other "
    "Provinces that were unconquered become Independent. All Advisors employed by the "
    "now-dead Warlord consider their choices; there's 50% chance that they will either offer "
    "their services to the victor or run away."
)


def destroy_clan(ctx: Context, loser: Clan, victor: Clan, fallen: Province) -> None:
    """A clan is destroyed when its capital province is conquered (or its last province).

    Its other provinces, and the armies in them, become Independent. Each of its advisors
    rolls a d100: 1-50 he offers his services to the victor (who takes him: a court over its
    slots must dismiss next turn), 51-100 he runs away. Offers of travelling advisors to it
    lapse.
    """
    world: ClansWorld = ctx.world
    turn = ctx.turn
    loser.destroyed = f"turn {turn}, by {victor.name}"
    ctx.emit(loser.name, "clan destroyed", f"{victor.name} took {fallen.name} and destroyed "
                                           f"the {loser.name} clan")
    ctx.emit(victor.name, "clan destroyed", f"took {fallen.name} and destroyed the "
                                            f"{loser.name} clan")
    for province in world.provinces_of(loser.name):
        world.set_owner(province, "")
        ctx.emit(loser.name, "independent", f"{province.name} becomes Independent")
    for army in world.armies_of(loser.name):
        world.set_army_clan(army, "")
        ctx.emit(loser.name, "independent", f"{army.name} in {army.province} becomes "
                                            f"Independent")
    loser.capital, loser.researching, loser.points = "", "", 0
    for advisor in list(world.advisors_of.get(loser.name, ())):
        if advisor.status.startswith("gone"):
            continue
        if advisor.offering:
            world.retire(advisor, f"moved on: {loser.name} was destroyed")
            continue
        roll = ctx.dice.roll(100, loser.name, f"{advisor.skill}'s choice (1-50 serves "
                                              f"{victor.name}, 51-100 runs away)")
        if roll <= 50:
            world.move_advisor(advisor, victor.name)
            advisor.since = turn
            ctx.emit(victor.name, "advisor joins", f"{loser.name}'s {advisor.skill} offers his "
                                                   f"services to {victor.name}")
        else:
            world.retire(advisor, "ran away")
            ctx.emit(loser.name, "advisor runs away", f"{loser.name}'s {advisor.skill} runs "
                                                      f"away")
