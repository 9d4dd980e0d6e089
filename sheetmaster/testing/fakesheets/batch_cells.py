"""batchUpdate requests on cells: updateCells, repeatCell, setDataValidation, sortRange,
copyPaste, cutPaste; CellData field masks and data validation rules."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from .a1 import _a1
from .batch_common import _grid_range, _int, _Requests, _sheet
from .errors import _ApiError, _RequestError
from .formulas import _sort_key
from .masks import _MaskTree, _parse_mask
from .model import _Cell, _Sheet
from .protection import check_cells
from .values import _from_extended, _json_value

_CELL_FIELDS = ("userEnteredValue", "userEnteredFormat", "note", "dataValidation")
_IGNORED_CELL_FIELDS = ("textFormatRuns", "pivotTable", "dataSourceTable", "chipRuns",
                        "dataSourceFormula", "hyperlink", "effectiveValue", "formattedValue",
                        "effectiveFormat")
_CONDITION_TYPES = (
    "NUMBER_GREATER", "NUMBER_GREATER_THAN_EQ", "NUMBER_LESS", "NUMBER_LESS_THAN_EQ",
    "NUMBER_EQ", "NUMBER_NOT_EQ", "NUMBER_BETWEEN", "NUMBER_NOT_BETWEEN", "TEXT_CONTAINS",
    "TEXT_NOT_CONTAINS", "TEXT_STARTS_WITH", "TEXT_ENDS_WITH", "TEXT_EQ", "TEXT_IS_EMAIL",
    "TEXT_IS_URL", "DATE_EQ", "DATE_BEFORE", "DATE_AFTER", "DATE_ON_OR_BEFORE",
    "DATE_ON_OR_AFTER", "DATE_BETWEEN", "DATE_NOT_BETWEEN", "DATE_IS_VALID", "ONE_OF_RANGE",
    "ONE_OF_LIST", "BLANK", "NOT_BLANK", "CUSTOM_FORMULA", "BOOLEAN", "TEXT_NOT_EQ",
    "DATE_NOT_EQ", "FILTER_EXPRESSION",
)


def _check_rule(rule: Any) -> dict[str, Any]:
    if not isinstance(rule, dict) or not isinstance(rule.get("condition"), dict):
        raise _RequestError("A data validation rule needs a condition")
    kind = rule["condition"].get("type")
    if kind not in _CONDITION_TYPES:
        raise _RequestError(f"Invalid condition type: {kind!r}")
    if kind in ("ONE_OF_LIST", "ONE_OF_RANGE") and not rule["condition"].get("values"):
        raise _RequestError(f"{kind} condition requires values")
    return copy.deepcopy(rule)


def _cell_field_mask(fields: Any) -> _MaskTree:
    if not isinstance(fields, str) or not fields.strip():
        raise _RequestError("fields is required (use '*' for all fields)")
    try:
        mask = _parse_mask(fields)
    except _ApiError as err:
        raise _RequestError(err.message) from None
    if "*" in mask:
        return {name: None for name in _CELL_FIELDS}
    for name in mask:
        if name not in _CELL_FIELDS and name not in _IGNORED_CELL_FIELDS:
            raise _RequestError(f"Invalid field mask: unknown CellData field {name!r}")
    return mask


def _apply_cell(sheet: _Sheet, r: int, c: int, data: dict[str, Any], mask: _MaskTree) -> None:
    if not isinstance(data, dict):
        raise _RequestError("cell data must be a CellData object")
    changes: dict[str, Any] = {}
    if "userEnteredValue" in mask:
        entered = _from_extended(data.get("userEnteredValue"))
        changes["value"], changes["formula"] = entered if entered else (None, False)
    if "note" in mask:
        changes["note"] = data.get("note") or None
    if "dataValidation" in mask:
        rule = data.get("dataValidation")
        changes["validation"] = _check_rule(rule) if rule else None
    if "userEnteredFormat" in mask:
        given = data.get("userEnteredFormat") or {}
        sub = mask["userEnteredFormat"]
        if sub is None:
            changes["fmt"] = copy.deepcopy(given) or None
        else:
            current = copy.deepcopy((sheet.cells.get((r, c)) or _Cell()).fmt or {})
            for key in sub:
                if key in given:
                    current[key] = copy.deepcopy(given[key])
                else:
                    current.pop(key, None)
            changes["fmt"] = current or None
    if changes:
        sheet.put(r, c, **changes)


class _Desc:
    """Inverts ordering for descending sorts."""

    def __init__(self, value: Any):
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return other.value < self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.value == other.value

    __hash__ = None  # type: ignore[assignment]


class _CellRequests(_Requests):
    """Request handlers that change cells."""

    def _r_updateCells(self, body: dict[str, Any]) -> None:
        mask = _cell_field_mask(body.get("fields"))
        rows = body.get("rows") or []
        if not isinstance(rows, list):
            raise _RequestError("rows must be a list")
        if ("start" in body) == ("range" in body):
            raise _RequestError("Exactly one of start or range must be set")
        height = len(rows)
        width = max((len((row or {}).get("values") or []) for row in rows), default=0)
        if "start" in body:
            start = body["start"]
            sheet = _sheet(self.book, start.get("sheetId", 0))
            r0 = _int(start.get("rowIndex", 0), "rowIndex")
            c0 = _int(start.get("columnIndex", 0), "columnIndex")
            r1, c1 = r0 + height, c0 + width
            if r1 > sheet.rows or c1 > sheet.cols:
                raise _RequestError(
                    f"Range ({_a1(sheet, r0, max(r1, r0 + 1), c0, max(c1, c0 + 1))}) exceeds "
                    f"grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}"
                )
        else:
            sheet, r0, r1, c0, c1 = _grid_range(self.book, body["range"])
            if r0 + height > r1 or c0 + width > c1:
                raise _RequestError("The rows and values do not fit in the range")
        if "range" in body:
            check_cells(self.book, sheet, r0, r1, c0, c1)
        else:
            check_cells(self.book, sheet, r0, r0 + height, c0, c0 + width)
        for i, row in enumerate(rows):
            for j, data in enumerate((row or {}).get("values") or []):
                _apply_cell(sheet, r0 + i, c0 + j, data, mask)
        if "range" in body:  # cells of the range without data are cleared for the fields
            for r in range(r0, r1):
                given = len((rows[r - r0] or {}).get("values") or []) if r - r0 < height else 0
                for c in range(c0 + given, c1):
                    if (r, c) in sheet.cells:
                        _apply_cell(sheet, r, c, {}, mask)

    def _r_repeatCell(self, body: dict[str, Any]) -> None:
        mask = _cell_field_mask(body.get("fields"))
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        check_cells(self.book, sheet, r0, r1, c0, c1)
        data = body.get("cell") or {}
        for r in range(r0, r1):
            for c in range(c0, c1):
                _apply_cell(sheet, r, c, data, mask)

    def _r_setDataValidation(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        check_cells(self.book, sheet, r0, r1, c0, c1)
        rule = _check_rule(body["rule"]) if body.get("rule") else None
        for r in range(r0, r1):
            for c in range(c0, c1):
                sheet.put(r, c, validation=copy.deepcopy(rule))

    def _r_sortRange(self, body: dict[str, Any]) -> None:
        sheet, r0, r1, c0, c1 = _grid_range(self.book, body.get("range", {}))
        check_cells(self.book, sheet, r0, r1, c0, c1)
        specs = body.get("sortSpecs") or []
        evaluator = self.evaluator_factory(self.book)
        rows = []
        for r in range(r0, r1):
            cells = {c: sheet.cells.get((r, c)) for c in range(c0, c1)}
            keys = []
            for spec in specs:
                col = _int(spec.get("dimensionIndex", 0), "dimensionIndex")
                if not c0 <= col < c1:
                    raise _RequestError(f"dimensionIndex {col} is outside the range")
                keys.append((_sort_key(evaluator.value(sheet, r, col)),
                             spec.get("sortOrder", "ASCENDING")))
            rows.append((keys, cells))

        def sorter(item: tuple[list[Any], Any]) -> tuple[Any, ...]:
            out = []
            for (rank, val), order in item[0]:
                if rank == 3:  # blanks last in either order
                    out.append((1, 0, 0))
                elif order == "DESCENDING":
                    out.append((0, -rank, _Desc(val)))
                else:
                    out.append((0, rank, val))
            return tuple(out)

        rows.sort(key=sorter)
        for offset, (_keys, cells) in enumerate(rows):
            for c, cell in cells.items():
                if cell is None:
                    sheet.cells.pop((r0 + offset, c), None)
                else:
                    sheet.cells[(r0 + offset, c)] = cell

    def _copy_block(self, body: dict[str, Any], cut: bool) -> None:
        src, r0, r1, c0, c1 = _grid_range(self.book, body.get("source", {}))
        if cut:
            dest_info = body.get("destination") or {}
            dst = _sheet(self.book, dest_info.get("sheetId", 0))
            dr0 = _int(dest_info.get("rowIndex", 0), "rowIndex")
            dc0 = _int(dest_info.get("columnIndex", 0), "columnIndex")
        else:
            dst, dr0, _dr1, dc0, _dc1 = _grid_range(self.book, body.get("destination", {}))
        transpose = body.get("pasteOrientation", "NORMAL") == "TRANSPOSE"
        paste = body.get("pasteType", "PASTE_NORMAL")
        height, width = (c1 - c0, r1 - r0) if transpose else (r1 - r0, c1 - c0)
        if dr0 + height > dst.rows or dc0 + width > dst.cols:
            raise _RequestError("The destination exceeds grid limits")
        check_cells(self.book, dst, dr0, dr0 + height, dc0, dc0 + width)
        if cut:
            check_cells(self.book, src, r0, r1, c0, c1)
        evaluator = self.evaluator_factory(self.book)
        block = {}
        for r in range(r0, r1):
            for c in range(c0, c1):
                cell = src.cells.get((r, c)) or _Cell()
                if paste == "PASTE_VALUES" and cell.formula:
                    cell = replace(cell, value=_json_value(evaluator.value(src, r, c)),
                                   formula=False)
                dr, dc = (c - c0, r - r0) if transpose else (r - r0, c - c0)
                block[(dr0 + dr, dc0 + dc)] = cell
        if cut:
            for r in range(r0, r1):
                for c in range(c0, c1):
                    src.cells.pop((r, c), None)
        for (r, c), cell in block.items():
            old = dst.cells.get((r, c)) or _Cell()
            if paste in ("PASTE_NORMAL", "PASTE_NO_BORDERS") or cut:
                new = cell
            elif paste in ("PASTE_VALUES", "PASTE_FORMULA"):
                new = replace(old, value=cell.value, formula=cell.formula)
            elif paste == "PASTE_FORMAT":
                new = replace(old, fmt=cell.fmt)
            elif paste == "PASTE_DATA_VALIDATION":
                new = replace(old, validation=cell.validation)
            else:
                raise _RequestError(f"Unsupported pasteType: {paste}")
            if new.void():
                dst.cells.pop((r, c), None)
            else:
                dst.cells[(r, c)] = new

    def _r_copyPaste(self, body: dict[str, Any]) -> None:
        self._copy_block(body, cut=False)

    def _r_cutPaste(self, body: dict[str, Any]) -> None:
        self._copy_block(body, cut=True)
