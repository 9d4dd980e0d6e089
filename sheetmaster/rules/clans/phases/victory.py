"""The three victory conditions, checked at the end of every season."""

from __future__ import annotations

from sheetmaster.kit import Context, plural

from .. import data
from ..world import ClansWorld

VICTORY_RULE = (
    "Domination: Hold 50%+1 of all Provinces on the Map. Enlightenment: Research Agriculture, "
    "Bureaucracy, Fireblood, Shipbuilding and at least 10 other Techs. Shogunate: Hold more "
    "Provinces than all other Players combined, and research Shogunate Tech."
)


def check_victory(ctx: Context) -> None:
    """Domination needs more than half the map (floor(provinces / 2) + 1); Shogunate counts
    only the other clans' provinces, not the Independents'. A condition met is written in the
    clan's 'victory' cell once, with its turn."""
    world: ClansWorld = ctx.world
    total = len(world.provinces)
    held = {name: world.count(name) for name, clan in world.clans.items() if clan.alive}
    everyone = sum(held.values())  # once, not once a clan (issue 26.1)
    for clan in world.clans.values():
        if not clan.alive or not clan.started:
            continue
        mine = held[clan.name]
        others = everyone - mine
        met = []
        if mine >= total // 2 + 1:
            met.append(f"Domination ({mine} of {plural(total, 'province')})")
        extra = len([t for t in clan.techs if t not in data.ENLIGHTENMENT])
        if all(clan.has(t) for t in data.ENLIGHTENMENT) and extra >= data.ENLIGHTENMENT_OTHERS:
            met.append(f"Enlightenment ({plural(len(clan.techs), 'tech')})")
        if clan.has("Shogunate") and mine > others:
            met.append(f"Shogunate ({plural(mine, 'province')} against {others})")
        for text in met:
            name = text.split(" (")[0]
            if name in clan.victory:
                continue
            entry = f"{name} on turn {ctx.turn}"
            clan.victory = f"{clan.victory}, {entry}" if clan.victory else entry
            ctx.emit(clan.name, "victory", f"{clan.name} wins by {text}")
