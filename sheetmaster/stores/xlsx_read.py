"""Reading a workbook file: clear errors for what is not one, bounded work for what is.

python-calamine reads the cells (several times faster than openpyxl). Before it does, each
tab's extent is measured from its XML, since calamine sets aside memory for every cell from
A1 to a tab's last one: a single stray value at XFD1048576 would ask for hundreds of
gigabytes and abort the process. A tab wider than :data:`MAX_CELLS` is refused, naming it.
"""

from __future__ import annotations

import html
import io
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from python_calamine import CalamineWorkbook

from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx_cells import (
    CELL,
    SharedFormulas,
    attrs,
    has_formula,
    prefix_of,
    sheet_patterns,
)
from sheetmaster.stores.xlsx_package import Package, PackageError
from sheetmaster.stores.xlsx_refs import column_index_from_string, get_column_letter
from sheetmaster.stores.xlsx_rows import SheetError, index_rows

#: the most cells (rows x columns, from A1 to its last value) sheetmaster reads in one tab:
#: 20 million, a 10^6-territory game's largest tab with room to spare (about 1.5 GiB read).
MAX_CELLS = 20_000_000
#: a spreadsheet's own size: rows 1..1,048,576 and columns A..XFD.
MAX_ROWS = 1_048_576
MAX_COLUMNS = 16_384
#: the largest worksheet part (uncompressed XML) sheetmaster opens.
MAX_PART_BYTES = 2 * 2**30

#: what reading a damaged zip can raise: bad headers or checksums, a part cut short, an
#: encrypted part (RuntimeError), a compression method zipfile lacks (NotImplementedError).
ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, EOFError, zlib.error,
              RuntimeError, NotImplementedError)
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an .xls, or an encrypted (password) workbook
_ROW_START = re.compile(rb"<(?:[\w.-]+:)?row\b[^>]*?\br=\"([0-9]+)\"")


@dataclass
class SheetFacts:
    """What sheetmaster learns of a tab from its XML before reading its cells."""

    formulas: dict[tuple[int, int], str] = field(default_factory=dict)
    #: (row, column) -> the error value a cell holds, e.g. '#DIV/0!' (calamine reads it as
    #: blank; a Google Sheet gives its text, and so does sheetmaster for a workbook).
    errors: dict[tuple[int, int], str] = field(default_factory=dict)


def open_workbook(path: Path) -> zipfile.ZipFile:
    """The file as a zip package, or a :class:`StoreError` saying what it is instead."""
    if not path.exists():
        raise StoreError(f"{path} does not exist")
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a workbook file")
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError as exc:
        raise StoreError(f"{path} cannot be read: {exc.strerror or exc}") from None
    if not head:
        raise StoreError(f"{path} is empty (0 bytes): not a workbook; restore it from a "
                         f"backup")
    if head == _OLE2:
        raise StoreError(f"{path} is an old-style .xls file or a password-protected "
                         f"workbook; save it as an unprotected .xlsx and run again")
    try:
        return zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        what = "cut short (truncated)" if head.startswith(b"PK") else "not a zip file"
        raise StoreError(f"{path} is not a readable .xlsx workbook: the file is {what}") \
            from None


def check_readable(path: Path) -> dict[str, SheetFacts]:
    """Every tab's formulas, once its size has been found within the limits."""
    with open_workbook(path) as z:
        try:
            package = Package.read(z)
            facts = {}
            for name, part in package.sheets.items():
                info = z.getinfo(part)
                if info.file_size > MAX_PART_BYTES:
                    raise StoreError(f"tab '{name}' is {info.file_size / 2**30:.1f} GiB of "
                                     f"XML; sheetmaster reads tabs of up to 2 GiB")
                data = z.read(part)
                check_extent(name, data)
                facts[name] = SheetFacts(formula_cells(data), error_cells(data))
            return facts
        except (PackageError, SheetError, *ZIP_ERRORS) as exc:
            raise StoreError(f"{path} is not a readable .xlsx workbook: {exc}") from None


def extent(data: bytes) -> tuple[int, int]:
    """(last row, last column) a tab's values reach, at least as far as calamine will read.

    Cheap: the last value is found from the end of the XML; cells are looked at one by one
    only for columns past Z, or when the tab is long enough for its width to matter.
    """
    prefix = prefix_of(data)
    ends = [data.rfind(b"</" + prefix + b"v>"), data.rfind(b"</" + prefix + b"is>"),
            data.rfind(b"<" + prefix + b"f>"), data.rfind(b"<" + prefix + b"f ")]
    row = _row_number_at(data, max(ends), prefix)
    if row * MAX_COLUMNS <= MAX_CELLS:
        return row, 0
    wide = {m.group(1) for m in sheet_patterns(prefix).wide_cell.finditer(data)}
    if wide:
        return row, max(column_index_from_string(c.decode()) for c in wide)
    if row * 26 <= MAX_CELLS:
        return row, 26
    narrow = {m.group(1) for m in sheet_patterns(prefix).narrow_cell.finditer(data)}
    return row, max((column_index_from_string(c.decode()) for c in narrow), default=0)


