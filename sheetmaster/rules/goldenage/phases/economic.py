"""Step 16, second half: this turn's economic and administrative orders, in posting order,
against the state after step 15 (digest F10): the whole cost is paid when an order is
applied, and its timer starts (F21).
"""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status
from sheetmaster.rules.common.treasury import pay

from .. import data, reasons
from ..orders import (
    BUILD_ACADEMY,
    BUILD_ARTILLERY,
    BUILD_BATTLESHIP,
    BUILD_CANAL,
    BUILD_FACTORY,
    BUILD_FORT,
    BUILD_PORT,
    BUILD_RAILROAD,
    BUILD_SUBMARINE,
    BUILD_WARSHIP,
    INVEST_CANAL,
    MOTHBALL_FORT,
    MOVE_CAPITAL,
    MUSTER_CONSCRIPTS,
    MUSTER_INFANTRY,
    REACTIVATE_FORT,
    UPGRADE_PORT,
    UPGRADE_PROVINCE,
)
from ..settings import COST, VALUE, has_number, number
from ..tables import Nation, Province
from ..world import GoldenWorld
from .administration_checks import capital_site_problem, peacetime_problem
from .canals import build_canal, invest_canal
from .common import (
    CURRENCY,
    entrenched_infantry,
    fort_state,
    fully_controls,
    own_core_province,
    own_province,
)
from .processes import (
    CAPITAL_MOVE,
    CONSTRUCTION,
    FORT_REACTIVATION,
    PORT_UPGRADE,
    PRODUCTION,
    PROVINCE_UPGRADE,
)
from .projects import start_project
from .railroads import order_railroad

ECONOMY_RULE = (
    "Muster Infantry: Infantry are mustered from a Nation's capital or Military Academies. "
    "Muster Conscripts: Conscripts are mustered from any core province. Construct Artillery: "
    "Artillery is built by a Factory. A Factory can produce only one Artillery at a time. "
    + data.BATTLESHIP_RULE + " " + data.PORT_RULE + " " + data.FACTORY_RULE)
SHIPS = {BUILD_WARSHIP: data.WARSHIP, BUILD_BATTLESHIP: data.BATTLESHIP,
         BUILD_SUBMARINE: data.SUBMARINE}
BUILDINGS = {BUILD_PORT: data.PORT, BUILD_FACTORY: data.FACTORY, BUILD_ACADEMY: data.ACADEMY,
             BUILD_FORT: data.FORT}
ORDERS = (MUSTER_INFANTRY, MUSTER_CONSCRIPTS, BUILD_ARTILLERY, *SHIPS, *BUILDINGS,
          UPGRADE_PORT, MOTHBALL_FORT, REACTIVATE_FORT, BUILD_RAILROAD, BUILD_CANAL,
          INVEST_CANAL, UPGRADE_PROVINCE, MOVE_CAPITAL)


def economic_orders(ctx: Context, orders: list[Order]) -> None:
    """Each order in posting order."""
    for order in orders:
        nation = ctx.world.nations[order.player]
        HANDLERS[order.kind](ctx, order, nation)


def _pending(ctx: Context, kind: str, province: str, what: str = "") -> list:
    return [t for t in ctx.timers.about(kind, province, key="province")
            if not what or t.details.get("what") == what]


def _muster_infantry(ctx: Context, order: Order, nation: Nation) -> None:
    province = own_province(ctx, order)
    if province is None:
        return
    if province.name != nation.capital and not ctx.world.buildings_in(province.name,
                                                                       data.ACADEMY):
        ctx.resolve(order, Status.REJECTED, reasons.NOT_MUSTER_SITE.say(province=province.name))
        return
    start_project(ctx, order, nation, PRODUCTION, data.INFANTRY, nation.tech, province.name)


def _muster_conscripts(ctx: Context, order: Order, nation: Nation) -> None:
    """ "Production varies with tech level and economic value of the host province": one
    Conscript per so many points of economic value (the Settings tab's Conscript 'value')."""
    province = own_core_province(ctx, order)
    if province is None:
        return
    per = int(number(ctx, data.CONSCRIPT, nation.tech, VALUE))
    count = ctx.world.economic_value(province.name) // max(per, 1)
    if count < 1:
        ctx.resolve(order, Status.REJECTED, f"{province.name}'s economic value "
                    f"{ctx.world.economic_value(province.name)} musters no Conscript (one per "
                    f"{per})")
        return
    start_project(ctx, order, nation, PRODUCTION, data.CONSCRIPT, nation.tech, province.name,
           count=count)


