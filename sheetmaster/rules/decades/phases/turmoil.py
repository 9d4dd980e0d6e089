"""Hits, caps and what they trigger: stability and happiness hits (§8, §5, §6, §10, §14),
the maximum happiness (§6), revolution and civil war at political happiness 1 (§7), freed
provinces forming new states (§2b, §7), states that are no more."""

from __future__ import annotations

from decimal import Decimal
from math import floor

from sheetmaster.kit import Context, values

from ..tables import CIVIL_WAR, Province, State
from ..world import TOP_HAPPINESS, TOP_STABILITY, DecadesWorld, same, shares_a_word

STABILITY_HIT_RULE = (
    "Stability is a measure of the power of the central government, 4 being the most stable "
    "and 1 leading to the collapse of the central administration. A stability hit causes "
    "stability to drop by 1."
)
CAP_RULE = (
    "Every territory not matching the religion or culture of the state detracts from the "
    "maximum happiness of the state according to it's proportion (thus if a territory is 1/4 "
    "of the states economic power and has neither the correct religion nor the correct "
    "culture, maximum happiness will be brought down by 25%)."
)
REVOLUTION_RULE = (
    "When happiness hits one it will trigger a revolution, in which all wrong culture "
    "provinces are set free and if wrong religions are in the majority, change the state "
    "religion. Once a revolution occurs, the player must change the government to a different "
    "one. Once a revolution occurs, happiness is reset to 5. A revolution instantly triggers "
    "national uprisings, if applicable."
)
CIVIL_WAR_RULE = (
    "At one political happiness, the player may choose to trigger a civil war instead, which "
    "will reset happiness to 5 without requiring a government, but cause the player to have "
    "the Economic Crisis modifier and a stability hit. Feudal Monarchies and Despotic "
    "Monarchies must take civil wars before Enlightenment is researched."
)
UNION_END_RULE = "A civil war or revolution automatically terminates the personal union."
GOVERNMENT_DECISION = "government"


def world_of(ctx: Context) -> DecadesWorld:
    return ctx.world


def hit(ctx: Context, state: State, why: str, *, stability: int = 0,
        happiness: int = 0) -> None:
    """Stability and political happiness hits of 1 each (F18), within 1-4 and 1-5 (F41);
    a Tribal state has a fixed stability and no happiness (F21); triggers at once (F32)."""
    world = world_of(ctx)
    if world.tribal(state):
        ctx.emit(state.name, "hit", f"{why}: no hit, {state.name} is Tribal")
        return
    if stability:
        lower_stability(ctx, state, stability, why)
    if happiness:
        was, state.happiness = state.happiness, max(1, state.happiness - happiness)
        ctx.emit(state.name, "happiness", f"{why}: happiness {was} -> {state.happiness}")
    settle(ctx, state)


def lower_stability(ctx: Context, state: State, levels: int, why: str) -> None:
    """§8: a hit drops stability by 1; at 1 a single-province state takes the collapse
    penalty, "which can only be removed by improving stability" (F44)."""
    world = world_of(ctx)
    was, state.stability = state.stability, max(1, state.stability - levels)
    ctx.emit(state.name, "stability", f"{why}: stability {was} -> {state.stability}")
    if state.stability == 1 and was > 1 and world.holdings.count(state.name) == 1 and \
            not state.collapse:
        state.collapse = True
        ctx.emit(state.name, "stability", f"{state.name}, a single-province state, falls to "
                                          f"stability 1: -50% income until stability improves")


def settle(ctx: Context, state: State) -> None:
    """The maximum happiness binds at all times (F30, F35); at political happiness 1 a
    revolution or civil war follows at once, at most one a turn."""
    world = world_of(ctx)
    if not state.alive or world.tribal(state):
        return
    cap = max(1, floor(world.max_happiness(state)))
    if state.happiness > cap:
        top = world.max_happiness(state)
        ctx.emit(state.name, "happiness", f"happiness {state.happiness} -> {cap}: at most "
                 f"{float(top):.2f} with its provinces of another religion or culture")
        state.happiness = cap
    if state.happiness <= 1 and not state.upheaval:
        forced = world.government(state).civil_war_first and not world.enlightened(state)
        if forced or state.at_one == CIVIL_WAR:
            civil_war(ctx, state, forced)
        else:
            revolution(ctx, state)


def revolution(ctx: Context, state: State) -> None:
    world = world_of(ctx)
    state.upheaval = True
    ctx.emit(state.name, "revolution", f"revolution in {state.name} at happiness 1")
    wrong = [p for p in world.provinces_of(state) if not same(p.culture, state.culture)]
    if wrong:
        free_provinces(ctx, state, wrong, "set free by the revolution")
    if not state.alive:
        return
    majority_religion(ctx, state)
    old = state.government
    options = [g.name for g in world.governments.values() if g.name != old and not g.tribal]
    if options and ctx.decisions is not None:
        default = next((g for g in options if shares_a_word(g, old)), options[0])
        ctx.decisions.owe(world.owed_by(state), GOVERNMENT_DECISION,
                          f"Which government does {state.name} take after its revolution "
                          f"(not {old})?", options, default, data=f"state: {state.name}")
    state.happiness = TOP_HAPPINESS
    ctx.emit(state.name, "happiness", "happiness reset to 5 by the revolution")
    end_unions(ctx, state)
    settle(ctx, state)


