"""Rendering a number with its cell's number format (FORMATTED_VALUE, FORMATTED_STRING).

The patterns are Google's: ``0``, ``#,##0.00``, ``0%``, a currency symbol as literal text,
and for dates and times ``yyyy``, ``mm``/``m`` (the month, or minutes next to ``h`` or
``s``), ``mmm`` (month name), ``dd``/``d``, ``hh``/``h`` (24-hour unless ``am/pm`` is
present), ``ss`` and ``am/pm``. Separators follow the spreadsheet's locale.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from .typed_input import EPOCH, locale_rules

_DATE_TYPES = ("DATE", "TIME", "DATE_TIME")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                "Dec")
_TOKEN = re.compile(r"yyyy|yy|mmm+|mm|m|dd|d|hh|h|ss|s|am/pm|AM/PM|\"[^\"]*\"|.", re.S)


def is_date_format(fmt: dict[str, Any] | None) -> bool:
    number = (fmt or {}).get("numberFormat") or {}
    return number.get("type") in _DATE_TYPES


def render(value: float | int, fmt: dict[str, Any] | None, locale: str) -> str | None:
    """``value`` as its number format shows it; None when the cell has no number format."""
    number = (fmt or {}).get("numberFormat") or {}
    pattern = number.get("pattern") or ""
    if not pattern or isinstance(value, bool):
        return None
    if number.get("type") in _DATE_TYPES:
        return _render_date(float(value), pattern)
    return _render_number(float(value), pattern, locale)


def _render_number(value: float, pattern: str, locale: str) -> str:
    rules = locale_rules(locale)
    body = re.search(r"[#0][#0,]*(?:\.0+)?", pattern)
    if body is None:
        return pattern
    spec = body.group(0)
    decimals = len(spec.split(".")[1]) if "." in spec else 0
    shown = value * 100 if "%" in pattern else value
    text = f"{abs(shown):,.{decimals}f}" if "," in spec else f"{abs(shown):.{decimals}f}"
    group = rules.groups[0]
    text = text.replace(",", "\0").replace(".", rules.decimal).replace("\0", group)
    prefix, suffix = pattern[:body.start()], pattern[body.end():]
    return ("-" if shown < 0 else "") + prefix.replace('"', "") + text + suffix.replace('"', "")


def _render_date(value: float, pattern: str) -> str:
    moment = EPOCH + timedelta(days=value)
    moment = moment.replace(microsecond=0) + timedelta(seconds=round(moment.microsecond / 1e6))
    tokens = _TOKEN.findall(pattern)
    twelve = any(t.lower() == "am/pm" for t in tokens)
    out = []
    for i, token in enumerate(tokens):
        low = token.lower()
        if low in ("mm", "m"):
            near_time = (any(t.lower() in ("h", "hh") for t in tokens[max(0, i - 2):i]) or
                         any(t.lower() in ("s", "ss") for t in tokens[i + 1:i + 3]))
            number = moment.minute if near_time else moment.month
            out.append(f"{number:02d}" if low == "mm" else str(number))
        elif low.startswith("mmm"):
            out.append(_MONTH_NAMES[moment.month - 1])
        elif low == "yyyy":
            out.append(f"{moment.year:04d}")
        elif low == "yy":
            out.append(f"{moment.year % 100:02d}")
        elif low in ("dd", "d"):
            out.append(f"{moment.day:02d}" if low == "dd" else str(moment.day))
        elif low in ("hh", "h"):
            hour = (moment.hour % 12 or 12) if twelve else moment.hour
            out.append(f"{hour:02d}" if low == "hh" else str(hour))
        elif low in ("ss", "s"):
            out.append(f"{moment.second:02d}" if low == "ss" else str(moment.second))
        elif low == "am/pm":
            out.append("AM" if moment.hour < 12 else "PM")
        else:
            out.append(token.strip('"'))
    return "".join(out)