def _artillery(ctx: Context, order: Order, nation: Nation) -> None:
    province = own_province(ctx, order)
    if province is None:
        return
    factories = ctx.world.buildings_in(province.name, data.FACTORY)
    if not factories:
        ctx.resolve(order, Status.REJECTED, reasons.NO_BUILDING.say(province=province.name,
                                                                    what="Factory"))
        return
    busy = _pending(ctx, PRODUCTION, province.name, data.ARTILLERY)
    if len(busy) >= len(factories):
        ctx.resolve(order, Status.REJECTED, reasons.ARTILLERY_BUSY.say(
            province=province.name, timer=busy[0].id))
        return
    start_project(ctx, order, nation, PRODUCTION, data.ARTILLERY, nation.tech, province.name)


def _ship(ctx: Context, order: Order, nation: Nation) -> None:
    world: GoldenWorld = ctx.world
    kind = SHIPS[order.kind]
    province = own_province(ctx, order)
    if province is None:
        return
    port = world.port(province.name)
    if port is None:
        ctx.resolve(order, Status.REJECTED, reasons.NO_BUILDING.say(province=province.name,
                                                                    what="Port"))
        return
    if kind == data.BATTLESHIP:
        if port.level < data.BATTLESHIP_PORT_LEVEL:
            ctx.resolve(order, Status.REJECTED, reasons.PORT_LEVEL.say(
                province=province.name, level=port.level))
            return
        count = sum(u.type == data.BATTLESHIP for u in world.units_of(nation.name)) + sum(
            t.details.get("what") == data.BATTLESHIP for t in ctx.timers.find(
                kind=PRODUCTION, owner=nation.name))
        if count >= data.BATTLESHIP_LIMIT:
            ctx.resolve(order, Status.REJECTED, reasons.BATTLESHIP_LIMIT.say(count=count))
            return
    start_project(ctx, order, nation, PRODUCTION, kind, nation.tech, province.name)


def _building(ctx: Context, order: Order, nation: Nation) -> None:
    world: GoldenWorld = ctx.world
    kind = BUILDINGS[order.kind]
    province = own_province(ctx, order)
    if province is None:
        return
    where = province.name
    built = world.buildings_in(where, kind) + _pending(ctx, CONSTRUCTION, where, kind)
    extra: dict = {}
    level = nation.tech
    if kind in (data.PORT, data.FORT) and built:
        ctx.resolve(order, Status.REJECTED, reasons.HAS_ONE.say(province=where, what=kind))
        return
    if kind == data.PORT:
        zone = order.fields["sea zone"]
        if zone not in province.seas:
            ctx.resolve(order, Status.REJECTED, reasons.NOT_COASTAL.say(province=where,
                                                                        where=zone))
            return
        extra, level = {"sea zone": zone}, 1
    if kind == data.FACTORY and len(built) >= world.factory_limit(where):
        ctx.resolve(order, Status.REJECTED, reasons.FACTORY_LIMIT.say(
            province=where, limit=world.factory_limit(where),
            ev=world.economic_value(where), count=len(built)))
        return
    if kind == data.FORT and not entrenched_infantry(world, nation.name, where):
        ctx.resolve(order, Status.REJECTED, reasons.NO_ENTRENCHED.say(province=where))
        return
    start_project(ctx, order, nation, CONSTRUCTION, kind, level, where, extra=extra)


def _upgrade_port(ctx: Context, order: Order, nation: Nation) -> None:
    province = own_province(ctx, order)
    if province is None:
        return
    port = ctx.world.port(province.name)
    if port is None:
        ctx.resolve(order, Status.REJECTED, reasons.NO_BUILDING.say(province=province.name,
                                                                    what="Port"))
        return
    if _pending(ctx, PORT_UPGRADE, province.name):
        ctx.resolve(order, Status.REJECTED, f"the Port of {province.name} is being upgraded")
        return
    level = port.level + 1
    if not has_number(ctx, data.PORT, level, COST):
        ctx.resolve(order, Status.REJECTED, f"the Settings tab has no cost for a level "
                                            f"{level} Port")
        return
    start_project(ctx, order, nation, PORT_UPGRADE, data.PORT, level, province.name,
           extra={"level": level}, label=f"Port upgrade to level {level}")


def _fort(ctx: Context, order: Order, nation: Nation) -> tuple[Province | None, object]:
    province = own_province(ctx, order, unoccupied=False)
    if province is None:
        return None, None
    fort = ctx.world.fort(province.name)
    if fort is None:
        ctx.resolve(order, Status.REJECTED, reasons.NO_BUILDING.say(province=province.name,
                                                                    what="Fort"))
        return None, None
    return province, fort


