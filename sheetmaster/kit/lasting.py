"""State that lasts across turns in engine-owned tabs: timers, decisions owed, decks.

A ruleset names the ones it uses (``Ruleset.lasting``); the engine adds their tabs to the
game, loads them before the turn, hands them to the phases (``ctx.timers``,
``ctx.decisions``, ``ctx.deck(name)``) and writes them back after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd

from sheetmaster.kit.decisions import ANSWER, DECISIONS, Decisions
from sheetmaster.kit.decks import DECKS, Deck, DeckRow
from sheetmaster.kit.dice import Dice
from sheetmaster.kit.entities import load_rows, write_rows
from sheetmaster.kit.model import GameState
from sheetmaster.kit.schema import Problems, Table
from sheetmaster.kit.timers import DATA, TIMERS, TimerLayout, Timers


class Context(Protocol):
    """What the lasting tabs use of the phase context (and give it)."""

    dice: Dice
    timers: Timers | None
    decisions: Decisions | None
    decks: Lasting | None

    def emit(self, player: str, kind: str, text: str, audience: str = ...) -> None: ...

#: what a ruleset may name in ``Ruleset.lasting``.
USE_TIMERS, USE_DECISIONS, USE_DECKS = "timers", "decisions", "decks"
TABLES = {USE_TIMERS: TIMERS, USE_DECISIONS: DECISIONS, USE_DECKS: DECKS}
#: order kinds the engine consumes itself, by the feature that brings them.
ENGINE_KINDS = {USE_DECISIONS: (ANSWER,)}


def lasting_tables(uses: Iterable[str], layout: TimerLayout | None = None
                   ) -> tuple[Table, ...]:
    """The engine-owned tabs a ruleset uses; its Timers tab laid out by ``layout``."""
    mine = {**TABLES, USE_TIMERS: layout.table} if layout is not None else TABLES
    return tuple(mine[u] for u in mine if u in uses)


@dataclass
class Lasting:
    """The engine-owned tabs' rows for one turn."""

    turn: int
    uses: tuple[str, ...]
    layout: TimerLayout | None = None
    rows: dict[str, list[Any]] = field(default_factory=dict)
    timers: Timers | None = None
    decisions: Decisions | None = None
    decks: dict[str, Deck] = field(default_factory=dict)

    @classmethod
    def load(cls, uses: tuple[str, ...], state: GameState, problems: Problems,
             layout: TimerLayout | None = None, world: Any = None) -> Lasting:
        """The tabs' rows; a Timers ``layout``'s check run on them against ``world``."""
        out = cls(state.turn, uses, layout)
        for table in lasting_tables(uses, layout):
            frame = state.tables[table.tab]
            if any(c.name not in frame.columns for c in table.columns):
                if table.tab == TIMERS.tab and layout is not None and layout.old_layout \
                        and DATA in frame.columns:
                    problems.add(table.tab, None, DATA, layout.old_layout)
                continue  # a missing column is a problem already: the turn stops on it
            out.rows[table.tab] = load_rows(table, frame, {}, {}, problems)
        if layout is not None and USE_TIMERS in uses and TIMERS.tab in out.rows:
            frame = state.tables[TIMERS.tab]
            by_row = {c.name: dict(zip(frame.index.tolist(), frame[c.name].tolist()))
                      for c in layout.columns}
            for timer in out.rows[TIMERS.tab]:
                timer.cells = {name: cells[timer.row] for name, cells in by_row.items()}
            if layout.check is not None:
                layout.check(world, out.rows[TIMERS.tab], problems)
        return out

    def attach(self, ctx: Context) -> None:
        """Give the phases the tabs: timers counted down, decisions, decks."""
        if USE_TIMERS in self.uses:
            self.timers = Timers(self.turn, self.rows[TIMERS.tab], ctx.emit, self.layout)
            self.timers.count_down()
            ctx.timers = self.timers
        if USE_DECISIONS in self.uses:
            self.decisions = Decisions(self.turn, self.rows[DECISIONS.tab], ctx.emit)
            ctx.decisions = self.decisions
        if USE_DECKS in self.uses:
            for row in self.rows[DECKS.tab]:
                self.decks[row.name] = Deck(row, ctx.dice, ctx.emit)
            ctx.decks = self

    def deck(self, name: str, ctx: Context, *, cards: Iterable[str] | None = None) -> Deck:
        """The deck called ``name``; with ``cards``, a new one made of them and shuffled."""
        if cards is not None:
            row = DeckRow(name, (), 0, 0, (), 0)
            self.rows[DECKS.tab].append(row)
            self.decks[name] = Deck(row, ctx.dice, ctx.emit)
            self.decks[name].shuffle_in(cards, "a new deck")
        return self.decks[name]

    def to_tables(self, before: GameState) -> dict[str, pd.DataFrame]:
        if self.timers is not None:
            self.timers.finish()
        for deck in self.decks.values():
            deck.finish()
        out = {t.tab: write_rows(t, before.tables[t.tab], self.rows[t.tab])
               for t in lasting_tables(self.uses, self.layout)}
        if self.layout is not None and USE_TIMERS in self.uses:
            table, rows = self.layout.table, self.rows[TIMERS.tab]
            out[TIMERS.tab] = write_rows(table, before.tables[TIMERS.tab], rows,
                                         self.layout.written(rows))
        return out


__all__ = ["ENGINE_KINDS", "Lasting", "USE_DECISIONS", "USE_DECKS", "USE_TIMERS",
           "lasting_tables"]
