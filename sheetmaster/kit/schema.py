"""Tab and column declarations, and validation of state tabs.

A broken state tab must stop the run before anything is written, with a message naming the
tab, the row and the column. :func:`validate_table` collects every such problem at once.
"""

from __future__ import annotations

import enum
import functools
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.values import BadValue

_ATTR = re.compile(r"[^0-9a-z]+")


class Kind(enum.Enum):
    """How a state column's cells are read."""

    TEXT = "text"  # anything, kept as trimmed text ('' for blank)
    NAME = "name"  # text that must not be blank
    WHOLE = "whole number"  # int >= 0, blank = 0
    INTEGER = "whole number, negative or not"  # int, blank = 0
    DECIMAL = "number"  # exact Decimal >= 0 (quarters, halves...), blank = 0
    FLAG = "yes/no"  # "yes" or "" (blank = no), however it was typed
    NAMES = "list of names"  # comma-separated names, kept as text
    CHOICE = "choice"  # one of Column.choices, spelt as declared ('' for blank)
    REF = "name of a row"  # names a row of tab Column.ref ('' for blank)
    REFS = "names of rows"  # comma-separated names of rows of tab Column.ref
    RAW = "raw"  # kept exactly as read


@dataclass(frozen=True)
class Column:
    name: str
    kind: Kind = Kind.TEXT
    help: str = ""
    #: sheetmaster writes this column after a turn (the GM's other columns are never touched).
    owned: bool = False
    #: the tab is still valid without this column (it is then read as all blank).
    optional: bool = False
    #: other headers accepted for it, e.g. a Google Form's "Email Address".
    aliases: tuple[str, ...] = ()
    #: REF / REFS: the tab whose rows it names (by that tab's key).
    ref: str | None = None
    #: REFS: an adjacency, listed on both sides (the ref tab is this column's own tab).
    both_sides: bool = False
    #: CHOICE: the values allowed, as written back; ``choice_aliases`` other spellings of them.
    choices: tuple[str, ...] = ()
    choice_aliases: tuple[tuple[str, str], ...] = ()
    #: REF: words that mean "no row" (read as ''), e.g. 'Independent' for an owner.
    none_words: tuple[str, ...] = ()
    #: what one value is, with its article, for messages: 'a flavour', 'an army type'.
    noun: str = ""
    #: numbers: what a blank cell reads as (None: blank stays blank, told apart from 0).
    blank: Any = 0
    #: numbers: the largest value allowed (e.g. 100 for a percentage).
    at_most: int | None = None
    #: the row dataclass's attribute it binds to, if not the one its name gives.
    bind: str = ""
    #: REF / CHOICE: a blank cell is a problem (NAME is TEXT that is required).
    required: bool = False

    @property
    def attr(self) -> str:
        """The attribute of a row's dataclass this column binds to: 'capital of' ->
        ``capital_of``, 'raise chance %' -> ``raise_chance`` (or ``bind``)."""
        return self.bind or _ATTR.sub("_", self.name.casefold()).strip("_")


@dataclass(frozen=True)
class Table:
    """One tab: its name, its columns and which column names a row."""

    tab: str
    columns: tuple[Column, ...]
    key: str | None = None
    help: str = ""
    #: sheetmaster only appends rows to this tab (logs, results history).
    append_only: bool = False
    #: players fill this tab (orders); the others are state.
    player_input: bool = False
    #: one row per player, keyed by the player's name (a tab keyed 'player' is one too).
    lists_players: bool = False
    #: what one row is, for messages and reports: 'territory', 'province', 'clan'.
    noun: str = ""
    #: the dataclass each row loads into (its fields named after the columns, see
    #: :attr:`Column.attr`); the engine writes owned columns back from it.
    entity: type | None = None
    #: rows whose ``retired[0]`` cell starts with ``retired[1]`` (e.g. status 'gone (...)')
    #: are kept as they are: their references are not checked.
    retired: tuple[str, str] | None = None
    #: columns of a keyless tab whose names must differ from row to row (an army's name).
    unique: tuple[str, ...] = ()
    #: a GM data tab keyed by several columns together (e.g. unit type and tech level); its
    #: blank cells are read as missing, and a turn that needs one stops (SettingsTable).
    keys: tuple[str, ...] = ()
    #: the rows a new game's tab starts with (``new`` without --example, ``init``): a GM
    #: data tab listing what to fill in, its numbers blank.
    starter_rows: tuple[dict[str, Any], ...] = ()

    @property
    def row_noun(self) -> str:
        return self.noun or (self.key or "row")

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)


