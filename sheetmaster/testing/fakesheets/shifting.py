"""Moving cells and row/column-anchored structures when rows or columns are inserted or
deleted (insertDimension, deleteDimension, values.append with INSERT_ROWS)."""

from __future__ import annotations

from typing import Any

from .model import _Book, _Cell, _Sheet


def _shift_pair(start: int | None, end: int | None, at: int, n: int,
                deleted_end: int | None = None) -> tuple[int | None, int | None] | None:
    """Shift [start, end) for an insertion of n at `at` (n > 0) or deletion [at, deleted_end)."""
    if deleted_end is None:
        s = start + n if start is not None and start >= at else start
        e = end + n if end is not None and end > at else end
        return s, e
    m = deleted_end - at

    def move(i: int | None, is_end: bool) -> int | None:
        if i is None:
            return None
        if i < at or (is_end and i == at):
            return i
        return at if i < deleted_end or (is_end and i == deleted_end) else i - m

    s, e = move(start, False), move(end, True)
    if s is not None and e is not None and e <= s:
        return None
    return s, e


_GRID_KEYS = {"ROWS": ("startRowIndex", "endRowIndex"),
              "COLUMNS": ("startColumnIndex", "endColumnIndex")}


def _shift_grid_range(gr: dict[str, Any], sheet_id: int, dim: str, at: int, n: int,
                      deleted_end: int | None) -> bool:
    """Shift a GridRange in place; False when it vanished."""
    if gr.get("sheetId", 0) != sheet_id:
        return True
    k0, k1 = _GRID_KEYS[dim]
    shifted = _shift_pair(gr.get(k0, 0), gr.get(k1), at, n, deleted_end)
    if shifted is None:
        return False
    gr[k0], end = shifted
    if end is not None:
        gr[k1] = end
    if not gr[k0]:
        gr.pop(k0)
    return True


def _shift_dimension(book: _Book, sheet: _Sheet, dim: str, at: int, n: int,
                     deleted_end: int | None = None) -> None:
    """Move cells and everything anchored to rows/columns after an insert or delete."""
    axis = 0 if dim == "ROWS" else 1
    moved: dict[tuple[int, int], _Cell] = {}
    for key, cell in sheet.cells.items():
        k = key[axis]
        if deleted_end is None:
            k = k + n if k >= at else k
        elif at <= k < deleted_end:
            continue
        elif k >= deleted_end:
            k -= deleted_end - at
        moved[(k, key[1]) if axis == 0 else (key[0], k)] = cell
    sheet.cells = moved
    frozen_key = "frozenRowCount" if dim == "ROWS" else "frozenColumnCount"
    frozen = sheet.grid.get(frozen_key, 0)
    if frozen:
        shifted = _shift_pair(0, frozen, at, n, deleted_end)
        sheet.grid[frozen_key] = shifted[1] if shifted else 0
    sheet.protected = [p for p in sheet.protected
                       if "range" not in p
                       or _shift_grid_range(p["range"], sheet.id, dim, at, n, deleted_end)]
    sheet.merges = [m for m in sheet.merges
                    if _shift_grid_range(m, sheet.id, dim, at, n, deleted_end)]
    book.named_ranges = [nr for nr in book.named_ranges
                         if _shift_grid_range(nr["range"], sheet.id, dim, at, n, deleted_end)]
    kept = []
    for meta in book.metadata:
        dr = meta["location"].get("dimensionRange")
        if dr and dr.get("sheetId", 0) == sheet.id and dr.get("dimension") == dim:
            shifted = _shift_pair(dr.get("startIndex", 0), dr.get("endIndex"), at, n,
                                  deleted_end)
            if shifted is None:
                continue
            dr["startIndex"], dr["endIndex"] = shifted
        kept.append(meta)
    book.metadata = kept
