"""Building Sheets API requests: cell values (text is always text), runs of changed cells,
protections, lock removal."""

from __future__ import annotations

from typing import Any

from sheetmaster.kit import values


def protect_request(sheet_id: int, title: str, editors: list[str]) -> dict[str, Any]:
    """Protect a whole tab: only the spreadsheet's owner and ``editors`` may change it."""
    return {"addProtectedRange": {"protectedRange": {
        "range": {"sheetId": sheet_id},
        "description": f"sheetmaster: {title} is changed only by the GM and sheetmaster",
        "warningOnly": False,
        "editors": {"users": sorted({e for e in editors if e}, key=str.casefold)}}}}


def delete_metadata(metadata_id: int) -> dict[str, Any]:
    return {"deleteDeveloperMetadata": {"dataFilter": {"developerMetadataLookup": {
        "metadataId": metadata_id}}}}


def is_formula(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("=") and len(value) > 1


def cell_requests(cells: dict[tuple[int, int], dict[int, Any]]) -> list[dict[str, Any]]:
    """One updateCells per run of consecutive changed rows in one column."""
    out = []
    for (sheet_id, column), by_row in sorted(cells.items()):
        rows = sorted(by_row)
        start = 0
        while start < len(rows):
            end = start
            while end + 1 < len(rows) and rows[end + 1] == rows[end] + 1:
                end += 1
            out.append({"updateCells": {
                "start": {"sheetId": sheet_id, "rowIndex": rows[start] - 1,
                          "columnIndex": column},
                "rows": [{"values": [{"userEnteredValue": cell_value(by_row[r])}]}
                         for r in rows[start:end + 1]],
                "fields": "userEnteredValue"}})
            start = end + 1
    return out


def merge_blank_runs(entries: list[list[Any]]) -> list[list[Any]]:
    """Undo entries of consecutive rows of one column that were all blank become one entry
    (row .. to row), so clearing 5,000 result cells costs one line, not 5,000."""
    out: list[list[Any]] = []
    for entry in sorted(entries, key=lambda e: (e[1], e[3], e[2])):
        last = out[-1] if out else None
        if (last is not None and values.is_blank(entry[4]) and values.is_blank(last[4])
                and last[1] == entry[1] and last[3] == entry[3] and last[5] + 1 == entry[2]):
            last[5] = entry[2]
        else:
            out.append(entry)
    return out


def cell_value(value: Any) -> dict[str, Any]:
    """A cell's userEnteredValue: text is always stringValue (never a formula)."""
    if values.is_blank(value):
        return {}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    return {"stringValue": str(value)}


def quote(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"