@dataclass
class Problem:
    tab: str
    row: int | None
    column: str | None
    message: str

    def __str__(self) -> str:
        where = f"tab '{self.tab}'"
        if self.row is not None:
            where += f", row {self.row}"
        if self.column is not None:
            where += f", column '{self.column}'"
        return f"{where}: {self.message}"


class StateError(Exception):
    """The game's state tabs cannot be used; nothing was resolved or written."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        shown = self.problems[:20]
        lines = [str(p) for p in shown]
        if len(self.problems) > len(shown):
            lines.append(f"... and {len(self.problems) - len(shown)} more problems")
        super().__init__("the game's sheet has problems; nothing was changed:\n  " +
                         "\n  ".join(lines))


@dataclass
class Problems:
    """Collects problems; raise them all together at the end of validation."""

    items: list[Problem] = field(default_factory=list)

    def add(self, tab: str, row: int | None, column: str | None, message: str) -> None:
        self.items.append(Problem(tab, row, column, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise StateError(self.items)


def match_columns(table: Table, df: pd.DataFrame, problems: Problems) -> pd.DataFrame:
    """Rename headers to the declared names (case and spaces do not matter).

    A missing required column is a problem, and so is a column headed twice (e.g. 'gold' and
    'Gold'); extra columns are the GM's and are kept.
    """
    df, absent = _match_headers(table, df, problems)
    for name in absent:
        df[name] = np.full(len(df), None, dtype=object)
    #: optional columns the sheet does not have: read as blank, never written.
    df.attrs["absent"] = absent
    return df


def _match_headers(table: Table, df: pd.DataFrame, problems: Problems
                   ) -> tuple[pd.DataFrame, list[str]]:
    """:func:`match_columns` but for the optional columns the sheet lacks, which it names."""
    by_fold: dict[str, list[Any]] = {}
    for c in df.columns:
        by_fold.setdefault(values.fold(str(c)), []).append(c)
    renames: dict[Any, str] = {}
    for col in table.columns:
        found = [c for n in dict.fromkeys(values.fold(n) for n in (col.name, *col.aliases))
                 for c in by_fold.get(n, ())]
        if not found:
            if not col.optional:
                have = ", ".join(repr(str(c)) for c in df.columns if str(c).strip()) or "none"
                problems.add(table.tab, 1, col.name,
                             f"the header row has no column '{col.name}' (found: {have})")
            continue
        if len(found) > 1:
            problems.add(table.tab, 1, col.name,
                         f"the header row has {len(found)} columns for '{col.name}' "
                         f"({', '.join(repr(str(c)) for c in found)}); keep one")
        renames[found[0]] = col.name
    df = df.rename(columns=renames)
    if df.columns.duplicated().any():  # reported above if they matter; the first is read
        df = df.loc[:, ~df.columns.duplicated()]
    return df, [c.name for c in table.columns if c.name not in df.columns and c.optional]


_READERS = {
    Kind.WHOLE: lambda v: values.whole_number(v, blank=0),
    Kind.INTEGER: lambda v: values.integer(v, blank=0),
    Kind.DECIMAL: lambda v: values.decimal(v, blank=0),
    Kind.FLAG: lambda v: "yes" if values.yes_no(v) else "",
}
#: the kinds whose cells are read as text (str, '' for blank).
TEXT_KINDS = (Kind.TEXT, Kind.NAMES, Kind.NAME, Kind.REF, Kind.REFS)


def choice_reader(col: Column):
    """Reads a CHOICE cell: '' for blank, else one of ``col.choices`` as declared."""
    lookup = values.Names(col.choices, dict(col.choice_aliases))
    listed = values.or_list(col.choices)

    def read(value: Any) -> str:
        text = _text_cell(value)
        if not text:
            return ""
        found = lookup.get(text)
        if found is None:
            raise BadValue(f"{values.show(text)} is not {col.noun} ({listed})" if col.noun
                           else f"{values.show(text)} is not {listed}")
        return found

    return read


def validate_table(table: Table, df: pd.DataFrame, problems: Problems) -> pd.DataFrame:
    """Check and convert a state tab's cells; returns the table with typed cells."""
    df, absent = _match_headers(table, df, problems)
    index, size = df.index, len(df)
    row_numbers = functools.cache(index.tolist)  # the sheet row numbers, read when needed
    # One 2-D read and (see _typed_frame) one 2-D frame built at the end. The optional
    # columns the sheet lacks are never read: each of their cells is blank (None).
    grid = df.to_numpy(dtype=object)
    at = {c: i for i, c in enumerate(df.columns)}
    typed: dict[str, list] = {}
    as_read = True  # every typed cell the very object the tab holds
    for col in table.columns:
        if col.kind is Kind.RAW or (col.name not in at and col.name not in absent):
            continue
        cells = grid[:, at[col.name]].tolist() if col.name in at else None
        if col.kind in TEXT_KINDS:
            converted = _read_text(cells) if cells is not None else [values.text(None)] * size
            if cells is not None and not values.SHEET_ERRORS.isdisjoint(converted):
                _errors_in_text(table, col, row_numbers(), converted, problems)
            if (col.kind is Kind.NAME or col.required) and not all(converted):
                for row, name in zip(row_numbers(), converted):
                    if not name:
                        problems.add(table.tab, int(row), col.name,
                                     "is blank; every row needs a name here (name expected)")
        else:
            converted = _convert(table, col, row_numbers(), cells, problems) \
                if cells is not None else _convert_blanks(table, col, size, row_numbers,
                                                          problems)
            if col.required and "" in converted:
                for row, value in zip(row_numbers(), converted):
                    if value == "":
                        problems.add(table.tab, int(row), col.name,
                                     "is blank; every row needs one here")
        typed[col.name] = converted
        as_read = as_read and (cells is None or all(map(operator.is_, converted, cells)))
    names = [*df.columns, *absent]
    if as_read and all(t == np.dtype(object) for t in df.dtypes):
        # A million clean rows (names already trimmed): the tab as it is, not a copy, and
        # the optional columns it lacks (e.g. a map's) added whole, blank as they read.
        out = df.copy(deep=False)
        for name in absent:
            out[name] = _object_column(typed.get(name), index)
        out.columns = _dict_columns(names)
    else:
        out = _typed_frame(df, grid, at, typed, names)
    out.attrs = {**df.attrs, "absent": absent}
    if table.key and (table.key in at or table.key in absent):
        key = table.column(table.key)
        keys = typed[key.name] if key.name in typed else out[key.name].tolist()
        if key.kind not in TEXT_KINDS or not folds_apart(keys):
            _check_unique(table, row_numbers(), list(keys), problems)
    return out


