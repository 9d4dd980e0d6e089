"""Reading and writing values: ValueRange output, clipping, matrix writes, values.append's
table detection, clearing, and grid data (``includeGridData``)."""

from __future__ import annotations

import copy
from typing import Any

from .a1 import _a1, _Box, col_letters
from .errors import _bad
from .formulas import _Evaluator
from .model import _Book, _Cell, _Sheet
from .number_formats import is_date_format
from .protection import check_cells
from .values import _DIMENSIONS, _entered, _extended, _format, _json_value


def _render(evaluator: _Evaluator, sheet: _Sheet, r: int, c: int, cell: _Cell, option: str,
            datetime_option: str = "SERIAL_NUMBER") -> Any:
    if option == "FORMULA" and cell.formula:
        return cell.value
    effective = evaluator.value(sheet, r, c)
    fmt = None if cell.formula else cell.fmt
    locale = evaluator.book.props.get("locale", "en_US")
    if option == "FORMATTED_VALUE":
        return _format(effective, fmt, locale)
    if (datetime_option == "FORMATTED_STRING" and is_date_format(fmt)
            and isinstance(effective, (int, float)) and not isinstance(effective, bool)):
        return _format(effective, fmt, locale)
    return _json_value(effective)


def _clip(sheet: _Sheet, box: _Box) -> tuple[int, int, int, int]:
    if box.r0 >= sheet.rows or box.c0 >= sheet.cols:
        raise _bad(
            f"Range ({_a1(sheet, box.r0, box.r1, box.c0, box.c1)}) exceeds grid limits. "
            f"Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    r1 = sheet.rows if box.r1 is None else min(box.r1, sheet.rows)
    c1 = sheet.cols if box.c1 is None else min(box.c1, sheet.cols)
    return box.r0, r1, box.c0, c1


def _value_range(
    book: _Book, sheet: _Sheet, bounds: tuple[int, int, int, int], major: str, option: str,
    evaluator: _Evaluator, datetime_option: str = "SERIAL_NUMBER",
) -> dict[str, Any]:
    r0, r1, c0, c1 = bounds
    present: dict[int, dict[int, Any]] = {}
    for (r, c), cell in sheet.cells.items():
        if r0 <= r < r1 and c0 <= c < c1 and cell.value is not None:
            outer, inner = (r, c) if major == "ROWS" else (c, r)
            present.setdefault(outer, {})[inner] = _render(evaluator, sheet, r, c, cell, option,
                                                                datetime_option)
    out: dict[str, Any] = {"range": _a1(sheet, r0, r1, c0, c1), "majorDimension": major}
    if present:
        first_outer, first_inner = (r0, c0) if major == "ROWS" else (c0, r0)
        matrix = []
        for outer in range(first_outer, max(present) + 1):
            line = present.get(outer)
            if not line:
                matrix.append([])
                continue
            matrix.append([line.get(i, "") for i in range(first_inner, max(line) + 1)])
        out["values"] = matrix
    return out


def _rows_of(body: dict[str, Any], where: str) -> list[list[Any]]:
    values = body.get("values", [])
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(v, list) for v in values):
        raise _bad(f"Invalid {where}: values must be a list of lists")
    major = body.get("majorDimension") or "ROWS"
    if major not in _DIMENSIONS:
        raise _bad(f"Invalid value at '{where}.major_dimension', \"{major}\"")
    if major == "COLUMNS" and values:
        height = max(len(col) for col in values)
        return [[col[i] if i < len(col) else None for col in values] for i in range(height)]
    return values


def _write(
    book: _Book, sheet: _Sheet, r0: int, c0: int, rows: list[list[Any]], option: str,
    where: str = "values",
) -> dict[str, Any]:
    """Write a matrix at (r0, c0); returns the UpdateValuesResponse counts."""
    if any(v is not None for row in rows for v in row):
        check_cells(book, sheet, r0, r0 + len(rows), c0,
                    c0 + max((len(row) for row in rows), default=0))
    touched_rows: set[int] = set()
    touched_cols: set[int] = set()
    count = 0
    locale = book.props.get("locale", "en_US")
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            if value is None:
                continue
            sheet.set_value(r0 + i, c0 + j, _entered(value, option, f"{where}[{i}][{j}]", locale))
            touched_rows.add(i)
            touched_cols.add(j)
            count += 1
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    out: dict[str, Any] = {"spreadsheetId": book.id}
    if height and width:
        out["updatedRange"] = _a1(sheet, r0, r0 + height, c0, c0 + width)
    if count:
        out.update(
            updatedRows=len(touched_rows), updatedColumns=len(touched_cols), updatedCells=count
        )
    return out


