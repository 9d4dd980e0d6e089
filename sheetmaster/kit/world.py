"""A ruleset's world: its working model of the game, built from the tabs' rows, which its
phases change; and the error a ruleset's own declaration raises when it contradicts itself."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping

from sheetmaster.kit.values import Names


class RulesetError(ValueError):
    """A ruleset declaration that contradicts itself; raised when the ruleset is made."""


class World(ABC):
    """A ruleset's working model of the game, built from the tables for fast phases.

    Every ruleset's world inherits it: it must give the names orders may use
    (:meth:`names`); the engine writes its tables back from the ruleset's declarations
    (:attr:`Ruleset.written`). The other methods are features a world may have, each with
    what a world without it means.
    """

    @abstractmethod
    def names(self) -> Mapping[str, Names]:
        """Name lookups for reading orders: category ('player', 'province') -> its names."""

    def emails(self) -> Mapping[str, str]:
        """player -> the address their orders must come from, where the Orders tab has an
        'email' column (none: no player has one)."""
        return {}

    def notes(self) -> Mapping[str, Iterable[str]]:
        """What each player alone may know of the game as it stands (e.g. their hand of
        cards), for their own report; none by default."""
        return {}

    def seating(self) -> list[str]:
        """The players in seat order, for :class:`~sheetmaster.kit.turn_order.SeatOrder`."""
        raise RulesetError(f"{type(self).__name__} has no seats: a phase in seat order "
                           f"needs the world's seating()")

    def dealer(self) -> str:
        """Who holds the dealer chip, for a :class:`~sheetmaster.kit.turn_order.SeatOrder` that
        reads it from the game's state (not from a Game setting)."""
        raise RulesetError(f"{type(self).__name__} keeps no dealer: name the Game setting "
                           f"that does in SeatOrder(setting=...)")
