"""Monarchies (§10, §14): the interregnum a Monarchy may fall into, the personal union a
Feudal Monarchy may enter, and the tribute a union's junior partner pays, rolled and paid as
each turn opens (:mod:`.opening`)."""

from __future__ import annotations

from decimal import Decimal

from sheetmaster.kit import GM, Context

from ..tables import State
from ..world import DecadesWorld
from .economy import ev
from .turmoil import hit

MONARCHY_RULE = (
    "All Monarchies have a 1/50 chance per turn of having an Interregnum. That causes a "
    "stability hit and a happiness hit. In addition the player may not declare war for the "
    "rest of the turn. All Feudal Monarchies have a 1/20 chance of entering into a Personal "
    "Union."
)
TRIBUTE_RULE = "The junior partner pays 25% of their economic power to the senior partner."
UNION_DECISION, NO_PARTNER = "personal union", "none"
TRIBUTE = Decimal("0.25")


def roll_monarchy(ctx: Context, world: DecadesWorld, state: State) -> None:
    """§10: a Monarchy's 1 in 50 interregnum (hits, no war declared next turn, F50) and a
    Feudal Monarchy's 1 in 20 personal union, whose partner the GM names (F52): any live
    state but a player's, one in a union already or its own overlord (the others found
    once while no union or state changes them, :meth:`DecadesWorld.union_partners`, not
    twice a union rolled: issue 26.1)."""
    government = world.government(state)
    if government.monarchy and ctx.dice.chance(1, 50, state.name, f"an interregnum in "
                                               f"{state.name}", name=f"interregnum {state.name}"):
        state.interregnum = True
        ctx.emit(state.name, "interregnum", f"interregnum in {state.name}: it may not declare "
                                            f"war next turn")
        hit(ctx, state, "the interregnum", stability=1, happiness=1)
    if government.feudal and state.alive and ctx.dice.chance(
            1, 20, state.name, f"a personal union for {state.name}",
            name=f"personal union {state.name}"):
        partners = world.union_partners(state)
        if not partners or ctx.decisions is None:
            ctx.emit(state.name, "union", "a personal union, but no state to enter it")
            return
        ctx.decisions.owe(GM, UNION_DECISION, f"{state.name} enters a personal union: with "
                          f"which state (or none)?", [*partners, NO_PARTNER], NO_PARTNER,
                          data=f"state: {state.name}")


def pay_tribute(ctx: Context, world: DecadesWorld, state: State) -> None:
    """§14: 25% of the junior's own income (F65) goes to its senior partner."""
    overlord = world.states.get(state.overlord)
    if overlord is None or not overlord.alive or not state.income:
        return
    tribute = state.income * TRIBUTE
    state.spendable -= tribute
    overlord.spendable += tribute
    ctx.emit(state.name, "tribute", f"{state.name} pays {ev(tribute)} tribute to "
                                    f"{overlord.name}")
