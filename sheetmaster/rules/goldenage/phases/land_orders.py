"""Step 7: the land orders are read and checked at once, and land movement along railroads
is made before any foot movement.

"Marching units may use Railroads to pass through multiple provinces during a single turn.
All rail movement is resolved prior to any foot movement." A march may cross up to its
nation's rail bonus of railroad links (its own railroads and those of nations it is not at
war with) through friendly, unoccupied provinces, then take one step on foot; the last rail
link may enter an enemy-occupied province (digest F23-F25, F27).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from sheetmaster.kit import LAND as LAND_EDGE
from sheetmaster.kit import Context, Order, Status, values

from .. import data, reasons
from ..orders import (
    CUT_SUPPORT,
    DEFENSIVE_SUPPORT,
    ENTRENCH,
    INVADE,
    LAND,
    MARCH,
    OFFENSIVE_SUPPORT,
)
from ..tables import Unit
from ..world import GoldenWorld
from .common import free_land_unit, turn_state

RAIL_MOVE_RULE = ("Marching units may use Railroads to pass through multiple provinces during "
                  "a single turn. All rail movement is resolved prior to any foot movement. "
                  + data.RAIL_RULE + " Railroads may be used to enter a province occupied by "
                  "an enemy.")
HOSTILE_RULE = "A march order into hostile territory will be converted automatically into an " \
    "invasion order."
ANY = "any"


@dataclass
class Move:
    """Units of one nation going from one place to another with one purpose: a force."""

    nation: str
    origin: str
    dest: str
    mode: str  # march or invade
    units: list[str] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    #: the nations (or Rebels) whose forces it attacks.
    targets: set[str] = field(default_factory=set)
    intent: str = ""
    #: the landing it comes from (troops put ashore), if any.
    landing: object = None
    converted: bool = False

    @property
    def key(self) -> str:
        return f"{self.nation}: {self.origin} -> {self.dest} ({self.mode})"


@dataclass
class Support:
    order: Order
    unit: Unit
    offensive: bool
    of: str
    to: str = ""


@dataclass
class Cut:
    order: Order
    unit: Unit
    side: str
    province: str


@dataclass
class LandPlan:
    moves: dict[str, Move] = field(default_factory=dict)
    supports: list[Support] = field(default_factory=list)
    cuts: list[Cut] = field(default_factory=list)
    entrenched: dict[str, Order] = field(default_factory=dict)


def side(unit: Unit) -> str:
    """Whom a land unit fights for: its nation, or the Rebels."""
    return unit.nation or data.REBELS


def read_land_orders(ctx: Context) -> None:
    """Every land order is checked; rail legs are travelled now; what is left to adjudicate
    (foot steps, landings, supports, cuts) is handed to step 8."""
    world: GoldenWorld = ctx.world
    plan = turn_state(ctx).land = LandPlan()
    rails: list[tuple[Order, Unit, list[str], bool]] = []
    for order in ctx.orders(*LAND):
        if order.kind in (MARCH, INVADE):
            found = _read_move(ctx, order, plan)
            if found is not None:
                rails.append(found)
        elif order.kind == ENTRENCH:
            unit = free_land_unit(ctx, order, data.INFANTRY_ONLY)
            if unit is not None:
                plan.entrenched[unit.name] = order
        elif order.kind in (OFFENSIVE_SUPPORT, DEFENSIVE_SUPPORT):
            _read_support(ctx, order, plan)
        elif order.kind == CUT_SUPPORT:
            _read_cut(ctx, order, plan)
    for order, unit, route, complete in rails:
        _ride(ctx, order, unit, route, complete)
    for unit in world.units.values():
        if unit.type == data.INFANTRY and not unit.aboard:
            unit.posture = "entrenched" if (not unit.ordered or unit.name in plan.entrenched) \
                and not unit.disbanding else ""
        elif not unit.at_sea:
            unit.posture = ""


def _read_move(ctx: Context, order: Order, plan: LandPlan):
    world: GoldenWorld = ctx.world
    mode = order.kind
    unit = free_land_unit(ctx, order, data.MARCHERS if mode == MARCH else data.INVADERS)
    if unit is None:
        return None
    dest = order.fields["to"]
    nation = world.nations[unit.nation]
    why = ""
    route = None
    if dest == unit.at:
        why = reasons.SAME_PLACE.say(unit=unit.name, to=dest)
    else:
        route, by_rail = rail_route(world, unit.nation, unit.at, dest,
                                    data.RAIL_BONUS[nation.tech])
        if route is None:
            why = reasons.NO_ROUTE.say(unit=unit.name, to=dest, at=unit.at,
                                       bonus=data.RAIL_BONUS[nation.tech])
    move = None
    if not why:
        move, why = plan_move(world, unit.nation, route[-2], dest, mode, order, [unit.name],
                              intent=order.fields.get("intent") or "",
                              target=order.fields.get("target") or "")
    if why:
        unit.ordered = 0
        ctx.resolve(order, Status.REJECTED, why)
        return None
    complete = by_rail and move.mode == MARCH and _friendly(world, unit.nation, dest)
    if not complete:
        existing = plan.moves.get(move.key)
        if existing is None:
            plan.moves[move.key] = move
        else:
            existing.units += move.units
            existing.orders += move.orders
            existing.targets |= move.targets
            existing.intent = existing.intent or move.intent
    return order, unit, route, complete


def plan_move(world: GoldenWorld, nation: str, origin: str, dest: str, mode: str,
              order: Order, units: list[str], *, intent: str = "",
              target: str = "") -> tuple[Move | None, str]:
    """A march or an invasion from ``origin`` into ``dest``, checked: a march into hostile
    territory becomes an invasion; an invasion names whose forces it attacks (digest F30)."""
    province = world.provinces[dest]
    hostile = _hostile_there(world, nation, dest)
    intent = values.fold(intent)
    move = Move(nation, origin, dest, mode, list(units), [order], intent=intent)
    if mode == MARCH:
        if intent not in ("", "integrate"):
            return None, reasons.BAD_INTENT.say(intent=values.show(intent),
                                                allowed="integrate")
        if intent and (province.owner or province.occupied_by or
                       any(world.units[u].type != data.INFANTRY for u in units)):
            return None, reasons.INTEGRATE_NEUTRAL.say(to=dest, owner=province.owner or
                                                       province.occupied_by or "not neutral")
        if not hostile:
            return move, ""
        move.mode, move.converted, move.targets = INVADE, True, hostile
        return move, ""
    if intent not in ("", "annex", "puppet"):
        return None, reasons.BAD_INTENT.say(intent=values.show(intent), allowed="annex or puppet")
    holder = province.holder
    if holder == nation and not hostile:
        if province.occupied_by == nation and intent:
            return move, ""  # reissued to overwrite the occupation's intent (digest F51)
        return None, reasons.OWN_PROVINCE.say(to=dest)
    targets, why = _targets(world, nation, dest, target)
    if why:
        return None, why
    move.targets = targets | ({holder} if holder and holder != nation else set())
    return move, ""


def _targets(world: GoldenWorld, nation: str, dest: str, text: str) -> tuple[set[str], str]:
    present = {side(u) for u in world.land_units_in(dest)} - {nation}
    if values.fold(text) == ANY:
        return present, ""
    if not text:
        if present:
            return set(), reasons.TARGET_NEEDED.say(to=dest, forces=", ".join(
                f"{n}'s forces" for n in sorted(present)))
        return set(), ""
    found = world.side_names().get(text)
    if found is None:
        return set(), reasons.BAD_TARGET.say(target=values.show(text))
    if found == nation:
        return set(), reasons.SELF_TARGET.say()
    return {found}, ""


def _hostile_there(world: GoldenWorld, nation: str, dest: str) -> set[str]:
    """The sides at war with ``nation`` that hold ``dest`` or have forces there."""
    province = world.provinces[dest]
    out = {side(u) for u in world.land_units_in(dest) if world.at_war(nation, side(u))}
    if province.holder and world.at_war(nation, province.holder):
        out.add(province.holder)
    return out


def _friendly(world: GoldenWorld, nation: str, name: str) -> bool:
    """A province a nation may ride through by rail: held by it or by a nation at peace
    with it, and not occupied by anyone else."""
    province = world.provinces[name]
    holder = province.holder
    if holder == nation:
        return True
    return bool(holder) and not province.occupied_by and not world.at_war(nation, holder)


def rail_route(world: GoldenWorld, nation: str, origin: str, dest: str,
               bonus: int) -> tuple[list[str] | None, bool]:
    """The provinces from ``origin`` to ``dest``: one foot step, or up to ``bonus`` usable
    railroad links through friendly unoccupied provinces (the last link may enter an
    enemy-held one), then at most one foot step; and whether the last link is by rail.
    (None, False) if there is no such route."""
    if world.adjacent_land(origin, dest):
        return [origin, dest], False
    came: dict[str, str | None] = {origin: None}
    links = {origin: 0}
    queue = deque([origin])
    staging: str | None = None
    while queue:
        here = queue.popleft()
        for rail in world.rails_at(here):
            nxt = rail.b if rail.a == here else rail.a
            if nxt in came or (rail.owner and rail.owner != nation and
                               world.at_war(nation, rail.owner)):
                continue
            if nxt == dest:
                came[nxt] = here
                return _path(came, dest), True
            if _friendly(world, nation, nxt):
                came[nxt], links[nxt] = here, links[here] + 1
                if links[nxt] < bonus:
                    queue.append(nxt)
                if staging is None and world.adjacent_land(nxt, dest):
                    staging = nxt
    if staging is None:
        return None, False
    return [*_path(came, staging), dest], False


def _path(came: dict[str, str | None], end: str) -> list[str]:
    out = [end]
    while came[out[-1]] is not None:
        out.append(came[out[-1]])
    return out[::-1]


def _ride(ctx: Context, order: Order, unit: Unit, route: list[str], complete: bool) -> None:
    """The rail leg: the unit travels now to the province its foot step starts from."""
    world: GoldenWorld = ctx.world
    stop = route[-1] if complete else route[-2] if len(route) > 2 else ""
    if not stop:
        return
    world.place(unit, stop)
    ride = " -> ".join(route[:route.index(stop) + 1])
    ctx.emit(unit.nation, "rail", f"{unit.name} moved by rail {ride}")
    if complete:
        ctx.resolve(order, Status.APPLIED, f"moved by rail {ride}")


def _read_support(ctx: Context, order: Order, plan: LandPlan) -> None:
    world: GoldenWorld = ctx.world
    unit = free_land_unit(ctx, order, data.INFANTRY_ONLY)
    if unit is None:
        return
    of = world.unit(order.fields["of"])
    offensive = order.kind == OFFENSIVE_SUPPORT
    to = order.fields["to"] if offensive else ""
    why = ""
    if of is None or of.at_sea or of is unit:
        why = reasons.NO_SUCH_UNIT.say(unit=values.show(order.fields["of"]))
    elif offensive and not world.graph.adjacent(unit.at, to, [LAND_EDGE]):
        why = reasons.NOT_ADJACENT.say(to=to, at=unit.at)
    elif not offensive and not world.graph.adjacent(unit.at, of.at, [LAND_EDGE]):
        why = reasons.NOT_ADJACENT.say(to=of.at, at=unit.at)
    if why:
        unit.ordered = 0
        ctx.resolve(order, Status.REJECTED, why)
        return
    plan.supports.append(Support(order, unit, offensive, of.name, to))


def _read_cut(ctx: Context, order: Order, plan: LandPlan) -> None:
    world: GoldenWorld = ctx.world
    unit = free_land_unit(ctx, order, data.INFANTRY_ONLY)
    if unit is None:
        return
    of = world.unit(order.fields["of"])
    why = ""
    if of is None or of.at_sea or of.aboard:
        why = reasons.NO_SUCH_UNIT.say(unit=values.show(order.fields["of"]))
    elif side(of) == unit.nation:
        why = reasons.SELF_TARGET.say()
    elif not world.graph.adjacent(unit.at, of.at, [LAND_EDGE]):
        why = reasons.NOT_ADJACENT.say(to=of.at, at=unit.at)
    if why:
        unit.ordered = 0
        ctx.resolve(order, Status.REJECTED, why)
        return
    plan.cuts.append(Cut(order, unit, side(of), of.at))
