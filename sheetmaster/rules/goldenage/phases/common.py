"""What several steps share: the turn's working state handed from step to step, finding a
nation's own unit or province for an order (the shared guards, worded for Golden Age), its
purse, and logging."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sheetmaster.kit import PRIVATE, Context, Order, Status, Timer, values
from sheetmaster.rules.common.guards import Guards
from sheetmaster.rules.common.treasury import Purse

from .. import data, reasons
from ..tables import Building, Nation, Province, Unit
from ..world import GoldenWorld
from .processes import FORT_REACTIVATION


@dataclass
class TurnState:
    """What one step of the turn leaves for the later ones."""

    #: ship id -> its naval plan (phases 3-6).
    ships: dict[str, Any] = field(default_factory=dict)
    #: landings from the sea for the land adjudication (phase 6 -> 8).
    landings: list[Any] = field(default_factory=list)
    #: land moves and staying units (phase 7 -> 8 -> 9).
    land: Any = None
    #: the land moves decided in step 8 (phase 8 -> 9).
    battlefield: Any = None
    #: step 15: capital -> the nations whose capital it is (see ownership._capitals)
    capitals: dict[str, list[Any]] | None = None
    #: province -> (nation, march order) of diplomatic integrations begun this turn.
    integrations: dict[str, tuple[str, Order]] = field(default_factory=dict)
    #: province -> the new intent of an occupation whose invasion was reissued (F51).
    reissued: dict[str, str] = field(default_factory=dict)
    #: land unit id -> the support-coastal orders of warships backing its forces.
    coastal_support: dict[str, list[Order]] = field(default_factory=dict)
    #: (supply-coastal order, ship, its sea zone), checked at the end of the season.
    supplies: list[tuple[Order, str, str]] = field(default_factory=list)
    #: (blockade order, nation, sea zone, port's province or '').
    blockades: list[tuple[Order, str, str, str]] = field(default_factory=list)
    #: Infantry supplied by a warship this turn (step 12).
    supplied: set[str] = field(default_factory=set)
    #: province -> the nation that took it in step 9 (steps 10-15).
    taken: dict[str, str] = field(default_factory=dict)
    #: province -> the intent ('annex', 'puppet', '') of the invasion that took it.
    intents: dict[str, str] = field(default_factory=dict)
    #: provinces whose owner took them back in step 9.
    liberated: set[str] = field(default_factory=set)
    #: province -> (victor, Generals and Artillery of the forces it defeated) (steps 10-11).
    defeated: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    #: provinces entered by an enemy this turn (a general does not retreat into one).
    contested: set[str] = field(default_factory=set)


def turn_state(ctx: Context) -> TurnState:
    world: GoldenWorld = ctx.world
    if world.turn_state is None:
        world.turn_state = TurnState()
    return world.turn_state


def unit_problem(world: GoldenWorld, order: Order, text: str, types: tuple[str, ...] = ()
                 ) -> tuple[Unit | None, str]:
    """The unit ``text`` names and why the order's player may not order it now ('' if it
    may): it must be the player's, in play and not ordered already."""
    unit = world.unit(text or "")
    if unit is None:
        return None, reasons.NO_SUCH_UNIT.say(unit=values.show(text or ""))
    if unit.nation != order.player:
        return unit, reasons.NOT_YOUR_UNIT.say(unit=unit.name, owner=unit.nation or "nobody")
    if types and unit.type not in types:
        return unit, reasons.WRONG_TYPE.say(kind=order.kind, types=", ".join(types),
                                            unit=unit.name, type=unit.type)
    if unit.abandoned:
        return unit, reasons.ABANDONED.say(unit=unit.name)
    if unit.disbanding:
        return unit, reasons.DISBANDING.say(unit=unit.name)
    if unit.ordered and unit.ordered != order.row:
        return unit, reasons.ORDERED_TWICE.say(unit=unit.name, row=unit.ordered)
    return unit, ""


def own_unit(ctx: Context, order: Order, types: tuple[str, ...] = (), *,
             column: str = "unit") -> Unit | None:
    """The order's unit if the player may order it now; else the order is rejected and
    None returned."""
    unit, why = unit_problem(ctx.world, order, order.fields[column], types)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return None
    return unit


