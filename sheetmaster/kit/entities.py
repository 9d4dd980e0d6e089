"""Rows as objects: a tab's rows load into the dataclass its :class:`~sheetmaster.kit.schema.Table`
declares, and sheetmaster's columns are written back from those objects after the turn.

Every cross-tab check that only needs the declaration lives here, once, with one wording for
every game: a name that is no row of the tab it should name, a name listed twice, and (in
:mod:`~sheetmaster.kit.both_sides`) an adjacency listed on one side only, a row that borders
itself.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import pandas as pd

from sheetmaster.kit import values
from sheetmaster.kit.both_sides import check_both_sides
from sheetmaster.kit.decisions import GM
from sheetmaster.kit.model import GameState
from sheetmaster.kit.schema import (
    TEXT_KINDS,
    Column,
    Kind,
    Problems,
    Table,
    choice_reader,
    folds_apart,
)
from sheetmaster.kit.values import BadValue, Names


def key_lookups(tables: Iterable[Table], frames: Mapping[str, pd.DataFrame]
                ) -> dict[str, Names]:
    """Each keyed tab's names, found from any spelling that folds the same."""
    return {t.tab: Names(list(filter(None, frames[t.tab][t.key].tolist())))
            for t in tables if t.key and t.tab in frames and t.key in frames[t.tab].columns}


def a(noun: str) -> str:
    """'a territory', 'an army'."""
    return f"{'an' if noun[:1].casefold() in 'aeiou' else 'a'} {noun}"


class _Refs:
    """Resolves the names a REF / REFS column holds, reporting the ones that name nothing."""

    def __init__(self, table: Table, col: Column, tables: Mapping[str, Table],
                 lookups: Mapping[str, Names], problems: Problems) -> None:
        target = tables[col.ref] if col.ref else table
        self.lookup = lookups.get(target.tab, Names(()))
        self.exact = self.lookup.exact_get
        self.exact_item = self.lookup.exact_item
        where = "this tab" if target.tab == table.tab else f"the {target.tab} tab"
        self.what = f"{a(target.row_noun)} in {where}"
        self.none = {values.fold(w) for w in col.none_words}
        self.tab, self.column, self.problems = table.tab, col.name, problems

    def one(self, row: int, cell: str) -> str:
        if not cell:
            return ""
        found = self.lookup.get(cell)
        if found is None:
            if values.fold(cell) in self.none or values.sheet_error(cell) is not None:
                return ""  # a spreadsheet error: validate_table named it already
            self.problems.add(self.tab, row, self.column, f"{values.show(cell)} is not {self.what}")
            return ""
        return found

    def each(self, cells: list, rows: list[int], live: list[bool]) -> list[tuple[str, ...]]:
        """A REFS column read cell by cell, each problem reported (a retired row's cell is
        kept as its list of names)."""
        exact, strip = self.exact, str.strip
        out = []
        for r, c, ok in zip(rows, cells, live):
            if not c:
                out.append(())
            elif not ok:
                out.append(tuple(values.name_list(c)))
            else:  # the common case first: names as their tab spells them, commas between
                got = tuple(map(exact, map(strip, c.split(","))))
                out.append(got if all(got) and ";" not in c and "\n" not in c
                           else self.many(r, c))
        return out

    def many(self, row: int, cell: str) -> tuple[str, ...]:
        if not cell:
            return ()
        parts = cell.split(",") if ";" not in cell and "\n" not in cell else \
            values.name_list(cell)
        exact, out = self.exact, []
        for part in parts:
            part = part.strip()
            found = exact(part)  # the common case: a name as its tab writes it
            if found is None and part:
                found = self.one(row, part)
            if found:
                out.append(found)
        return tuple(out)


def _plain_lists(cells: list[str]) -> bool:
    """Whether every cell is text with no ';' or line break, and every ',' in it is followed
    by a space: then splitting a cell on ', ' gives the parts splitting it on ',' gives, but
    for the space after each comma (which a strip takes off)."""
    try:
        text = "\n".join(cells)
    except TypeError:  # a cell that is no text: not a typed table
        return False
    return text.count("\n") == len(cells) - 1 and ";" not in text and \
        text.count(",") == text.count(", ")


def _names_as_spelt(cells: list[str], item: Callable[[str], str]
                    ) -> list[tuple[str, ...]] | None:
    """A REFS column's cells read the short way: each cell's names when every name in the
    column is spelt as its tab spells it, with ', ' between names (as sheetmaster writes a
    list); else None, and the caller reads each cell.

    This equals the reading cell by cell (split on ',', each part stripped, found as spelt):
    see :func:`_plain_lists`. ``item`` raises KeyError for a part not spelt as its tab spells
    it; the names it finds are never blank (``key_lookups`` leaves blank keys out), so every
    part found is kept.
    """
    if not cells:
        return []
    if not _plain_lists(cells):
        return None
    split, strip = str.split, str.strip
    try:
        return [tuple(map(item, map(strip, split(c, ", ")))) if c else () for c in cells]
    except KeyError:
        return None


