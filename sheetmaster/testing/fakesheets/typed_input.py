"""Text typed into a cell (USER_ENTERED) read the way Google Sheets reads it.

Sheets turns typed text into a number with a number format when it looks like one in the
spreadsheet's locale: ``1,000`` (thousands separators), ``10%``, ``$5`` (the locale's
currency), ``TRUE``, dates (``11/22/2026`` in en_US, ``22/11/2026`` in en_GB, ``22.11.2026``
in de_DE, ``2026-11-22`` everywhere, ``Nov 22, 2026``), times (``23:59``, ``11:59 PM``) and
both together. Dates and times become serial numbers: days since 1899-12-30, the time of day
as the fraction. The serial is the wall-clock time as typed; the spreadsheet's time zone says
where that wall clock hangs (Sheets does not convert typed times).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

EPOCH = datetime(1899, 12, 30)
_MONTHS = {name: i for i, names in enumerate(
    (("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
     ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
     ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")), start=1) for name in names}


@dataclass(frozen=True)
class Locale:
    """What a spreadsheet locale changes in reading typed text."""

    dates: str  # order of day, month and year in numeric dates: "MDY", "DMY" or "YMD"
    date_separator: str
    decimal: str
    groups: str  # characters accepted as the thousands separator
    currency: str
    currency_after: bool  # "5 €" rather than "$5"


_LOCALES = {
    "en_US": Locale("MDY", "/", ".", ",", "$", False),
    "en_GB": Locale("DMY", "/", ".", ",", "£", False),
    "en_AU": Locale("DMY", "/", ".", ",", "$", False),
    "de_DE": Locale("DMY", ".", ",", ".", "€", True),
    "fr_FR": Locale("DMY", "/", ",", " \u00a0\u202f", "€", True),
    "es_ES": Locale("DMY", "/", ",", ".", "€", True),
    "ja_JP": Locale("YMD", "/", ".", ",", "¥", False),
}


def locale_rules(locale: str) -> Locale:
    """The rules of a locale like ``en_GB`` (a language alone picks its first country)."""
    if locale in _LOCALES:
        return _LOCALES[locale]
    language = locale.split("_")[0]
    return next((rules for name, rules in _LOCALES.items() if name.startswith(language + "_")),
                _LOCALES["en_US"])


_TIME = r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?"


def _number_pattern(rules: Locale) -> str:
    d = re.escape(rules.decimal)
    g = "[" + re.escape(rules.groups) + "]"
    return rf"(?P<num>\d{{1,3}}(?:{g}\d{{3}})+(?:{d}\d+)?|\d+(?:{d}\d*)?|{d}\d+)"


def _to_float(text: str, rules: Locale) -> tuple[float, bool, int]:
    """(value, had thousands separators, decimals) of a number as the locale writes it."""
    grouped = any(ch in rules.groups for ch in text)
    for ch in rules.groups:
        text = text.replace(ch, "")
    whole, _, fraction = text.partition(rules.decimal)
    return float(f"{whole or '0'}.{fraction or '0'}"), grouped, len(fraction)


def _pattern_with(decimals: int, grouped: bool) -> str:
    base = "#,##0" if grouped else "0"
    return base + ("." + "0" * max(decimals, 2) if decimals else "")


def _numeric(text: str, rules: Locale) -> tuple[float, dict[str, Any]] | None:
    number = _number_pattern(rules)
    sign = r"(?P<sign>[-+]?)"
    match = re.fullmatch(sign + number + r"\s*%", text)
    if match:
        value, _, decimals = _to_float(match["num"], rules)
        pattern = "0.00%" if decimals else "0%"
        return (-value if match["sign"] == "-" else value) / 100, {
            "type": "PERCENT", "pattern": pattern}
    symbol = re.escape(rules.currency)
    forms = [sign + r"\s*" + symbol + r"\s*" + number, symbol + r"\s*" + sign + number,
             sign + number + r"\s*" + symbol]
    for form in forms:
        match = re.fullmatch(form, text)
        if match:
            value, _, _ = _to_float(match["num"], rules)
            pattern = ("#,##0.00 " + rules.currency if rules.currency_after
                       else rules.currency + "#,##0.00")
            return (-value if match["sign"] == "-" else value), {
                "type": "CURRENCY", "pattern": pattern}
    match = re.fullmatch(sign + number, text)
    if match and any(ch in match["num"] for ch in rules.groups):
        value, _, decimals = _to_float(match["num"], rules)
        return (-value if match["sign"] == "-" else value), {
            "type": "NUMBER", "pattern": _pattern_with(decimals, True)}
    if match and rules.decimal != "." and rules.decimal in match["num"]:
        value, _, _ = _to_float(match["num"], rules)
        return (-value if match["sign"] == "-" else value), {}
    return None


def _year(text: str) -> int:
    year = int(text)
    if len(text) <= 2:
        year += 2000 if year < 30 else 1900
    return year


def _date_part(text: str, rules: Locale) -> tuple[date, str] | None:
    """A date alone, and the date pattern Sheets gives it."""
    sep = re.escape(rules.date_separator)
    match = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", text)
    if match:
        y, m, d = int(match[1]), int(match[2]), int(match[3])
        return _valid(y, m, d, "yyyy-mm-dd")
    match = re.fullmatch(rf"(\d{{1,4}})(?:{sep}|/)(\d{{1,2}})(?:{sep}|/)(\d{{1,4}})", text)
    if match:
        a, b, c = match[1], match[2], match[3]
        if rules.dates == "MDY" and len(c) in (2, 4):
            return _valid(_year(c), int(a), int(b), "m/d/yyyy")
        if rules.dates == "DMY" and len(c) in (2, 4):
            ds = rules.date_separator
            return _valid(_year(c), int(b), int(a), f"dd{ds}mm{ds}yyyy")
        if rules.dates == "YMD" and len(a) == 4:
            return _valid(int(a), int(b), int(c), "yyyy/mm/dd")
        return None
    match = re.fullmatch(r"([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})", text)
    if match and match[1].casefold() in _MONTHS:
        return _valid(int(match[3]), _MONTHS[match[1].casefold()], int(match[2]), "mmm d, yyyy")
    match = re.fullmatch(r"(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})", text)
    if match and match[2].casefold() in _MONTHS:
        return _valid(int(match[3]), _MONTHS[match[2].casefold()], int(match[1]), "d mmm yyyy")
    return None


def _valid(y: int, m: int, d: int, pattern: str) -> tuple[date, str] | None:
    try:
        return date(y, m, d), pattern
    except ValueError:
        return None


def _time_part(text: str) -> tuple[float, str] | None:
    """A time of day as a fraction of the day, and its pattern."""
    match = re.fullmatch(_TIME, text)
    if not match:
        return None
    h, m, s = int(match[1]), int(match[2]), int(match[3] or 0)
    half = (match[4] or "").casefold()
    if half:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if half == "p" else 0)
    if h > 23 or m > 59 or s > 59:
        return None
    return (h * 3600 + m * 60 + s) / 86400, "h:mm:ss am/pm" if half else "h:mm:ss"


def _datetime(text: str, rules: Locale) -> tuple[float, dict[str, Any]] | None:
    timed = _time_part(text)
    if timed:
        return timed[0], {"type": "TIME", "pattern": timed[1]}
    day = _date_part(text, rules)
    if day:
        return float((datetime.combine(day[0], datetime.min.time()) - EPOCH).days), {
            "type": "DATE", "pattern": day[1]}
    split = re.fullmatch(r"(.+?)(?:\s+|T)(" + _TIME + r")", text)
    if split:
        day, timed = _date_part(split[1].rstrip(","), rules), _time_part(split[2])
        if day and timed:
            days = (datetime.combine(day[0], datetime.min.time()) - EPOCH).days
            return days + timed[0], {"type": "DATE_TIME",
                                     "pattern": f"{day[1]} {timed[1]}"}
    return None


def parse_typed(text: str, locale: str) -> tuple[Any, dict[str, Any]] | None:
    """(value, numberFormat) of typed text Sheets reads as a number, date, time or boolean
    with a format ({} for none); None when it is a plain number or stays text (the caller
    handles those)."""
    stripped = text.strip()
    if not stripped or not (stripped[0].isdigit() or stripped[0] in "+-.,$£€¥" or
                            stripped[0].isalpha()):
        return None
    rules = locale_rules(locale)
    found = _numeric(stripped, rules)
    if found is None:
        found = _datetime(stripped, rules)
    if found is None:
        return None
    value, fmt = found
    if isinstance(value, float) and value.is_integer() and fmt.get("type") in (
            "DATE", "NUMBER", "CURRENCY", None) and abs(value) < 2**53:
        value = int(value)
    return value, fmt
