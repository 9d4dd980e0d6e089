"""Laying out a new game workbook: tabs, headers, notes, dropdowns and a how-to tab.

New workbooks are written with openpyxl (a resolved turn is patched into an existing one by
``xlsx_write`` instead), with fixed zip entry times so the same game gives the same bytes.
"""

from __future__ import annotations

import re
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from sheetmaster.kit import values
from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset, player_name_columns
from sheetmaster.kit.schema import Table
from sheetmaster.kit.tabs import ORDERS_TAB, all_tables
from sheetmaster.stores.xlsx_files import file_mode, replace_atomically, temp_beside

HOWTO_TAB = "How to write orders"
_HEADER_FILL = PatternFill("solid", fgColor="DDE7F0")
_OWNED_FILL = PatternFill("solid", fgColor="EDEDED")
_FIXED_TIME = datetime(2026, 1, 1)
#: rows of the Orders tab that get dropdowns.
_ORDER_ROWS = 5000
#: zip entries get this fixed time so the same game gives the same bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


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


def set_cell(cell: Any, value: Any) -> None:
    """Store a value; text is always stored as text, never run as a formula."""
    if values.is_blank(value):
        cell.value = None
    elif isinstance(value, str):
        cell.value = value
        cell.data_type = "s"
    else:
        cell.value = value


def save_atomically(book: openpyxl.Workbook, target: Path) -> None:
    """Save beside the target, make the bytes reproducible, fsync, then rename over it."""
    target = Path(target)
    # openpyxl stamps "modified" with the clock; keep the workbook's own, so the same game
    # gives the same bytes.
    modified = book.properties.modified or _FIXED_TIME
    with temp_beside(target) as raw, temp_beside(target) as final:
        book.save(raw)
        normalize_zip(raw, final, modified)
        final.chmod(file_mode(target))
        replace_atomically(final, target)


def normalize_zip(src: Path, dst: Path, modified: datetime | None = None) -> None:
    """Rewrite a zip with fixed entry times (and ``modified`` as the document's modified
    time) so equal content gives equal bytes."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=_ZIP_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            data = zin.read(info.filename)
            if info.filename == "docProps/core.xml" and modified is not None:
                stamp = modified.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
                data = _MODIFIED.sub(rb"\g<1>" + stamp + rb"\g<2>", data)
            zout.writestr(fixed, data)
