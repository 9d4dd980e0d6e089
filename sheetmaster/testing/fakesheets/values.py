"""Cell values: parsing entered input (RAW / USER_ENTERED), error values, the "Automatic"
number format, rendering (valueRenderOption) and ExtendedValue conversion."""

from __future__ import annotations

import math
import re
from typing import Any

from .errors import _bad, _RequestError
from .number_formats import render
from .typed_input import parse_typed

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _number(text: str) -> int | float:
    value = float(text)
    if value.is_integer() and abs(value) < 2**53 and "e" not in text.lower():
        return int(value)
    return value


def _entered(value: Any, option: str, where: str, locale: str = "en_US"
             ) -> tuple[Any, ...] | None:
    """Turn one input value into (stored value, is_formula[, number format]); None clears
    the value. USER_ENTERED text is read as Sheets reads typed text (see
    :mod:`.typed_input`): a date, a percentage, "1,000"... get a number and a format."""
    if isinstance(value, bool):
        return value, False
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise _bad(f"Invalid {where}: number must be finite")
        return value, False
    if isinstance(value, str):
        if value == "":
            return None
        if option == "RAW":
            return value, False
        if value.startswith("'"):
            return (value[1:], False) if len(value) > 1 else None
        if value.startswith("=") and len(value) > 1:
            return value, True
        stripped = value.strip()
        if stripped.upper() in ("TRUE", "FALSE"):
            return stripped.upper() == "TRUE", False
        typed = parse_typed(stripped, locale)
        if typed is not None:
            return typed[0], False, typed[1]
        if _NUMBER.match(stripped):
            return _number(stripped), False
        return value, False
    kind = "list_value" if isinstance(value, list) else "struct_value"
    raise _bad(f"Invalid {where}: {kind} is not a supported value type")


class _Err(str):
    """A formula error value such as ``#DIV/0!``."""


_ERROR_TYPES = {
    "#NULL!": "NULL_VALUE", "#DIV/0!": "DIVIDE_BY_ZERO", "#VALUE!": "VALUE", "#REF!": "REF",
    "#NAME?": "NAME", "#NUM!": "NUM", "#N/A": "N_A", "#ERROR!": "ERROR",
}


def _json_value(value: Any) -> Any:
    """A Python value as the API prints it in UNFORMATTED_VALUE (integral floats as ints)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, _Err):
        return str(value)
    return value


def _format_number(value: float | int) -> str:
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if value != 0 and (abs(value) >= 1e15 or abs(value) < 1e-10):
        return f"{value:.2E}"
    significant = float(f"{value:.15g}")
    return f"{round(significant, 10):.10f}".rstrip("0").rstrip(".")


def _format(value: Any, fmt: dict[str, Any] | None = None, locale: str = "en_US") -> str:
    """FORMATTED_VALUE of an effective value, with the cell's number format if it has one
    (else "Automatic")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        shown = render(value, fmt, locale) if fmt else None
        return shown if shown is not None else _format_number(value)
    return str(value)


_RENDER_OPTIONS = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
_DATETIME_OPTIONS = ("SERIAL_NUMBER", "FORMATTED_STRING")
_DIMENSIONS = ("ROWS", "COLUMNS")
_INPUT_OPTIONS = ("RAW", "USER_ENTERED")
_INSERT_OPTIONS = ("OVERWRITE", "INSERT_ROWS")


def _from_extended(ev: Any) -> tuple[Any, bool] | None:
    """ExtendedValue -> (stored value, is_formula)."""
    if ev is None or ev == {}:
        return None
    if not isinstance(ev, dict) or len(ev) != 1:
        raise _RequestError("userEnteredValue must set exactly one of stringValue, "
                            "numberValue, boolValue, formulaValue")
    (kind, value), = ev.items()
    if kind == "stringValue":
        return (str(value), False) if value != "" else None
    if kind == "numberValue":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _RequestError(f"Invalid numberValue: {value!r}")
        return value, False
    if kind == "boolValue":
        return bool(value), False
    if kind == "formulaValue":
        if not isinstance(value, str) or not value.startswith("="):
            raise _RequestError(f"Invalid formulaValue: {value!r} (must start with '=')")
        return value, True
    raise _RequestError(f"Unsupported ExtendedValue kind: {kind}")


def _extended(value: Any, formula: bool = False) -> dict[str, Any]:
    if formula:
        return {"formulaValue": value}
    if isinstance(value, _Err):
        return {"errorValue": {"type": _ERROR_TYPES.get(str(value), "ERROR"),
                               "message": str(value)}}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": _json_value(value)}
    return {"stringValue": str(value)}