def _object_column(cells: list | None, index: pd.Index) -> pd.Series:
    """A column of these cells (None: all blank), kept as objects (pandas would make text a
    string column)."""
    column = np.full(len(index), None, dtype=object) if cells is None else \
        np.fromiter(cells, dtype=object, count=len(index))
    return pd.Series(column, index=index, dtype=object, copy=False)


def _typed_frame(df: pd.DataFrame, grid: np.ndarray, at: dict[str, int],
                 typed: dict[str, list], names: list[str]) -> pd.DataFrame:
    """The tab with its typed cells: one 2-D frame built at once (column by column, pandas'
    own bookkeeping cost more than reading the cells did)."""
    cells_out = np.empty((len(names), len(df)), dtype=object)
    for i, name in enumerate(names):
        if name in typed:
            cells_out[i] = np.fromiter(typed[name], dtype=object, count=len(df))
        elif name in at:
            cells_out[i] = grid[:, at[name]]
        # else: an absent RAW column, None as np.empty left it
    return pd.DataFrame(cells_out.T, index=df.index, columns=_dict_columns(names),
                        dtype=object, copy=False)


def _read_text(cells: list) -> list[str]:
    """A text column's cells as trimmed text ('' for blank); text never fails to read.

    A column of text cells (the common case: a million of them) is stripped in one C loop,
    as :func:`values.text` strips a str; a number, a date or a blank cell among them makes it
    read each cell. (A str subclass is stripped as str, as ``values.text`` reads it unless
    the subclass changes ``str()``: no store makes one.)
    """
    try:
        return list(map(str.strip, cells))
    except TypeError:  # a number, a date or a blank (None) among them
        return [v.strip() if v.__class__ is str else values.text(v) for v in cells]


#: what a text cell holding a spreadsheet error should hold instead.
_WRITE_TEXT = "correct the formula, or type the text"


