"""The Clans tab's counts, written by sheetmaster each turn from the rest of the state."""

from __future__ import annotations

from .phases import effects
from .tables import Clan
from .world import ClansWorld


def clan_counts(world: ClansWorld, clans: list[Clan]) -> dict[str, list]:
    """Provinces, armies, limits, research, piety and supply of each clan (blank or 0 once
    destroyed)."""
    armies: dict[str, int] = {}
    for army in world.armies.values():
        armies[army.clan] = armies.get(army.clan, 0) + 1
    alive = [c.alive for c in clans]
    return {
        "provinces": [world.count(c.name) for c in clans],
        "armies": [armies.get(c.name, 0) for c in clans],
        "army limit": [effects.army_limit(world, c) if a else 0 for c, a in zip(clans, alive)],
        "advisor slots": [effects.advisor_slots(c) if a else 0 for c, a in zip(clans, alive)],
        "research per season": [sum(v for _, v in effects.research_parts(world, c)) if a
                                else 0 for c, a in zip(clans, alive)],
        "piety coverage": [f"{effects.coverage(world, c.name)}%" if a else ""
                           for c, a in zip(clans, alive)],
        "resource supply": [_supply_text(world, c.name) if a else ""
                            for c, a in zip(clans, alive)],
    }


def _supply_text(world: ClansWorld, clan: str) -> str:
    provinces = world.count(clan)
    units = effects.supply(world, clan)
    parts = []
    for resource, n in sorted(units.items()):
        pct = effects.supply_percent(n, provinces)
        star = "*" if n * 200 >= 66 * provinces else ""
        parts.append(f"{resource} {pct}%{star}")
    return ", ".join(parts)
