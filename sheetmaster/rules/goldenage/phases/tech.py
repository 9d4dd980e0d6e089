"""Step 13: tech progression takes effect; where reactionary rebels will rise is determined.

"The `upgrade-tech` order spends money to increase the tech level of the nation. Reactionary
revolts may be triggered as a result of the upgrade. All units and buildings will be
upgraded to match the new tech level." Programs for displaced workers "calm reactionary
unrest if performed before a tech revolt occurs", so they are instituted first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sheetmaster.kit import Context, Status
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..orders import PROGRAMS, UPGRADE_TECH
from ..settings import COST, PROGRAMS_COST, TECH_UNREST, number
from ..world import GoldenWorld
from .common import CURRENCY, own_province, percent_chance

TECH_RULE = ("Tech progression takes effect, placement of incoming reactionary rebels is "
             "determined. Upgrade Tech Level: The `upgrade-tech` order spends money to increase "
             "the tech level of the nation. Reactionary revolts may be triggered as a result of "
             "the upgrade. All units and buildings will be upgraded to match the new tech "
             "level.")


def progress_tech(ctx: Context) -> None:
    world: GoldenWorld = ctx.world
    for order in ctx.orders(PROGRAMS):
        province = own_province(ctx, order)
        nation = world.nations[order.player]
        if province is None or not pay(ctx, order, nation, ctx.setting(PROGRAMS_COST), CURRENCY,
                                       f"programs for displaced workers in {province.name}"):
            continue
        nation.programs.add(province.name)
        calmed = province.reactionary_unrest
        province.reactionary_unrest = False
        ctx.resolve(order, Status.APPLIED, f"programs instituted in {province.name}" +
                    (": its unrest is calmed" if calmed else ""))
    units: dict[str, list] | None = None
    provinces: dict[str, list] = {}
    for order in ctx.orders(UPGRADE_TECH):
        nation = world.nations[order.player]
        if nation.tech >= data.MAX_TECH:
            ctx.resolve(order, Status.REJECTED, reasons.MAX_TECH.say())
            continue
        cost = int(number(ctx, data.TECH_UPGRADE, nation.tech + 1, COST))
        if not pay(ctx, order, nation, cost, CURRENCY, f"tech level {nation.tech + 1}"):
            continue
        nation.tech += 1
        nation.upgraded_tech = True
        if units is None:  # once: an upgrade moves no unit and no province (issue 26.1)
            units, provinces = _by(world.units.values(), "nation"), \
                _by(world.provinces.values(), "owner")
        for unit in units.get(nation.name, ()):
            unit.tech = max(unit.tech, nation.tech)
        ctx.emit(nation.name, "tech", f"{nation.name} reaches tech level {nation.tech}; its "
                                      "units are upgraded")
        ctx.resolve(order, Status.APPLIED, f"tech level {nation.tech}")
        _unrest(ctx, nation.name, provinces.get(nation.name, []))


def _by(rows: Iterable[Any], attr: str) -> dict[str, list]:
    """The rows grouped by an attribute, each group in the rows' order."""
    out: dict[str, list] = {}
    for row in rows:
        out.setdefault(getattr(row, attr), []).append(row)
    return out


def _unrest(ctx: Context, nation: str, provinces: list) -> None:
    """Each of the nation's provinces (``provinces``) without programs this turn may fall
    into reactionary unrest (the rulebook's p.18 odds: a setting)."""
    world: GoldenWorld = ctx.world
    chance = ctx.setting(TECH_UNREST)
    for province in provinces:
        if province.name in world.nations[nation].programs or province.reactionary_unrest or \
                province.occupied_by:
            continue
        if percent_chance(ctx, chance, nation, f"unrest in {province.name} after the tech upgrade",
                f"unrest {province.name}"):
            province.reactionary_unrest = True
            ctx.emit(nation, "unrest", f"the tech upgrade brings reactionary unrest to "
                                       f"{province.name}")
