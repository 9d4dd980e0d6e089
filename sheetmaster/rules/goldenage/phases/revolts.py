"""Step 14: revolts.

"Revolts break out in provinces bein annexed (during Summer only for nationalists, or during
Summer and Winter for reactionary rebels)." Nationalist checks run in Summer for every
province under forceful annexation; reactionary checks in Summer and Winter for every
province with reactionary unrest ("roll for revolt each time revenue is collected"; digest
F7). Rebels rise in the province and fight the forces there in the next season's step 9.
"""

from __future__ import annotations

from sheetmaster.kit import Context

from .. import data
from ..settings import (
    NATIONALIST_CHANCE,
    NATIONALIST_REBELS,
    REACTIONARY_CHANCE,
    REACTIONARY_REBELS,
)
from ..tables import Unit
from ..world import GoldenWorld
from .common import percent_chance
from .processes import ANNEXATION

REVOLT_RULE = ("Revolts break out in provinces bein annexed (during Summer only for "
               "nationalists, or during Summer and Winter for reactionary rebels). "
               "Reactionary Revolt/Unrest? (roll for revolt each time revenue is collected, "
               "see p.18). Nationalist revolt checks every Summer until integration.")


def break_out_revolts(ctx: Context) -> None:
    world: GoldenWorld = ctx.world
    season = ctx.date.season
    if season == "Summer":
        for timer in ctx.timers.find(kind=ANNEXATION):
            province = world.provinces[timer.details["province"]]
            if percent_chance(ctx, ctx.setting(NATIONALIST_CHANCE), timer.owner,
                    f"nationalist revolt in {province.name}", f"revolt {province.name}"):
                _rise(ctx, province.name, data.NATIONALIST_REBEL,
                      ctx.setting(NATIONALIST_REBELS), timer.owner)
    if season in ("Summer", "Winter"):
        for province in world.provinces.values():
            if not province.reactionary_unrest:
                continue
            owner = province.owner
            if percent_chance(ctx, ctx.setting(REACTIONARY_CHANCE), owner,
                    f"reactionary revolt in {province.name}", f"revolt {province.name}"):
                province.reactionary_unrest = False
                _rise(ctx, province.name, data.REACTIONARY_REBEL,
                      ctx.setting(REACTIONARY_REBELS), owner)


def _rise(ctx: Context, where: str, kind: str, count: int, against: str) -> None:
    """Rebel units appear in the province (rebels belong to no nation; their tech is that of
    the nation they rise against)."""
    world: GoldenWorld = ctx.world
    tech = world.nations[against].tech if against in world.nations else 1
    names = []
    for _ in range(count):
        unit = world.add_unit(Unit(world.new_unit_id("", kind), "", kind, tech, where, (), 0,
                                   "", "", ""))
        names.append(unit.name)
    world.provinces[where].nationalist_revolt = kind == data.NATIONALIST_REBEL or \
        world.provinces[where].nationalist_revolt
    ctx.emit(against, "revolt", f"{kind}s rise in {where}: {', '.join(names)}")