def _row_number_at(data: bytes, position: int, prefix: bytes) -> int:
    """The number of the row a byte position of the XML lies in (0 if none)."""
    if position < 0:
        return 0
    tag = b"<" + prefix + b"row"
    start = position
    while True:
        start = data.rfind(tag, 0, start)
        if start < 0:
            return 0
        if data[start + len(tag):start + len(tag) + 1] in (b" ", b">", b"/", b"\t",
                                                           b"\n", b"\r"):
            break
    m = _ROW_START.match(data, start)
    if m is not None and m.end() <= position:
        return int(m.group(1))
    return index_rows(data[:position] + b"</" + prefix + b"row></" + prefix
                      + b"sheetData>").numbers[-1]


def check_extent(name: str, data: bytes) -> None:
    """Refuse a tab whose values reach too far for a bounded read."""
    rows, columns = extent(data)
    if rows > MAX_ROWS or columns > MAX_COLUMNS:
        raise StoreError(f"tab '{name}' has a cell past the last row or column a spreadsheet "
                         f"can have (row {rows}, column {columns})")
    if rows * columns <= MAX_CELLS:
        return
    far = f"{get_column_letter(columns)}{rows}" if columns else f"row {rows}"
    raise StoreError(
        f"tab '{name}' reaches as far as {far}: {rows:,} rows x {columns:,} columns from A1 "
        f"is more than the {MAX_CELLS:,} cells sheetmaster reads in a tab. Delete what is in "
        f"the far-off cells (select the rows or columns past your data, right-click, Delete) "
        f"and save the workbook again.")


#: an error cell's type attribute (``<c r="E2" t="e"><v>#DIV/0!</v></c>``).
_ERROR_TYPE = re.compile(rb"""\bt\s*=\s*["']e["']""")
_VALUE = re.compile(rb"<(?:[\w.-]+:)?v\b[^>]*>(.*?)</(?:[\w.-]+:)?v>", re.S)


def error_cells(data: bytes) -> dict[tuple[int, int], str]:
    """(row, column) -> the error value each error cell holds (``#DIV/0!``, ``#N/A``...),
    whether a formula's result or pasted as a value.

    calamine reads an error cell as blank, which would let a failed formula pass for a blank
    cell (an order "needs the 'amount' column filled in", a state cell taken as its default);
    the error's own text is what a Google Sheet gives, and what the reason then names.
    """
    if _ERROR_TYPE.search(data) is None:
        return {}
    found = {}
    for number, column, cell_attrs, content in _cells_of_rows(data, _ERROR_TYPE):
        if attrs(cell_attrs).get(b"t") == b"e":
            value = _VALUE.search(content)
            text = html.unescape(value.group(1).decode("utf-8", "replace")).strip() \
                if value else ""
            found[(number, column)] = text or "#N/A"
    return found


def _cells_of_rows(data: bytes, marker: re.Pattern[bytes]
                   ) -> Iterator[tuple[int, int, bytes, bytes]]:
    """(row, column, attributes, content) of every cell of each row where ``marker`` is
    found; the other rows are not looked at."""
    index = index_rows(data)
    lo, hi = index.content
    rows = sorted({i for m in marker.finditer(data, lo, hi)
                   if (i := index.row_at(m.start())) is not None})
    for i in rows:
        number, column = index.numbers[i], 0
        for cell in CELL.finditer(data, index.tag_ends[i], index.end(i)):
            ref = re.search(rb'\br="([A-Z]+)[0-9]+"', cell.group(1))
            column = column_index_from_string(ref.group(1).decode()) if ref else column + 1
            yield number, column, cell.group(1), cell.group(2) or b""


def formula_cells(data: bytes) -> dict[tuple[int, int], str]:
    """(row, column) -> '=formula' of every formula cell of a tab, shared ones translated.

    calamine gives a formula's cached value; a player who typed =HYPERLINK(...) must be told,
    so the formula text is found here, looking only at the rows that hold one.
    """
    if not has_formula(data):
        return {}
    shared = SharedFormulas()
    found: dict[tuple[int, int], str] = {}
    marker = sheet_patterns(prefix_of(data)).formula
    for number, column, _attrs, content in _cells_of_rows(data, marker):
        if b"<" in content:
            text = shared.text(f"{get_column_letter(column)}{number}", content)
            if text is not None:
                found[(number, column)] = text
    return found


def read_cells(path: Path) -> dict[str, tuple[list[list[Any]], list[Any]]]:
    """Every tab's rows (from A1) and merged ranges, by python-calamine.

    The file is read into memory first and the reader closed, so nothing holds it open (on
    Windows an open file cannot be replaced).
    """
    data = path.read_bytes()
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    except Exception as exc:  # calamine raises its own error types
        raise StoreError(f"{path} is not a readable .xlsx workbook: {exc}") from None
    try:
        out = {}
        for meta in book.sheets_metadata:
            if "WorkSheet" not in str(meta.typ):
                continue
            sheet = book.get_sheet_by_name(meta.name)
            out[meta.name] = (sheet.to_python(skip_empty_area=False),
                              list(sheet.merged_cell_ranges or []))
        return out
    except Exception as exc:
        raise StoreError(f"{path} is not a readable .xlsx workbook: {exc}") from None
    finally:
        book.close()


__all__ = ["MAX_CELLS", "ZIP_ERRORS", "MAX_COLUMNS", "MAX_ROWS", "SheetFacts", "check_extent",
           "check_readable", "error_cells", "extent", "formula_cells", "open_workbook",
           "read_cells"]
