"""Steps 3-5: subsidies, then spending in posting order, each order against what is left of
this turn's income; instalments completed and rolled at once; military strength."""

from __future__ import annotations

from decimal import Decimal

from sheetmaster.kit import Context, Order, Status
from sheetmaster.rules.common.treasury import pay

from .. import reasons
from ..orders import (
    CIVILIZE,
    COLONIZE,
    CONVERT_CULTURE,
    CONVERT_RELIGION,
    MILITARY,
    STABILITY,
    SUBSIDY,
)
from ..settings import STABILITY_COST, STABILITY_UPKEEP
from ..tables import State
from ..world import (
    COLONIZATION,
    CULTURE_CONVERSION,
    RELIGION_CONVERSION,
    TOP_STABILITY,
    DecadesWorld,
    same,
)
from .common import GUARDS, SPENDABLE
from .economy import MILITARY_RULE, ev, military
from .tech import civilizing, owe_civilized_government
from .turmoil import lower_stability, raise_stability, settle

SPENDING_RULE = (
    "Income may be spent on: Military, Increasing or maintaining stability, Cultural or "
    "religious conversion, or colonization. Income does not carry over from turn to turn."
)
SUBSIDY_RULE = (
    "Finally a state can choose to give Subsidies to another state, constituting no more then "
    "25% of it's income. Subsidies may only be given to a single state at a time."
)
CONVERSION_RULE = (
    "Converting religion or cultures entails investing into that territory it's full economic "
    "value (it may be paid in installments, but it will not be processed until that is fully "
    "paid), and then taking either a 1/20 chance for religious conversion or a 1/40 chance of "
    "cultural conversion."
)
COLONIZATION_RULE = (
    "To colonize, the player must pay for the value of the province (this may be done in "
    "installments, although it will not increase value until it is fully paid for). Once that "
    "is done, it functions as a normal province and is never considered uncivilized again."
)
SUBSIDY_SHARE = Decimal("0.25")
#: timer kind -> (the odds of success out of, the province attribute it converts).
CONVERSIONS = {RELIGION_CONVERSION: (20, "religion"), CULTURE_CONVERSION: (40, "culture")}


def give_subsidies(ctx: Context) -> None:
    """§12: at most 25% of the giver's income (F61: this turn's, before tribute and gifts),
    to a single state a turn; the receiver may spend it this turn."""
    given: dict[str, Decimal] = {}
    for order in ctx.orders(SUBSIDY):
        giver = GUARDS.acting(ctx, order)
        receiver = giver and GUARDS.other_player(ctx, order, giver)
        if receiver is None:
            continue
        amount, limit = order.fields["amount"], giver.income * SUBSIDY_SHARE
        if giver.subsidised and giver.subsidised != receiver.name:
            ctx.resolve(order, Status.REJECTED, reasons.ONE_RECIPIENT.say(
                state=giver.name, recipient=giver.subsidised))
        elif given.get(giver.name, Decimal(0)) + amount > limit:
            ctx.resolve(order, Status.REJECTED, reasons.SUBSIDY_CAP.say(
                limit=ev(limit), state=giver.name, given=ev(given.get(giver.name, 0))))
        elif pay(ctx, order, giver, amount, SPENDABLE):
            giver.subsidised = receiver.name
            given[giver.name] = given.get(giver.name, Decimal(0)) + amount
            receiver.spendable += amount
            ctx.resolve(order, Status.APPLIED, f"gave {ev(amount)} to {receiver.name}")
            ctx.emit(giver.name, "subsidy", f"{giver.name} subsidises {receiver.name} with "
                                            f"{ev(amount)}")


def spend(ctx: Context) -> None:
    """Stability upkeep first, then every spending order in posting order; non-player states
    nobody ordered invest all they have in the military (F16); then each state's strength."""
    world: DecadesWorld = ctx.world
    pay_upkeep(ctx, world)
    handlers = {MILITARY: invest_military, STABILITY: buy_stability, CIVILIZE: try_civilizing,
                CONVERT_RELIGION: instalment, CONVERT_CULTURE: instalment,
                COLONIZE: instalment}
    for order in ctx.orders(*handlers):
        state = GUARDS.acting(ctx, order)
        if state is not None:
            state.ordered = True
            handlers[order.kind](ctx, order, state)
    available = world.available()
    for state in world.alive():
        if not state.ordered and not world.played(state) and state.spendable > 0:
            ctx.emit(state.name, "military", f"{state.name}, a non-player state nobody "
                                             f"ordered, invests its {ev(state.spendable)} in "
                                             f"the military")
            state.invested += state.spendable
            state.spendable = Decimal(0)
        state.military, note = military(state.invested, tribal=world.tribal(state),
                                        behind=world.techs_behind(state, available),
                                        government=world.government(state))
        if state.invested:
            ctx.emit(state.name, "military", note)


def pay_upkeep(ctx: Context, world: DecadesWorld) -> None:
    """F11: 'maintaining' stability costs the `stability upkeep` setting each turn (0: no
    upkeep, as decades.txt describes no decay); a state that cannot pay takes a hit."""
    upkeep = ctx.setting(STABILITY_UPKEEP)
    if not upkeep:
        return
    for state in world.alive():
        if world.tribal(state):
            continue
        if SPENDABLE.can_pay(state, upkeep):
            SPENDABLE.spend(ctx, state, upkeep)
            ctx.emit(state.name, "upkeep", f"{state.name} pays {ev(upkeep)} to maintain its "
                                           f"stability")
        else:
            lower_stability(ctx, state, 1, f"{state.name} cannot pay the {ev(upkeep)} "
                                           f"stability upkeep")
            settle(ctx, state)


