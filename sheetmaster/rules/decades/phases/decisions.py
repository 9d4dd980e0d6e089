"""Step 1: the decisions owed from last turn, answered or defaulted: a government after a
revolution (§7) or on civilizing (§5), a personal union's partner (the GM's, §10), and what a
victor annexes (§15)."""

from __future__ import annotations

from sheetmaster.kit import Context, Decision, parse_data

from ..tables import State
from ..world import DecadesWorld
from .conquest import CONQUEST, take_conquest
from .monarchy import NO_PARTNER, UNION_DECISION
from .tech import CIVILIZED_DECISION, SETTLED_ON, change_government, settle_land
from .turmoil import GOVERNMENT_DECISION

DECISIONS_RULE = (
    "Once a revolution occurs, the player must change the government to a different one. [...] "
    "All Feudal Monarchies have a 1/20 chance of entering into a Personal Union. This gives the "
    "player full control over that state, which however remains a separate state."
)


def take_decisions(ctx: Context) -> None:
    world: DecadesWorld = ctx.world
    assert ctx.decisions is not None
    for decision in ctx.decisions.take(GOVERNMENT_DECISION):
        state = _state(world, decision)
        if state is not None and not world.tribal(state) and \
                decision.choice != state.government:
            change_government(ctx, state, decision.choice, "after its revolution")
    for decision in ctx.decisions.take(CIVILIZED_DECISION):
        state = _state(world, decision)
        if state is not None and world.tribal(state):
            if SETTLED_ON not in parse_data(decision.data):
                settle_land(ctx, state)  # owed before the land was settled at once
            change_government(ctx, state, decision.choice, "as it civilizes")
    for decision in ctx.decisions.take(UNION_DECISION):
        monarch = _state(world, decision)
        partner = world.states.get(decision.choice)
        if monarch is None or decision.choice == NO_PARTNER or partner is None:
            continue
        if not partner.alive or partner.union_with or world.played(partner):
            ctx.emit(monarch.name, "union", f"{partner.name} can no longer enter a personal "
                                            f"union")
            continue
        world.set_union(partner, monarch.name)
        ctx.emit(monarch.name, "union", f"{partner.name} enters a personal union with "
                                        f"{monarch.name}, whose player now controls it")
    for decision in ctx.decisions.take(CONQUEST):
        take_conquest(ctx, decision)


def _state(world: DecadesWorld, decision: Decision) -> State | None:
    state = world.states.get(parse_data(decision.data).get("state", ""))
    return state if state is not None and state.alive else None
