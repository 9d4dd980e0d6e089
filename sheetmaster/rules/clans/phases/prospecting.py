"""Prospecting a Mountain province for Copper, Iron, Silver and Sulphur (d100)."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status, plural
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..tables import Clan, Province
from ..world import ClansWorld
from .common import COINS, GUARDS
from .effects import skills

PROSPECT_RULE = (
    "If you have a Mountain Province, you can have it prospected for Resources (using 1d100). "
    "The first Prospecting costs 500 Coins; each subsequent Prospecting in the Province "
    "increases the cost by another 500 Coins. Each of 4 Resources have 20% chance to be found, "
    "the remainder 20% earns you nothing. Each time you find a Resource, it's % discovery "
    "chance is added to the chances of finding nothing. You can 'specify' which Resource you're "
    "prospecting for. The Prospecting's price is doubled, and the chances are 50% each for "
    "finding the specific Resource or finding nothing."
)


def prospect_cost(world: ClansWorld, clan: Clan, province: Province, targeted: bool
                  ) -> tuple[int, list[str]]:
    """500 coins, +500 for each earlier prospecting of the province (not with Geology);
    doubled when targeted; halved by a Geomancer and halved by the Philosophers."""
    notes: list[str] = []
    if clan.has("Geology"):
        cost = data.PROSPECT_COST
        notes.append("Geology: no increase")
    else:
        cost = data.PROSPECT_COST * (province.prospected + 1)
        if province.prospected:
            notes.append(f"prospected {plural(province.prospected, 'time')} before")
    if targeted:
        cost *= 2
        notes.append("targeted: doubled")
    if data.GEOMANCER in skills(world, clan.name):
        cost //= 2
        notes.append("Geomancer: halved")
    if clan.religion == data.PHILOSOPHERS:
        cost //= 2
        notes.append("Philosophers: halved")
    return cost, notes


def prospect(ctx: Context, order: Order, clan: Clan) -> None:
    """Untargeted, the d100 reads 1-20 Copper, 21-40 Iron, 41-60 Silver, 61-80 Sulphur,
    81-100 nothing, a band already found reading as nothing. Targeted: 1-50 finds it."""
    world: ClansWorld = ctx.world
    province = GUARDS.own_territory(ctx, order, clan)
    if province is None:
        return
    if province.flavour != data.MOUNTAIN:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_MOUNTAIN.say(
            province=province.name, flavour=province.flavour))
        return
    target = order.fields["resource"]
    if target and target not in data.MOUNTAIN_RESOURCES:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_MOUNTAIN_RESOURCE.say(resource=target))
        return
    if target in province.found:
        ctx.resolve(order, Status.REJECTED, reasons.ALREADY_FOUND.say(
            resource=target, province=province.name))
        return
    if len(province.found) == len(data.MOUNTAIN_RESOURCES):
        ctx.resolve(order, Status.REJECTED, reasons.ALL_FOUND.say(province=province.name))
        return
    cost, notes = prospect_cost(world, clan, province, bool(target))
    if not pay(ctx, order, clan, cost, COINS):
        return
    province.prospected += 1
    if target:
        roll = ctx.dice.roll(100, clan.name, f"prospecting {province.name} for {target} "
                                             f"(1-50 finds it)")
        found = target if roll <= data.TARGETED_CHANCE else ""
    else:
        roll = ctx.dice.roll(100, clan.name, f"prospecting {province.name} (1-20 Copper, 21-40 "
                                             f"Iron, 41-60 Silver, 61-80 Sulphur; found ones "
                                             f"and 81-100 nothing)")
        band = (roll - 1) // data.PROSPECT_CHANCE
        found = data.MOUNTAIN_RESOURCES[band] if band < len(data.MOUNTAIN_RESOURCES) else ""
        if found in province.found:
            found = ""
    price = f"{plural(cost, 'coin')}" + (f" ({', '.join(notes)})" if notes else "")
    if found:
        province.found.append(found)
    what = f"found {found}" if found else "found nothing"
    ctx.emit(clan.name, "prospecting", f"prospected {province.name} for {price}: d100 {roll}, "
                                       f"{what}; coins now {clan.coins}")
    ctx.resolve(order, Status.APPLIED, f"{what} (d100 {roll}, {plural(cost, 'coin')})")
