"""Typed game settings, and settings tabs, that a turn requires when it uses them.

A source often withholds a number (a price, an odds table): it becomes a GM setting with no
default. A blank one is fine until a turn needs it; then the turn stops before anything is
written, naming the setting (:class:`MissingSetting`, which the engine turns into a
:class:`~sheetmaster.kit.schema.StateError`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.schema import Column, Kind, Problem, Problems, Table, cell_reader
from sheetmaster.kit.values import BadValue

GAME_TAB = "Game"


@dataclass(frozen=True)
class Setting:
    """One Game-tab setting a ruleset reads.

    ``default`` is what a new game's Game tab gets and what a blank reads as; ``None`` means
    the source gives no value: the GM must fill it in before a turn that needs it.
    """

    name: str
    help: str
    kind: Kind = Kind.TEXT
    default: Any = None
    choices: tuple[str, ...] = ()
    choice_aliases: tuple[tuple[str, str], ...] = ()
    at_most: int | None = None
    noun: str = ""
    #: sheetmaster writes it each turn (e.g. the season); the GM does not fill it in.
    written: bool = False

    def column(self) -> Column:
        return Column(self.name, self.kind, self.help, choices=self.choices,
                      choice_aliases=self.choice_aliases, at_most=self.at_most, noun=self.noun,
                      blank=None)


def setting_rows(declared: Iterable[Setting]) -> dict[str, tuple[Any, str]]:
    """name -> (what a new game's Game tab holds, help), in declaration order."""
    return {s.name: ("" if s.default is None else s.default, s.help) for s in declared}


class MissingSetting(Exception):
    """A turn needs a setting (or a settings-tab cell) that is blank or missing."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(str(problem))


class Probe:
    """Every setting a turn needs that is blank, found in one run: a turn that stopped at the
    first one is run again in memory with a probe, which notes each missing setting and gives
    the phase a stand-in (1 for a number, the first choice, no) so that it goes on to the next
    one. The probed turn is thrown away; only the list is kept. A stand-in may lead a phase
    down another path than the real value will, so a later run may still ask for one more."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def missing(self, problem: Problem, column: Column | None) -> Any:
        if problem not in self.problems:
            self.problems.append(problem)
        return stand_in(column)


def stand_in(column: Column | None) -> Any:
    """A value of the column's kind for a probed turn to go on with (see :class:`Probe`)."""
    kind = column.kind if column is not None else Kind.TEXT
    if kind is Kind.DECIMAL:
        return Decimal(1)
    if kind in (Kind.WHOLE, Kind.INTEGER):
        return 1
    if kind is Kind.FLAG:
        return False
    if kind is Kind.CHOICE and column is not None and column.choices:
        return column.choices[0]
    return "?"


def read_settings(declared: Iterable[Setting], meta: Mapping[str, Any],
                  problems: Problems) -> Settings:
    """The declared settings, typed, from the Game tab's values (``meta``)."""
    rows = meta.get("setting_rows", {})
    typed: dict[str, Any] = {}
    by_name = {values.fold(s.name): s for s in declared}
    for key, setting in by_name.items():
        raw = meta.get(key, "")
        if values.is_blank(raw):
            typed[key] = setting.default
            continue
        try:
            typed[key] = cell_reader(setting.column())(raw)
            if setting.at_most is not None and typed[key] > setting.at_most:
                raise BadValue(f"{values.show(typed[key])} is more than {setting.at_most}")
        except BadValue as exc:
            problems.add(GAME_TAB, rows.get(key), "value", f"setting '{setting.name}': {exc}")
            typed[key] = setting.default
    return Settings(by_name, typed, rows)


class Settings:
    """The turn's typed settings. :meth:`get` of a blank one without a default stops the turn."""

    def __init__(self, declared: Mapping[str, Setting], typed: Mapping[str, Any],
                 rows: Mapping[str, int]) -> None:
        self._declared = declared
        self._typed = dict(typed)
        self._rows = rows
        #: set on a turn run again to list every missing setting (see :class:`Probe`)
        self.probe: Probe | None = None

    def __contains__(self, name: str) -> bool:
        return values.fold(name) in self._declared

    def get(self, name: str) -> Any:
        key = values.fold(name)
        if key not in self._declared:
            raise KeyError(f"setting '{name}' is not declared by the ruleset")
        value = self._typed.get(key)
        if value is None or value == "":
            setting = self._declared[key]
            where = "its row" if key in self._rows else "a row for it"
            problem = Problem(
                GAME_TAB, self._rows.get(key), "value",
                f"setting '{setting.name}' is blank, and this turn needs it ({setting.help}); "
                f"fill in {where} in the Game tab")
            if self.probe is not None:
                return self.probe.missing(problem, setting.column())
            raise MissingSetting(problem)
        return value

    def given(self, name: str) -> bool:
        """Whether the GM filled it in (or it has a default)."""
        value = self._typed.get(values.fold(name))
        return value is not None and value != ""


class SettingsTable:
    """A GM data tab of settings keyed by one or more columns (e.g. unit type x tech level).

    Cells may stay blank until a turn needs them; :meth:`get` of a blank cell or a missing
    row stops the turn, naming the tab, row and column.
    """

    def __init__(self, table: Table, frame: pd.DataFrame) -> None:
        self.table = table
        self.keys = table.keys or ((table.key,) if table.key else ())
        #: set on a turn run again to list every missing setting (see :class:`Probe`)
        self.probe: Probe | None = None
        self._rows: dict[tuple[str, ...], tuple[int, dict[str, Any]]] = {}
        for row, record in zip(frame.index.tolist(), frame.to_dict("records")):
            key = tuple(values.fold(values.text(record.get(k))) for k in self.keys)
            self._rows.setdefault(key, (int(row), record))

    def has(self, *key: Any) -> bool:
        return self._key(key) in self._rows

    def get(self, *key: Any, column: str) -> Any:
        found = self._rows.get(self._key(key))
        shown = ", ".join(f"{k} {values.text(v)}" for k, v in zip(self.keys, key))
        if found is None:
            return self._missing(Problem(self.table.tab, None, None,
                                         f"this turn needs a row for {shown}; add one"), column)
        row, record = found
        value = record.get(column)
        if value is None or (isinstance(value, str) and not value):
            return self._missing(Problem(self.table.tab, row, column,
                                         f"is blank, and this turn needs it ({shown})"), column)
        return value

    def _missing(self, problem: Problem, column: str) -> Any:
        if self.probe is None:
            raise MissingSetting(problem)
        return self.probe.missing(problem, next((c for c in self.table.columns
                                                 if c.name == column), None))

    def _key(self, key: tuple) -> tuple[str, ...]:
        if len(key) != len(self.keys):
            raise KeyError(f"tab {self.table.tab} is keyed by {', '.join(self.keys)}")
        return tuple(values.fold(values.text(k)) for k in key)


def check_keys(table: Table, frame: pd.DataFrame, problems: Problems) -> None:
    """A settings tab keyed by several columns lists each combination once."""
    if not table.keys:
        return
    seen: dict[tuple[str, ...], int] = {}
    for row, record in zip(frame.index.tolist(), frame[list(table.keys)].values.tolist()):
        key = tuple(values.fold(values.text(v)) for v in record)
        first = seen.setdefault(key, int(row))
        if first != int(row):
            problems.add(table.tab, int(row), table.keys[0],
                         f"{', '.join(values.text(v) for v in record)} is listed twice "
                         f"(also on row {first})")


__all__ = ["MissingSetting", "Setting", "Settings", "SettingsTable", "check_keys",
           "read_settings", "setting_rows"]
