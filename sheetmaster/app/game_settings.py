"""A game's settings as a GM enters it: which are set, which are blank, and another game's
values copied into the blanks (``sheetmaster settings FILE [--from OTHER.xlsx]``).

A setting the source withholds has no default: a turn that needs it stops (naming every one
it needs, see :class:`~sheetmaster.kit.settings.Probe`). A GM starting a game, or entering
one already under way, sees them all here, and may take a chosen game's numbers (the
example's, say) for the blanks instead of typing each one. Only blanks are filled: a value
the GM set is never changed. Settings tabs (a keyed tab of numbers, e.g. unit type x tech
level) are filled the same way, cell by cell, their missing rows added.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.entities import append_rows
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Table
from sheetmaster.kit.settings import Setting
from sheetmaster.kit.tabs import GAME_TAB


@dataclass(frozen=True)
class SettingStatus:
    """One declared setting as the game holds it."""

    name: str
    value: Any
    #: 'set', 'blank', 'default' (blank, read as its default) or 'sheetmaster' (written by it)
    status: str
    help: str


@dataclass(frozen=True)
class TabStatus:
    """A settings tab: its rows, and its blank cells column by column."""

    tab: str
    rows: int
    blanks: dict[str, int]


@dataclass(frozen=True)
class Filled:
    """What ``--from`` copied: a cell's tab, key (a setting's name or a row's key) and
    column, and the value."""

    tab: str
    key: str
    column: str
    value: Any


def settings_status(ruleset: Ruleset, state: GameState) -> list[SettingStatus]:
    """Every setting the ruleset declares, in declaration order, as ``state`` (a validated
    game, :func:`sheetmaster.engine.turn.prepare`'s) holds it."""
    game = _game_values(state)
    out = []
    for setting in ruleset.all_settings():
        value = game.get(values.fold(setting.name), (None, None))[1]
        if setting.written:
            status = "sheetmaster"
        elif not values.is_blank(value):
            status = "set"
        else:
            status = "blank" if setting.default is None else "default"
        held = setting.default if status == "default" else value
        out.append(SettingStatus(setting.name, "" if values.is_blank(held) else shown(held), status,
                                 setting.help))
    return out


def tabs_status(ruleset: Ruleset, state: GameState) -> list[TabStatus]:
    """Each settings tab (a keyed tab) of the ruleset: rows, and blank cells per column."""
    out = []
    for table in settings_tables(ruleset):
        frame = state.tables[table.tab]
        blanks = {c.name: int(frame[c.name].map(values.is_blank).sum())
                  for c in _value_columns(table) if c.name in frame.columns}
        out.append(TabStatus(table.tab, len(frame), {k: n for k, n in blanks.items() if n}))
    return out


def fill_blanks(ruleset: Ruleset, mine: GameState, other: GameState
                ) -> tuple[GameState, list[Filled]]:
    """``mine`` with its blank settings and settings-tab cells taken from ``other`` (both
    validated games of ``ruleset``), and what was copied."""
    tables = dict(mine.tables)
    filled: list[Filled] = []
    tables[GAME_TAB] = _fill_game(ruleset, mine, other, filled)
    for table in settings_tables(ruleset):
        tables[table.tab] = _fill_tab(table, mine.tables[table.tab], other.tables[table.tab],
                                      filled)
    return GameState(tables, dict(mine.meta)), filled


def writable(ruleset: Ruleset) -> Ruleset:
    """The ruleset as the settings command writes with it: a store writes only sheetmaster's
    own columns, and here the settings tabs' value cells are filled too."""
    keyed = {t.tab for t in settings_tables(ruleset)}
    tables = tuple(replace(t, columns=tuple(replace(c, owned=True) for c in t.columns))
                   if t.tab in keyed else t for t in ruleset.tables)
    return replace(ruleset, tables=tables)


def settings_tables(ruleset: Ruleset) -> list[Table]:
    return [t for t in ruleset.tables if t.keys]


def _fill_game(ruleset: Ruleset, mine: GameState, other: GameState,
               filled: list[Filled]) -> pd.DataFrame:
    frame = mine.tables[GAME_TAB].copy()
    have, theirs = _game_values(mine), _game_values(other)
    added = []
    for setting in _gm_settings(ruleset.all_settings()):
        key = values.fold(setting.name)
        row, value = have.get(key, (None, None))
        given = theirs.get(key, (None, None))[1]
        if not values.is_blank(value) or values.is_blank(given):
            continue
        filled.append(Filled(GAME_TAB, setting.name, "value", given))
        if row is None:
            added.append({"setting": setting.name, "value": given, "help": setting.help})
        else:
            frame.loc[row, "value"] = given
    return _appended(frame, added)


def _fill_tab(table: Table, mine: pd.DataFrame, other: pd.DataFrame,
              filled: list[Filled]) -> pd.DataFrame:
    frame = mine.copy()
    rows = {_key(table, record): row for row, record in zip(frame.index, frame.to_dict("records"))}
    added = []
    for record in other.to_dict("records"):
        key = _key(table, record)
        shown = ", ".join(values.text(record.get(k)) for k in table.keys)
        if key not in rows:
            added.append({c: _cell(v) for c, v in record.items() if not values.is_blank(v)})
            filled += [Filled(table.tab, shown, c, _cell(v)) for c, v in record.items()
                       if c not in table.keys and not values.is_blank(v)]
            continue
        for column in _value_columns(table):
            given = record.get(column.name)
            if column.name in frame.columns and values.is_blank(frame.loc[rows[key], column.name]) \
                    and not values.is_blank(given):
                frame.loc[rows[key], column.name] = _cell(given)
                filled.append(Filled(table.tab, shown, column.name, _cell(given)))
    return _appended(frame, added)


def _appended(frame: pd.DataFrame, rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The tab with these rows (a dict each) added at the bottom."""
    columns = dict.fromkeys(column for row in rows for column in row)
    return append_rows(frame, {c: [row.get(c) for row in rows] for c in columns})


def _game_values(state: GameState) -> dict[str, tuple[int, Any]]:
    """folded setting name -> (sheet row, value) of the Game tab."""
    game = state.tables[GAME_TAB]
    return {values.fold(values.text(name)): (int(row), value) for row, name, value in
            zip(game.index, game["setting"].tolist(), game["value"].tolist())}


def _gm_settings(declared: Iterable[Setting]) -> list[Setting]:
    return [s for s in declared if not s.written]


def _value_columns(table: Table) -> list:
    return [c for c in table.columns if c.name not in table.keys]


def _key(table: Table, record: dict[str, Any]) -> tuple[str, ...]:
    return tuple(values.fold(values.text(record.get(k))) for k in table.keys)


def shown(value: Any) -> Any:
    """A number as a GM typed it: 6, not the 6.0 a workbook reads back."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _cell(value: Any) -> Any:
    """A validated value as a cell: exact numbers as numbers, lists as names, flags as yes."""
    if isinstance(value, Decimal):
        return values.number_cell(value)
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    if isinstance(value, bool):
        return "yes" if value else ""
    return value


__all__ = ["Filled", "SettingStatus", "TabStatus", "fill_blanks", "settings_status",
           "settings_tables", "shown", "tabs_status", "writable"]
