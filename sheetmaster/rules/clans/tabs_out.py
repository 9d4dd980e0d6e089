"""The Clans and Provinces tabs after the turn (their rows stay where the GM put them)."""

from __future__ import annotations

import pandas as pd

from . import effects
from .world import ClansWorld


def clans_frame(world: ClansWorld, before: pd.DataFrame) -> pd.DataFrame:
    out = before.copy()
    clans = list(world.clans.values())
    index = [c.row for c in clans]

    def put(column: str, cells: list) -> None:
        out[column] = pd.Series(cells, index=index, dtype=object)

    put("capital", [c.capital for c in clans])
    put("coins", [c.coins for c in clans])
    put("techs", [", ".join(c.techs) for c in clans])
    put("researching", [c.researching for c in clans])
    put("research points", [c.points for c in clans])
    put("extras", [", ".join(c.extras) for c in clans])
    put("started on turn", [c.started for c in clans])
    put("capital moved on turn", [c.capital_moved for c in clans])
    put("destroyed", [c.destroyed for c in clans])
    put("victory", [c.victory for c in clans])
    armies: dict[str, int] = {}
    for army in world.armies.values():
        armies[army.clan] = armies.get(army.clan, 0) + 1
    alive = [c.alive for c in clans]
    put("provinces", [world.count(c.name) for c in clans])
    put("armies", [armies.get(c.name, 0) for c in clans])
    put("army limit", [effects.army_limit(world, c) if a else 0 for c, a in zip(clans, alive)])
    put("advisor slots", [effects.advisor_slots(c) if a else 0 for c, a in zip(clans, alive)])
    put("research per season", [sum(v for _, v in effects.research_parts(world, c)) if a
                                 else 0 for c, a in zip(clans, alive)])
    put("piety coverage", [f"{effects.coverage(world, c.name)}%" if a else ""
                           for c, a in zip(clans, alive)])
    put("resource supply", [_supply_text(world, c.name) if a else ""
                            for c, a in zip(clans, alive)])
    return out


def _supply_text(world: ClansWorld, clan: str) -> str:
    provinces = world.count(clan)
    units = effects.supply(world, clan)
    parts = []
    for resource, n in sorted(units.items()):
        pct = effects.supply_percent(n, provinces)
        star = "*" if n * 200 >= 66 * provinces else ""
        parts.append(f"{resource} {pct}%{star}")
    return ", ".join(parts)


def grown_frame(before: pd.DataFrame, columns: list[str],
                rows: list[tuple[int, list]]) -> pd.DataFrame:
    """A tab whose rows stay where they are (``row`` > 0) and grow at the bottom (row 0):
    sheetmaster's columns rewritten, the GM's own columns kept."""
    out = before.copy()
    old = [(row, cells) for row, cells in rows if row]
    new = [cells for row, cells in rows if not row]
    index = [row for row, _ in old]
    for i, column in enumerate(columns):
        out[column] = pd.Series([cells[i] for _, cells in old], index=index, dtype=object) \
            .reindex(out.index)
    if not new:
        return out
    start = int(max(out.index)) + 1 if len(out) else 2
    added = pd.DataFrame(new, columns=columns, index=range(start, start + len(new)),
                         dtype=object)
    return pd.concat([out, added.reindex(columns=out.columns)])


def provinces_frame(world: ClansWorld, before: pd.DataFrame) -> pd.DataFrame:
    out = before.copy()
    provinces = list(world.provinces.values())
    index = [p.row for p in provinces]

    def put(column: str, cells: list) -> None:
        out[column] = pd.Series(cells, index=index, dtype=object)

    put("owner", [p.owner for p in provinces])
    put("improvements", [p.improvements_text() for p in provinces])
    put("resources found", [", ".join(p.found) for p in provinces])
    put("times prospected", [p.prospected for p in provinces])
    return out
