"""What ships do besides moving: embarking and landing troops, supplying and supporting
coastal forces, blockades (each one movement action)."""

from __future__ import annotations

from dataclasses import dataclass

from sheetmaster.kit import Context, Order, Status, plural, values

from .. import data, reasons
from ..orders import BLOCKADE, DISEMBARK, SUPPLY, SUPPORT_COASTAL
from ..settings import BLOCKADE_PORT, BLOCKADE_ZONE
from ..tables import Unit
from ..world import GoldenWorld
from .common import turn_state, unit_problem

SUPPLY_RULE = ("Supply Coastal Forces: Warship supplies one Infantry unit in a targeted "
               "adjacent coastal province. Infantry unit must be present at the target "
               "province at the end of the season in order to receive the offered supplies.")
SUPPORT_RULE = ("Support Coastal Forces: Warship supports a target adjacent land force in a "
                "single engagement.")
BLOCKADE_RULE = ("Warship blockades the current sea zone, or a target Port located within the "
                 "sea zone. Blockading a port requires more ships than blockading the sea "
                 "zone, but allows the blockading force to deprive the blockaded port of "
                 "seasonal income.")


@dataclass
class Landing:
    """Troops put ashore from the sea: a move into ``to`` decided with the land moves."""

    units: list[str]
    nation: str
    ship: str
    zone: str
    to: str
    intent: str
    target: str
    order: Order


def _used(world: GoldenWorld, ship: Unit, need: dict[str, int]) -> float:
    out = 0.0
    for cargo in ship.cargo:
        unit = world.units[cargo]
        out += need.get(unit.type, 0) / max(1, len(unit.aboard))
    return out


def embark(ctx: Context, order: Order, plans: list) -> None:
    """Load the units in order, each onto the first ships with room for it."""
    world: GoldenWorld = ctx.world
    ships = [p.ship for p in plans]
    first = ships[0]
    in_port = first.at in world.provinces
    units: list[Unit] = []
    for text in values.name_list(order.fields["units"]) or [""]:
        unit, why = unit_problem(world, order, text, data.MARCHERS + (data.CONSCRIPT,))
        if not why and (unit.aboard or unit.no_orders):
            why = reasons.ABOARD.say(unit=unit.name, ships=", ".join(unit.aboard)) \
                if unit.aboard else reasons.NO_ORDERS.say(unit=unit.name, why=unit.no_orders)
        if not why and not _within_reach(world, first, unit):
            why = reasons.NOT_COASTAL.say(province=unit.at, where=first.at)
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            return
        units.append(unit)
    beach = not (in_port and world.friendly_port(first.at, first.nation))
    loaded, left = [], []
    for unit in units:
        carriers = _room_for(world, ships, unit)
        if carriers is None:
            left.append(unit.name)
            continue
        world.board(unit, carriers)
        if beach:
            unit.no_orders = "it embarked from a beach this turn"
        loaded.append(unit.name)
    if not loaded:  # refused: it spends no movement action and changes nothing
        ctx.resolve(order, Status.REJECTED, reasons.NO_CAPACITY.say(units=", ".join(left)))
        return
    for plan in plans:
        plan.used += 1
    where = f"the port of {first.at}" if not beach else f"the coast ({units[0].at})" \
        if units else first.at
    text = f"embarked {', '.join(loaded)} on {', '.join(s.name for s in ships)}"
    ctx.emit(order.player, "embark", f"{text} at {where}")
    if left:
        ctx.resolve(order, Status.PARTIAL, f"{text}; "
                                           f"{reasons.NO_CAPACITY.say(units=', '.join(left))}")
    else:
        ctx.resolve(order, Status.APPLIED, text + (" (from a beach: no orders this turn)"
                                                   if beach else ""))


def _within_reach(world: GoldenWorld, ship: Unit, unit: Unit) -> bool:
    if ship.at in world.provinces:
        return unit.at == ship.at
    return world.coastal(unit.at, ship.at)


def _room_for(world: GoldenWorld, ships: list[Unit], unit: Unit) -> list[Unit] | None:
    """The ships that take the unit (capacity combined across the order's ships)."""
    if unit.type in data.INFANTRY_NEED:
        need, table, capacity = data.INFANTRY_NEED, data.INFANTRY_NEED[unit.type], \
            data.INFANTRY_CAPACITY
    else:
        need, table, capacity = data.SUPPORT_NEED, data.SUPPORT_NEED[unit.type], \
            data.SUPPORT_CAPACITY
    wanted, used = table, []
    for ship in ships:
        free = capacity[ship.type] - _used(world, ship, need)
        if free >= 1 and wanted > 0:
            used.append(ship)
            wanted -= int(free)
    return used if wanted <= 0 else None


def land_in_port(ctx: Context, plan, order: Order) -> bool:
    """A ship in a friendly port lands troops in the port's province at once: they may take
    orders this turn. Returns False if the landing is not of that kind."""
    world: GoldenWorld = ctx.world
    ship = plan.ship
    if order.fields["to"] != ship.at or world.friendly_port(ship.at, ship.nation) is None:
        return False
    units = [world.units[u] for u in _aboard(world, ship, order)]
    for unit in units:
        world.land(unit, ship.at)
    ctx.emit(order.player, "landed", f"{', '.join(u.name for u in units)} landed from "
             f"{ship.name} at the port of {ship.at}")
    ctx.resolve(order, Status.APPLIED, f"landed at the port of {ship.at}")
    return True


