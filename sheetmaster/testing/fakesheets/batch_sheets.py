"""batchUpdate requests on sheets, spreadsheet properties and dimensions: addSheet,
deleteSheet, duplicateSheet, updateSheetProperties, updateSpreadsheetProperties,
appendDimension, insertDimension, deleteDimension."""

from __future__ import annotations

import copy
from typing import Any

from .batch_common import _dim_range, _int, _Requests, _sheet
from .errors import _RequestError
from .masks import _parse_mask
from .model import DEFAULT_COLS, DEFAULT_ROWS, _Book, _Sheet
from .protection import check_sheet
from .shifting import _shift_dimension
from .values import _DIMENSIONS


def _unique_title(book: _Book, title: str, exclude: _Sheet | None = None) -> None:
    if not isinstance(title, str) or not title.strip():
        raise _RequestError("Sheet title must not be empty")
    clash = book.sheet_by_title(title)
    if clash is not None and clash is not exclude and clash.title.casefold() == title.casefold():
        raise _RequestError(
            f'A sheet with the name "{title}" already exists. Please enter another name.'
        )


def _validate_grid(sheet: _Sheet) -> None:
    grid = sheet.grid
    for key in ("rowCount", "columnCount"):
        _int(grid.get(key), key, 1)
    if grid.get("frozenRowCount", 0) >= grid["rowCount"]:
        raise _RequestError("You can't freeze all visible rows on the sheet.")
    if grid.get("frozenColumnCount", 0) >= grid["columnCount"]:
        raise _RequestError("You can't freeze all visible columns on the sheet.")


