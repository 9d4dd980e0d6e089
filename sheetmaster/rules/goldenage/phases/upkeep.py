"""Steps 0-2: the Spring disband gate, military upkeep, and disbanding.

"Pay military upkeep (at start of Spring). Military upkeep is involuntarily deducted from
your income. You cannot opt not to pay your military. If you cannot make the payment, you
will disband units as necessary to break even. Disband unpaid military units. The players
orders will not be processed unless the required disband orders are present and valid."
"""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status, plural
from sheetmaster.rules.common.upkeep import disband_until_paid

from .. import data, reasons
from ..orders import DISBAND, DISBAND_CONSCRIPTS
from ..tables import Nation, Unit
from ..world import GoldenWorld
from .common import own_unit, treasury
from .economy import active_forts, fort_upkeep, unit_upkeep

UPKEEP_RULE = ("Pay military upkeep (at start of Spring). Military upkeep is involuntarily "
               "deducted from your income. You cannot opt not to pay your military. If you "
               "cannot make the payment, you will disband units as necessary to break even.")
GATE_RULE = ("Disband unpaid military units. The players orders will not be processed unless "
             "the required disband orders are present and valid.")
DISBAND_RULE = ("Disband Military Units: Occurs gradually. Disband Conscripts: Can occur "
                "immediately when the Conscript is located in any core province.")


def disband_problem(world: GoldenWorld, order: Order) -> str:
    """Why a disband order is not valid ('' if it is), without resolving it."""
    unit = world.unit(order.fields["unit"] or "")
    if unit is None or unit.nation != order.player or unit.abandoned:
        return "not a unit of yours in play"
    if order.kind == DISBAND_CONSCRIPTS and not _conscript_in_core(world, unit):
        return reasons.NOT_CONSCRIPT_IN_CORE.say(unit=unit.name)
    return ""


def gate_nations(ctx: Context) -> None:
    """Spring: a nation whose upkeep, less what its valid disbands spare, is more than its
    currency has none of its orders processed (digest F12); step 1 then disbands for it."""
    world: GoldenWorld = ctx.world
    if ctx.date.season != "Spring":
        return
    disbands: dict[str, set[str]] = {}
    for order in ctx.all_orders():
        if order.kind in (DISBAND, DISBAND_CONSCRIPTS) and ctx.resolved(order) is None and \
                not disband_problem(world, order):
            disbands.setdefault(order.player, set()).add(world.unit(order.fields["unit"]).name)
    for nation in world.nations.values():
        relieved = disbands.get(nation.name, set())
        upkeep, relief = _upkeep(ctx, nation, relieved)
        if upkeep - relief <= nation.currency:
            nation.relieved = relieved
            continue
        # its disband orders are rejected with the rest: they spare nothing (step 1 pays
        # for every unit the forced disbands leave)
        nation.gated = True
        why = reasons.GATED.say(upkeep=upkeep, currency=nation.currency, relief=relief)
        for order in ctx.all_orders():
            if order.player == nation.name and not order.from_gm and \
                    ctx.resolved(order) is None:
                ctx.resolve(order, Status.REJECTED, why)
        ctx.emit(nation.name, "disband gate", f"{nation.name}'s upkeep {upkeep - relief} is "
                 f"more than its {nation.currency} currency: none of its orders are processed")


def pay_upkeep(ctx: Context) -> None:
    """Spring: each nation pays the upkeep of its units and active forts; a gated nation
    first loses units, highest upkeep first, then the most recently raised, until it can."""
    world: GoldenWorld = ctx.world
    for nation in world.nations.values():
        units = [u for u in world.units_of(nation.name) if not u.abandoned]
        if nation.gated:
            _disband_to_break_even(ctx, nation, units)
            units = [u for u in world.units_of(nation.name) if not u.abandoned]
        kept = [u for u in units if u.name not in nation.relieved]
        forts = active_forts(world, nation.name)
        cost = sum(unit_upkeep(ctx, u) for u in kept) + \
            (fort_upkeep(ctx, nation) * len(forts) if forts else 0)
        if not cost:
            continue
        paid = min(cost, nation.currency)
        nation.currency -= paid
        treasury(ctx, nation, f"paid {paid} military upkeep ({plural(len(kept), 'unit')}, "
                              f"{plural(len(forts), 'active fort')})")


def _upkeep(ctx: Context, nation: Nation, relieved: set[str]) -> tuple[int, int]:
    world: GoldenWorld = ctx.world
    units = [u for u in world.units_of(nation.name) if not u.abandoned]
    costs = {u.name: unit_upkeep(ctx, u) for u in units}
    forts = active_forts(world, nation.name)
    total = sum(costs.values()) + (fort_upkeep(ctx, nation) * len(forts) if forts else 0)
    return total, sum(costs[u] for u in relieved if u in costs)


def _disband_to_break_even(ctx: Context, nation: Nation, units: list[Unit]) -> None:
    world: GoldenWorld = ctx.world
    forts = active_forts(world, nation.name)
    money = nation.currency - (fort_upkeep(ctx, nation) * len(forts) if forts else 0)
    order = {u.name: i for i, u in enumerate(world.unit_rows)}
    ranked = sorted(units, key=lambda u: (unit_upkeep(ctx, u), order[u.name]))
    _, disbanded, _ = disband_until_paid(ranked, lambda u: unit_upkeep(ctx, u), money)
    for unit in disbanded:
        if unit.name not in world.units:
            continue  # went down with a ship disbanded before it
        lost = world.remove(unit, "disbanded: upkeep unpaid")
        aboard = f" (with {', '.join(u.name for u in lost[1:])} aboard)" if lost[1:] else ""
        ctx.emit(nation.name, "disbanded", f"{unit.name} ({unit.type}){aboard} disbanded: "
                 f"{nation.name} could not pay its upkeep")
    if money < 0:
        for fort in reversed(forts):
            fort.state = data.MOTHBALLED
            ctx.emit(nation.name, "fort mothballed", f"the Fort in {fort.province} is "
                     "mothballed: its upkeep could not be paid")
            money += fort_upkeep(ctx, nation)
            if money >= 0:
                break


def disband_units(ctx: Context) -> None:
    """Disband orders: a Conscript in a core province goes at once; any other unit takes no
    more orders and leaves at the end of the turn (digest F36)."""
    world: GoldenWorld = ctx.world
    for order in ctx.orders(DISBAND, DISBAND_CONSCRIPTS):
        unit = own_unit(ctx, order)
        if unit is None:
            continue
        if order.kind == DISBAND_CONSCRIPTS:
            problem = disband_problem(world, order)
            if problem:
                ctx.resolve(order, Status.REJECTED, problem)
                continue
            world.remove(unit, "disbanded")
            ctx.emit(order.player, "disbanded", f"{unit.name} disbanded in {unit.at}")
            ctx.resolve(order, Status.APPLIED, f"{unit.name} disbanded")
            continue
        unit.disbanding, unit.ordered = True, order.row
        ctx.emit(order.player, "disbanding", f"{unit.name} is disbanded; it leaves at the "
                                             "end of the turn")
        ctx.resolve(order, Status.APPLIED, f"{unit.name} leaves at the end of the turn")


def _conscript_in_core(world: GoldenWorld, unit: Unit) -> bool:
    province = world.provinces.get(unit.at)
    return (unit.type == data.CONSCRIPT and not unit.aboard and province is not None and
            province.core and province.owner == unit.nation)
