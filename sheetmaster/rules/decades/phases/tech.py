"""Technology and government changes: techs gained automatically while the government is
acceptable, stalls until the government changes (§11); reform (§5); civilizing (§5, §8)."""

from __future__ import annotations

from sheetmaster.kit import Context, Decision, data_text, parse_data

from ..tables import State, Technology
from ..world import TOP_HAPPINESS, TOP_STABILITY, same
from .turmoil import world_of

TECH_RULE = (
    "The player will automatically gain new technology if they have an acceptable government "
    "type at the time the new technology becomes available. if they do not, then they do not "
    "gain the new or any subsequent technologies until they change their government. Every "
    "technology they fall back on incurs a 25% penalty to military strength."
)
REFORM_RULE = (
    "Governments may only be changed via revolution, at the discretion of a senior partner in "
    "a vassalage, or via reform. Government may only be reformed if the government shares a "
    "word between the two, ie, from Liberal Democracy to Social Democracy because they both "
    "share the word \"democracy\"; each reforms incurs a stability and happiness hit of one."
)
CIVILIZE_RULE = (
    "To move from a tribal state to a normal state, they must either border a civilized state "
    "and convert to their religion, conquer 3 civilized territories, or invest half of their "
    "income for a turn for a 1/50 chance of becoming civilized. On becoming civilized, all "
    "territories held by the tribal state at that time become fully settled."
)
CIVILIZED_DECISION = "civilized government"
#: the civilized-government decision's data: the turn the tribe's land was settled.
SETTLED_ON = "land settled on turn"


def acceptable(tech: Technology, government: str) -> bool:
    """A blank list of acceptable governments accepts every government."""
    return not tech.governments or any(same(g, government) for g in tech.governments)


def advance_techs(ctx: Context, state: State, turn: int) -> None:
    """Every technology available by ``turn`` that the state lacks, in order: gained while
    its government is acceptable; the first that is not stalls it (F57, F58)."""
    world = world_of(ctx)
    if state.stalled_at or not state.alive:
        return
    available = set(world.available(turn))
    for tech in world.techs:
        if tech.name not in available or world.has_tech(state, tech.name):
            continue
        if not acceptable(tech, state.government):
            state.stalled_at = tech.name
            ctx.emit(state.name, "technology", f"{state.name} does not gain {tech.name}: "
                     f"{state.government} is not an acceptable government for it; no later "
                     f"technology until its government changes")
            return
        state.techs = (*state.techs, tech.name)
        ctx.emit(state.name, "technology", f"{state.name} gains {tech.name}")


def change_government(ctx: Context, state: State, government: str, why: str) -> None:
    """A new government ends a technology stall and catches up at once (F58); leaving a
    Tribal government (only by civilizing, §5) resets stability and happiness (§8, F20)."""
    world = world_of(ctx)
    was_tribal = world.tribal(state)
    old, state.government = state.government, government
    ctx.emit(state.name, "government", f"{state.name}'s government: {old} -> {government} "
                                       f"({why})")
    if was_tribal and not world.tribal(state):
        reset_on_civilizing(ctx, state)
    if state.stalled_at:
        ctx.emit(state.name, "technology", f"the stall at {state.stalled_at} ends with the "
                                           f"new government")
        state.stalled_at = ""
    advance_techs(ctx, state, ctx.turn)


def reset_on_civilizing(ctx: Context, state: State) -> None:
    """§8 Tribals "have their stability and happiness reset when they civilize" (to the tops
    of their scales, F20): the counters a Tribal government lacks start with the new one."""
    state.stability = TOP_STABILITY
    state.happiness = state.national = state.religious = TOP_HAPPINESS
    state.conquests = 0
    ctx.emit(state.name, "civilized", f"{state.name} is civilized: stability 4 and "
                                      f"happiness 5")


def settle_land(ctx: Context, state: State) -> None:
    """§5 "On becoming civilized, all territories held by the tribal state at that time
    become fully settled": each worth its map value from now on (§2b)."""
    world = world_of(ctx)
    unsettled = [p for p in world.provinces_of(state) if p.unsettled]
    for province in unsettled:
        province.unsettled = False
    if unsettled:
        ctx.emit(state.name, "civilized", f"{state.name}'s land is fully settled (each "
                 f"province worth its map value): {', '.join(p.name for p in unsettled)}")


def civilizing(ctx: Context, state: State) -> Decision | None:
    """The open decision of a tribe that is civilized and names its government next turn
    (issue 26.1: the open decisions read once a turn, not once a tribe is asked about: asked
    only after the first step has taken the decisions due, so none closes later in the
    turn, and :func:`owe_civilized_government` adds each it owes)."""
    if ctx.decisions is None:
        return None
    world = world_of(ctx)
    if world.civilizing is None:
        world.civilizing = {}
        for decision in ctx.decisions.open():
            if decision.kind == CIVILIZED_DECISION:
                world.civilizing.setdefault(parse_data(decision.data).get("state", ""),
                                            decision)
    return world.civilizing.get(state.name)


def owe_civilized_government(ctx: Context, state: State, how: str) -> None:
    """The tribe has met a condition to civilize (``how``): its land is settled at once
    (§5 "at that time"); it names its new government by next turn (a decision), keeping its
    Tribal government until then (F20)."""
    world = world_of(ctx)
    if ctx.decisions is None or civilizing(ctx, state) is not None:
        return
    ctx.emit(state.name, "civilized", f"{state.name} becomes civilized ({how}); it names its "
                                      f"government next turn")
    settle_land(ctx, state)
    options = [g.name for g in world.governments.values() if not g.tribal]
    if options:
        owed = ctx.decisions.owe(world.owed_by(state), CIVILIZED_DECISION,
                                 f"Which government does {state.name} take as it civilizes?",
                                 options, options[0],
                                 data=data_text({"state": state.name, SETTLED_ON: ctx.turn}))
        if world.civilizing is not None:
            world.civilizing.setdefault(parse_data(owed.data).get("state", ""), owed)