def _aboard(world: GoldenWorld, ship: Unit, order: Order) -> list[str]:
    names = values.Names(ship.cargo)
    return [n for n in (names.get(t) for t in values.name_list(order.fields["units"])) if n]


def after_movement(ctx: Context, plan) -> None:
    """The ship's landing, supply, support and blockade orders, done where it ended its
    movement, if it ended where it planned and did not lose a battle. Each was checked
    against that place when read (:func:`action_problem`); one that no longer fits it was
    stopped by another order of the turn (its target embarked, say): blocked."""
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    ship = plan.ship
    for order in plan.after:
        why = ""
        if plan.sunk:
            why = reasons.SUNK.say(unit=ship.name)
        elif plan.retreated:
            why = reasons.RETREATED.say(unit=ship.name, at=ship.at)
        elif ship.at != plan.planned_end:
            why = reasons.PINNED.say(unit=ship.name, at=ship.at, planned=plan.planned_end,
                                     why=plan.stopped or "it did not get there")
        else:
            why = action_problem(world, order, ship, ship.at)
        if why:
            ctx.resolve(order, Status.BLOCKED, why)
            continue
        zone = world.zone_of(ship)
        if order.kind == DISEMBARK:
            if not land_in_port(ctx, plan, order):
                state.landings.append(Landing(
                    _aboard(world, ship, order), ship.nation, ship.name, zone,
                    order.fields["to"], values.fold(order.fields["intent"]),
                    order.fields["target"] or "", order))
        elif order.kind == SUPPLY:
            state.supplies.append((order, ship.name, zone))
        elif order.kind == SUPPORT_COASTAL:
            target = world.unit(order.fields["of"])
            state.coastal_support.setdefault(target.name, []).append(order)
        elif order.kind == BLOCKADE:
            turn_state(ctx).blockades.append((order, ship.nation, zone,
                                              order.fields["province"] or ""))


def action_problem(world: GoldenWorld, order: Order, ship: Unit, end: str) -> str:
    """Why the ship cannot land, support or blockade as ordered from ``end``, where it ends
    its movement ('' if it can). Checked when the order is read, so that one refused spends
    no movement action and ends no movement (F45), and again where the ship ends."""
    port = None if end in world.seas else world.port(end)
    zone = end if port is None else port.sea_zone
    if order.kind == DISEMBARK:
        to = order.fields["to"]
        if to == end and world.friendly_port(end, ship.nation) is not None:
            return ""  # troops landed in port
        if zone not in world.provinces[to].seas:
            return reasons.NOT_COASTAL.say(province=to, where=zone)
    elif order.kind == SUPPORT_COASTAL:
        target = world.unit(order.fields["of"])
        if target is None or target.aboard or zone not in world.provinces[target.at].seas:
            return reasons.NOT_COASTAL.say(province=target.at if target else "?", where=zone)
    elif order.kind == BLOCKADE and order.fields["province"]:
        province = order.fields["province"]
        port = world.port(province)
        if port is None or port.sea_zone != zone:
            return reasons.BAD_BLOCKADE.say(province=province, zone=zone)
        holder = world.provinces[province].holder
        if not holder or not world.at_war(ship.nation, holder):
            return reasons.FRIENDLY_PORT.say(province=province)
    return ""


def settle_blockades(ctx: Context) -> None:
    """A nation with enough ships blockading a zone (or a port) blockades it this season."""
    world: GoldenWorld = ctx.world
    state = turn_state(ctx)
    if not state.blockades:
        return
    counts: dict[tuple[str, str, str], int] = {}
    for _, nation, zone, province in state.blockades:
        counts[(nation, zone, province)] = counts.get((nation, zone, province), 0) + 1
    need_zone = ctx.setting(BLOCKADE_ZONE)
    need_port = ctx.setting(BLOCKADE_PORT) if any(p for *_, p in state.blockades) else 0
    for order, nation, zone, province in state.blockades:
        have = counts[(nation, zone, province)]
        need = need_port if province else need_zone
        what = f"the port of {province}" if province else zone
        if have < need:
            ctx.resolve(order, Status.BLOCKED, f"{have} of the {plural(need, 'ship')} a "
                        f"blockade of {what} needs")
            continue
        if province:
            world.port(province).blockaded = True
        elif nation not in world.seas[zone].blockaders:
            world.seas[zone].blockaders.append(nation)
        ctx.resolve(order, Status.APPLIED, f"{nation} blockades {what} ({plural(have, 'ship')})")
    for (nation, zone, province), have in counts.items():
        need = need_port if province else need_zone
        if have >= need:
            what = f"the port of {province}" if province else zone
            ctx.emit(nation, "blockade", f"{nation} blockades {what} with {plural(have, 'ship')}")
