"""Which stages of a round the players act in: a stage nobody acts in is resolved in the same
run (the same turn) as the stage before it, so a round takes at most as many runs as it has
stages that players act in (``Ruleset.nobody_acts``)."""

from __future__ import annotations

from sheetmaster.kit import Date

from ..settings import DRAFT, WAR
from ..tables import TECHNOLOGY
from ..world import EighteenWorld, war_actions
from .piles import tech_problem
from .war import war_order

PICK_RULE = (
    "Starting to the left of the dealer, each player may pick a face-up Development card and "
    "play it. Note that players may only choose technologies for which they meet the "
    "requirements."
)
ACTIONS_RULE = (
    "During a war, players involved in a war take turns making actions, starting with the "
    "player to the left of the dealer. Each player may make a number of actions determined by "
    "their communication technology."
)


def nobody_acts(world: EighteenWorld, date: Date) -> str:
    """Why no nation acts in the stage of ``date`` ('' if one may). The draft: no face-up card
    is one a nation may pick (PICK_RULE: any policy or institution may be, a technology only
    by a nation meeting its requirements). The war: no nation at war has a war action
    (ACTIONS_RULE). The nations' turns always wait for orders: every nation collects, and may
    place, activate and move."""
    if date.stage == DRAFT:
        return _nothing_to_pick(world)
    if date.stage == WAR:
        return _no_war_action(world)
    return ""


def _nothing_to_pick(world: EighteenWorld) -> str:
    face_up = [world.cards[row.card] for row in world.face_up()]
    if not face_up:
        return "no development card is face up to pick"
    for card in face_up:
        if card.variety != TECHNOLOGY or any(not tech_problem(world, nation, card)
                                             for nation in world.nations):
            return ""
    return (f"no nation may pick a face-up card ({', '.join(c.name for c in face_up)}: "
            f"technologies whose requirements nobody meets)")


def _no_war_action(world: EighteenWorld) -> str:
    fighting = war_order(world)
    if any(war_actions(world, nation) for nation in fighting):
        return ""
    return f"no nation at war has a war action ({', '.join(fighting) or 'nobody is at war'})"
