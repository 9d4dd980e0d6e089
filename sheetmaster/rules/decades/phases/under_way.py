"""Step 0, before the turn's orders: what the GM should look at (the sheet's warnings), and
the income of a state whose income cell is blank, as a game entered mid-stream has it: the
digest's "run when `income` is blank" (the opening, F47, writes it in a game sheetmaster
started)."""

from __future__ import annotations

from decimal import Decimal

from sheetmaster.kit import WARNING, Context

from ..tables import State
from ..world import DecadesWorld
from .economy import INCOME_RULE, ev
from .monarchy import TRIBUTE, TRIBUTE_RULE
from .opening import reckon_income

UNDER_WAY_RULE = f"{INCOME_RULE} {TRIBUTE_RULE}"


def before_the_turn(ctx: Context) -> None:
    """The warnings first; then, on a turn with orders, each blank income reckoned as the
    opening would have written it, from the state as the GM typed it (no die is rolled: the
    modifiers are the ones typed), and each blank spendable from the incomes."""
    world: DecadesWorld = ctx.world
    for warning in world.warnings:
        ctx.emit("", WARNING, warning)
    if ctx.date.setup:
        return  # no orders: the opening writes every income
    for state in world.alive():
        if state.name in world.blank_income:
            reckon_income(ctx, world, state)
    for state in world.alive():
        if state.name not in world.blank_spendable:
            if state.name in world.blank_income:
                ctx.emit(state.name, "income", f"{state.name}'s income for turn {ctx.turn} "
                         f"(blank in the sheet): {state.income_note}; to spend: "
                         f"{ev(state.spendable)} as typed")
            continue
        state.spendable = spendable(world, state)
        how = state.income_note if state.name in world.blank_income else \
            f"{ev(state.income)} as typed"
        ctx.emit(state.name, "income", f"{state.name}'s income for turn {ctx.turn} (blank in "
                                       f"the sheet): {how}; to spend: {ev(state.spendable)}")


def spendable(world: DecadesWorld, state: State) -> Decimal:
    """Income less the tribute it pays, plus the tribute its satellites pay (§14, F65)."""
    overlord = world.states.get(state.overlord)
    paid = state.income * TRIBUTE if overlord is not None and overlord.alive else Decimal(0)
    received = sum((s.income * TRIBUTE for s in world.satellites(state)), Decimal(0))
    return state.income - paid + received
