"""Round step 2, the development draft: picks in seat order from the dealer's left, the dealer
last; then the unpicked policies and institutions are discarded and the technologies stay."""

from __future__ import annotations

from sheetmaster.kit import Status

from .. import reasons as r
from ..data import DEVELOPMENT
from ..orders import PICK
from ..tables import TECHNOLOGY
from ..world import Ctx
from .piles import deck, play_card, tech_problem

DRAFT_RULE = (
    "Starting to the left of the dealer, each player may pick a face-up Development card and "
    "play it. Note that players may only choose technologies for which they meet the "
    "requirements. After each player has either picked a card or passed their opportunity to "
    "pick, any remaining Policies and Institutions are placed in the discard pile. Remaining "
    "technologies are left face-up and can be chosen in future Development Drafts."
)


def pick_development_card(ctx: Ctx) -> None:
    """F38: a nation's pick rows are its preferences, best first; it takes the first card
    still face up that it may take. F36: any face-up card, this round's or a technology left
    from an earlier draft. F37: the dealer picks last."""
    world, nation = ctx.world, ctx.player
    taken = ""
    for order in ctx.orders(PICK):
        name = order.fields["card"]
        if taken:
            ctx.resolve(order, Status.NOT_NEEDED, r.PICKED_ALREADY.say(card=taken))
            continue
        row = next((f for f in world.face_up() if f.card == name), None)
        if row is None:
            ctx.resolve(order, Status.REJECTED, r.NOT_FACE_UP.say(card=name, why=_why(
                world, name)))
            continue
        card = world.cards[name]
        problem = tech_problem(world, nation, card) if card.variety == TECHNOLOGY else ""
        if problem:
            ctx.resolve(order, Status.REJECTED, r.CANNOT_ADOPT.say(problem=problem))
            continue
        row.status, taken = f"picked by {nation} (round {world.round})", name
        replaced = play_card(world, nation, card)
        instead = f", replacing {replaced}" if replaced else ""
        ctx.resolve(order, Status.APPLIED, f"picked {name} and played it{instead}")
        ctx.emit(nation, "pick", f"{nation} picks {name}{instead}")
    if not taken:
        ctx.emit(nation, "pass", f"{nation} passes in the draft")


def _why(world, name: str) -> str:
    picked = [f.status for f in world.rows if f.card == name and f.round == world.round and
              f.status.startswith("picked")]
    return f" ({picked[0]})" if picked else ""


def end_the_draft(ctx: Ctx) -> None:
    world = ctx.world
    gone = []
    for row in world.face_up():
        if world.cards[row.card].variety != TECHNOLOGY:
            row.status = f"discarded (round {world.round})"
            deck(ctx, DEVELOPMENT).discard([row.card])
            gone.append(row.card)
    left = [f.card for f in world.face_up()]
    ctx.emit("", "draft over", f"the draft is over: {', '.join(gone) or 'nothing'} discarded; "
             f"face up for later drafts: {', '.join(left) or 'nothing'}")
