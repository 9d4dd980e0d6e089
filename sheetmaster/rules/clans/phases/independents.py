"""The Independents' season: raising Spearmen and building Castles, as the Independents tab
sets them to."""

from __future__ import annotations

from sheetmaster.kit import Context

from .. import data
from ..world import ClansWorld, behaviour

INDEPENDENTS_RULE = (
    "Each Province not claimed by a Player becomes Independent at start of the game; "
    "Independents raise Spearmen Armies and build Castles. A Player province might become "
    "Independent in two situations; the Player's clan is destroyed, or an Uprising Event fires "
    "in the province."
)


def independents_act(ctx: Context) -> None:
    """Each Independent province, in the Provinces tab's order: with its 'raise chance %' it
    raises 1 Spearmen if it has fewer armies than its 'army limit'; with its 'castle chance %'
    it builds a Castle if it has none and room for it. A chance of 0 rolls nothing; 100
    always happens, without a roll."""
    world: ClansWorld = ctx.world
    for province in world.provinces.values():
        if province.owner:
            continue
        rules = behaviour(world, province.name)
        armies = len(world.at[province.name])
        if rules.raise_chance and armies < rules.army_limit and _happens(
                ctx, rules.raise_chance, f"do the Independents of {province.name} raise "
                                         f"Spearmen?"):
            army = world.add_army("", data.SPEARMEN, province.name)
            ctx.emit("", "independents", f"the Independents of {province.name} raise "
                                         f"{army.name}")
        if rules.castle_chance and data.CASTLE not in province.improvements and len(
                province.improvements) < data.MAX_IMPROVEMENTS and _happens(
                ctx, rules.castle_chance, f"do the Independents of {province.name} build a "
                                          f"Castle?"):
            province.improvements.append(data.CASTLE)
            ctx.emit("", "independents", f"the Independents of {province.name} build a Castle")


def _happens(ctx: Context, chance: int, why: str) -> bool:
    if chance >= 100:
        return True
    return ctx.dice.roll(100, "", f"{why} (1-{chance} yes)") <= chance
