"""One worksheet cell as SpreadsheetML: reading a ``<c>`` element and writing a new one.

sheetmaster's cells are written as inline strings (``t="inlineStr"``), numbers and booleans,
keeping the cell's style (``s``); text is always text, never a formula. Numbers a spreadsheet
cannot hold (NaN, infinity, beyond 1.8e308) are refused before anything is written.
"""

from __future__ import annotations

import functools
import html
import math
import numbers
import re
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

import numpy as np

from sheetmaster.kit import values
from sheetmaster.stores.xlsx_refs import column_index_from_string

#: ``<c ...>...</c>`` or ``<c .../>``, with any namespace prefix. A cell's attributes never
#: hold '>' and its content never holds another cell, so a lazy match finds its end.
CELL = re.compile(rb"<(?:[\w.-]+:)?c\b([^>]*?)(?:/>|>(.*?)</(?:[\w.-]+:)?c>)", re.S)
ATTR = re.compile(rb'([\w:.-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')
#: the formula element of a cell's content: attributes, and its text (None if self-closed).
FORMULA = re.compile(rb"<(?:[\w.-]+:)?f\b([^>]*?)(?:/>|>(.*?)</(?:[\w.-]+:)?f>)", re.S)
REF = re.compile(rb"([A-Z]{1,3})([0-9]+)")
#: characters XML 1.0 cannot carry; SpreadsheetML writes them as _xHHHH_.
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\r]")
#: what text needs escaped: markup characters, the ones above, and lone surrogates.
_SPECIAL = re.compile("[&<>\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\r\ud800-\udfff]")
_STYLE = re.compile(rb'\bs="([0-9]+)"')
#: whole numbers below this are written as they are; larger ones are checked first.
_EXACT = 10**300
_INFINITE = (math.inf, -math.inf)


_SHEETDATA = re.compile(rb"<((?:[\w.-]+:)?)sheetData\b")


@dataclass(frozen=True)
class SheetPatterns:
    """Searches over a whole worksheet part, for the namespace prefix its elements use
    (a literal start lets the regex engine skip ahead fast; one with an optional prefix
    would try every byte)."""

    row: re.Pattern[bytes]  # a row's start tag: its number (if given), '/' if empty
    formula: re.Pattern[bytes]  # a formula element
    wide_cell: re.Pattern[bytes]  # a cell in a column past Z: its column's letters
    narrow_cell: re.Pattern[bytes]  # a cell in columns A..Z: its column's letter


@functools.lru_cache(maxsize=8)
def sheet_patterns(prefix: bytes) -> SheetPatterns:
    p = re.escape(prefix)
    return SheetPatterns(
        re.compile(b"<" + p + rb'row\b(?:[^>]*?\br="([0-9]+)")?[^>]*?(/?)>'),
        re.compile(b"<" + p + rb"f[\s/>]"),
        re.compile(b"<" + p + rb'c\b[^>]*?\br="([A-Z]{2,3})[0-9]'),
        re.compile(b"<" + p + rb'c\b[^>]*?\br="([A-Z])[0-9]'))


def prefix_of(data: bytes) -> bytes:
    """The namespace prefix of a worksheet part's elements (b'' nearly always)."""
    m = _SHEETDATA.search(data)
    return m.group(1) if m else b""


def has_formula(data: bytes) -> bool:
    """Whether a worksheet part holds a formula cell."""
    return (b"<f" in data or b":f" in data) and \
        sheet_patterns(prefix_of(data)).formula.search(data) is not None


class CellValueError(ValueError):
    """A value no spreadsheet cell can hold."""


def attrs(raw: bytes) -> dict[bytes, bytes]:
    """A start tag's attributes (name -> raw, still-escaped value)."""
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in ATTR.finditer(raw)}


def split_ref(ref: bytes) -> tuple[int, int] | None:
    """``b'AB12'`` -> (12, 28): row and column numbers of a cell reference."""
    m = REF.fullmatch(ref)
    if m is None:
        return None
    return int(m.group(2)), column_index_from_string(m.group(1).decode())


def _escape_text(text: str) -> str:
    text = text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates
    text = html.escape(text, quote=False)
    return _ILLEGAL.sub(lambda m: f"_x{ord(m.group()):04X}_", text)


def number_text(value: Any) -> str:
    """A number as a ``<v>`` holds it, or :class:`CellValueError`."""
    try:
        number = float(value)
    except OverflowError:
        digits = len(str(abs(int(value))))
        raise CellValueError(f"a {digits}-digit number is too large for a spreadsheet cell "
                             f"(the largest is about 1.8e308)") from None
    if math.isnan(number) or math.isinf(number):
        raise CellValueError(f"{value} is not a number a spreadsheet cell can hold")
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(number)


