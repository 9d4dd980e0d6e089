"""Writing a turn into a workbook: the tabs sheetmaster writes are patched, every other part
of the file is copied as it is.

A turn's cells go into the worksheet parts of the tabs that changed (see ``xlsx_sheet``).
Two more parts change, and only when they must: the workbook part's ``calcPr`` asks Excel and
LibreOffice to recalculate formulas on opening (a GM's formula over a tab sheetmaster
wrote would show a stale value otherwise), and the calculation chain (``calcChain.xml``, a
cache Excel rebuilds) is dropped when a cell that held a formula was overwritten, since
Excel would call the file damaged if it listed a formula that is gone.
"""

from __future__ import annotations

import re
import zipfile
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheetmaster.kit import values
from sheetmaster.kit.changes import ColumnChanges
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx_cells import attrs, has_formula
from sheetmaster.stores.xlsx_package import Package, SharedStrings, header_names
from sheetmaster.stores.xlsx_read import MAX_ROWS
from sheetmaster.stores.xlsx_refs import range_boundaries
from sheetmaster.stores.xlsx_sheet import CellError, SheetError, SheetPatch

_CALC_PR = re.compile(rb"<((?:[\w.-]+:)?)calcPr\b([^>]*?)(/?)>")
_FULL_CALC = re.compile(rb'\bfullCalcOnLoad="[^"]*"')
#: the elements that follow calcPr in a workbook part, in the schema's order.
_AFTER_CALC_PR = re.compile(rb"<(?:[\w.-]+:)?(?:oleSize|customWorkbookViews|pivotCaches|"
                            rb"smartTagPr|smartTagTypes|webPublishing|fileRecoveryPr|"
                            rb"webPublishObjects|extLst)\b|</(?:[\w.-]+:)?workbook>")
_SPREAD_FORMULA = re.compile(rb"<(?:[\w.-]+:)?f\b([^>]*\bt=\"(?:array|dataTable)\"[^>]*)>")
#: zlib level of the parts sheetmaster rewrites: 3x faster than the default, 25% larger.
_FAST = 1


@dataclass
class TabEdits:
    """What to write into one tab: ``cells[row][column] = value``."""

    tab: str
    part: str
    cells: dict[int, dict[int, Any]] = field(default_factory=dict)
    player_input: bool = False  # formulas in rows 2 on become their text
    columns: dict[int, str] = field(default_factory=dict)  # column number -> its name


@dataclass
class Columns:
    """The names a column of sheetmaster's may be headed by, per game tab."""

    aliases: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    player_tabs: set[str] = field(default_factory=set)

    def names(self, tab: str, column: str) -> Iterable[str]:
        yield column
        yield from self.aliases.get(tab, {}).get(column, ())


def _sheet_part(package: Package, tab: str) -> tuple[str, str]:
    part = package.sheets.get(tab)
    if part is not None:
        return tab, part
    raise StoreError(f"the workbook has no tab '{tab}'")


#: a turn's changes: (game tab, the changed cells of one of its columns).
Changes = list[tuple[str, ColumnChanges]]


def plan(z: zipfile.ZipFile, package: Package, changes: Changes, tab_names: dict[str, str],
         columns: Columns) -> dict[str, TabEdits]:
    """Group the turn's changes per worksheet part, columns found by their headers."""
    strings = SharedStrings(z, package.shared_strings)
    plans: dict[str, TabEdits] = {}
    for tab in columns.player_tabs:
        try:
            name, part = _sheet_part(package, tab_names.get(tab, tab))
        except StoreError:
            continue  # the engine has already said so
        plans[part] = TabEdits(name, part, player_input=True)
    headers: dict[str, dict[str, int]] = {}
    for tab, group in changes:
        name, part = _sheet_part(package, tab_names.get(tab, tab))
        edits = plans.setdefault(part, TabEdits(name, part))
        header = headers.get(part)
        if header is None:
            header = headers[part] = {}
            for number, text in header_names(z.read(part), strings).items():
                header.setdefault(values.fold(text), number)
        column = next((header[values.fold(n)] for n in columns.names(tab, group.column)
                       if values.fold(n) in header), None)
        if column is None:
            raise StoreError(f"tab '{name}' has no column '{group.column}'")
        edits.columns[column] = group.column
        cells = edits.cells
        for row, value in zip(group.rows, group.after):
            if row > MAX_ROWS:
                raise StoreError(f"tab '{name}' would need row {row}, past the last row a "
                                 f"spreadsheet has ({MAX_ROWS:,}); nothing was written")
            at = cells.get(row)
            if at is None:
                cells[row] = {column: value}
            else:
                at[column] = value
    return plans


