"""The last step of a resolve opens the next turn (decades.txt gives no turn order: the
digest's reading, F47): technology, modifier, interregnum and personal-union rolls, then each
state's income and tribute, written so players know what they may spend."""

from __future__ import annotations

from sheetmaster.kit import Context

from ..settings import START_YEAR
from ..tables import State
from ..world import PAID_COLUMNS, DecadesWorld, anarchy
from .economy import COLLAPSE_RULE, INCOME_RULE, MODIFIERS_RULE, ev, income
from .monarchy import MONARCHY_RULE, TRIBUTE_RULE, pay_tribute, roll_monarchy
from .tech import TECH_RULE, advance_techs

MODIFIER_ODDS_RULE = (
    "Economic crisis may in addition to civil war be gained through a 1/10 random chance. It "
    "has a 1/2 chance of being eliminated per turn. Pestilence, representing both famine and "
    "plague, has a 1/10 chance of being eliminated per turn and a 1/20 chance of being gained."
)
OPENING_RULE = " ".join((TECH_RULE, MODIFIER_ODDS_RULE, MONARCHY_RULE, INCOME_RULE,
                         MODIFIERS_RULE, COLLAPSE_RULE, TRIBUTE_RULE))


def open_next_turn(ctx: Context) -> None:
    world: DecadesWorld = ctx.world
    world.start_year = ctx.setting(START_YEAR)
    following = ctx.turn + 1
    year = world.start_year + 10 * (following - 1)
    ctx.emit("", "decade", f"turn {following} opens: the years {year}-{year + 9}")
    _drop_orphaned_instalments(ctx, world)
    for state in list(world.alive()):
        state.interregnum = False
        advance_techs(ctx, state, following)
        roll_modifiers(ctx, state)
        roll_monarchy(ctx, world, state)
    for state in world.alive():
        reckon_income(ctx, world, state)
        state.spendable = state.income
    for state in world.alive():
        pay_tribute(ctx, world, state)
    for state in world.alive():
        ctx.emit(state.name, "income", f"{state.name}'s income for turn {following}: "
                                       f"{state.income_note}; to spend: {ev(state.spendable)}")
    world.paid = {}
    for timer in ctx.timers.find() if ctx.timers else ():
        if timer.kind in PAID_COLUMNS.values():
            world.paid.setdefault(timer.subject, {})[timer.kind] = timer.paid


def reckon_income(ctx: Context, world: DecadesWorld, state: State) -> None:
    """The state's income as it stands (§3, §9, F46): its provinces' value, the collapse
    penalty as the state's stability and land give it (§8, :meth:`DecadesWorld.collapsed`),
    the modifiers it holds, its government's trait."""
    collapsed = world.collapsed(state)
    if collapsed and not state.collapse:
        ctx.emit(state.name, "stability", f"{state.name} holds a single province at stability "
                                          f"1: -50% income until its stability improves")
    state.collapse = collapsed
    modifiers = [name for name, on in (("Anarchy", anarchy(world, state)),
                                       ("Economic Crisis", state.economic_crisis),
                                       ("Pestilence", state.pestilence)) if on]
    state.income, state.income_note = income(
        world.economic_value(state), collapse=collapsed, modifiers=modifiers,
        government=world.government(state))


def roll_modifiers(ctx: Context, state: State) -> None:
    """§9, one roll per modifier and state a turn: to lose it if it holds, else to gain it;
    none for a modifier gained this turn (F45); every state rolls (F48)."""
    for attr, name, lose, gain, fresh in (
            ("economic_crisis", "Economic Crisis", 2, 10, state.crisis_gained),
            ("pestilence", "Pestilence", 10, 20, state.pestilence_gained)):
        if fresh:
            continue
        held = getattr(state, attr)
        odds = lose if held else gain
        if ctx.dice.chance(1, odds, state.name, f"{state.name} {'losing' if held else 'gaining'}"
                                                f" {name}", name=f"{name.casefold()} "
                                                                 f"{state.name}"):
            setattr(state, attr, not held)
            ctx.emit(state.name, "modifier", f"{state.name} {'loses' if held else 'gains'} "
                                             f"{name}")


def _drop_orphaned_instalments(ctx: Context, world: DecadesWorld) -> None:
    """Payments toward a province its payer no longer controls are lost."""
    if ctx.timers is None:
        return
    for timer in ctx.timers.find():
        province = world.provinces.get(timer.subject)
        if timer.kind in PAID_COLUMNS.values() and (province is None or
                                                    province.owner != timer.owner):
            ctx.timers.cancel(timer, f"{timer.owner} no longer controls {timer.subject}")
