"""Shared pieces of the spreadsheets.batchUpdate request handlers: argument validation
(integers, sheet ids, GridRange, DimensionRange) and the base of the handler mixins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .a1 import _a1
from .errors import _RequestError
from .formulas import _Evaluator
from .model import _Book, _Sheet
from .values import _DIMENSIONS


def _int(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _RequestError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return value


def _sheet(book: _Book, sheet_id: Any) -> _Sheet:
    sheet = book.sheet_by_id(sheet_id)
    if sheet is None:
        raise _RequestError(f"No grid with id: {sheet_id}")
    return sheet


def _grid_range(book: _Book, gr: Any) -> tuple[_Sheet, int, int, int, int]:
    """A GridRange as (sheet, r0, r1, c0, c1), unbounded sides filled from the grid."""
    if not isinstance(gr, dict):
        raise _RequestError("range must be a GridRange object")
    sheet = _sheet(book, gr.get("sheetId", 0))
    r0 = _int(gr.get("startRowIndex", 0), "startRowIndex")
    r1 = _int(gr.get("endRowIndex", sheet.rows), "endRowIndex")
    c0 = _int(gr.get("startColumnIndex", 0), "startColumnIndex")
    c1 = _int(gr.get("endColumnIndex", sheet.cols), "endColumnIndex")
    if r1 < r0 or c1 < c0:
        raise _RequestError("The start index must be less than or equal to the end index")
    if r1 > sheet.rows or c1 > sheet.cols:
        raise _RequestError(
            f"Range ({_a1(sheet, r0, r1, c0, c1)}) exceeds grid limits. "
            f"Max rows: {sheet.rows}, max columns: {sheet.cols}"
        )
    return sheet, r0, r1, c0, c1


def _dim_range(book: _Book, dr: Any, *, allow_end: bool = False) -> tuple[_Sheet, str, int, int]:
    if not isinstance(dr, dict):
        raise _RequestError("range must be a DimensionRange object")
    sheet = _sheet(book, dr.get("sheetId", 0))
    dim = dr.get("dimension")
    if dim not in _DIMENSIONS:
        raise _RequestError(f"Invalid dimension: {dim!r}")
    count = sheet.rows if dim == "ROWS" else sheet.cols
    start = _int(dr.get("startIndex", 0), "startIndex")
    end = _int(dr.get("endIndex", count), "endIndex")
    if end <= start:
        raise _RequestError("endIndex must be greater than startIndex")
    if (start > count if allow_end else end > count):
        raise _RequestError(
            f"Range exceeds grid limits. Max {'rows' if dim == 'ROWS' else 'columns'}: {count}"
        )
    return sheet, dim, start, end


class _Requests:
    """Base of the request handler mixins: ``_r_<kind>`` methods act on ``self.book``."""

    book: _Book
    evaluator_factory: Callable[[_Book], _Evaluator]

    def _protected_ids(self) -> list[int]:
        return [p["protectedRangeId"] for s in self.book.sheets for p in s.protected]
