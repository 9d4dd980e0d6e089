"""Decks of cards whose order players cannot read but which lasts between turns.

The engine-owned Decks tab holds, per deck, the cards it held when last shuffled (sorted, so
the sheet shows what is in it but not in which order), how many shuffles it has had, how many
cards were drawn since, and its discard pile. The order itself is never written anywhere: it
is the shuffle of those cards by a stream keyed by the game's secret, the deck's name and its
shuffle count (:meth:`sheetmaster.kit.dice.Dice.hidden`), so the same deck deals the same cards
on every machine that has the secret, and to no one who lacks it.

A deck sheetmaster never shuffled (``shuffles`` 0 or blank) is the GM's: its ``cards`` are
dealt in the order the cell lists them, first to last, for a GM who carries on a game dealt
from a physical deck. Anyone who reads the sheet then reads that order; it lasts until the
deck is next shuffled (its discards taken back, cards shuffled in, a search), when the order
becomes the secret's like any other deck's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sheetmaster.kit import values
from sheetmaster.kit.dice import Dice
from sheetmaster.kit.model import GM_ONLY, PRIVATE
from sheetmaster.kit.schema import Column, Kind, Table

DECKS_TAB = "Decks"


@dataclass(slots=True)
class DeckRow:
    name: str
    cards: tuple[str, ...]
    shuffles: int
    drawn: int
    discards: tuple[str, ...]
    left: int
    row: int = 0


DECKS = Table(
    DECKS_TAB,
    (
        Column("deck", Kind.NAME, "the deck's name", owned=True, bind="name"),
        Column("cards", Kind.NAMES, "the cards it held when last shuffled (in no order); "
               "with shuffles 0, the GM's order: dealt first to last, 'drawn' of them already",
               owned=True),
        Column("shuffles", Kind.WHOLE, "how many times sheetmaster shuffled it (0 or blank: "
               "the GM's deck, dealt in the order its cards are listed)", owned=True),
        Column("drawn", Kind.WHOLE, "cards drawn since the last shuffle", owned=True),
        Column("discards", Kind.NAMES, "its discard pile", owned=True),
        Column("left", Kind.WHOLE, "cards left to draw (written by sheetmaster)", owned=True),
    ),
    key="deck",
    help="Decks, written by sheetmaster: what each holds, never in which order.",
    noun="deck",
    entity=DeckRow,
)


@dataclass
class Deck:
    """One deck, as a phase uses it (``ctx.deck(name)``)."""

    state: DeckRow
    dice: Dice
    emit: Callable[..., None] = field(repr=False)
    _cached: tuple[int, list[str]] | None = field(default=None, repr=False)

    @property
    def in_listed_order(self) -> bool:
        """A deck sheetmaster never shuffled: the GM's, dealt as its cards are listed."""
        return not self.state.shuffles

    def _order(self) -> list[str]:
        """The deck's order since its last shuffle (worked out once a turn): a golden test
        scripts it by the name 'deck NAME'. A deck never shuffled is dealt as listed."""
        if not self.state.cards:
            return []
        if self.in_listed_order:
            return list(self.state.cards)
        if self._cached is None or self._cached[0] != self.state.shuffles:
            name = f"deck {self.state.name}"
            stream = self.dice.hidden(f"{name} shuffle {self.state.shuffles}")
            order = stream.shuffle(sorted(self.state.cards), "", f"the order of {name}",
                                   name=name, quiet=True)
            self._cached = (self.state.shuffles, order)
        return list(self._cached[1])

    @property
    def left(self) -> int:
        return len(self.state.cards) - self.state.drawn

    def shuffle_in(self, cards: Iterable[str], why: str) -> None:
        """Put cards into the deck (e.g. an era's pile, or the discards) and shuffle it."""
        added = list(cards)
        remaining = self._order()[self.state.drawn:] if self.left else []
        self._reset([*remaining, *added])
        self.emit("", "deck shuffled", f"{self.state.name}: {len(added)} cards added and the "
                  f"deck shuffled ({why}); {self.left} cards in it")

    def draw(self, count: int, who: str, why: str) -> list[str]:
        """Draw up to ``count`` cards for ``who``; an empty deck first takes its discards back
        and is shuffled. Logged publicly as a count, privately (to ``who`` and the GM; to the
        GM alone when nobody draws) with the cards; both say why."""
        drawn: list[str] = []
        while len(drawn) < count:
            if not self.left:
                if not self.state.discards:
                    break
                self.shuffle_in(self.state.discards, "the deck ran out: discards reshuffled")
                self.state.discards = ()
            take = min(count - len(drawn), self.left)
            order = self._order()
            drawn += order[self.state.drawn:self.state.drawn + take]
            self.state.drawn += take
        self.emit(who, "drew", f"drew {len(drawn)} from {self.state.name} ({why})")
        if drawn:
            self.emit(who, "drew cards", f"drew {', '.join(drawn)} from {self.state.name} "
                      f"({why})", audience=PRIVATE if who else GM_ONLY)
        return drawn

    def discard(self, cards: Iterable[str]) -> None:
        self.state.discards = (*self.state.discards, *cards)

    def search(self, card: str, who: str, why: str) -> str | None:
        """Take one named card out of the deck, then shuffle the rest."""
        remaining = self._order()[self.state.drawn:]
        found = next((c for c in remaining if values.fold(c) == values.fold(card)), None)
        if found is None:
            return None
        remaining.remove(found)
        self._reset(remaining)
        self.emit(who, "deck searched", f"searched {self.state.name} for {found} ({why}) and "
                  f"shuffled it")
        return found

    def _reset(self, cards: list[str]) -> None:
        self.state.cards = tuple(sorted(cards))
        self.state.shuffles += 1
        self.state.drawn = 0

    def finish(self) -> DeckRow:
        self.state.left = self.left
        return self.state