def _choices_reader(table: Table, col: Column, problems: Problems
                    ) -> Callable[[int, str], tuple[str, ...]]:
    read_one = choice_reader(col)

    def read(row: int, cell: str) -> tuple[str, ...]:
        out = []
        for part in values.name_list(cell):
            try:
                out.append(read_one(part))
            except BadValue as exc:
                problems.add(table.tab, row, col.name, str(exc))
        return tuple(out)

    return read


def _column_values(table: Table, col: Column, cells: list, rows: list[int], live: list[bool],
                   tables: Mapping[str, Table], lookups: Mapping[str, Names],
                   problems: Problems) -> list:
    """One column's cells as the row objects hold them."""
    kind = col.kind
    if kind is Kind.REF:
        refs = _Refs(table, col, tables, lookups, problems)
        get, one = refs.exact, refs.one  # names spelt as their tab spells them: no folding
        if all(live):
            if list(map(get, cells)).count(None) == cells.count(""):
                return list(map(get, cells, cells))  # every cell blank or a name, as spelt
            return [(get(c) or one(r, c)) if c else "" for r, c in zip(rows, cells)]
        return [((get(c) or one(r, c)) if c else "") if ok else c
                for r, c, ok in zip(rows, cells, live)]
    if kind is Kind.REFS:
        refs = _Refs(table, col, tables, lookups, problems)
        spelt = _names_as_spelt(cells, refs.exact_item) if all(live) else None
        return spelt if spelt is not None else refs.each(cells, rows, live)
    if kind is Kind.NAMES:
        if col.choices:
            read = _choices_reader(table, col, problems)
            return [read(r, c) for r, c in zip(rows, cells)]
        return [tuple(values.name_list(c)) for c in cells]
    if kind is Kind.FLAG:
        return [c == "yes" for c in cells]
    if kind in (Kind.WHOLE, Kind.INTEGER, Kind.DECIMAL):
        return [col.blank if c is None else c for c in cells]
    return cells


def load_rows(table: Table, frame: pd.DataFrame, tables: Mapping[str, Table],
              lookups: Mapping[str, Names], problems: Problems) -> list[Any]:
    """The tab's rows as objects of ``table.entity``, in sheet order; references resolved.

    Rows with a blank key are left out (the blank key is reported by validation). The
    object's ``row`` field, if it has one, gets the sheet row number.
    """
    cls = table.entity
    assert cls is not None, f"tab {table.tab} declares no entity"
    fields = [f.name for f in dataclasses.fields(cls)]
    index = frame.index
    rows = list(range(index.start, index.stop, index.step)) \
        if isinstance(index, pd.RangeIndex) else list(map(int, index.tolist()))
    keep = [True] * len(rows)
    if table.key and table.key in frame.columns:
        keys = frame[table.key].tolist()
        if not all(keys):
            keep = list(map(bool, keys))
    live = keep
    if table.retired:
        column, word = table.retired
        live = [not values.fold(values.text(c)).startswith(word)
                for c in frame[column].tolist()]
    by_attr: dict[str, list] = {}
    for col in table.columns:
        if col.attr in fields and col.name in frame.columns:
            by_attr[col.attr] = _column_values(table, col, frame[col.name].tolist(), rows, live,
                                               tables, lookups, problems)
    if "row" in fields:
        by_attr["row"] = rows
    # Positional construction is several times faster than keywords for a million rows: the
    # bound fields must come first in the dataclass, in any order among themselves.
    bound = fields[:len(by_attr)]
    missing = [f for f in bound if f not in by_attr]
    assert not missing, f"{cls.__name__}: fields {missing} come before unbound fields"
    made = list(map(cls, *(by_attr[f] for f in bound)))
    return [obj for obj, ok in zip(made, keep) if ok] if not all(keep) else made


def check_unique(table: Table, frame: pd.DataFrame, problems: Problems) -> None:
    """Columns of a keyless tab whose names must differ (e.g. each army's name)."""
    text = {c.name for c in table.columns if c.kind in TEXT_KINDS}
    for name in table.unique:
        cells = frame[name].tolist()
        if name in text and folds_apart(cells):
            continue  # the common case, checked in bulk: nothing to say
        seen: dict[str, int] = {}
        for row, cell in zip(frame.index.tolist(), cells):
            if not cell:
                continue
            first = seen.setdefault(cell.casefold(), int(row))
            if first != int(row):
                problems.add(table.tab, row, name,
                             f"'{cell}' is listed twice (also on row {first})")


