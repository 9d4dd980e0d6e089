"""Step 3: the naval orders are read and checked at once, and troops embark (and disembark
in port) before any ship moves.

"Naval embarkment and disembarkment of troops in port"; "Each zone traveled consumes one
movement action from the total pool of availble movement actions"; "Warship targets adjacent
land forces up to its maximum remaining embarkment capacity."
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheetmaster.kit import SEA, Context, Order, Status, values

from .. import data, reasons
from ..orders import ATTACK, BLOCKADE, DISEMBARK, EMBARK, MOVE, SUPPLY, SUPPORT_COASTAL
from ..tables import Unit
from ..world import GoldenWorld
from .common import own_unit, turn_state, unit_problem
from .economy import movement_actions
from .naval_actions import action_problem

EMBARK_RULE = (
    "Embark Land Forces: Warship targets adjacent land forces up to its maximum remaining "
    "embarkment capacity. Embarked forces will automatically move with the Warship, receive "
    "supply penalties for each turn that ends while they are aboard, and may not receive "
    "orders until they are disembarked. This order consumes one movement action. If the "
    "embarked units are located in a coastal province without a friendly Port, or the "
    "embarking naval unit has not entered the Port, the embarked forces may not receive "
    "orders that turn regardless of whether or not they are subsequently disembarked at a "
    "Port.")
ENDS_MOVEMENT_RULE = ("Supply Coastal Forces / Support Coastal Forces / Blockade: This "
                      "order consumes one movement action. No additional movement of the "
                      "ordered unit may occur after issuing this order.")
ANY = "any"
#: the orders after which a ship moves no further (README F45).
ENDS_MOVEMENT = (SUPPLY, SUPPORT_COASTAL, BLOCKADE)


@dataclass
class ShipPlan:
    """One ship's orders this turn and what became of them."""

    ship: Unit
    actions: int
    used: int = 0
    path: list[str] = field(default_factory=list)
    move: Order | None = None
    #: nations it attacks on sight ('any': every other nation's ships).
    attack: set[str] = field(default_factory=set)
    attack_order: Order | None = None
    #: disembark, supply, support and blockade orders, done where its movement ends.
    after: list[Order] = field(default_factory=list)
    #: a supply, support or blockade order posted before any move: the ship stays (F45).
    anchored: Order | None = None
    step: int = 0
    #: why it stopped short of its path's end ('' if it did not).
    stopped: str = ""
    fought: bool = False
    retreated: bool = False
    sunk: bool = False
    met: set[str] = field(default_factory=set)

    @property
    def planned_end(self) -> str:
        return self.path[-1] if self.path else self.ship.at

    def attacks(self, nation: str) -> bool:
        return ANY in self.attack or nation in self.attack


def read_naval_orders(ctx: Context) -> None:
    """Every naval order is checked and planned; embarking happens now, from where each ship
    starts; a ship in port with no move lands troops in its port now ("in port"). Last
    season's blockades are lifted: this season's are settled in step 6."""
    plans = turn_state(ctx).ships
    for building in ctx.world.buildings:
        building.blockaded = False
    for order in ctx.orders(ATTACK):
        plan = _plan(ctx, order, plans)
        if plan is not None:
            _attack(ctx, order, plan)
    early = _before_the_move(ctx)
    for order in early:
        plan = _read_after(ctx, order, plans)
        if plan is not None and plan.anchored is None:
            plan.anchored = order
    for order in ctx.orders(MOVE):
        plan = _plan(ctx, order, plans)
        if plan is not None:
            _move(ctx, order, plan)
    for order in ctx.orders(EMBARK):
        _embark(ctx, order, plans)
    done = {o.seq for o in early}
    for order in ctx.orders(DISEMBARK, SUPPLY, SUPPORT_COASTAL, BLOCKADE):
        if order.seq not in done:
            _read_after(ctx, order, plans)
    from .naval_actions import land_in_port

    for plan in plans.values():
        if plan.move is None:
            for order in [o for o in plan.after if o.kind == DISEMBARK]:
                if land_in_port(ctx, plan, order):
                    plan.after.remove(order)


def _before_the_move(ctx: Context) -> list[Order]:
    """The supply, support and blockade orders posted before their ship's move: "No
    additional movement of the ordered unit may occur after issuing this order" (F45)."""
    world: GoldenWorld = ctx.world
    first = _first_moves(ctx)
    out = []
    for order in ctx.orders(*ENDS_MOVEMENT):
        ship = world.unit(order.fields["unit"] or "")
        if ship is not None and order.seq < first.get(ship.name, -1):
            out.append(order)
    return out