def _errors_in_text(table: Table, col: Column, rows: list, texts: list[str],
                    problems: Problems) -> None:
    """Each text cell holding a spreadsheet error ('#REF!'): a problem naming it, not a name
    or a text that happens to read '#REF!'. (Checked in bulk first: the texts' hashes serve
    the name lookups after.)"""
    for row, text in zip(rows, texts):
        code = values.sheet_error(text)
        if code is not None:
            problems.add(table.tab, int(row), col.name, values.error_problem(code, _WRITE_TEXT))


def _text_cell(value: Any) -> str:
    """A text cell as trimmed text; BadValue if it holds a spreadsheet error."""
    code = values.sheet_error(value)
    if code is not None:
        raise BadValue(values.error_problem(code, _WRITE_TEXT))
    return values.text(value)


def _dict_columns(names: list) -> pd.Index:
    """The column labels pandas gives a frame built from a dict keyed by ``names`` (strings
    make a str Index; 0, 1, 2... a RangeIndex), as the typed table was once built."""
    return pd.DataFrame(dict.fromkeys(names, ()), dtype=object).columns


def cell_reader(col: Column):
    """The function that reads one cell of ``col`` (raising BadValue with a message)."""
    if col.kind is Kind.CHOICE:
        return choice_reader(col)
    return _READERS.get(col.kind, _text_cell)


def _convert(table: Table, col: Column, rows: list, cells: list, problems: Problems) -> list:
    reader = cell_reader(col)
    expected = "" if col.kind is Kind.CHOICE else f" ({col.kind.value} expected)"
    converted = []
    blank, top = col.blank, col.at_most
    for row, value in zip(rows, cells):
        try:
            if blank is None and values.is_blank(value):
                converted.append(None)
                continue
            got = reader(value)
            if top is not None and got > top:
                raise BadValue(f"{values.show(got)} is more than {top}")
            converted.append(got)
        except BadValue as exc:
            problems.add(table.tab, int(row), col.name, f"{exc}{expected}")
            converted.append(None)
    return converted


def _convert_blanks(table: Table, col: Column, size: int, row_numbers: Callable[[], list],
                    problems: Problems) -> list:
    """:func:`_convert` of ``size`` blank cells (None): a column the sheet lacks. Blank cells
    read alike, so one is read for all; only if that is a problem are they all read, for each
    row's problem."""
    probe = Problems()
    one = _convert(table, col, [0], [None], probe)
    if probe.items:
        return _convert(table, col, row_numbers(), [None] * size, problems)
    return one * size


def folds_apart(names: list[str]) -> bool:
    """Whether no two of these names fold alike (``casefold``; blank names aside): then
    :func:`_check_unique` (and :func:`~sheetmaster.kit.entities.check_unique`) has nothing to
    say, and a million names cost one casefold.

    The names must be ``str`` (text columns are read as str). Casefolding the names joined by
    newlines gives their casefolds joined by newlines: it folds each character on its own and
    never makes or removes a newline. A name holding a newline splits into more parts than
    there are names, and the answer is then no (the slow check decides).
    """
    if not names:
        return True
    folded = "\n".join(names).casefold().split("\n")
    if len(folded) != len(names):
        return False
    if "" in folded:  # blank names (only they fold to ''), which may repeat
        folded = list(filter(None, folded))
    return values.all_distinct(folded)


def _check_unique(table: Table, rows: list, names: list, problems: Problems) -> None:
    """A key names one row only; case does not make two names different."""
    seen: dict[str, int] = {}
    for row, name in zip(rows, names):
        if not name:
            continue
        key = name.casefold()
        first = seen.setdefault(key, int(row))
        if first != int(row):
            problems.add(table.tab, int(row), table.key,
                         f"'{name}' is listed twice (also on row {first})")


def lookup_name(lookup: Any, cell: str, problems: Problems, tab: str, row: int, column: str,
                what: str) -> str:
    """The name ``cell`` refers to (as the game writes it), or '' and a problem naming the
    tab, row and column when it refers to nothing (a blank cell is '' and no problem).

    ``lookup`` is a :class:`~sheetmaster.kit.values.Names`; ``what`` completes "... is not WHAT",
    e.g. "a player in the Players tab".
    """
    if not cell:
        return ""
    found = lookup.get(cell)
    if found is None:
        problems.add(tab, row, column, f"{values.show(cell)} is not {what}")
        return ""
    return found
