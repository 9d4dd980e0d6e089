"""Laying out a new game workbook: tabs, headers, notes, dropdowns and a how-to tab."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import openpyxl
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from sheetmaster.engine import all_tables
from sheetmaster.model import GameState
from sheetmaster.ruleset import Ruleset, player_name_columns
from sheetmaster.schema import Table
from sheetmaster.stores.xlsx import save_atomically, set_cell
from sheetmaster.tabs import ORDERS_TAB

HOWTO_TAB = "How to write orders"
_HEADER_FILL = PatternFill("solid", fgColor="DDE7F0")
_OWNED_FILL = PatternFill("solid", fgColor="EDEDED")
_FIXED_TIME = datetime(2026, 1, 1)
#: rows of the Orders tab that get dropdowns.
_ORDER_ROWS = 5000


def write_new_workbook(ruleset: Ruleset, path: Path, state: GameState) -> None:
    """A workbook with every tab of ``ruleset`` holding ``state``'s rows."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    book.properties.creator = "sheetmaster"
    book.properties.created = book.properties.modified = _FIXED_TIME
    _howto(book.create_sheet(HOWTO_TAB), ruleset)
    for table in all_tables(ruleset):
        ws = book.create_sheet(table.tab)
        df = state.tables.get(table.tab)
        columns = [c.name for c in table.columns
                   if (c.optional and c.owned) or (df is not None and c.name in df.columns)
                   or (df is None and not c.optional)]
        _header(ws, table, columns)
        if df is not None:
            for row, record in zip(df.index.tolist(), df.to_dict("records")):
                for i, col in enumerate(columns, start=1):
                    set_cell(ws.cell(row=row, column=i), record.get(col))
    _dropdowns(book, ruleset)
    save_atomically(book, path)


def _header(ws, table: Table, columns: list[str]) -> None:
    for i, name in enumerate(columns, start=1):
        cell = ws.cell(row=1, column=i, value=name)
        cell.font = Font(bold=True)
        column = table.column(name)
        cell.fill = _OWNED_FILL if column.owned and not table.player_input else _HEADER_FILL
        if column.help:
            cell.comment = Comment(column.help, "sheetmaster")
        ws.column_dimensions[get_column_letter(i)].width = max(12, min(40, len(name) + 6))
    ws.freeze_panes = "A2"


def _howto(ws, ruleset: Ruleset) -> None:
    ws.column_dimensions["A"].width = 28
    ws.column_dimensions["B"].width = 100
    ws["A1"] = f"How to write orders ({ruleset.title})"
    ws["A1"].font = Font(bold=True, size=14)
    row = 3
    for paragraph in ruleset.howto:
        ws.cell(row=row, column=2, value=paragraph).alignment = Alignment(wrap_text=True)
        row += 1
    row += 1
    for label in ("order", "what it does", "columns to fill", "example"):
        ws.cell(row=row, column=1 + ("order", "what it does", "columns to fill",
                                     "example").index(label), value=label).font = Font(bold=True)
    row += 1
    for kind in ruleset.order_kinds:
        ws.cell(row=row, column=1, value=kind.name).font = Font(bold=True)
        ws.cell(row=row, column=2, value=kind.help).alignment = Alignment(wrap_text=True)
        fields = ", ".join(f.column + ("" if f.required else " (optional)") for f in kind.fields)
        ws.cell(row=row, column=3, value=fields)
        example = "; ".join(f"{k} = {v}" for k, v in kind.example.items())
        ws.cell(row=row, column=4, value=example)
        row += 1
    ws.column_dimensions["C"].width = 40
    ws.column_dimensions["D"].width = 60


def _dropdowns(book, ruleset: Ruleset) -> None:
    ws = book[ORDERS_TAB]
    header = {c.value: c.column_letter for c in ws[1]}
    kinds = ",".join(k.name for k in ruleset.order_kinds)
    checks = [(header["order"], f'"{kinds}"', "Pick an order from the list.")]
    players = ruleset.players_table()
    if players is not None:
        source = f"'{players.tab}'!$A$2:$A$1000"
        for column in player_name_columns(ruleset):
            if column in header:
                checks.append((header[column], f"={source}", "Pick a player from the list."))
    for letter, formula, prompt in checks:
        dv = DataValidation(type="list", formula1=formula, allow_blank=True,
                            showErrorMessage=False, promptTitle="sheetmaster", prompt=prompt)
        dv.add(f"{letter}2:{letter}{_ORDER_ROWS}")
        ws.add_data_validation(dv)
