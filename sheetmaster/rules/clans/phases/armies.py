"""Raising armies and moving them (a move into an enemy's or the Independents' armies is an
attack, fought in combat.py)."""

from __future__ import annotations

from sheetmaster.kit import COAST, LAND, Context, Order, Status, plural, values
from sheetmaster.rules.common.modifiers import add_percent
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..orders import MOVE, RAISE
from ..tables import Army, Clan, Province
from ..world import ClansWorld, sea_node
from .combat import attack
from .common import COINS, GUARDS
from .effects import Parts, army_type, discounted, show_off, skills, supplied

RAISE_RULE = (
    "During your Turn, you can raise 1 Army at your Palace, or an Army Camp, or a Castle, if "
    "you have any. You cannot raise Armies if your current Army number is equal to Max.Army "
    "Limit. Max.Army Limit is governed by amount of Provinces you have; +1 for each Province, "
    "+2 thanks to Capital Province. Spearmen (CR+0); Recruitment Cost 500 Coins, Upkeep 100 "
    "Coins/Season. Archers (CR+2); Recruitment Cost 1000 Coins, Upkeep 250 Coins/Season. "
    "Cavalry (CR+6); Recruitment Cost 1500 Coins, Upkeep 500 Coins/Season."
)
MOVE_RULE = (
    "Newly raised Armies cannot move. Every Army moves 1 Province per Turn. Armies can also "
    "cross a single named Sea to assault other Provinces bordering it, as long as the Armies' "
    "owner constructs a Dock in a Province adjacent to the Sea. There's no need for a Dock to "
    "be in destination Province; only the Province where the Armies start in requires a Dock."
)


def raise_armies(ctx: Context) -> None:
    """One army a turn, at a spawn point of the clan's (Palace, Army Camp, Castle), below the
    Max Army Limit, paid in full (Copper, Iron, General of the Rear, Feudalism lower it)."""
    world: ClansWorld = ctx.world
    for order in ctx.orders(RAISE):
        clan = GUARDS.acting(ctx, order)
        if clan is None:
            continue
        if clan.raised:
            ctx.resolve(order, Status.REJECTED, reasons.ONE_ARMY.say(row=clan.raised))
            continue
        province = GUARDS.own_territory(ctx, order, clan)
        if province is None:
            continue
        if province.name != clan.capital and not any(
                data.IMPROVEMENTS[i].spawn_point for i in province.improvements):
            ctx.resolve(order, Status.REJECTED, reasons.NOT_SPAWN_POINT.say(
                province=province.name))
            continue
        armies, limit = len(world.armies_of(clan.name)), army_limit(world, clan)
        if armies >= limit:
            ctx.resolve(order, Status.REJECTED, reasons.AT_ARMY_LIMIT.say(
                armies=plural(armies, "army"), limit=limit))
            continue
        name = order.fields["army"] or ""
        if name and world.find_army(name) is not None:
            ctx.resolve(order, Status.REJECTED, reasons.NAME_TAKEN.say(name=values.show(name)))
            continue
        kind = order.fields["type"]
        base = army_type(clan, kind).cost
        off = army_discounts(world, clan, kind)
        cost = discounted(base, off)
        if not pay(ctx, order, clan, cost, COINS):
            continue
        army = world.add_army(clan.name, kind, province.name, name)
        army.raised_now = True
        clan.raised = order.row
        price = f"{base}" + (f" {show_off(off)} = {cost}" if off else "")
        ctx.emit(clan.name, "army raised", f"raised {army.name} ({kind}) in {province.name} "
                                           f"for {price} coins; coins now {clan.coins}, "
                                           f"armies {armies + 1} of {limit}")
        ctx.resolve(order, Status.APPLIED, f"raised {army.name} for {plural(cost, 'coin')}")


def move_armies(ctx: Context) -> None:
    """Each army moves once a turn, to a bordering province or across a Sea from a Dock."""
    world: ClansWorld = ctx.world
    for order in ctx.orders(MOVE):
        clan = GUARDS.acting(ctx, order)
        if clan is None:
            continue
        army = world.find_army(order.fields["army"])
        target = world.provinces[order.fields["to"]]
        why = _cannot_move(world, army, order, target)
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            continue
        start = world.provinces[army.province]
        sea = "" if world.map.adjacent(start.name, target.name, [LAND]) else \
            _sea_route(world, start, target)
        if sea is None:
            ctx.resolve(order, Status.REJECTED, reasons.NOT_ADJACENT.say(
                to=target.name, province=start.name))
            continue
        army.moved = True
        how = f" across the {sea}" if sea else ""
        if target.owner == clan.name:
            world.move_army(army, target.name)
            ctx.emit(clan.name, "move", f"{army.name} moved from {start.name} to "
                                        f"{target.name}{how}")
            ctx.resolve(order, Status.APPLIED, f"moved to {target.name}{how}")
            continue
        attack(ctx, order, clan, army, target, sea)


def _cannot_move(world: ClansWorld, army: Army | None, order: Order, target: Province) -> str:
    if army is None:
        return reasons.NO_SUCH_ARMY.say(name=values.show(order.fields["army"]))
    if army.clan != order.player:
        return reasons.NOT_YOUR_ARMY.say(army=army.name, owner=army.clan or "the Independents")
    if army.raised_now:
        return reasons.NEW_ARMY.say(army=army.name)
    if army.moved:
        return reasons.MOVED.say(army=army.name)
    if army.province == target.name:
        return reasons.SAME_PROVINCE.say(army=army.name, province=target.name)
    return ""


def _sea_route(world: ClansWorld, start: Province, target: Province) -> str | None:
    """The Sea an army crosses from ``start`` (which must have a Dock) to ``target``."""
    if data.DOCK not in start.improvements:
        return None
    shared = set(world.map.neighbours(target.name, [COAST]))
    return next((s for s in start.seas if sea_node(s) in shared), None)


def army_limit(world: ClansWorld, clan: Clan) -> int:
    """Max Army Limit: +1 a province, +2 for the Capital Province, Rice Farms (+2 each with
    Agriculture) and Fisheries +1 each, Irrigation +1; then Minister of Agriculture +10%,
    Feudalism +20%, Shogunate +20%."""
    provinces = world.provinces_of(clan.name)
    base = len(provinces) + (2 if world.holdings.holds(clan.name, clan.capital) else 0)
    per_farm = 2 if clan.has("Agriculture") else 1
    base += sum(p.count(data.RICE_FARM) * per_farm + p.count(data.FISHERY) for p in provinces)
    base += clan.has("Irrigation")
    pct = 10 * (data.MIN_AGRICULTURE in skills(world, clan.name)) + 20 * clan.has("Feudalism") \
        + 20 * clan.has("Shogunate")
    return add_percent(base, pct)


def army_discounts(world: ClansWorld, clan: Clan, kind: str) -> Parts:
    court = skills(world, clan.name)
    parts: Parts = []
    if supplied(world, clan.name, "Copper"):
        parts.append(("Copper", 10))
    if supplied(world, clan.name, "Iron"):
        parts.append(("Iron", 30 if clan.has("Steelmaking") else 20))
    if data.GEN_REAR in court:
        parts.append((data.GEN_REAR, 20))
    if kind in (data.SPEARMEN, data.ARCHERS) and clan.has("Feudalism"):
        parts.append(("Feudalism", 10))
    return parts