def _update_values(
    book: _Book, a1: str, body: dict[str, Any], option: str, where: str = "values"
) -> tuple[dict[str, Any], _Sheet, tuple[int, int, int, int] | None]:
    sheet, box = book.resolve(a1)
    rows = _rows_of(body, where)
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    if height and width and not box.single:  # a single cell is an anchor, not a bound
        if box.r1 is not None and box.r0 + height > box.r1:
            raise _bad(
                f"Requested writing within range [{_a1(sheet, box.r0, box.r1, box.c0, box.c1)}],"
                f" but tried writing to row [{box.r0 + height}]"
            )
        if box.c1 is not None and box.c0 + width > box.c1:
            raise _bad(
                f"Requested writing within range [{_a1(sheet, box.r0, box.r1, box.c0, box.c1)}],"
                f" but tried writing to column [{col_letters(box.c0 + width - 1)}]"
            )
    if height and width and (box.r0 + height > sheet.rows or box.c0 + width > sheet.cols):
        raise _bad(
            f"Range ({_a1(sheet, box.r0, box.r0 + height, box.c0, box.c0 + width)}) "
            f"exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    result = _write(book, sheet, box.r0, box.c0, rows, option, where)
    bounds = (box.r0, box.r0 + height, box.c0, box.c0 + width) if height and width else None
    return result, sheet, bounds


def _row_filled(sheet: _Sheet, r: int, c0: int, c1: int) -> bool:
    return any(
        (cell := sheet.cells.get((r, c))) is not None and cell.value is not None
        for c in range(c0, c1)
    )


def _find_table(sheet: _Sheet, box: _Box) -> tuple[int, int, int, int, int] | None:
    """Heuristic for values.append's "table": (start, end, c0, c1, write_col) or None.

    Columns scanned: the range's columns (a single cell scans only its own column; a
    whole-sheet or open range scans to the right edge). With an explicit start row the table
    starts at that row (an empty start row means an empty table, so the data goes there --
    what gspread's insert_rows/insert_cols rely on); otherwise it starts at the first non-empty
    row. The table runs over contiguous non-empty rows; values go in the next row.
    """
    c0 = box.c0
    c1 = c0 + 1 if box.single else (sheet.cols if box.c1 is None else min(box.c1, sheet.cols))
    row_limit = sheet.rows if box.r1 is None else min(box.r1, sheet.rows)
    occupied = sorted({r for (r, c), cell in sheet.cells.items()
                       if cell.value is not None and c0 <= c < c1 and box.r0 <= r})
    if box.explicit_row:
        start = box.r0
    else:
        inside = [r for r in occupied if r < row_limit]
        if not inside:
            return None
        start = inside[0]
    end = start
    filled = set(occupied)
    while end in filled:
        end += 1
    if end == start:
        return None
    used_cols = [c for (r, c), cell in sheet.cells.items()
                 if cell.value is not None and start <= r < end and c0 <= c < c1]
    left = box.c0 if box.explicit_row or box.c0 else min(used_cols)
    return start, end, left, max(used_cols) + 1, left


def _grid_data(sheet: _Sheet, bounds: tuple[int, int, int, int],
               evaluator: _Evaluator) -> dict[str, Any]:
    r0, r1, c0, c1 = bounds
    by_row: dict[int, dict[int, _Cell]] = {}
    for (r, c), cell in sheet.cells.items():
        if r0 <= r < r1 and c0 <= c < c1:
            by_row.setdefault(r, {})[c] = cell
    out: dict[str, Any] = {}
    if r0:
        out["startRow"] = r0
    if c0:
        out["startColumn"] = c0
    rows = []
    for r in range(r0, max(by_row) + 1 if by_row else r0):
        line = by_row.get(r)
        if not line:
            rows.append({})
            continue
        values = []
        for c in range(c0, max(line) + 1):
            cell = line.get(c)
            data: dict[str, Any] = {}
            if cell is not None:
                if cell.value is not None:
                    effective = evaluator.value(sheet, r, c)
                    data["userEnteredValue"] = _extended(cell.value, cell.formula)
                    data["effectiveValue"] = _extended(effective)
                    data["formattedValue"] = _format(
                        effective, None if cell.formula else cell.fmt,
                        evaluator.book.props.get("locale", "en_US"))
                if cell.fmt:
                    data["userEnteredFormat"] = copy.deepcopy(cell.fmt)
                if cell.note:
                    data["note"] = cell.note
                if cell.validation:
                    data["dataValidation"] = copy.deepcopy(cell.validation)
            values.append(data)
        rows.append({"values": values})
    out["rowData"] = rows
    return out


def _clear(book: _Book, a1: str) -> str:
    sheet, box = book.resolve(a1)
    r0, r1, c0, c1 = _clip(sheet, box)
    check_cells(book, sheet, r0, r1, c0, c1)
    for (r, c) in [k for k in sheet.cells if r0 <= k[0] < r1 and c0 <= k[1] < c1]:
        sheet.set_value(r, c, None)
    return _a1(sheet, r0, r1, c0, c1)
