"""Rulesets as data: tables, order kinds and ordered phases, plus the phase context.

A ruleset module declares one :class:`Ruleset`. The engine validates the state against its
tables, reads orders with its order kinds, builds its world, and runs its phases in order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from sheetmaster.dice import Dice
from sheetmaster.model import Event, GameState, Order, OrderResult, Status
from sheetmaster.orders import OrderKind, RejectedRow
from sheetmaster.schema import Column, Problems, Table


class World(Protocol):
    """A ruleset's working model of the game, built from the tables for fast phases."""

    def names(self) -> Mapping[str, Mapping[str, str]]:
        """Name lookups for reading orders: category -> folded name -> name as written."""
        ...

    def to_tables(self, before: GameState) -> dict[str, pd.DataFrame]:
        """The ruleset's tables after the turn."""
        ...


@dataclass(frozen=True)
class Phase:
    """One step of resolution. ``run`` gets the :class:`Context`."""

    key: str
    title: str
    run: Callable[[Context], None]
    #: the rule text this phase implements, as the source states it.
    rule: str = ""
    #: run once per player, players taken in the order of their first order of the turn
    #: (posting order); consecutive ``each_player`` phases make one player's turn, so every
    #: step of one player's turn runs before the next player's turn starts.
    each_player: bool = False


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    version: str
    tables: tuple[Table, ...]
    order_kinds: tuple[OrderKind, ...]
    #: the ruleset's input columns of the Orders tab, after turn/player/order.
    order_columns: tuple[Column, ...]
    phases: tuple[Phase, ...]
    #: (loaded game, problems) -> world; reports cross-reference problems. The loaded game
    #: (:class:`sheetmaster.engine.Loaded`) has the validated state and each tab's rows.
    build_world: Callable[[Any, Problems], Any]
    #: the "how to write orders" text, one paragraph per line.
    howto: tuple[str, ...] = ()
    #: () -> (tables, orders, settings) of a small playable example game.
    example: Callable[[], tuple[dict, list, dict]] | None = None
    #: the ruleset's own Game-tab settings: name -> (default, help).
    settings: Mapping[str, tuple[Any, str]] = field(default_factory=dict)
    #: (turn, game settings) -> settings sheetmaster writes for that turn, e.g. its season.
    turn_settings: Callable[[int, Mapping[str, Any]], dict[str, Any]] | None = None

    def table(self, tab: str) -> Table:
        for t in self.tables:
            if t.tab == tab:
                return t
        raise KeyError(tab)

    def players_table(self) -> Table | None:
        """The tab listing the players, one a row, keyed by the player's name."""
        return next((t for t in self.tables if t.lists_players or t.key == "player"), None)

    def steps(self) -> list[list[Phase]]:
        """The phases in running order: a global phase alone, consecutive ``each_player``
        phases together (they run as one player's turn, player after player)."""
        out: list[list[Phase]] = []
        for phase in self.phases:
            if phase.each_player and out and out[-1][0].each_player:
                out[-1].append(phase)
            else:
                out.append([phase])
        return out


def player_name_columns(ruleset: Ruleset) -> list[str]:
    """Orders columns that hold a player's name: 'player', and each column an order kind
    reads as a player (e.g. 'from' and 'to' of a transfer), in the Orders tab's order."""
    named = {f.column for kind in ruleset.order_kinds for f in kind.fields
             if f.names == "player"}
    return ["player", *(c.name for c in ruleset.order_columns if c.name in named)]


class Context:
    """What a phase sees: the world, this turn's orders, dice, and the log."""

    def __init__(self, world: Any, orders: list[Order], dice: Dice, turn: int,
                 events: list[Event], results: dict[int, OrderResult],
                 rejected_rows: list[RejectedRow] | None = None) -> None:
        self.world = world
        self._rejected_rows = rejected_rows or []
        self.turn = turn
        self.dice = dice
        self.phase = ""
        #: whose turn it is during ``each_player`` phases (None in global phases).
        self.player: str | None = None
        self._by_player: dict[str, list[Order]] | None = None
        self._orders = orders
        self._events = events
        self._results = results
        dice.on_roll = self._log_roll

    def orders(self, *kinds: str) -> list[Order]:
        """This turn's unresolved orders of these kinds, in posting order (during a player's
        turn, that player's only)."""
        wanted = set(kinds)
        player = self.player
        if player is None:
            return [o for o in self._orders if o.kind in wanted and o.row not in self._results]
        if self._by_player is None:
            self._by_player = {}
            for o in self._orders:
                self._by_player.setdefault(o.player, []).append(o)
        return [o for o in self._by_player.get(player, ())
                if o.kind in wanted and o.row not in self._results]

    def rejected_rows(self, kind: str) -> list[RejectedRow]:
        """This turn's rows of this kind rejected while being read, as typed."""
        return [r for r in self._rejected_rows if r.kind == kind]

    def resolve(self, order: Order, status: Status, reason: str = "") -> None:
        """Record an order's outcome; each order is resolved exactly once."""
        if order.row in self._results:
            raise RuntimeError(f"order row {order.row} was resolved twice")
        self._results[order.row] = OrderResult(order.row, order.player, order.kind, status, reason)

    def emit(self, player: str, kind: str, text: str) -> None:
        """Log a change or an outcome for ``player`` ('' for the whole game)."""
        self._events.append(Event(len(self._events) + 1, self.phase, player, kind, text))

    def _log_roll(self, who: str, why: str, sides: int, value: int) -> None:
        self._events.append(Event(len(self._events) + 1, self.phase, who, "die",
                                  f"d{sides} for {why}: {value}", sides, value))