def check_not_gm(table: Table | None, frame: pd.DataFrame | None, problems: Problems) -> None:
    """No player goes by the GM's name, in any case or spacing ('gm', 'G M'): the GM's full
    report, the GM's webhook and the decisions the GM owes all go by it, and a player of that
    name would be taken for the GM."""
    if table is None or frame is None or not table.key or table.key not in frame.columns:
        return
    reserved = GM.casefold()
    for row, name in zip(frame.index.tolist(), frame[table.key].tolist()):
        if isinstance(name, str) and "".join(name.split()).casefold() == reserved:
            problems.add(table.tab, int(row), table.key,
                         f"{values.show(name)} is the GM's name, which no player may take "
                         f"(their reports and webhook would be the GM's): rename the player")


def _column_cells(col: Column, objects: list[Any]) -> list[Any]:
    """One column's cells from the objects' attribute, as the sheet writes them."""
    got = list(map(operator.attrgetter(col.attr), objects))
    if col.kind is Kind.FLAG:
        return ["yes" if v else "" for v in got]
    if col.kind in (Kind.NAMES, Kind.REFS):
        return [", ".join(v) for v in got]
    if col.kind is Kind.DECIMAL:
        return [values.number_cell(v) for v in got]
    return got


def write_rows(table: Table, before: pd.DataFrame, objects: list[Any],
               extra: Mapping[str, list] | None = None) -> pd.DataFrame:
    """The tab after the turn: its owned columns from ``objects`` (rows with ``row`` 0 are
    new and go at the bottom), the GM's own columns and rows as they were.

    ``extra`` gives whole columns computed by the ruleset (one value per object). Optional
    columns the sheet lacks are filled in too; stores do not write them.
    """
    fields = {f.name for f in dataclasses.fields(table.entity)} if table.entity else set()
    columns = {c.name: _column_cells(c, objects) for c in table.columns
               if c.owned and c.attr in fields and c.name not in (extra or {})}
    columns.update(extra or {})
    out = before.copy(deep=False)  # columns are replaced whole below, never written into
    rows = list(map(operator.attrgetter("row"), objects))
    new = [] if all(rows) else [i for i, row in enumerate(rows) if not row]
    placed = [i for i, row in enumerate(rows) if row] if new else range(len(rows))
    if not new and rows == out.index.tolist():
        where: Any = slice(None)  # every row, in sheet order: the common case
    else:
        where = out.index.get_indexer([rows[i] for i in placed] if new else rows)
    for name, cells in columns.items():
        column = out[name].to_numpy(dtype=object, copy=True) if name in out.columns \
            else pd.Series([None] * len(out), dtype=object).to_numpy()
        column[where] = [cells[i] for i in placed] if new else cells
        out[name] = column
    if not new:
        return out
    return append_rows(out, {name: [cells[i] for i in new] for name, cells in columns.items()})


def append_rows(frame: pd.DataFrame, columns: Mapping[str, list[Any]]) -> pd.DataFrame:
    """The tab with rows added at the bottom (``columns``: a list of cells per column, one
    per new row; the tab's other columns blank in them), numbered on from its last row."""
    count = len(next(iter(columns.values()), []))
    if not count:
        return frame
    start = int(max(frame.index)) + 1 if len(frame) else 2
    added = pd.DataFrame(dict(columns), index=range(start, start + count), dtype=object)
    grown = pd.concat([frame, added.reindex(columns=frame.columns)])
    grown.attrs = dict(frame.attrs)  # e.g. the optional columns the sheet lacks
    return grown


#: a ruleset's world, as its written tabs read it
W = TypeVar("W")


@dataclass(frozen=True)
class WrittenTab(Generic[W]):
    """A tab sheetmaster writes back after every turn, declared once beside the world.

    ``rows`` gives the tab's rows as the world keeps them (a row whose ``row`` is 0 is new
    and goes at the bottom); ``columns``, given the world and those rows, the columns the
    world derives rather than keeps on a row (one value a row, e.g. a nation's province
    count). The owned columns are written from the rows' fields, the GM's columns and rows
    kept as they were (:func:`write_rows`).
    """

    table: Table
    rows: Callable[[W], Iterable[Any]]
    columns: Callable[[W, list[Any]], Mapping[str, list[Any]]] | None = None


def write_back(world: W, before: GameState, tabs: Sequence[WrittenTab[W]]
               ) -> dict[str, pd.DataFrame]:
    """Every written tab after the turn, from the world (see :class:`WrittenTab`)."""
    out: dict[str, pd.DataFrame] = {}
    for tab in tabs:
        rows = list(tab.rows(world))
        derived = tab.columns(world, rows) if tab.columns is not None else None
        out[tab.table.tab] = write_rows(tab.table, before.tables[tab.table.tab], rows, derived)
    return out


__all__ = ["WrittenTab", "a", "append_rows", "check_both_sides", "check_not_gm", "check_unique",
           "key_lookups", "load_rows", "write_back", "write_rows"]
