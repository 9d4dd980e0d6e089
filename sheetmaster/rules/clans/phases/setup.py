"""The starting setup: clans' first province, Castle, armies and coins; the Independents'
garrisons; and the two starting Extras."""

from __future__ import annotations

from sheetmaster.kit import LAND, Context, Status, plural

from .. import data, reasons
from ..orders import EXTRA_PROVINCE, EXTRA_TECH, EXTRAS
from ..settings import season_label
from ..tables import Clan
from ..world import ClansWorld, behaviour
from .common import GUARDS, grant_tech

SETUP_RULE = (
    "Every Clan starts with 1 Province, where their Palace is (this is called 'Capital "
    "Province'), there's also a Castle built in it too. They also start with 2 Spearman Armies "
    "in the Province, and 10000 Coins in their treasury."
)
INDEPENDENTS_START_RULE = (
    "Each Province not claimed by a Player becomes Independent at start of the game; "
    "Independents raise Spearmen Armies and build Castles."
)
EXTRAS_RULE = (
    "They are allowed to pick two Extras; either a free Tech (it can't have any "
    "prerequisites!), additional Province adjacent to their 'capital' one, or 2500 Coins."
)


def start_season(ctx: Context) -> None:
    """Names the season, sets up new clans, and on turn 1 garrisons the Independents.

    A clan whose 'started on turn' is blank is set up now, in its starting province (the
    'capital' cell). On turn 1, each province no clan holds gets its starting Spearmen from the
    Independents tab (1 unless it says otherwise), unless the Armies tab already has armies in
    it (the GM placed them).
    """
    world: ClansWorld = ctx.world
    ctx.emit("", "season", f"{season_label(ctx.date)} (turn {ctx.turn})")
    for clan in world.clans.values():
        if not clan.started and not clan.destroyed:
            _set_up(ctx, world, clan)
    if ctx.turn != 1:
        return
    for province in world.provinces.values():
        if province.owner or world.at[province.name]:
            continue
        n = behaviour(world, province.name).starting
        for _ in range(n):
            world.add_army("", data.SPEARMEN, province.name)
        if n:
            ctx.emit("", "independents", f"{province.name} is Independent, with "
                                         f"{plural(n, 'army')} of Spearmen")


def _set_up(ctx: Context, world: ClansWorld, clan: Clan) -> None:
    province = world.provinces[clan.capital]
    for army in list(world.at[province.name]):
        world.remove_army(army, f"disbanded: {clan.name} settled {province.name}")
        ctx.emit(clan.name, "setup", f"the Independent army {army.name} in {province.name} "
                                     f"disbands as {clan.name} settles there")
    world.set_owner(province, clan.name)
    if data.CASTLE not in province.improvements:
        province.improvements.append(data.CASTLE)
    names = [world.add_army(clan.name, data.SPEARMEN, province.name).name
             for _ in range(data.START_SPEARMEN)]
    clan.coins += data.START_COINS
    clan.started = ctx.turn
    ctx.emit(clan.name, "setup", f"{clan.name} starts in {province.name} with its Palace, a "
                                 f"Castle, {' and '.join(names)}, and {data.START_COINS} coins "
                                 f"(coins now {clan.coins})")


def take_extras(ctx: Context) -> None:
    """A clan's starting Extras, taken before the rest of its turn (they are its setup)."""
    world: ClansWorld = ctx.world
    for order in ctx.orders(*EXTRAS):
        clan = GUARDS.acting(ctx, order)
        if clan is None:
            continue
        if len(clan.extras) >= data.EXTRAS:
            ctx.resolve(order, Status.REJECTED, reasons.NO_EXTRAS_LEFT.say(
                extras=", ".join(clan.extras)))
            continue
        if order.kind == EXTRA_TECH:
            tech = data.TECHS[order.fields["tech"]]
            if clan.has(tech.name):
                ctx.resolve(order, Status.REJECTED, reasons.HAVE_TECH.say(tech=tech.name))
                continue
            if tech.requires:
                ctx.resolve(order, Status.REJECTED, reasons.TECH_HAS_PREREQUISITE.say(
                    tech=tech.name, requires=tech.requires))
                continue
            grant_tech(world, clan, tech.name)
            taken = f"{tech.name} (tech)"
        elif order.kind == EXTRA_PROVINCE:
            taken = _extra_province(ctx, order, world, clan)
            if not taken:
                continue
        else:
            clan.coins += data.EXTRA_COINS
            taken = f"{data.EXTRA_COINS} Coins"
        clan.extras.append(taken)
        ctx.emit(clan.name, "extra", f"starting extra: {taken}; coins {clan.coins}")
        ctx.resolve(order, Status.APPLIED, f"extra {len(clan.extras)} of 2: {taken}")


def _extra_province(ctx: Context, order, world: ClansWorld, clan: Clan) -> str:
    province = world.provinces[order.fields["province"]]
    if province.owner:
        ctx.resolve(order, Status.REJECTED, reasons.EXTRA_NOT_INDEPENDENT.say(
            province=province.name, owner=province.owner))
        return ""
    if not world.map.adjacent(province.name, clan.capital, [LAND]):
        ctx.resolve(order, Status.REJECTED, reasons.EXTRA_NOT_ADJACENT.say(
            province=province.name, capital=clan.capital or "(none)"))
        return ""
    for army in list(world.at[province.name]):
        world.remove_army(army, f"disbanded: {province.name} joined {clan.name}")
        ctx.emit(clan.name, "extra", f"the Independent army {army.name} in {province.name} "
                                     f"disbands as it joins {clan.name}")
    world.set_owner(province, clan.name)
    return f"{province.name} (province)"
