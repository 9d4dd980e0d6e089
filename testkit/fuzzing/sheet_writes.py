"""The store's side of a fuzzed game: order rows appended below the Orders tab, and a
resolved turn written back the way a store writes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from sheetmaster.engine.turn import _orders_tab, find_tab
from sheetmaster.kit import values
from sheetmaster.kit.changes import cell_changes
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import all_tables
from testkit.fuzzing.rows import Formula, _canonical_column

# -- the store's side: appending rows, writing a turn back --------------------------------------


def _raw_orders(raw: GameState) -> str:
    name = find_tab(raw.tables, _orders_tab(raw))
    if name is None:
        raise KeyError("the game has no Orders tab")
    return name


def append_orders(ruleset: Ruleset, raw: GameState, rows: Sequence[Mapping[str, Any]]
                  ) -> GameState:
    """The game with ``rows`` typed below its Orders tab's last row."""
    tab = _raw_orders(raw)
    df = raw.tables[tab]
    headers = {_canonical_column(ruleset, c): c for c in df.columns}
    start = int(max(df.index)) + 1 if len(df) else 2
    index = list(range(start, start + len(rows)))
    formulas = dict(df.attrs.get("formulas") or {})
    data: dict[Any, list[Any]] = {header: [] for header in df.columns}
    for row, cells in zip(index, rows):
        for column, header in headers.items():
            cell = cells.get(column)
            if isinstance(cell, Formula):
                formulas[(row, header)] = cell.text
                cell = cell.cached
            data[header].append(cell)
    new = pd.DataFrame(data, index=index, dtype=object)
    out = pd.concat([df, new]) if len(df) else new
    out.attrs = {"formulas": formulas} if formulas else {}
    return GameState(dict(raw.tables, **{tab: out}), dict(raw.meta))


def write_back(ruleset: Ruleset, raw: GameState, result: TurnResult) -> GameState:
    """The game as a store leaves it after saving ``result``: only the changed cells are set,
    and formulas in player tabs become their text."""
    names = result.before.meta.get("tab_names", {})
    tables = dict(raw.tables)
    by_tab: dict[str, list[Any]] = {}
    for change in cell_changes(ruleset, result):
        by_tab.setdefault(change.tab, []).append(change)
    for table in all_tables(ruleset):
        tab = names.get(table.tab, table.tab)
        df = tables[tab]
        formulas = df.attrs.get("formulas")
        changes = by_tab.get(table.tab, [])
        if not changes and not formulas:
            continue
        df = df.copy()
        df.attrs = {}
        for (row, column), text in (formulas or {}).items():
            df.at[row, column] = text
        headers = {}
        for c in df.columns:
            for declared in table.columns:
                if values.fold(str(c)) in {values.fold(n) for n in
                                           (declared.name, *declared.aliases)}:
                    headers[declared.name] = c
        new_rows = sorted({c.row for c in changes} - set(df.index.tolist()))
        if new_rows:
            df = pd.concat([df, pd.DataFrame(index=new_rows, columns=df.columns, dtype=object)])
        by_column: dict[str, tuple[list[int], list[Any]]] = {}
        for c in changes:
            rows_, cells = by_column.setdefault(c.column, ([], []))
            rows_.append(c.row)
            cells.append(c.after)
        for column, (rows_, cells) in by_column.items():
            header = headers.get(column, column)
            if header not in df.columns:
                df[header] = pd.Series([None] * len(df), index=df.index, dtype=object)
            column_cells = df[header].to_numpy(dtype=object, copy=True)
            column_cells[df.index.get_indexer(rows_)] = cells
            df[header] = pd.Series(column_cells, index=df.index, dtype=object)  # no typing
        tables[tab] = df
    return GameState(tables, dict(raw.meta))
