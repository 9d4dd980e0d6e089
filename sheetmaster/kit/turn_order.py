"""Turn orders: who acts when, as a strategy a phase declares.

- :data:`GLOBAL`: the phase runs once, over every player's orders in posting order. A phase
  whose orders' outcomes depend on each other (moves, supports, bounces) is global too: it
  takes every order at once and adjudicates them (:mod:`sheetmaster.kit.adjudication`); an
  order stopped by another one is ``blocked``, not ``rejected``.
- :data:`POSTING_ORDER`: the phase runs once per player who posted, players in the order of
  their first order row of the turn (a play-by-post thread read top to bottom).
- :class:`SeatOrder`: the phase runs for every player, posted or not, in seat order from the
  dealer's left, the dealer last; the dealer is named by a Game setting or kept in the
  game's state (the world says who holds the chip).

Consecutive phases with the same per-player order make one player's turn: every step of one
player's turn runs before the next player's turn starts. :func:`round_robin` lays a global
phase's orders out in passes, one order per player per pass (1800's war actions).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sheetmaster.kit import values
from sheetmaster.kit.model import Order
from sheetmaster.kit.world import World


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

    The world lists the players in seat order (:meth:`World.seating`). The dealer is the Game
    setting named ``setting`` (the phase declares it), or, with no setting, whoever the game's
    state says holds the chip (:meth:`World.dealer`; 1800 keeps it in the Nations tab).
    Players who posted nothing take their turn too.
    """

    setting: str = ""
    per_player: bool = True

    def dealer(self, ctx: Context) -> str:
        return ctx.setting(self.setting) if self.setting else ctx.world.dealer()

    def players(self, ctx: Context) -> list[str]:
        return from_dealers_left(ctx.world.seating(), self.dealer(ctx))


def from_dealers_left(seating: Sequence[str], dealer: str) -> list[str]:
    """``seating`` rotated so the dealer's left neighbour is first and the dealer last."""
    folded = [values.fold(p) for p in seating]
    if values.fold(dealer) not in folded:
        raise ValueError(f"the dealer {dealer!r} has no seat")
    at = folded.index(values.fold(dealer))
    return [*seating[at + 1:], *seating[:at + 1]]


def round_robin(orders: Iterable[Order], players: Sequence[str],
                turns: Mapping[str, int] | None = None) -> Iterator[Order]:
    """Orders taken one per player per pass, players in the given order, each player's in
    posting order. A player with no order left passes while the others go on; with
    ``turns``, so does a player who has had its number of turns (one missing from ``turns``
    has none). Orders of players not listed, and those beyond a player's turns, are never
    taken: the caller resolves them. (1800's war: each nation at war acts in turn from the
    dealer's left, up to its war actions.)"""
    queues: dict[str, deque[Order]] = {p: deque() for p in players}
    for order in orders:
        queue = queues.get(order.player)
        if queue is not None and (turns is None or len(queue) < turns.get(order.player, 0)):
            queue.append(order)
    while any(queues.values()):
        for player in players:
            if queues[player]:
                yield queues[player].popleft()


__all__ = ["GLOBAL", "POSTING_ORDER", "PostingOrder", "SeatOrder", "TurnOrder", "from_dealers_left",
           "round_robin"]
