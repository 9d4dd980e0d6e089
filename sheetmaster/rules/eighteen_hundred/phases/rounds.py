"""A round's frame: laying it out (an era's start, the global event, the draft's cards) and
ending it (the event ends, the dealer chip passes left, the next round is laid out, or the
game ends)."""

from __future__ import annotations

from sheetmaster.kit import PUBLIC, plural

from ..data import DEVELOPMENT, GLOBAL_EVENT
from ..settings import DRAFT, LAST_ROUND, ROUNDS_PER_ERA, era_of
from ..tables import DRAFT_ROW, ERAS, EVENT_ROW, FaceUp
from ..world import Ctx
from .piles import contents, deck
from .scoring import score_the_game
from .war import war_order

ERA_RULE = (
    "At the beginning of each era: 1. Shuffle all Global Event cards and place them face-down "
    "on the table. 2. Shuffle the technology cards for the new era into the development deck."
)
ROUND_RULE = (
    "1. Draw a Global Event card. For the duration of the round, all players are subject to "
    "the effects of the Global Event card. 2. Conduct a Development Draft. The dealer draws "
    "cards from the top of the Development Deck, drawing one for each player, and places them "
    "face-up on the table."
)
CHIP_RULE = "At the end of each round, pass the dealer chip to the left."


def start_era(ctx: Ctx, era: int) -> None:
    """F39: the Era I technologies are in the deck from the setup; F40: "all" global events
    are shuffled back, those drawn in the era before too."""
    world = ctx.world
    pile = deck(ctx, GLOBAL_EVENT)
    if era > 1:
        pile.shuffle_in(pile.state.discards, f"era {ERAS[era - 1]} begins: every global event "
                                            "shuffled")
        pile.state.discards = ()
        deck(ctx, DEVELOPMENT).shuffle_in(contents(world, DEVELOPMENT, ERAS[era - 1]),
                                          f"the era {ERAS[era - 1]} technologies")
    ctx.emit("", "era", f"era {ERAS[era - 1]} begins", PUBLIC)


def lay_out_round(ctx: Ctx, rnd: int) -> None:
    """Steps 1 and 2's drawing, done as the round before ends so the players see the event and
    the cards before they write their picks."""
    world = ctx.world
    world.round = rnd
    if (rnd - 1) % ROUNDS_PER_ERA == 0:
        start_era(ctx, era_of(rnd))
    dealer = world.dealer()
    events = deck(ctx, GLOBAL_EVENT).draw(1, "", f"round {rnd}'s global event")
    for card in events:
        world.rows.append(FaceUp(card, EVENT_ROW, rnd, ""))
        ctx.emit("", "global event", f"round {rnd}'s global event: {card}")
    drawn = deck(ctx, DEVELOPMENT).draw(len(world.nations), dealer,
                                        f"the development draft of round {rnd}")
    for card in drawn:
        world.rows.append(FaceUp(card, DRAFT_ROW, rnd, ""))
    left = ", ".join(r.card for r in world.face_up()) or "none"
    ctx.emit(dealer, "draft row", f"{dealer} deals {plural(len(drawn), 'development card')} "
             f"face up for round {rnd}: {', '.join(drawn) or 'none'} (face up now: {left})")


def end_round(ctx: Ctx) -> None:
    """The global event's round is over; the chip passes left; the next round is laid out,
    or, after round 24, the game is scored (F61, F62)."""
    world, rnd = ctx.world, ctx.date.round
    for row in world.rows:
        if row.place == EVENT_ROW and not row.status:
            row.status = f"ended (round {rnd})"
            deck(ctx, GLOBAL_EVENT).discard([row.card])
    dealer = world.dealer()
    new = world.left_of(dealer)
    world.nations[dealer].dealer, world.nations[new].dealer = False, True
    ctx.emit(new, "dealer chip", f"the dealer chip passes from {dealer} to {new}")
    ctx.next_stage = DRAFT
    if rnd >= LAST_ROUND:
        score_the_game(ctx)
    else:
        lay_out_round(ctx, rnd + 1)


def after_the_turns(ctx: Ctx) -> None:
    """"After each player has played their turn, any players that either declared war or were
    the target of a war declaration fight a war. If a Great War Global Event Card was drawn,
    all players fight a war." With no war the round ends here (the war stage is skipped)."""
    fighting = war_order(ctx.world)
    if fighting:
        ctx.emit("", "war coming", f"to war in round {ctx.date.round}: {', '.join(fighting)} "
                 f"(the war stage is next)")
        return
    ctx.emit("", "no war", f"no war in round {ctx.date.round}")
    end_round(ctx)