def write_turn(source: Path, temp: Path, changes: Changes, tab_names: dict[str, str],
               columns: Columns) -> None:
    """Write ``source`` with the turn's changes into ``temp``, part by part."""
    with zipfile.ZipFile(source) as z:
        package = Package.read(z)
        if any(name.startswith("xl/revisions/") for name in package.names):
            raise StoreError("this is a shared workbook that tracks changes (Review > Share "
                             "Workbook (Legacy)): its change history would no longer match "
                             "the cells. Turn sharing off, save, and run again; nothing was "
                             "written")
        plans = plan(z, package, changes, tab_names, columns)
        patched: dict[str, bytes] = {}
        dropped = False
        for part, edits in plans.items():
            data = z.read(part)
            if not edits.cells and not (edits.player_input and has_formula(data)):
                continue
            refuse_array_formulas(edits, data)
            try:
                result = SheetPatch(data, edits.cells,
                                    2 if edits.player_input else None).apply()
            except SheetError as exc:
                raise StoreError(f"tab '{edits.tab}' cannot be written: {exc}") from None
            except CellError as exc:
                raise StoreError(f"tab '{edits.tab}', row {exc.row}, column "
                                 f"'{edits.columns.get(exc.column, exc.column)}': {exc}; "
                                 f"nothing was written") from None
            patched[part] = result.data
            dropped = dropped or result.dropped_formulas
        if patched and (package.calc_chain or any(
                has_formula(patched.get(part) or z.read(part))
                for part in package.sheets.values())):
            patched[package.workbook] = recalc_on_load(z.read(package.workbook))
        drop = {package.calc_chain} if dropped and package.calc_chain else set()
        if drop:
            patched.update(_without_calc_chain(z, package))
        _copy(z, temp, patched, drop)


def refuse_array_formulas(edits: TabEdits, data: bytes) -> None:
    """A cell sheetmaster writes must not lie inside an array formula's (or a data table's)
    range but its first cell: Excel would find part of an array changed and call the file
    damaged. Refused before anything is written, naming both."""
    if not has_formula(data):
        return
    for m in _SPREAD_FORMULA.finditer(data):
        a = attrs(m.group(1))
        if a.get(b"t") not in (b"array", b"dataTable") or b":" not in a.get(b"ref", b""):
            continue
        ref = a[b"ref"].decode()
        lo_col, lo_row, hi_col, hi_row = range_boundaries(ref)
        rows = sorted(edits.cells)
        for row in rows[bisect_left(rows, lo_row):bisect_right(rows, hi_row)]:
            for column in edits.cells[row]:
                if lo_col <= column <= hi_col and (row, column) != (lo_row, lo_col):
                    raise StoreError(
                        f"tab '{edits.tab}', row {row}, column "
                        f"'{edits.columns.get(column, column)}': the cell is part of an "
                        f"array formula over {ref}, which sheetmaster would break; move "
                        f"the formula out of sheetmaster's columns. Nothing was written")


def recalc_on_load(workbook: bytes) -> bytes:
    """The workbook part with ``fullCalcOnLoad="1"``: formulas are recalculated on opening."""
    m = _CALC_PR.search(workbook)
    if m is not None:
        if _FULL_CALC.search(m.group(2)):
            attrs = _FULL_CALC.sub(b'fullCalcOnLoad="1"', m.group(2))
        else:
            attrs = m.group(2) + b' fullCalcOnLoad="1"'
        tag = b"<" + m.group(1) + b"calcPr" + attrs + (b"/>" if m.group(3) else b">")
        return workbook[:m.start()] + tag + workbook[m.end():]
    after = _AFTER_CALC_PR.search(workbook)
    if after is None:
        return workbook
    prefix = re.match(rb"[\s\S]*?<((?:[\w.-]+:)?)workbook\b", workbook)
    ns = prefix.group(1) if prefix else b""
    return workbook[:after.start()] + b"<" + ns + b'calcPr fullCalcOnLoad="1"/>' + \
        workbook[after.start():]


def _without_calc_chain(z: zipfile.ZipFile, package: Package) -> dict[str, bytes]:
    """The content types and the workbook's relationships without the calculation chain."""
    chain = package.calc_chain
    assert chain is not None
    name = chain.rsplit("/", 1)[-1].encode()
    folder, base = package.workbook.rsplit("/", 1) if "/" in package.workbook else \
        ("", package.workbook)
    rels = f"{folder}/_rels/{base}.rels".lstrip("/")
    out = {}
    types = z.read("[Content_Types].xml")
    out["[Content_Types].xml"] = re.sub(
        rb'<(?:[\w.-]+:)?Override\b[^>]*PartName="/' + re.escape(chain.encode()) +
        rb'"[^>]*/>', b"", types)
    out[rels] = re.sub(rb'<(?:[\w.-]+:)?Relationship\b[^>]*Target="[^"]*' +
                       re.escape(name) + rb'"[^>]*/>', b"", z.read(rels))
    return out


def _copy(z: zipfile.ZipFile, temp: Path, patched: dict[str, bytes], drop: set[str]) -> None:
    """Every part in its place and order: patched parts rewritten, the others as they were
    (same content, same name, same date)."""
    with zipfile.ZipFile(temp, "w") as out:
        out.comment = z.comment
        for info in z.infolist():
            if info.filename in drop:
                continue
            data = patched.get(info.filename)
            fresh = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            fresh.compress_type = info.compress_type
            fresh.external_attr = info.external_attr
            fresh.create_system = info.create_system
            if data is None:
                out.writestr(fresh, z.read(info.filename))
            else:  # large, and rewritten on every turn: the fastest compression
                out.writestr(fresh, data, compresslevel=_FAST)


__all__ = ["Changes", "Columns", "TabEdits", "plan", "recalc_on_load", "write_turn"]