def invest_military(ctx: Context, order: Order, state: State) -> None:
    amount = order.fields["amount"]
    if pay(ctx, order, state, amount, SPENDABLE):
        state.invested += amount
        ctx.resolve(order, Status.APPLIED, f"invested {ev(amount)} in the military")


def buy_stability(ctx: Context, order: Order, state: State) -> None:
    """§3 "Increasing or maintaining stability": one level for the `stability cost`."""
    world: DecadesWorld = ctx.world
    if world.tribal(state):
        ctx.resolve(order, Status.REJECTED, reasons.TRIBAL.say(
            state=state.name, what="its stability is fixed at 2"))
        return
    if state.stability >= TOP_STABILITY:
        ctx.resolve(order, Status.REJECTED, reasons.TOP_STABILITY.say(state=state.name))
        return
    cost = ctx.setting(STABILITY_COST)
    if pay(ctx, order, state, cost, SPENDABLE):
        raise_stability(ctx, state, f"{state.name} invests {ev(cost)}")
        ctx.resolve(order, Status.APPLIED, f"stability {state.stability} for {ev(cost)}")


def try_civilizing(ctx: Context, order: Order, state: State) -> None:
    """§5 "invest half of their income for a turn for a 1/50 chance" (F23: exactly half of
    this turn's income, one roll a turn)."""
    world: DecadesWorld = ctx.world
    if not world.tribal(state):
        ctx.resolve(order, Status.REJECTED, reasons.NOT_TRIBAL.say(
            state=state.name, what="invest to civilize"))
        return
    if state.tried_civilizing:
        ctx.resolve(order, Status.REJECTED, reasons.ONCE_A_TURN.say(state=state.name))
        return
    owed = civilizing(ctx, state)
    if owed is not None:
        ctx.resolve(order, Status.REJECTED, reasons.CIVILIZED.say(state=state.name,
                                                                  decision=owed.id))
        return
    cost = state.income / 2
    if not pay(ctx, order, state, cost, SPENDABLE):
        return
    state.tried_civilizing = True
    if ctx.dice.chance(1, 50, state.name, f"{state.name} becoming civilized",
                       name=f"civilize {state.name}"):
        owe_civilized_government(ctx, state, "the 1 in 50 chance")
        ctx.resolve(order, Status.APPLIED, f"invested {ev(cost)}: civilized!")
    else:
        ctx.resolve(order, Status.APPLIED, f"invested {ev(cost)}: not civilized this turn")


KINDS = {CONVERT_RELIGION: RELIGION_CONVERSION, CONVERT_CULTURE: CULTURE_CONVERSION,
         COLONIZE: COLONIZATION}


def instalment(ctx: Context, order: Order, state: State) -> None:
    """A payment toward a conversion or a colonization (§6, §16): nothing happens until the
    whole price is paid; the payment that completes it makes the roll (or settles it)."""
    world: DecadesWorld = ctx.world
    province = GUARDS.own_territory(ctx, order, state)
    if province is None:
        return
    kind = KINDS[order.kind]
    problem = _cannot(world, state, province, kind)
    if problem:
        ctx.resolve(order, Status.REJECTED, problem)
        return
    timer = next((t for t in ctx.timers.about(kind, province.name) if t.owner == state.name),
                 None)
    # F27: conversion costs the current value; colonization the map value (§16)
    price = Decimal(province.value if kind == COLONIZATION else world.value(province))
    paid = timer.paid if timer is not None else Decimal(0)
    amount = min(order.fields["amount"], price - paid)
    if not pay(ctx, order, state, amount, SPENDABLE):
        return
    if timer is None:
        timer = ctx.timers.start(kind, state.name, province.name, 0, order_row=order.row)
    ctx.timers.pay(timer, amount)
    status = Status.APPLIED if amount == order.fields["amount"] else Status.PARTIAL
    if timer.paid < price:
        ctx.resolve(order, status, f"paid {ev(amount)}: {ev(timer.paid)} of {ev(price)} "
                                   f"for {province.name}")
        return
    ctx.resolve(order, status, f"paid {ev(amount)}: {province.name}'s {kind} is paid in full "
                               f"({ev(price)})" + ("" if status is Status.APPLIED else
                                                   "; the rest is not spent"))
    complete(ctx, state, province, timer)


def _cannot(world: DecadesWorld, state: State, province, kind: str) -> str:
    if kind == COLONIZATION:
        if world.tribal(state):
            return reasons.TRIBAL.say(state=state.name, what="colonization is for civilized "
                                                             "states")
        return "" if province.unsettled else reasons.SETTLED.say(province=province.name)
    what = CONVERSIONS[kind][1]
    if same(getattr(province, what), getattr(state, what)):
        return reasons.SAME_RELIGION.say(province=province.name, state=state.name, what=what,
                                         name=getattr(state, what))
    return ""


def complete(ctx: Context, state: State, province, timer) -> None:
    if timer.kind == COLONIZATION:
        province.unsettled = False
        ctx.timers.complete(timer, f"{province.name} is colonized: worth {province.value} "
                                   f"from now on")
        settle(ctx, state)
        return
    odds, what = CONVERSIONS[timer.kind]
    target = getattr(state, what)  # F29: the state's at the moment of the roll
    if ctx.dice.chance(1, odds, state.name, f"{timer.kind} of {province.name} to {target}",
                       name=f"{timer.kind} {province.name}"):
        setattr(province, what, target)
        ctx.timers.complete(timer, f"{province.name} converts to {target}")
        settle(ctx, state)
    else:
        ctx.timers.complete(timer, f"{province.name} does not convert; the payment is used up")


__all__ = ["MILITARY_RULE", "give_subsidies", "spend"]
