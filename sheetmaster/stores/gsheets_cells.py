"""Building Sheets API requests: cell values (text is always text), protections, lock
removal (a turn's cells: :mod:`.gsheets_encode`)."""

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
