"""Turn orders: who acts when, as a strategy a phase declares.

- :data:`GLOBAL`: the phase runs once, over every player's orders in posting order.
- :data:`SIMULTANEOUS`: the phase runs once and sees every order at once; one order's outcome
  may depend on another's (moves, supports, bounces), adjudicated with
  :mod:`sheetmaster.adjudication`; an order stopped by another one is ``blocked``, not
  ``rejected``.
- :data:`POSTING_ORDER`: the phase runs once per player who posted, players in the order of
  their first order row of the turn (a play-by-post thread read top to bottom).
- :class:`SeatOrder`: the phase runs for every player, posted or not, in seat order from the
  dealer's left, the dealer last.

Consecutive phases with the same per-player order make one player's turn: every step of one
player's turn runs before the next player's turn starts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from sheetmaster import values
from sheetmaster.model import Order

if TYPE_CHECKING:  # sheetmaster.ruleset imports this module for its phases' turn orders
    from sheetmaster.ruleset import World


class Context(Protocol):
    """What a turn order asks of the phase context."""

    @property
    def world(self) -> World: ...

    def all_orders(self) -> list[Order]: ...

    def setting(self, name: str) -> Any: ...


class TurnOrder(Protocol):
    """How a phase's runs are laid out among the players."""

    @property
    def per_player(self) -> bool:
        """The phase runs once per player (False: once for the whole game)."""
        ...

    def players(self, ctx: Context) -> list[str]:
        """The players whose turns the phase runs, in order."""
        ...


@dataclass(frozen=True)
class _Once:
    name: str
    per_player: bool = False

    def players(self, ctx: Context) -> list[str]:
        return []


GLOBAL: TurnOrder = _Once("global")
SIMULTANEOUS: TurnOrder = _Once("simultaneous")


@dataclass(frozen=True)
class PostingOrder:
    """Each player who posted this turn, in the order of their first order row."""

    per_player: bool = True

    def players(self, ctx: Context) -> list[str]:
        return list(dict.fromkeys(o.player for o in ctx.all_orders()))


POSTING_ORDER: TurnOrder = PostingOrder()


@dataclass(frozen=True)
class SeatOrder:
    """Every player in seat order, starting at the dealer's left; the dealer goes last.

    The world lists the players in seat order (``world.seating()``); ``dealer`` is the Game
    setting naming who holds the dealer chip. Players who posted nothing take their turn too.
    """

    dealer: str = "dealer"
    per_player: bool = True

    def players(self, ctx: Context) -> list[str]:
        return from_dealers_left(ctx.world.seating(), ctx.setting(self.dealer))


def from_dealers_left(seating: Sequence[str], dealer: str) -> list[str]:
    """``seating`` rotated so the dealer's left neighbour is first and the dealer last."""
    folded = [values.fold(p) for p in seating]
    if values.fold(dealer) not in folded:
        raise ValueError(f"the dealer {dealer!r} has no seat")
    at = folded.index(values.fold(dealer))
    return [*seating[at + 1:], *seating[:at + 1]]


def round_robin(orders: Iterable[Order], players: Sequence[str]) -> Iterator[Order]:
    """Orders taken one per player per pass, players in the given order, each player's in
    posting order, skipping players who have none left (e.g. 1800's war actions)."""
    queues: Mapping[str, list[Order]] = {p: [] for p in players}
    for order in orders:
        queues.get(order.player, []).append(order)
    while any(queues.values()):
        for player in players:
            if queues[player]:
                yield queues[player].pop(0)


__all__ = ["GLOBAL", "POSTING_ORDER", "SIMULTANEOUS", "PostingOrder", "SeatOrder", "TurnOrder",
           "from_dealers_left", "round_robin"]
