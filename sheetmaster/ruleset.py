"""Rulesets as data: tables, order kinds and ordered phases, plus the phase context.

A ruleset module declares one :class:`Ruleset`. The engine validates the state against its
tables, reads orders with its order kinds, builds its world, and runs its phases in order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
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
    #: (validated state, problems) -> world; reports cross-reference problems.
    build_world: Callable[[GameState, Problems], Any]
    #: the "how to write orders" text, one paragraph per line.
    howto: tuple[str, ...] = ()
    #: () -> (tables, orders, settings) of a small playable example game.
    example: Callable[[], tuple[dict, list, dict]] | None = None

    def table(self, tab: str) -> Table:
        for t in self.tables:
            if t.tab == tab:
                return t
        raise KeyError(tab)


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
        self._orders = orders
        self._events = events
        self._results = results
        dice.on_roll = self._log_roll

    def orders(self, *kinds: str) -> list[Order]:
        """This turn's unresolved orders of these kinds, in posting order."""
        wanted = set(kinds)
        return [o for o in self._orders if o.kind in wanted and o.row not in self._results]

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
