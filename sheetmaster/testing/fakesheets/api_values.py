"""The values endpoints: values.get / update / append / clear and values:batchGet /
batchGetByDataFilter / batchUpdate / batchUpdateByDataFilter / batchClear."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from .a1 import _a1
from .api_base import _ApiBase, _enum, _q, _required_input_option, _truthy
from .errors import _ApiError, _bad
from .formulas import _Evaluator
from .model import MAX_CELLS, _Book, _Sheet
from .shifting import _shift_dimension
from .value_ranges import (
    _clear,
    _clip,
    _find_table,
    _rows_of,
    _update_values,
    _value_range,
    _write,
)
from .values import (
    _DATETIME_OPTIONS,
    _DIMENSIONS,
    _INPUT_OPTIONS,
    _INSERT_OPTIONS,
    _RENDER_OPTIONS,
)


class _ValuesApi(_ApiBase):
    """Handlers of the ``/v4/spreadsheets/{id}/values...`` endpoints."""

    def _values_range(self, method: str, spreadsheet_id: str, raw_range: str,
                      query: dict[str, list[str]], body: Callable[[], dict[str, Any]]) -> dict:
        action = None
        for suffix in (":append", ":clear"):
            if raw_range.endswith(suffix):
                action, raw_range = suffix[1:], raw_range[: -len(suffix)]
        a1 = unquote(raw_range)
        if action is None and method == "GET":
            major = _enum(query, "majorDimension", _DIMENSIONS, "ROWS")
            option = _enum(query, "valueRenderOption", _RENDER_OPTIONS, "FORMATTED_VALUE")
            dates = _enum(query, "dateTimeRenderOption", _DATETIME_OPTIONS, "SERIAL_NUMBER")
            with self._lock:
                book = self._access(spreadsheet_id)
                sheet, box = book.resolve(a1)
                return _value_range(book, sheet, _clip(sheet, box), major, option,
                                    _Evaluator(book), dates)
        if action is None and method == "PUT":
            payload = body()
            option = _required_input_option(query)
            return self._mutate(spreadsheet_id,
                                lambda book: self._update_one(book, a1, payload, option, query))
        if action == "append" and method == "POST":
            payload = body()
            option = _required_input_option(query)
            insert = _enum(query, "insertDataOption", _INSERT_OPTIONS, "OVERWRITE")
            return self._mutate(
                spreadsheet_id,
                lambda book: self._append(book, a1, payload, option, insert, query),
            )
        if action == "clear" and method == "POST":
            body()

            def clear(book: _Book) -> dict[str, Any]:
                return {"spreadsheetId": book.id, "clearedRange": _clear(book, a1)}

            return self._mutate(spreadsheet_id, clear)
        raise _ApiError(404, "Method not found.")

    def _update_one(self, book: _Book, a1: str, payload: dict[str, Any], option: str,
                    params: dict[str, Any]) -> dict[str, Any]:
        result, sheet, bounds = _update_values(book, a1, payload, option)
        if _truthy(_q(params, "includeValuesInResponse")):
            result["updatedData"] = self._response_data(book, sheet, bounds, a1, params)
        return result

    def _response_data(self, book: _Book, sheet: _Sheet, bounds: Any, a1: str,
                       params: dict[str, Any]) -> dict[str, Any]:
        option = _enum(params, "responseValueRenderOption", _RENDER_OPTIONS, "FORMATTED_VALUE")
        if bounds is None:
            box = book.resolve(a1)[1]
            bounds = _clip(sheet, box)
        return _value_range(book, sheet, bounds, "ROWS", option, _Evaluator(book))

    def _append(self, book: _Book, a1: str, payload: dict[str, Any], option: str,
                insert: str, params: dict[str, Any]) -> dict[str, Any]:
        sheet, box = book.resolve(a1)
        rows = _rows_of(payload, "values")
        table = _find_table(sheet, box)
        if table is None:
            write_row, write_col, table_range = box.r0, box.c0, None
        else:
            start, end, left, right, write_col = table
            write_row = end
            table_range = _a1(sheet, start, end, left, right)
        height = len(rows)
        width = max((len(row) for row in rows), default=0)
        if insert == "INSERT_ROWS" and height:
            sheet.grid["rowCount"] = max(sheet.rows, write_row) + height
            _shift_dimension(book, sheet, "ROWS", write_row, height)
        sheet.grid["rowCount"] = max(sheet.rows, write_row + height)
        sheet.grid["columnCount"] = max(sheet.cols, write_col + width)
        if book.total_cells() > MAX_CELLS:
            raise _bad("This action would increase the number of cells in the workbook above "
                       f"the limit of {MAX_CELLS} cells.")
        updates = _write(book, sheet, write_row, write_col, rows, option)
        if height and width and _truthy(_q(params, "includeValuesInResponse")):
            bounds = (write_row, write_row + height, write_col, write_col + width)
            updates["updatedData"] = self._response_data(book, sheet, bounds, a1, params)
        out: dict[str, Any] = {"spreadsheetId": book.id, "updates": updates}
        if table_range:
            out["tableRange"] = table_range
        return out

    def _values_batch(self, method: str, spreadsheet_id: str, action: str,
                      query: dict[str, list[str]], body: Callable[[], dict[str, Any]]) -> dict:
        if action == "batchGet" and method == "GET":
            major = _enum(query, "majorDimension", _DIMENSIONS, "ROWS")
            option = _enum(query, "valueRenderOption", _RENDER_OPTIONS, "FORMATTED_VALUE")
            dates = _enum(query, "dateTimeRenderOption", _DATETIME_OPTIONS, "SERIAL_NUMBER")
            with self._lock:
                book = self._access(spreadsheet_id)
                evaluator = _Evaluator(book)
                ranges = []
                for a1 in query.get("ranges", []):
                    sheet, box = book.resolve(a1)
                    ranges.append(_value_range(book, sheet, _clip(sheet, box), major, option,
                                               evaluator, dates))
                out: dict[str, Any] = {"spreadsheetId": book.id}
                if ranges:
                    out["valueRanges"] = ranges
                return out
        if action == "batchGetByDataFilter" and method == "POST":
            return self._get_by_data_filter(spreadsheet_id, body())
        if action == "batchUpdate" and method == "POST":
            payload = body()
            return self._mutate(spreadsheet_id, lambda book: self._batch_values(book, payload))
        if action == "batchUpdateByDataFilter" and method == "POST":
            payload = body()
            return self._mutate(spreadsheet_id,
                                lambda book: self._batch_values_by_filter(book, payload))
        if action == "batchClear" and method == "POST":
            payload = body()
            ranges = payload.get("ranges") or []
            if not isinstance(ranges, list):
                raise _bad("ranges must be a list")

            def clear(book: _Book) -> dict[str, Any]:
                cleared = [_clear(book, a1) for a1 in ranges]
                out = {"spreadsheetId": book.id}
                if cleared:
                    out["clearedRanges"] = cleared
                return out

            return self._mutate(spreadsheet_id, clear)
        raise _ApiError(404, "Method not found.")

    def _batch_values_by_filter(self, book: _Book, payload: dict[str, Any]) -> dict[str, Any]:
        """values:batchUpdateByDataFilter with ``a1Range`` or ``gridRange`` filters: each
        DataFilterValueRange's values go at the top left of the range its filter selects
        and must fit in it; ``null`` leaves a cell as it is. All of it, or nothing."""
        option = _input_option(payload)
        data = payload.get("data") or []
        if not isinstance(data, list):
            raise _bad("Invalid data: must be a list of DataFilterValueRange")
        answered: list[tuple[dict[str, Any], int]] = []
        for i, value_range in enumerate(data):
            if not isinstance(value_range, dict) or "dataFilter" not in value_range:
                raise _bad(f"Invalid data[{i}]: a dataFilter is required")
            sheet, (r0, r1, c0, c1) = _filtered(book, value_range["dataFilter"])
            if sheet is None:
                continue  # a filter that matches no range writes nothing
            rows = _rows_of(value_range, f"data[{i}].values")
            height, width = len(rows), max((len(row) for row in rows), default=0)
            if r0 + height > r1 or c0 + width > c1:
                raise _bad(f"Invalid data[{i}]: the values do not fit in the range "
                           f"{_a1(sheet, r0, r1, c0, c1)} the data filter selects")
            result = _write(book, sheet, r0, c0, rows, option, f"data[{i}].values")
            result["dataFilter"] = value_range["dataFilter"]
            answered.append((result, sheet.id))
        return _batch_answer(book, answered)

    def _get_by_data_filter(self, spreadsheet_id: str, payload: dict[str, Any]) -> dict:
        """values:batchGetByDataFilter with ``a1Range`` or ``gridRange`` filters (a grid
        range names its tab by sheetId, so a renamed tab is still found)."""
        major = payload.get("majorDimension") or "ROWS"
        option = payload.get("valueRenderOption") or "FORMATTED_VALUE"
        dates = payload.get("dateTimeRenderOption") or "SERIAL_NUMBER"
        for name, value, allowed in (("major_dimension", major, _DIMENSIONS),
                                     ("value_render_option", option, _RENDER_OPTIONS),
                                     ("date_time_render_option", dates, _DATETIME_OPTIONS)):
            if value not in allowed:
                raise _bad(f"Invalid value at '{name}', \"{value}\"")
        filters = payload.get("dataFilters") or []
        if not isinstance(filters, list):
            raise _bad("Invalid dataFilters: must be a list of DataFilter")
        with self._lock:
            book = self._access(spreadsheet_id)
            evaluator = _Evaluator(book)
            found = []
            for data_filter in filters:
                sheet, bounds = _filtered(book, data_filter)
                if sheet is None:
                    continue  # Google answers no range for a filter that matches none
                found.append({"valueRange": _value_range(book, sheet, bounds, major, option,
                                                         evaluator, dates),
                              "dataFilters": [data_filter]})
            out: dict[str, Any] = {"spreadsheetId": book.id}
            if found:
                out["valueRanges"] = found
            return out

    def _batch_values(self, book: _Book, payload: dict[str, Any]) -> dict[str, Any]:
        option = _input_option(payload)
        data = payload.get("data") or []
        if not isinstance(data, list):
            raise _bad("Invalid data: must be a list of ValueRange")
        params = {k: [str(v)] for k, v in payload.items()
                  if k in ("includeValuesInResponse", "responseValueRenderOption")}
        answered: list[tuple[dict[str, Any], int]] = []
        for i, value_range in enumerate(data):
            if not isinstance(value_range, dict) or "range" not in value_range:
                raise _bad(f"Invalid data[{i}]: a range is required")
            result = self._update_one(book, value_range["range"], value_range, option, params)
            answered.append((result, book.resolve(value_range["range"])[0].id))
        return _batch_answer(book, answered)


def _batch_answer(book: _Book, answered: list[tuple[dict[str, Any], int]]) -> dict[str, Any]:
    """A values batch update's answer: each range's result (with its tab's sheetId), and the
    totals of the ranges that changed cells."""
    changed = [(result, sheet) for result, sheet in answered if result.get("updatedCells")]
    out: dict[str, Any] = {"spreadsheetId": book.id}
    if changed:
        out.update(totalUpdatedRows=sum(r["updatedRows"] for r, _ in changed),
                   totalUpdatedColumns=sum(r["updatedColumns"] for r, _ in changed),
                   totalUpdatedCells=sum(r["updatedCells"] for r, _ in changed),
                   totalUpdatedSheets=len({sheet for _, sheet in changed}))
    if answered:
        out["responses"] = [result for result, _ in answered]
    return out


def _input_option(payload: dict[str, Any]) -> str:
    option = payload.get("valueInputOption")
    if option is None or option == "INPUT_VALUE_OPTION_UNSPECIFIED":
        raise _bad("'valueInputOption' is required but not specified")
    if option not in _INPUT_OPTIONS:
        raise _bad(f"Invalid value at 'value_input_option', \"{option}\"")
    return option


def _filtered(book: _Book, data_filter: Any) -> tuple[_Sheet | None, tuple[int, int, int, int]]:
    """The tab and cells a DataFilter selects (None: a sheetId no tab has)."""
    if not isinstance(data_filter, dict) or len(data_filter) != 1:
        raise _bad("Invalid dataFilters: each needs exactly one of a1Range, gridRange or "
                   "developerMetadataLookup")
    if "a1Range" in data_filter:
        sheet, box = book.resolve(str(data_filter["a1Range"]))
        return sheet, _clip(sheet, box)
    grid = data_filter.get("gridRange")
    if not isinstance(grid, dict):
        raise _bad("Invalid dataFilters: only a1Range and gridRange filters are supported")
    sheet = book.sheet_by_id(grid.get("sheetId", 0))
    if sheet is None:
        return None, (0, 0, 0, 0)
    return sheet, (grid.get("startRowIndex", 0), min(grid.get("endRowIndex", sheet.rows),
                                                      sheet.rows),
                   grid.get("startColumnIndex", 0), min(grid.get("endColumnIndex", sheet.cols),
                                                         sheet.cols))
