"""What a turn changed, cell by cell: the cells of sheetmaster's columns that differ
between the state before the turn and after it, plus every cell of appended rows and the
cleared cells of removed ones. The stores write these; reports and verify read them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Table
from sheetmaster.kit.tabs import all_tables


@dataclass(frozen=True)
class CellChange:
    tab: str
    row: int
    key: str  # the row's name (territory, player...) or '' for keyless tabs
    column: str
    before: Any
    after: Any


def _empty(v: Any) -> bool:
    """None, NaN or '': an empty cell, whichever way it is held."""
    return v is None or v == "" or v != v


def _differing(was: list[Any], now: list[Any]) -> list[int]:
    """Positions where a cell changed (empty cells all alike, 1 the same as 1.0); identity and
    equality are tried first, as a turn can change millions of cells."""
    return [i for i, (a, b) in enumerate(zip(was, now))
            if a is not b and a != b and not (_empty(a) and _empty(b))]


class ColumnChanges(NamedTuple):
    """The changed cells of one column of a tab: rows, old and new values, row keys."""

    column: str
    rows: list[int]
    before: list[Any]
    after: list[Any]
    keys: list[str]


def column_changes(table: Table, before: GameState, after: GameState) -> list[ColumnChanges]:
    """Changed cells of sheetmaster's columns, plus every cell of appended rows, a column at
    a time: the store writes these (and :func:`table_changes` lists them cell by cell)."""
    old = before.tables.get(table.tab)
    new = after.tables.get(table.tab)
    if old is None or new is None:
        return []
    absent = set(old.attrs.get("absent", ()))
    owned = [c.name for c in table.columns
             if c.owned and c.name in new.columns and c.name not in absent]
    out: list[ColumnChanges] = []
    rows = new.index.tolist()
    keys = [str(k or "") for k in new[table.key].tolist()] if table.key else [""] * len(new)
    old_rows = set(old.index.tolist())
    kept = [i for i, r in enumerate(rows) if r in old_rows]
    all_kept = len(kept) == len(rows)
    for col in owned:
        now = new[col].tolist()
        was = (old[col].reindex(new.index).tolist() if col in old.columns
               else [None] * len(new))
        if not all_kept:
            now, was = [now[i] for i in kept], [was[i] for i in kept]
        at = _differing(was, now)
        if at:
            where = at if all_kept else [kept[i] for i in at]
            out.append(ColumnChanges(col, [int(rows[i]) for i in where], [was[i] for i in at],
                                     [now[i] for i in at], [keys[i] for i in where]))
    removed = sorted(old_rows - set(rows))
    if removed:
        # A table that shrank: its old rows are cleared, never left stale.
        gone = old.loc[removed]
        for col in [c.name for c in table.columns if c.name in gone.columns
                    and c.name not in absent]:
            was = gone[col].tolist()
            at = [i for i, v in enumerate(was) if not _empty(v)]
            if at:
                out.append(ColumnChanges(col, [int(removed[i]) for i in at],
                                         [was[i] for i in at], [None] * len(at),
                                         [""] * len(at)))
    if not all_kept:
        kept_set = set(kept)
        added = [r for i, r in enumerate(rows) if i not in kept_set]
        block = new.loc[added]
        for col in [c for c in block.columns if c not in absent]:
            now = block[col].tolist()
            at = [i for i, v in enumerate(now) if not _empty(v)]
            if at:
                out.append(ColumnChanges(col, [int(added[i]) for i in at], [None] * len(at),
                                         [now[i] for i in at], [""] * len(at)))
    return out


def table_changes(table: Table, before: GameState, after: GameState) -> list[CellChange]:
    """Changed cells of sheetmaster's columns, plus every cell of appended rows."""
    return [CellChange(table.tab, row, key, group.column, was, now)
            for group in column_changes(table, before, after)
            for row, key, was, now in zip(group.rows, group.keys, group.before, group.after)]


def cell_changes(ruleset: Ruleset, result: TurnResult) -> list[CellChange]:
    out: list[CellChange] = []
    for table in all_tables(ruleset):
        out.extend(table_changes(table, result.before, result.after))
    return out