def text_cell(ref: str, text: str, style: str = "") -> str:
    """A cell holding ``text`` as text (an inline string: never a formula)."""
    if _SPECIAL.search(text):
        text = _escape_text(text)
    space = ' xml:space="preserve"' if text[0].isspace() or text[-1].isspace() or \
        "\n" in text else ""
    return f'<c r="{ref}"{style} t="inlineStr"><is><t{space}>{text}</t></is></c>'


def cell_xml(ref: str, value: Any, style: str = "") -> str:
    """A ``<c>`` element holding ``value``; blank: an empty cell kept only for its style
    (``style`` is the ``' s="N"'`` attribute, or '')."""
    kind = type(value)
    if kind is str:
        if value and not value.isspace():
            return text_cell(ref, value, style)
    elif kind is int:
        text = str(value) if -_EXACT < value < _EXACT else number_text(value)
        return f'<c r="{ref}"{style}><v>{text}</v></c>'
    elif kind is float:
        if value == value and value not in _INFINITE:
            return f'<c r="{ref}"{style}><v>{value!r}</v></c>'
        number_text(value)
    elif not values.is_blank(value):
        if isinstance(value, (bool, np.bool_)):
            return f'<c r="{ref}"{style} t="b"><v>{int(bool(value))}</v></c>'
        if isinstance(value, numbers.Number) and not isinstance(value, complex):
            return f'<c r="{ref}"{style}><v>{number_text(value)}</v></c>'
        if isinstance(value, (datetime, date, time)):
            text = value.isoformat(sep=" ") if isinstance(value, datetime) else \
                value.isoformat()
            return text_cell(ref, text, style)
        return text_cell(ref, str(value), style)
    return f'<c r="{ref}"{style}/>' if style else ""


def style_attr(cell_attrs: bytes) -> str:
    """A cell's style (``' s="N"'``), kept when sheetmaster writes the cell."""
    m = _STYLE.search(cell_attrs)
    return f' s="{m.group(1).decode()}"' if m else ""


class SharedFormulas:
    """The formula text of each cell of a sheet, shared formulas translated to each cell.

    A shared formula is written once, in its first cell, and the other cells only name its
    group (``si``); openpyxl's Translator moves its references to each cell.
    """

    def __init__(self) -> None:
        self.masters: dict[bytes, tuple[str, str]] = {}

    def text(self, ref: str, content: bytes) -> str | None:
        """'=formula' of a cell's content, or None if it holds no formula."""
        m = FORMULA.search(content)
        if m is None:
            return None
        fa = attrs(m.group(1))
        body = html.unescape((m.group(2) or b"").decode("utf-8", "replace"))
        group = fa.get(b"si")
        if fa.get(b"t") == b"shared" and group is not None:
            if body:
                self.masters[group] = ("=" + body, ref)
            elif group in self.masters:
                # openpyxl's whole workbook model comes with it: imported for such cells only
                from openpyxl.formula.translate import Translator

                formula, origin = self.masters[group]
                try:
                    return Translator(formula, origin=origin).translate_formula(ref)
                except Exception:  # a formula the translator cannot parse: keep it as is
                    return formula
        return "=" + body

    def master(self, content: bytes) -> tuple[bytes, str] | None:
        """(group, formula) if this cell's content is the first cell of a shared formula."""
        m = FORMULA.search(content)
        if m is None or not m.group(2):
            return None
        fa = attrs(m.group(1))
        if fa.get(b"t") != b"shared" or fa.get(b"si") is None:
            return None
        return fa[b"si"], "=" + html.unescape(m.group(2).decode("utf-8", "replace"))


def formula_of_group(content: bytes) -> bytes | None:
    """The shared-formula group a cell only refers to (``<f t="shared" si="3"/>``)."""
    m = FORMULA.search(content)
    if m is None or m.group(2):
        return None
    fa = attrs(m.group(1))
    return fa.get(b"si") if fa.get(b"t") == b"shared" else None


def standalone_formula_cell(raw_attrs: bytes, ref: str, formula: str) -> bytes:
    """A cell of a shared formula whose first cell sheetmaster overwrote: its own formula."""
    body = html.escape(formula[1:], quote=False)
    return f'<c r="{ref}"{style_attr(raw_attrs)}><f>{body}</f></c>'.encode()


__all__ = ["CELL", "CellValueError", "SharedFormulas", "SheetPatterns", "has_formula",
           "prefix_of", "sheet_patterns", "attrs", "cell_xml",
           "formula_of_group", "number_text", "split_ref", "standalone_formula_cell",
           "style_attr", "text_cell"]