def _first_moves(ctx: Context) -> dict[str, int]:
    """Ship id -> the posting position of its move: the first of its move orders that is
    not refused for its own sake (a ship that is not the player's or not in play, a path
    that does not parse or is longer than the ship's actions). A refused move changes
    nothing, so it is not the move a later supply, support or blockade order follows."""
    world: GoldenWorld = ctx.world
    first: dict[str, int] = {}
    for order in ctx.orders(MOVE):
        ship, why = unit_problem(world, order, order.fields["unit"])
        if why or ship is None or not ship.at_sea or ship.name in first:
            continue
        path, why = parse_path(world, ship, order.fields["path"])
        if not why and len(path) <= movement_actions(ctx, ship):
            first[ship.name] = order.seq
    return first


def _read_after(ctx: Context, order: Order, plans: dict[str, ShipPlan]) -> ShipPlan | None:
    """A landing, supply, support or blockade order, checked and kept for where the ship
    ends its movement; its plan, or None if it was refused."""
    plan = _plan(ctx, order, plans, carrier=order.kind != BLOCKADE)
    if plan is None or not _check_after(ctx, order, plan):
        return None
    plan.after.append(order)
    return plan


def _plan(ctx: Context, order: Order, plans: dict[str, ShipPlan], *,
          carrier: bool = False) -> ShipPlan | None:
    ship = own_unit(ctx, order)
    if ship is None:
        return None
    if not ship.at_sea:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_A_SHIP.say(unit=ship.name))
        return None
    if carrier and ship.type not in data.CARRIERS:
        ctx.resolve(order, Status.REJECTED, reasons.NOT_CARRIER.say(unit=ship.name,
                                                                    type=ship.type))
        return None
    plan = plans.get(ship.name)
    if plan is None:
        plan = plans[ship.name] = ShipPlan(ship, movement_actions(ctx, ship))
    return plan


def _attack(ctx: Context, order: Order, plan: ShipPlan) -> None:
    """ "The attack order specifies which (or any) Nations ... to be attacked on sight";
    naming a nation at peace puts both at war (digest F32)."""
    world: GoldenWorld = ctx.world
    if plan.attack_order is not None:
        ctx.resolve(order, Status.REJECTED, reasons.ORDERED_TWICE.say(
            unit=plan.ship.name, row=plan.attack_order.row))
        return
    words = values.name_list(order.fields["target"])
    if [values.fold(w) for w in words] == [ANY]:
        plan.attack, plan.attack_order = {ANY}, order
        return
    nations = values.Names(world.nations)
    found = [nations.get(w) for w in words]
    if not found or None in found:
        ctx.resolve(order, Status.REJECTED, reasons.NO_SUCH_NATIONS.say())
        return
    if plan.ship.nation in found:
        ctx.resolve(order, Status.REJECTED, reasons.SELF_TARGET.say())
        return
    plan.attack, plan.attack_order = set(found), order
    for nation in found:
        if world.declare_war(plan.ship.nation, nation):
            ctx.emit(plan.ship.nation, "war", f"{plan.ship.nation} is at war with {nation}: "
                     f"{plan.ship.name} attacks its ships on sight")


def _move(ctx: Context, order: Order, plan: ShipPlan) -> None:
    if plan.move is not None:
        ctx.resolve(order, Status.REJECTED, reasons.ORDERED_TWICE.say(
            unit=plan.ship.name, row=plan.move.row))
        return
    world: GoldenWorld = ctx.world
    path, why = parse_path(world, plan.ship, order.fields["path"])
    if why:
        ctx.resolve(order, Status.REJECTED, reasons.BAD_PATH.say(why=why))
        return
    if plan.anchored is not None:
        ctx.resolve(order, Status.REJECTED, reasons.NO_MOVE_AFTER.say(
            unit=plan.ship.name, kind=plan.anchored.kind, at=plan.ship.at,
            row=plan.anchored.row))
        return
    if len(path) > plan.actions - plan.used:
        ctx.resolve(order, Status.REJECTED, reasons.TOO_FEW_ACTIONS.say(
            unit=plan.ship.name, actions=plan.actions - plan.used, needed=len(path)))
        return
    plan.path, plan.move = path, order
    plan.used += len(path)