def civil_war(ctx: Context, state: State, forced: bool) -> None:
    state.upheaval = True
    why = f"{state.government} without Enlightenment must" if forced else "it chose to"
    ctx.emit(state.name, "civil war", f"civil war in {state.name} at happiness 1 ({why} take "
                                      f"a civil war)")
    state.happiness = TOP_HAPPINESS
    if not state.economic_crisis:
        state.economic_crisis = state.crisis_gained = True
        ctx.emit(state.name, "modifier", "Economic Crisis from the civil war")
    lower_stability(ctx, state, 1, "the civil war's stability hit")
    ctx.emit(state.name, "happiness", "happiness reset to 5 by the civil war")
    end_unions(ctx, state)
    settle(ctx, state)


def majority_religion(ctx: Context, state: State) -> None:
    """F34: after the freeing, if provinces of other religions hold more than half the
    state's value, the largest of them becomes the state religion (no hits)."""
    world = world_of(ctx)
    if world.share(state, lambda p: not same(p.religion, state.religion)) <= 0.5:
        return
    totals: dict[str, int] = {}
    for p in world.provinces_of(state):
        if not same(p.religion, state.religion):
            totals[p.religion] = totals.get(p.religion, 0) + world.value(p)
    state.religion = max(totals, key=lambda r: totals[r])
    ctx.emit(state.name, "religion", f"the wrong religions are the majority: the state "
                                     f"religion becomes {state.religion}")


def end_unions(ctx: Context, state: State) -> None:
    """§10 "A civil war or revolution automatically terminates the personal union" (either
    partner's, F54)."""
    world = world_of(ctx)
    partners = world.unions(state)
    if state.union_with:
        partners.append(world.states[state.union_with])
        world.set_union(state, "")
    for partner in partners:
        if partner.union_with == state.name:
            world.set_union(partner, "")
        ctx.emit(state.name, "union", f"the personal union of {state.name} and {partner.name} "
                                      f"ends")


def free_provinces(ctx: Context, state: State, provinces: list[Province], why: str) -> list[State]:
    """Freed provinces form new non-player states, one per culture among them (F5): its
    capital the most valuable, its religion the one of most value among them."""
    by_culture: dict[str, list[Province]] = {}
    for p in provinces:
        by_culture.setdefault(values.fold(p.culture), []).append(p)
    made = []
    for group in by_culture.values():
        made.append(new_state(ctx, state, group, why))
    fix_capital(ctx, state)
    return made


def new_state(ctx: Context, parent: State, group: list[Province], why: str) -> State:
    world = world_of(ctx)
    capital = world.best_province([p.name for p in group])
    weight: dict[str, int] = {}
    for p in group:
        weight[p.religion] = weight.get(p.religion, 0) + world.value(p)
    tribal = world.tribal(parent)
    level = None if tribal else TOP_HAPPINESS
    state = State(world.free_state_name(capital), 0, "", parent.government,
                  max(weight, key=lambda r: weight[r]), group[0].culture, capital,
                  2 if tribal else TOP_STABILITY, level, level, level, False, False, False,
                  parent.techs, parent.stalled_at, "", "", "", 0, False, Decimal(0),
                  Decimal(0), Decimal(0), "")
    world.add_state(state)
    for p in group:
        world.set_owner(p, state.name)
    ctx.emit(parent.name, "independence", f"{', '.join(p.name for p in group)} {why}: "
                                          f"the new state {state.name}")
    return state




def fix_capital(ctx: Context, state: State) -> None:
    """A state that lost its capital takes its most valuable province (F37); one that lost
    every province is no more."""
    world = world_of(ctx)
    held = world.holdings.of(state.name)
    if state.capital in held:
        return
    if not held:
        gone(ctx, state, "it has no province left")
        return
    state.capital = world.best_province(held)
    ctx.emit(state.name, "capital", f"{state.name}'s new capital is {state.capital}")


def gone(ctx: Context, state: State, why: str) -> None:
    """The state is no more: its row stays, marked gone; ties to it are cut."""
    world = world_of(ctx)
    world.mark_gone(state, f"gone ({why}, turn {ctx.turn})")
    ctx.emit(state.name, "gone", f"{state.name} is no more: {why}")
    for other in world.naming("overlord", state):
        world.set_overlord(other, "")
    for other in world.naming("union_with", state):
        world.set_union(other, "")
    world.set_overlord(state, "")
    world.set_union(state, "")
    leave_alliance(ctx, state)


def leave_alliance(ctx: Context, state: State) -> None:
    world = world_of(ctx)
    alliance = next(iter(world.alliances_listing(state.name)), None)
    if alliance is None:
        return
    world.leave_alliance(alliance, state.name)
    ctx.emit(state.name, "alliance", f"{state.name} leaves {alliance.name}")
    if len(alliance.members) < 2:
        world.set_members(alliance, [])
        alliance.note = f"dissolved on turn {ctx.turn}"
        ctx.emit("", "alliance", f"{alliance.name} is dissolved")


def raise_stability(ctx: Context, state: State, why: str) -> None:
    """One level up (at most 4); improving stability lifts the collapse penalty (§8)."""
    was = state.stability
    state.stability = min(TOP_STABILITY, state.stability + 1)
    ctx.emit(state.name, "stability", f"{why}: stability {was} -> {state.stability}")
    if state.collapse and state.stability > was:
        state.collapse = False
        ctx.emit(state.name, "stability", "the collapse penalty is lifted")
