"""The setup turn (turn 0): the dealer chip, the starting cards, the decks, the national
ambitions, and round 1 laid out."""

from __future__ import annotations

from ..data import ADMIN, AMBITION, DEVELOPMENT, MILITARY
from ..tables import AMBITION_PILE
from ..world import Ctx
from .board import staff_factories
from .piles import deal, deck, play_card
from .rounds import lay_out_round
from .starts import lay_out_starts

SETUP_RULE = (
    "After setting up the board, you'll need to set up three decks: the admin deck, the "
    "military deck, and the development deck. The admin and military decks are simple: just "
    "shuffle the decks and place them face down on the table. For the development deck, "
    "shuffle together all of the policies and institutions; then add the technology cards for "
    "Era I ... and shuffle the deck. ... Lastly, before starting the game, each player draws a "
    "random National Ambition card. ... At the beginning of the game, choose a player to be "
    "the first dealer, and give the dealer chip to that player."
)
START_RULE = (
    "You start the game with three basic policies: Autocracy, Early Industrialization, and "
    "Landed Gentry"
)


def set_up_the_game(ctx: Ctx) -> None:
    world = ctx.world
    if not any(n.dealer for n in world.nations.values()) and world.nations:
        first = world.seating()[0]
        world.nations[first].dealer = True  # F6: the first seat, unless the GM chose
        ctx.emit(first, "dealer chip", f"{first} (the first seat) takes the dealer chip")
    starting = [c for c in world.cards.values() if c.start and c.development]
    for nation in world.seating():
        if not world.in_play(nation):
            for card in starting:
                play_card(world, nation, card)
            if starting:
                ctx.emit(nation, "start", f"{nation} starts with "
                         f"{', '.join(c.name for c in starting)} in play")
    lay_out_starts(ctx)
    for province in world.provinces.values():
        staff_factories(world, province.name)
    for deck_of in (DEVELOPMENT, ADMIN, MILITARY, AMBITION):
        deck(ctx, deck_of)
    for nation in world.turn_order():
        if not [h for h in world.hands if h.nation == nation and h.pile == AMBITION_PILE]:
            deal(ctx, nation, AMBITION_PILE, 1, "its national ambition")
    lay_out_round(ctx, 1)
