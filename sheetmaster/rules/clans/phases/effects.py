"""What every rule asks of a clan: its court's skills, the resources its improvements supply,
its piety coverage, what its armies are, and how percentage changes add up.

Each rule's own sums stand beside the rule: the Combat Rating in combat.py, the Max Army Limit
and army costs in armies.py, free builds and improvement costs in building.py, advisor slots
and costs in court.py, research points in research.py.

Percentages that change one number add up ("-10% Purchase Costs" from Timber and "-10%" from
Carpentry make -20%), and the result is rounded down to a whole coin.
"""

from __future__ import annotations

from collections import Counter

from sheetmaster.rules.common.modifiers import add_percent

from .. import data as d
from ..tables import Clan
from ..world import ClansWorld

Parts = list[tuple[str, int]]


def skills(world: ClansWorld, clan: str) -> set[str]:
    """The skills at a clan's court; "Multiple Advisors of the same 'type' do not provide extra
    bonuses", and a Great Advisor brings "a bonus of 1 other Advisor" too."""
    return {s for a in world.court(clan) for s in a.skills()}


def supply(world: ClansWorld, clan: str) -> Counter[str]:
    """Units of each resource the clan's improvements provide: farms, camps, orchards,
    plantations, and Mines (one unit of what each mines)."""
    units: Counter[str] = Counter()
    for p in world.provinces_of(clan):
        for name in p.improvements:
            if name == d.MINE:
                if p.mine:
                    units[p.mine] += 1
            elif d.IMPROVEMENTS[name].provides:
                units[d.IMPROVEMENTS[name].provides] += 1
    return units


def supply_percent(units: int, provinces: int) -> int:
    """ "every 1 unit of Resource supplies up to 2 Provinces": (units x 2) / provinces."""
    return min(100, units * 200 // provinces) if provinces else 0


def supplied(world: ClansWorld, clan: str, resource: str) -> bool:
    """ "For a Resource to do so it must 'supply' at least 66% of Provinces you have"."""
    provinces = world.count(clan)
    return provinces > 0 and supply(world, clan)[resource] * 200 >= 66 * provinces


def coverage(world: ClansWorld, clan: str) -> int:
    """Piety Coverage %, rounded down: "Each Temple covers up to 3 Provinces"; a High Priest
    "Counts as a Temple". It cannot pass 100%."""
    provinces = world.count(clan)
    temples = sum(p.count(d.TEMPLE) for p in world.provinces_of(clan))
    temples += d.HIGH_PRIEST in skills(world, clan)
    return min(100, temples * d.TEMPLE_COVERS * 100 // provinces) if provinces else 0


def discounted(base: int, parts: Parts) -> int:
    off = min(100, sum(p for _, p in parts))
    return add_percent(base, -off)


def army_type(clan: Clan | None, kind: str) -> d.ArmyType:
    """Bushido: "Cavalry +4 to Combat Rating, its base Cost raises to 2000 and Upkeep to 800"."""
    if kind == d.CAVALRY and clan is not None and clan.has("Bushido"):
        return d.BUSHIDO_CAVALRY
    return d.ARMY_TYPES[kind]


def show(parts: Parts) -> str:
    return ", ".join(f"{why} {value:+d}" for why, value in parts)


def show_off(parts: Parts) -> str:
    return ", ".join(f"{why} -{pct}%" for why, pct in parts)