class _SheetRequests(_Requests):
    """Request handlers for sheets, spreadsheet properties and rows/columns."""

    def _r_addSheet(self, body: dict[str, Any]) -> dict[str, Any]:
        props = copy.deepcopy(body.get("properties") or {})
        book = self.book
        if props.get("sheetType", "GRID") != "GRID":
            raise _RequestError("FakeSheetsServer only supports GRID sheets")
        title = props.get("title")
        if title is None:
            n = len(book.sheets) + 1
            while book.sheet_by_title(f"Sheet{n}") is not None:
                n += 1
            title = f"Sheet{n}"
        _unique_title(book, title)
        sheet_id = _new_sheet_id(book, props, "sheetId")
        index = _new_index(book, props, "index")
        grid = props.get("gridProperties") or {}
        sheet = _Sheet(sheet_id, title, index, grid.get("rowCount", DEFAULT_ROWS),
                       grid.get("columnCount", DEFAULT_COLS))
        for key, value in grid.items():
            sheet.grid[key] = value
        for key in ("hidden", "tabColor", "tabColorStyle", "rightToLeft"):
            if key in props:
                sheet.props[key] = props[key]
        _validate_grid(sheet)
        book.sheets.insert(index, sheet)
        book.reindex()
        return {"addSheet": {"properties": sheet.properties_json()}}

    def _r_deleteSheet(self, body: dict[str, Any]) -> None:
        book = self.book
        sheet = _sheet(book, body.get("sheetId", 0))
        check_sheet(book, sheet)
        if len(book.sheets) == 1:
            raise _RequestError("You can't remove all the sheets in a document.")
        book.sheets.remove(sheet)
        book.reindex()
        book.named_ranges = [n for n in book.named_ranges
                             if n["range"].get("sheetId", 0) != sheet.id]
        book.metadata = [
            m for m in book.metadata
            if m["location"].get("sheetId") != sheet.id
            and (m["location"].get("dimensionRange") or {}).get("sheetId", -1) != sheet.id
        ]

    def _r_duplicateSheet(self, body: dict[str, Any]) -> dict[str, Any]:
        book = self.book
        source = _sheet(book, body.get("sourceSheetId", 0))
        title = body.get("newSheetName")
        if not title:
            title, n = f"Copy of {source.title}", 2
            while book.sheet_by_title(title) is not None:
                title, n = f"Copy of {source.title} {n}", n + 1
        _unique_title(book, title)
        sheet_id = _new_sheet_id(book, body, "newSheetId")
        index = _new_index(book, body, "insertSheetIndex")
        new = source.clone()
        new.props["sheetId"] = sheet_id
        new.props["title"] = title
        for group in (new.protected, new.merges):
            for item in group:
                target = item.get("range", item)
                if isinstance(target, dict) and "sheetId" in target:
                    target["sheetId"] = sheet_id
        for pr in new.protected:
            pr["protectedRangeId"] = book.new_id(self._protected_ids())
        book.sheets.insert(index, new)
        book.reindex()
        return {"duplicateSheet": {"properties": new.properties_json()}}

    def _r_updateSheetProperties(self, body: dict[str, Any]) -> None:
        props = body.get("properties") or {}
        sheet = _sheet(self.book, props.get("sheetId", 0))
        check_sheet(self.book, sheet)
        fields = body.get("fields")
        if not isinstance(fields, str) or not fields.strip():
            raise _RequestError("fields is required")
        mask = _parse_mask(fields)
        if "*" in mask:
            mask = {k: None for k in props if k != "sheetId"}
        for key, sub in mask.items():
            if key == "sheetId":
                if props.get("sheetId", 0) != sheet.id:
                    raise _RequestError("sheetId cannot be changed")
            elif key == "title":
                _unique_title(self.book, props.get("title", ""), exclude=sheet)
                sheet.props["title"] = props["title"]
            elif key == "index":
                self._move_sheet(sheet, _int(props.get("index", 0), "index"))
            elif key == "gridProperties":
                given = props.get("gridProperties") or {}
                names = list(given) if sub is None else list(sub)
                for name in names:
                    if name not in ("rowCount", "columnCount", "frozenRowCount",
                                    "frozenColumnCount", "hideGridlines",
                                    "rowGroupControlAfter", "columnGroupControlAfter"):
                        raise _RequestError(f"Unknown gridProperties field: {name}")
                    if name in given:
                        sheet.grid[name] = given[name]
                    elif name in ("rowCount", "columnCount"):
                        raise _RequestError(f"{name} must be set when it is in fields")
                    else:
                        sheet.grid.pop(name, None)
                _validate_grid(sheet)
                sheet.drop_outside_grid()
            elif key in ("hidden", "tabColor", "tabColorStyle", "rightToLeft", "sheetType"):
                if key in props:
                    sheet.props[key] = copy.deepcopy(props[key])
                else:
                    sheet.props.pop(key, None)
            else:
                raise _RequestError(f"Invalid field mask: unknown SheetProperties field {key}")
        if all(s.props.get("hidden") for s in self.book.sheets):
            raise _RequestError("You can't hide all the sheets in a document.")

    def _move_sheet(self, sheet: _Sheet, index: int) -> None:
        """Indexes count "before the move", as the API documents."""
        sheets = self.book.sheets
        if index > len(sheets):
            raise _RequestError(f"index {index} is beyond the number of sheets")
        old = sheets.index(sheet)
        sheets.remove(sheet)
        sheets.insert(index - 1 if index > old else index, sheet)
        self.book.reindex()

    def _r_updateSpreadsheetProperties(self, body: dict[str, Any]) -> None:
        props = body.get("properties") or {}
        fields = body.get("fields")
        if not isinstance(fields, str) or not fields.strip():
            raise _RequestError("fields is required")
        mask = _parse_mask(fields)
        if "*" in mask:
            mask = {k: None for k in props}
        allowed = ("title", "locale", "timeZone", "autoRecalc", "defaultFormat",
                   "iterativeCalculationSettings", "spreadsheetTheme",
                   "importFunctionsExternalUrlAccessAllowed")
        for key in mask:
            if key not in allowed:
                raise _RequestError(f"Invalid field mask: unknown SpreadsheetProperties "
                                    f"field {key}")
            if key in props:
                self.book.props[key] = copy.deepcopy(props[key])
            elif key in ("title", "locale", "timeZone"):
                raise _RequestError(f"{key} must be set when it is in fields")
            else:
                self.book.props.pop(key, None)

    # -- dimensions ----------------------------------------------------------------------

    def _r_appendDimension(self, body: dict[str, Any]) -> None:
        sheet = _sheet(self.book, body.get("sheetId", 0))
        check_sheet(self.book, sheet)
        dim = body.get("dimension")
        if dim not in _DIMENSIONS:
            raise _RequestError(f"Invalid dimension: {dim!r}")
        length = _int(body.get("length", 0), "length", 1)
        sheet.grid["rowCount" if dim == "ROWS" else "columnCount"] += length

    def _r_insertDimension(self, body: dict[str, Any]) -> None:
        sheet, dim, start, end = _dim_range(self.book, body.get("range"), allow_end=True)
        check_sheet(self.book, sheet)
        if start == 0 and body.get("inheritFromBefore"):
            raise _RequestError("Cannot inherit properties from before the first row/column")
        sheet.grid["rowCount" if dim == "ROWS" else "columnCount"] += end - start
        _shift_dimension(self.book, sheet, dim, start, end - start)

    def _r_deleteDimension(self, body: dict[str, Any]) -> None:
        sheet, dim, start, end = _dim_range(self.book, body.get("range"))
        check_sheet(self.book, sheet)
        key = "rowCount" if dim == "ROWS" else "columnCount"
        if end - start >= sheet.grid[key]:
            what = "rows" if dim == "ROWS" else "columns"
            raise _RequestError(f"You can't delete all the {what} on the sheet.")
        _shift_dimension(self.book, sheet, dim, start, -(end - start), deleted_end=end)
        sheet.grid[key] -= end - start


def _new_sheet_id(book: _Book, body: dict[str, Any], key: str) -> int:
    """The id a new sheet asks for (it must be free), or the next free one."""
    if key not in body:
        return book.new_id(s.id for s in book.sheets)
    sheet_id = _int(body[key], key)
    if book.sheet_by_id(sheet_id) is not None:
        raise _RequestError(f"A sheet with the id {sheet_id} already exists.")
    return sheet_id


def _new_index(book: _Book, body: dict[str, Any], key: str) -> int:
    """Where a new sheet goes: the asked index (at most one past the last), or the end."""
    index = _int(body.get(key, len(book.sheets)), key)
    if index > len(book.sheets):
        raise _RequestError(f"{key} {index} is beyond the number of sheets")
    return index