def _mothball(ctx: Context, order: Order, nation: Nation) -> None:
    """ "The target fort will no longer require upkeep payments, but will no longer provide
    defensive bonuses." """
    province, fort = _fort(ctx, order, nation)
    if fort is None:
        return
    if fort.state != data.ACTIVE:
        ctx.resolve(order, Status.REJECTED, reasons.FORT_STATE.say(
            province=province.name, state=fort_state(ctx, fort)))
        return
    fort.state = data.MOTHBALLED
    ctx.emit(nation.name, "fort mothballed", f"the Fort in {province.name} is mothballed")
    ctx.resolve(order, Status.APPLIED, f"the Fort in {province.name} is mothballed")


def _reactivate(ctx: Context, order: Order, nation: Nation) -> None:
    """ "reactivated over the course of two seasons while at least one Infantry is Entrenched
    in the province. Reactivation costs half the construction cost of the Fort." """
    province, fort = _fort(ctx, order, nation)
    if fort is None:
        return
    why = ""
    if fort_state(ctx, fort) != data.MOTHBALLED:
        why = reasons.FORT_STATE.say(province=province.name, state=fort_state(ctx, fort))
    elif not fully_controls(ctx.world, nation.name, province.name):
        why = reasons.NOT_FULLY_CONTROLLED.say(province=province.name)
    elif not entrenched_infantry(ctx.world, nation.name, province.name):
        why = reasons.NO_ENTRENCHED.say(province=province.name)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return
    cost = int(number(ctx, data.FORT, nation.tech, COST)) // 2
    if not pay(ctx, order, nation, cost, CURRENCY, f"reactivating the Fort in {province.name}"):
        return
    timer = ctx.timers.start(FORT_REACTIVATION, nation.name, f"Fort in {province.name}",
                             data.REACTIVATION_SEASONS, order_row=order.row, paid=cost,
                             data={"province": province.name})
    ctx.resolve(order, Status.APPLIED, f"the Fort in {province.name} is reactivated for "
                                       f"{cost}, active on turn {timer.due_turn}")


def _upgrade_province(ctx: Context, order: Order, nation: Nation) -> None:
    """ "`upgrade-province` increases the land value of a province by 1, costs 10 currency,
    can only be done once per province, and takes effect one year after the currency is
    spent." (digest F18: a pending upgrade blocks a second one.)"""
    province = own_province(ctx, order)
    if province is None:
        return
    if province.upgraded or _pending(ctx, PROVINCE_UPGRADE, province.name):
        ctx.resolve(order, Status.REJECTED, reasons.UPGRADED_ALREADY.say(province=province.name))
        return
    if not pay(ctx, order, nation, data.UPGRADE_PROVINCE_COST, CURRENCY,
               f"upgrading {province.name}"):
        return
    timer = ctx.timers.start(PROVINCE_UPGRADE, nation.name, f"upgrade of {province.name}",
                             data.UPGRADE_PROVINCE_SEASONS, order_row=order.row,
                             paid=data.UPGRADE_PROVINCE_COST,
                             data={"province": province.name})
    ctx.resolve(order, Status.APPLIED, f"{province.name} is upgraded on turn {timer.due_turn} "
                                       f"for {data.UPGRADE_PROVINCE_COST}")


def _move_capital(ctx: Context, order: Order, nation: Nation) -> None:
    world: GoldenWorld = ctx.world
    where = order.fields["province"]
    moving = ctx.timers.find(kind=CAPITAL_MOVE, owner=nation.name)
    why = reasons.ALREADY_MOVING.say(timer=moving[0].id) if moving else ""
    if not why:
        war = peacetime_problem(world, nation.name)
        why = reasons.NOT_PEACETIME.say(why=war) if war else ""
    if not why:
        site = capital_site_problem(world, nation.name, where)
        why = reasons.BAD_CAPITAL_SITE.say(province=where, why=site) if site else ""
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return
    timer = ctx.timers.start(CAPITAL_MOVE, nation.name, where, data.MOVE_CAPITAL_TURNS,
                             order_row=order.row, data={"province": where})
    ctx.resolve(order, Status.APPLIED, f"the capital moves to {where} on turn "
                                       f"{timer.due_turn}, for "
                                       f"{data.MOVE_CAPITAL_COST_PER_TECH} x tech level then")


HANDLERS = {
    MUSTER_INFANTRY: _muster_infantry, MUSTER_CONSCRIPTS: _muster_conscripts,
    BUILD_ARTILLERY: _artillery, **dict.fromkeys(SHIPS, _ship),
    **dict.fromkeys(BUILDINGS, _building), UPGRADE_PORT: _upgrade_port,
    MOTHBALL_FORT: _mothball, REACTIVATE_FORT: _reactivate, BUILD_RAILROAD: order_railroad,
    BUILD_CANAL: build_canal, INVEST_CANAL: invest_canal, UPGRADE_PROVINCE: _upgrade_province,
    MOVE_CAPITAL: _move_capital,
}
