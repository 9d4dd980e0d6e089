"""Where the hands live: sealed in the shared Hands tab.

"Both Admin and Military Cards are secret" and the National Ambition is drawn with "Look at
your National Ambition, but do not share it with others" (L33, L62). Anyone who can open the
sheet reads every tab, so each card in hand is a row of the Hands tab whose card cell is
sealed with a key from the game's dice secret (:mod:`sheetmaster.kit.sealed`; the engine's
``Loaded.key``) and bound to its nation, pile and slot: everyone sees how many cards a nation
holds (the board game shows that much), nobody which, and a token copied into another row
opens nowhere; every token of a game is as long as any other (padded to room for the longest
name of the catalogue), so its length tells nothing of the card. Only sheetmaster given the
dice secret, which is never in the sheet, opens them: to resolve a turn, to check one, and to
write each nation's own report (its notes). Without the secret (a player's copy) a run stops
at once and says so (:func:`secret_needed`). This works the same on both stores and needs no
second sheet or file.

A card name the GM types in plain (say, dealing by hand in a custom start, or entering a game
already under way) is accepted and sealed by the next resolve (a check writes the Orders tab
alone, so it seals nothing); with its slot blank, it gets its pile's next slot. A card that
leaves a hand keeps its row, with its status and its name in 'revealed': playing or
discarding a card shows it to everyone.
"""

from __future__ import annotations

from typing import Protocol

from sheetmaster.kit import (
    SECRET_ENV,
    SECRET_SUFFIX,
    BadValue,
    Names,
    Problems,
    SecretNeeded,
    is_sealed,
    seal,
    sealed_width,
    unseal,
    values,
)

from ..data import ADMIN, AMBITION, MILITARY
from ..tables import ADMIN_PILE, AMBITION_PILE, HANDS, MILITARY_PILE, Card, Held


class Holders(Protocol):
    """What the hands are read against: the sealing key, the catalogue, the nations."""

    key: str
    hands: list[Held]
    cards: dict[str, Card]
    card_names: Names

    def seating(self) -> list[str]: ...

    def hand(self, nation: str, pile: str) -> list[Held]: ...

    def ambition(self, nation: str) -> Card | None: ...

#: the deck each pile's cards come from
PILE_DECK = {ADMIN_PILE: ADMIN, MILITARY_PILE: MILITARY, AMBITION_PILE: AMBITION}


def secret_needed() -> SecretNeeded:
    """Why a run without the dice secret stops: it could neither open the hands nor seal a
    card dealt (and the decks' order follows from the secret too)."""
    return SecretNeeded(
        f"the cards in hand ({HANDS.tab} tab) are sealed with the game's dice secret, and this "
        f"run was not given it, so the hands cannot be opened: a copy of the game without its "
        f"secret cannot be checked or resolved. The GM's check and resolve, with the secret "
        f"(the file GAME.xlsx{SECRET_SUFFIX} beside the workbook, or {SECRET_ENV} for a "
        f"Google Sheet), show each nation its own hand in its report")


#: each pile's slot letter (N: national ambition)
SLOT_LETTERS = {ADMIN_PILE: "A", MILITARY_PILE: "M", AMBITION_PILE: "N"}


def next_slot(rows: list[Held], pile: str) -> str:
    """The pile's next slot: A3 is the third admin card dealt in the game (all nations')."""
    taken = [int(h.slot[1:]) for h in rows if h.pile == pile and h.slot[1:].isdigit()]
    return f"{SLOT_LETTERS.get(pile, 'N')}{max(taken, default=0) + 1}"


def open_hands(world: Holders, rows: list[Held], problems: Problems) -> None:
    """Each row's card, opened (or read in plain), checked against the catalogue. A card the
    GM typed in plain with a blank slot gets the pile's next slot (the next resolve seals it
    bound to that slot); a sealed card's slot is part of its seal and must be there."""
    unnamed = [h for h in rows if not h.slot and h.card and not is_sealed(h.card)]
    for held in unnamed:
        held.slot = next_slot(rows, held.pile)
    for held in rows:
        cell = held.card
        if not cell:
            problems.add(HANDS.tab, held.row, "card", "is blank; every card in hand has one")
            continue
        if not held.slot:
            problems.add(HANDS.tab, held.row, "slot", "is blank, and the card sealed here is "
                         "bound to its slot: put the slot back (e.g. A1)")
            continue
        try:
            name = unseal(world.key, cell, held.binding) if is_sealed(cell) else cell
        except BadValue as exc:
            problems.add(HANDS.tab, held.row, "card", str(exc))
            continue
        card = world.card_names.get(name)
        deck = PILE_DECK.get(held.pile, "")
        if card is None or world.cards[card].deck != deck:
            what = "the card sealed here" if is_sealed(cell) else values.show(name)
            problems.add(HANDS.tab, held.row, "card", f"{what} is not {_a(deck)} card of the "
                         f"Cards tab")
            continue
        held.card = card


def _a(deck: str) -> str:
    return f"an {deck}" if deck[:1] in "aeiou" else f"a {deck}"


def sealed_cells(world: Holders) -> list[str]:
    """The Hands tab's card column: every card sealed, each token as long as any other of the
    game (padded to room for the catalogue's longest name, :func:`sealed_width`), so that a
    token's length tells nothing of its card. Sealing is deterministic: an unchanged hand
    writes the same tokens again (no change), and a token sealed before cards were padded so
    is sealed again to the game's length."""
    width = sealed_width(world.cards)
    return [seal(world.key, held.card, held.binding, width=width) for held in world.hands]


def hand_text(world: Holders, nation: str, pile: str) -> str:
    cards = sorted(h.card for h in world.hand(nation, pile))
    return ", ".join(cards) if cards else "none"


def notes(world: Holders) -> dict[str, list[str]]:
    """Each nation's secrets, for its own report (and the GM's)."""
    out: dict[str, list[str]] = {}
    for nation in world.seating():
        lines = [f"Your admin cards: {hand_text(world, nation, ADMIN_PILE)}.",
                 f"Your military cards: {hand_text(world, nation, MILITARY_PILE)}."]
        ambition = world.ambition(nation)
        if ambition is not None:
            rule = "; ".join(str(e) for e in ambition.effects)
            lines.append(f"Your national ambition: {ambition.name} ({rule}).")
        out[nation] = lines
    return out


__all__ = ["PILE_DECK", "SLOT_LETTERS", "hand_text", "next_slot", "notes", "open_hands",
           "sealed_cells", "secret_needed"]
