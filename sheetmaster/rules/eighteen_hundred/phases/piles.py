"""The decks and the cards played from them: what each deck holds, dealing into hands,
and a development card coming into play (policies and technologies replace, institutions
add up)."""

from __future__ import annotations

from collections import Counter

from ..data import ADMIN, AMBITION, DEVELOPMENT, GLOBAL_EVENT, MILITARY
from ..tables import ERAS, INSTITUTION, POLICY, TECHNOLOGY, Card, Held, InPlay
from ..world import Ctx, EighteenWorld
from .hands import PILE_DECK

#: the decks' names in the engine's Decks tab
DECK_NAMES = {DEVELOPMENT: "development", ADMIN: "admin", MILITARY: "military",
              GLOBAL_EVENT: "global events", AMBITION: "ambitions"}


def contents(world: EighteenWorld, deck: str, era: str = "") -> list[str]:
    """Every copy of the deck's cards. The development deck at the start holds "all of the
    policies and institutions" and "the technology cards for Era I" (L30); ``era``: that
    era's technologies alone. Cards nations start with (play mats) are in no deck."""
    out: list[str] = []
    for card in world.cards.values():
        if card.deck != deck or card.start:
            continue
        if deck == DEVELOPMENT:
            wanted = card.variety in (POLICY, INSTITUTION) and not era or \
                card.variety == TECHNOLOGY and card.era == (era or ERAS[0])
            if not wanted:
                continue
        out += [card.name] * (card.copies or 1)
    return out


def deck(ctx: Ctx, deck_of: str):
    """The deck of that kind. A deck the Decks tab does not hold yet is made from the
    catalogue (as the setup makes them: every copy but those in hand, in play or face up)
    and shuffled."""
    try:
        return ctx.deck(DECK_NAMES[deck_of])
    except KeyError:
        return ctx.deck(DECK_NAMES[deck_of], cards=_not_out(ctx.world,
                                                            contents(ctx.world, deck_of)))


def _not_out(world: EighteenWorld, cards: list[str]) -> list[str]:
    """``cards`` less the copies out of the deck: in hand, in play, face up."""
    out = Counter([h.card for h in world.hands if h.held] +
                  [c.card for c in world.tableau if c.in_play] +
                  [r.card for r in world.rows if not r.status])
    left = []
    for card in cards:
        if out[card]:
            out[card] -= 1
        else:
            left.append(card)
    return left


def deal(ctx: Ctx, nation: str, pile: str, count: int, why: str) -> list[Held]:
    """``count`` cards of ``pile``'s deck into ``nation``'s hand (fewer if the deck and its
    discards run out, F35). The Log says how many; the nation's report says which."""
    cards = deck(ctx, PILE_DECK[pile]).draw(count, nation, why)
    return [ctx.world.deal(nation, pile, card) for card in cards]


def leave_hand(ctx: Ctx, held: Held, how: str) -> None:
    """A card leaves a hand (played or discarded): its row says how, and its name is public;
    it goes to its deck's discard pile."""
    pile = deck(ctx, PILE_DECK[held.pile])  # made first, if it must be, without this card
    held.status, held.revealed = f"{how} (round {ctx.world.round})", held.card
    pile.discard([held.card])


def tech_problem(world: EighteenWorld, nation: str, card: Card) -> str:
    """Why ``nation`` may not adopt the technology ('' if it may): "players may only choose
    technologies for which they meet the requirements" and each new one is "definitionally
    better" than the one it replaces (F33: a higher tier)."""
    in_play = world.in_play(nation)
    missing = [r for r in card.requires if not any(c.card == r for c in in_play)]
    missing += [f"a {category} technology of tier {tier} or higher"
                for tier, category in card.requires_tiers
                if not any(_of_tier(world.cards[c.card], tier, category) for c in in_play)]
    if missing:
        return f"{card.name} requires {', '.join(missing)} in play"
    current = world.in_play_of(nation, card.category, TECHNOLOGY)
    if current is not None and world.cards[current.card].tier >= card.tier:
        return (f"{card.name} (tier {card.tier}) is no better than your {card.category} "
                f"technology {current.card} (tier {world.cards[current.card].tier})")
    return ""


def _of_tier(card: Card, tier: int, category: str) -> bool:
    """A technology of ``category`` of ``tier`` or higher: a nation's technology of a category
    only gets better (F33), so one that moved past the tier still meets the requirement."""
    return card.variety == TECHNOLOGY and card.category == category and card.tier >= tier


def play_card(world: EighteenWorld, nation: str, card: Card) -> str:
    """The card comes into ``nation``'s tableau at once (L67): "When you play a new Policy,
    place it on top of your existing policy of the given type, replacing that policy"; a
    technology "will replace an existing one"; institutions have "no limit". A replaced card
    leaves play with its tokens (F28). Returns the card it replaced ('' if none)."""
    replaced = ""
    if card.variety in (POLICY, TECHNOLOGY):
        old = world.in_play_of(nation, card.category, card.variety)
        if old is not None:
            old.status, replaced = f"replaced (round {world.round})", old.card
    world.tableau.append(InPlay(nation, card.name, 0, 0, 0, "", 0, world.round))
    return replaced
