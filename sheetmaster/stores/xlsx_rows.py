"""Finding the rows and cells of a worksheet part without parsing all of it.

Rows are found by their start tags; a part's rows are in order, so the rows of a range of
numbers are found by bisecting its bytes. Cells are split from a row by their tags. This
relies on what XML guarantees: '<' never appears unescaped in text or in an attribute value,
so every tag starts at a '<'. Comments and CDATA are not expected inside ``<sheetData>`` (no
spreadsheet program writes them there).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field

from sheetmaster.stores.xlsx_cells import CELL, attrs, sheet_patterns, split_ref
from sheetmaster.stores.xlsx_refs import column_index_from_string

_SHEETDATA = re.compile(rb"<((?:[\w.-]+:)?)sheetData\b[^>]*?(/?)>")
#: the cells of a row as Excel, LibreOffice and openpyxl write them (r first, no prefix);
#: a row written otherwise is read with the general :data:`CELL`.
_PLAIN_CELL = re.compile(rb'<c r="([A-Z]{1,3})[0-9]+"([^>]*?)(?:/>|>(.*?)</c>)', re.S)


class SheetError(ValueError):
    """A worksheet part sheetmaster cannot patch safely; the message says why."""


@dataclass
class RowIndex:
    """Where each row of ``<sheetData>`` lies in the part (rows in sheet order)."""

    data: bytes
    prefix: bytes  # the namespace prefix of SpreadsheetML's elements, usually b""
    content: tuple[int, int]  # the byte range between <sheetData> and </sheetData>
    self_closed: bool  # <sheetData/>: no rows at all
    # one entry a row, in compact arrays (a tab of a million rows is indexed in ~25 MB)
    numbers: array[int] = field(default_factory=lambda: array("q"))
    starts: array[int] = field(default_factory=lambda: array("q"))
    tag_ends: array[int] = field(default_factory=lambda: array("q"))
    empty: bytearray = field(default_factory=bytearray)  # 1: <row .../>
    window_end: int = 0  # where the rows after the indexed ones start

    def end(self, i: int) -> int:
        """Where row ``i`` ends (just after its ``</row>``)."""
        if self.empty[i]:
            return self.tag_ends[i]
        close = b"</" + self.prefix + b"row>"
        at = self.data.find(close, self.tag_ends[i], self.content[1])
        if at < 0:
            raise SheetError(f"row {self.numbers[i]} is not closed")
        return at + len(close)

    def row_at(self, position: int) -> int | None:
        """The index of the row a byte position lies in."""
        i = bisect_right(self.starts, position) - 1
        return i if i >= 0 else None


def index_rows(data: bytes, first: int = 1, last: int | None = None) -> RowIndex:
    """Find the rows of a worksheet part numbered ``first`` to ``last`` (all by default).

    The rows outside are not looked at: the window's ends are found by bisecting the part's
    bytes (rows are in order), so appending to a long Log, or writing above a million
    formatted empty rows, costs what the rows written cost.
    """
    m = _SHEETDATA.search(data)
    if m is None:
        raise SheetError("it has no <sheetData> element")
    prefix = m.group(1)
    if m.group(2):
        return RowIndex(data, prefix, (m.start(), m.end()), True)
    close = data.find(b"</" + prefix + b"sheetData>", m.end())
    if close < 0:
        raise SheetError("its <sheetData> element is not closed")
    pattern = sheet_patterns(prefix).row
    start = _first_row_from(data, pattern, m.end(), close, first) if first > 1 else m.end()
    end = close if last is None or start is None else \
        _first_row_from(data, pattern, start, close, last + 1)
    if start is None or end is None:  # rows without numbers: count them all from the top
        start, end = m.end(), close
    index = RowIndex(data, prefix, (m.end(), close), False, window_end=end)
    numbers, starts, tag_ends, empty = index.numbers, index.starts, index.tag_ends, index.empty
    previous = 0
    for row in pattern.finditer(data, start, end):
        r = row.group(1)
        if r is None and start != m.end():
            return index_rows(data)
        number = int(r) if r else previous + 1  # a row without its number follows the last
        if number <= previous:
            raise SheetError(f"its rows are not in order (row {number} after row {previous})")
        previous = number
        numbers.append(number)
        starts.append(row.start())
        tag_ends.append(row.end())
        empty.append(1 if row.group(2) else 0)
    return index


def _first_row_from(data: bytes, pattern: re.Pattern[bytes], lo: int, end: int,
                    number: int) -> int | None:
    """Where, from ``lo`` on, the first row numbered ``number`` or more starts (``end`` if
    none; None if a row without its number is met). A bisection over byte positions: the
    number of the first row found from a position only grows with the position."""
    hi = end
    while lo < hi:
        mid = (lo + hi) // 2
        row = pattern.search(data, mid, end)
        if row is not None and row.group(1) is None:
            return None
        if row is None or int(row.group(1)) >= number:
            hi = mid
        else:
            lo = row.start() + 1
    row = pattern.search(data, lo, end)
    return row.start() if row else end


@dataclass
class Cell:
    column: int
    raw: bytes  # the element as it is in the part
    attrs: bytes
    content: bytes


def row_cells(content: bytes, prefix: bytes = b"") -> tuple[list[Cell], bytes]:
    """A row's cells in order, and what follows them (an ``<extLst>``, rarely)."""
    plain = [] if prefix else list(_PLAIN_CELL.finditer(content))
    if not prefix and len(plain) == content.count(b"<c"):
        cells = [Cell(column_index_from_string(m.group(1).decode()), m.group(0), m.group(2),
                      m.group(3) or b"") for m in plain]
        return cells, (content[plain[-1].end():] if plain else content).strip()
    cells, column, tail_start = [], 0, 0
    for m in CELL.finditer(content):
        r = attrs(m.group(1)).get(b"r")
        where = split_ref(r) if r else None
        column = where[1] if where else column + 1
        cells.append(Cell(column, m.group(0), m.group(1), m.group(2) or b""))
        tail_start = m.end()
    return cells, content[tail_start:].strip()


__all__ = ["Cell", "RowIndex", "SheetError", "index_rows", "row_cells"]