def free_land_unit(ctx: Context, order: Order, types: tuple[str, ...]) -> Unit | None:
    """A land unit of the player's that may take an order now (not aboard, not landed
    without a port, not embarked from a beach); it is marked as ordered."""
    unit = own_unit(ctx, order, types)
    if unit is None:
        return None
    why = ""
    if unit.aboard:
        why = reasons.ABOARD.say(unit=unit.name, ships=", ".join(unit.aboard))
    elif unit.no_orders:
        why = reasons.NO_ORDERS.say(unit=unit.name, why=unit.no_orders)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return None
    unit.ordered = order.row
    return unit


def own_province(ctx: Context, order: Order, *, column: str = "province",
                 unoccupied: bool = True) -> Province | None:
    """The shared own-territory guard, then (``unoccupied``) nobody may occupy it."""
    province = GUARDS.own_territory(ctx, order, ctx.world.nations[order.player],
                                    column=column)
    if province is None:
        return None
    if unoccupied and province.occupied_by:
        ctx.resolve(order, Status.REJECTED, reasons.OCCUPIED.say(
            province=province.name, occupier=province.occupied_by))
        return None
    return province


def own_core_province(ctx: Context, order: Order) -> Province | None:
    """:func:`own_province`, and a core province of the nation's (conscripts are mustered and
    a provisional capital named only in one)."""
    province = own_province(ctx, order)
    if province is not None and not province.core:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_CORE.say(province=province.name))
        return None
    return province


def treasury(ctx: Context, nation: Nation, text: str) -> None:
    """A treasury line: private to the nation (and the GM)."""
    ctx.emit(nation.name, "treasury", f"{text}; currency now {nation.currency}",
             audience=PRIVATE)


def _paid(ctx: Context, nation: Nation, cost: int, what: str) -> None:
    treasury(ctx, nation, f"paid {cost} for {what}")


#: A nation pays in currency; each payment is a treasury line.
CURRENCY = Purse("currency", paid=_paid)
#: An order names the nation's own province (a gated nation's orders are refused before
#: any guard, in the Spring gate; no order names another nation as its target).
GUARDS = Guards("nations", "nation",
                not_yours=lambda province, nation: reasons.NOT_YOUR_PROVINCE.say(
                    province=province.name))


def fully_controls(world: GoldenWorld, nation: str, province: str) -> bool:
    """ "Fully controls" (railroads, forts): owns it and nobody occupies it (digest F26)."""
    p = world.provinces[province]
    return p.owner == nation and not p.occupied_by


def entrenched_infantry(world: GoldenWorld, nation: str, province: str) -> list[Unit]:
    return [u for u in world.land_units_in(province, nation)
            if u.type == data.INFANTRY and u.posture == "entrenched" and not u.disbanding]


def percent_chance(ctx: Context, percent: int, who: str, why: str, name: str) -> bool:
    """A percentage chance: 0 never happens and 100 always does, without a roll; otherwise
    a d100 at or under it."""
    if percent <= 0:
        return False
    if percent >= 100:
        return True
    return ctx.dice.chance(percent, 100, who, why, name=name)


def both(ctx: Context, a: str, b: str, kind: str, text: str) -> None:
    """A public line about ``a`` (in the Log), copied into ``b``'s own report."""
    ctx.emit(a, kind, text)
    if b and b != a and b in ctx.world.nations:
        ctx.emit(b, kind, text, audience=PRIVATE)


def fort_reactivation(ctx: Context, province: str) -> Timer | None:
    """The running reactivation of the Fort in ``province`` (a fort being reactivated stays
    'mothballed' in the Buildings tab: this timer is all that says so)."""
    return next((t for t in ctx.timers.find(kind=FORT_REACTIVATION)
                 if t.details["province"] == province), None)


def fort_state(ctx: Context, fort: Building) -> str:
    """What a fort is, for orders and reports: active, mothballed or reactivating."""
    if fort.state == data.MOTHBALLED and fort_reactivation(ctx, fort.province) is not None:
        return data.REACTIVATING
    return fort.state
