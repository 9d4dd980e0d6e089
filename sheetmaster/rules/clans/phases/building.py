"""Provincial improvements: building (free ones first, then purchases) and demolition."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status, a, plural
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..orders import BUILD
from ..tables import Clan, Province
from ..world import ClansWorld
from .common import COINS, GUARDS
from .effects import Parts, discounted, show_off, skills, supplied

BUILD_RULE = (
    "Each Turn, you can construct 1 Provincial Improvement for free. This amount increases "
    "with certain Techs. You can also Purchase Improvements; you can Purchase as many "
    "Improvements as you can and want, if you have the money of course. Each Province, can "
    "support up to 4 Improvements in it, and, unless stated otherwise, 1 Improvement of a kind "
    "(one Castle, one Library etc)."
)
DEMOLISH_RULE = "You can demolish any Improvement previously built for 100 Coins."


def build_improvements(ctx: Context) -> None:
    """The clan's first builds of the turn that go through are its free ones (1, +1 with
    Carpentry, +1 with a Minister of Constructions); the rest are purchased."""
    world: ClansWorld = ctx.world
    for order in ctx.orders(BUILD):
        clan = GUARDS.acting(ctx, order)
        if clan is None:
            continue
        province = GUARDS.own_territory(ctx, order, clan)
        if province is None:
            continue
        name = order.fields["improvement"]
        why, resource = cannot_build(world, clan, province, name, order.fields["resource"])
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            continue
        if clan.free_builds_used < free_builds(world, clan):
            clan.free_builds_used += 1
            price = "free"
        else:
            off = improvement_discounts(world, clan, name)
            cost = discounted(data.IMPROVEMENTS[name].cost, off)
            if not pay(ctx, order, clan, cost, COINS):
                continue
            price = f"{data.IMPROVEMENTS[name].cost}" + (f" {show_off(off)} = {cost}"
                                                         if off else "") + " coins"
        province.improvements.append(name)
        label = name
        if name == data.MINE:
            province.mine = resource
            label = f"Mine ({resource})"
        ctx.emit(clan.name, "built", f"built {a(label)} in {province.name} ({price}); coins "
                                     f"now {clan.coins}")
        ctx.resolve(order, Status.APPLIED, f"built ({price})")


def cannot_build(world: ClansWorld, clan: Clan, province: Province, name: str,
                 resource: str | None) -> tuple[str, str]:
    """Why ``name`` cannot stand in ``province`` ('' if it can), and a Mine's resource."""
    improvement = data.IMPROVEMENTS[name]
    allowed = improvement.flavours
    if name == data.RICE_FARM and clan.has("Irrigation"):
        allowed = (*allowed, data.GRASSLAND)  # "Rice Farms can be now build in Grassland"
    if allowed and province.flavour not in allowed:
        return reasons.FLAVOUR.say(improvement=name, allowed=" or ".join(allowed),
                                   province=province.name, flavour=province.flavour), ""
    if improvement.coastal and not province.seas:
        return reasons.NOT_COASTAL.say(improvement=name), ""
    limit = 2 if province.flavour in improvement.twice_on else 1
    if province.count(name) >= limit:
        return reasons.KIND_LIMIT.say(province=province.name, limit=limit,
                                      have=plural(province.count(name), name)), ""
    if len(province.improvements) >= data.MAX_IMPROVEMENTS:
        return reasons.FULL.say(province=province.name), ""
    if name != data.MINE:
        return "", ""
    found = province.found
    chosen = resource or (found[0] if len(found) == 1 else "")
    if chosen not in found:
        return reasons.MINE_RESOURCE.say(province=province.name,
                                         found=", ".join(found) or "nothing yet"), ""
    return "", chosen


def demolish(ctx: Context, order: Order, clan: Clan) -> None:
    province = GUARDS.own_territory(ctx, order, clan)
    if province is None:
        return
    name = order.fields["improvement"]
    if name not in province.improvements:
        ctx.resolve(order, Status.REJECTED, reasons.NO_IMPROVEMENT.say(
            province=province.name, improvement=name))
        return
    if not pay(ctx, order, clan, data.DEMOLISH_COST, COINS):
        return
    province.improvements.remove(name)
    if name == data.MINE:
        province.mine = ""
    ctx.emit(clan.name, "demolished", f"demolished {a(name)} in {province.name} for "
                                      f"{data.DEMOLISH_COST} coins; coins now {clan.coins}")
    ctx.resolve(order, Status.APPLIED, f"demolished for {data.DEMOLISH_COST} coins")


def free_builds(world: ClansWorld, clan: Clan) -> int:
    """1 a turn; Carpentry and a Minister of Constructions add 1 each."""
    return 1 + clan.has("Carpentry") + (data.MIN_CONSTRUCTIONS in skills(world, clan.name))


def improvement_discounts(world: ClansWorld, clan: Clan, name: str) -> Parts:
    """Every "-N% Purchase Costs" that applies to this improvement for this clan."""
    has, court = clan.has, skills(world, clan.name)
    parts: Parts = []

    def add(why: str, pct: int, when: bool = True) -> None:
        if when:
            parts.append((why, pct))

    add("Timber", 10, supplied(world, clan.name, "Timber"))
    add("Carpentry", 10, has("Carpentry"))
    add(data.MIN_CONSTRUCTIONS, 10, data.MIN_CONSTRUCTIONS in court)
    add("Lacquer", 20, name in (data.CASTLE, data.TEMPLE, data.LIBRARY)
        and supplied(world, clan.name, "Lacquer"))
    add("Masonry", 10, name == data.CASTLE and has("Masonry"))
    add(data.GEN_FORTIFICATIONS, 10, name in (data.ARMY_CAMP, data.CASTLE)
        and data.GEN_FORTIFICATIONS in court)
    add(data.GEOMANCER, 20, name == data.MINE and data.GEOMANCER in court)
    add("Geology", 10, name == data.MINE and has("Geology"))
    add(data.MASTER_SHIPS, 20, name in (data.DOCK, data.FISHERY) and data.MASTER_SHIPS in court)
    add("Shipbuilding", 20, name in (data.DOCK, data.FISHERY) and has("Shipbuilding"))
    add(data.MIN_AGRICULTURE, 20, name in (data.RICE_FARM, data.SILK_FARM, data.LACQUER)
        and data.MIN_AGRICULTURE in court)
    religion = {data.SPIRITS: (data.RICE_FARM, data.WOODCUTTER, data.FISHERY),
                data.ZEN: (data.TEA, data.TEMPLE, data.CASTLE),
                data.PHILOSOPHERS: (data.MARKETPLACE, data.TEMPLE, data.LIBRARY),
                }.get(clan.religion, ())
    add(clan.religion, 10, name in religion)
    return parts