def parse_path(world: GoldenWorld, ship: Unit, cell: str) -> tuple[list[str], str]:
    """The path's nodes, checked step by step: adjacent sea zones, passable straits and
    canals, and at the end, optionally, a province whose port the ship enters."""
    steps = values.name_list(cell)
    if steps and values.fold(steps[0]) == values.fold(ship.at) and len(steps) > 1:
        steps = steps[1:]  # the zone it starts in, written first: not a step
    if not steps:
        return [], "name at least one sea zone"
    if len(steps) == 1 and values.fold(steps[0]) == values.fold(ship.at):
        return [], f"{ship.name} is in {ship.at} already"
    names = world.map_names()
    seas, provinces = names["sea zone"], names["province"]
    path: list[str] = []
    here = ship.at
    for i, text in enumerate(steps):
        zone = seas.get(text)
        last = i == len(steps) - 1
        if zone is None and last and provinces.get(text):
            province = provinces.get(text)
            port = world.port(province)
            if port is None or port.sea_zone != here or \
                    world.provinces[province].holder != ship.nation:
                return [], f"{province} has no port of yours on {here}"
            path.append(province)
            break
        if zone is None:
            return [], f"{values.show(text)} is not a sea zone"
        if not _next_to(world, here, zone):
            return [], f"{zone} is not next to {here}"
        why = closed(world, zone, ship.nation)
        if why:
            return [], why
        path.append(zone)
        here = zone
    return path, ""


def _next_to(world: GoldenWorld, here: str, zone: str) -> bool:
    if here in world.provinces:  # leaving port: into the port's own zone first
        port = world.port(here)
        return port is not None and port.sea_zone == zone
    return world.graph.adjacent(here, zone, [SEA])


def closed(world: GoldenWorld, zone: str, nation: str) -> str:
    """Why a strait or canal is closed to the nation ('' if it may pass; digest F53)."""
    sea = world.seas[zone]
    if not (sea.strait or sea.canal):
        return ""
    if not sea.open:
        return f"{zone} is a {'canal' if sea.canal else 'strait'} that is not open"
    for province in world.provinces.values():
        if zone in (province.controls_strait, province.controls_canal) and \
                world.at_war(nation, province.holder):
            return f"{zone} is held by {province.holder}, at war with {nation}"
    return ""


def _embark(ctx: Context, order: Order, plans: dict[str, ShipPlan]) -> None:
    """Land units board the named ship(s), within their combined capacity: infantry
    capacity 1 (a Battleship 2) for Infantry and Conscripts (a Landship needs 2), support
    capacity 2 for Artillery and Generals. One movement action per ship."""
    from .naval_actions import embark

    world: GoldenWorld = ctx.world
    ships: list[ShipPlan] = []
    for text in values.name_list(order.fields["unit"]) or [""]:
        ship, why = unit_problem(world, order, text)
        if not why and ship is not None and (not ship.at_sea or
                                             ship.type not in data.CARRIERS):
            why = reasons.NOT_CARRIER.say(unit=ship.name, type=ship.type)
        if why:
            ctx.resolve(order, Status.REJECTED, why)
            return
        plan = plans.get(ship.name) or plans.setdefault(
            ship.name, ShipPlan(ship, movement_actions(ctx, ship)))
        if plan.used + 1 > plan.actions:
            ctx.resolve(order, Status.REJECTED, reasons.TOO_FEW_ACTIONS.say(
                unit=ship.name, actions=plan.actions - plan.used, needed=1))
            return
        ships.append(plan)
    if len({p.ship.at for p in ships}) > 1:
        ctx.resolve(order, Status.REJECTED, reasons.APART.say())
        return
    embark(ctx, order, ships)


def _check_after(ctx: Context, order: Order, plan: ShipPlan) -> bool:
    """An action done where the ship ends its movement: one movement action each."""
    if plan.used + 1 > plan.actions:
        ctx.resolve(order, Status.REJECTED, reasons.TOO_FEW_ACTIONS.say(
            unit=plan.ship.name, actions=plan.actions - plan.used, needed=1))
        return False
    world: GoldenWorld = ctx.world
    if order.kind == DISEMBARK:
        intent = values.fold(order.fields["intent"] or "")
        if intent not in ("march", "invade"):
            ctx.resolve(order, Status.REJECTED, reasons.BAD_INTENT.say(
                intent=values.show(order.fields["intent"]), allowed="march or invade"))
            return False
        for text in values.name_list(order.fields["units"]) or [""]:
            unit = world.unit(text)
            if unit is None or plan.ship.name not in unit.aboard:
                ctx.resolve(order, Status.REJECTED, reasons.NOT_ABOARD.say(
                    unit=values.show(text), ship=plan.ship.name))
                return False
    elif order.kind in (SUPPLY, SUPPORT_COASTAL):
        unit = world.unit(order.fields["of"])
        if unit is None or unit.at_sea:
            ctx.resolve(order, Status.REJECTED, reasons.NO_SUCH_UNIT.say(
                unit=values.show(order.fields["of"])))
            return False
        if order.kind == SUPPLY and (unit.type != data.INFANTRY or unit.nation != order.player):
            ctx.resolve(order, Status.REJECTED, "a warship supplies one Infantry of yours")
            return False
    why = action_problem(world, order, plan.ship, plan.planned_end)
    if why:
        ctx.resolve(order, Status.REJECTED, why)
        return False
    plan.used += 1
    return True
