"""Cell references: column letters and numbers (``AB`` is 28), and ranges (``A1:C3``).

The same answers as ``openpyxl.utils.cell`` (the same errors too), without importing openpyxl:
its package loads the whole workbook model on import, which a check or a resolve that only
reads and patches a workbook never needs (``tests/test_xlsx_refs.py`` compares the two).
"""

from __future__ import annotations

import functools
import re
from string import ascii_uppercase

#: Excel's last column, XFD, and what three letters can name (ZZZ)
MAX_COLUMN = 18278
_NUMBERS = {letter: number for number, letter in enumerate(ascii_uppercase, 1)}
_POWERS = (1, 26, 676)
_RANGE = re.compile(r"""^
[$]?(?P<min_col>[A-Za-z]{1,3})?
[$]?(?P<min_row>\d+)?
(:[$]?(?P<max_col>[A-Za-z]{1,3})?
[$]?(?P<max_row>\d+)?)?
$""", re.VERBOSE)


@functools.cache
def get_column_letter(column: int) -> str:
    """28 -> 'AB'; a column from 1 to 18278 (ZZZ), else ValueError."""
    if not 1 <= column <= MAX_COLUMN:
        raise ValueError(f"Invalid column index {column}")
    letters = ""
    while column:
        column, remainder = divmod(column - 1, 26)
        letters = ascii_uppercase[remainder] + letters
    return letters


@functools.cache
def column_index_from_string(letters: str) -> int:
    """'AB' (or 'ab') -> 28; anything but one to three letters up to ZZZ is a ValueError."""
    error = f"'{letters}' is not a valid column name. Column names are from A to ZZZ"
    if len(letters) > 3:
        raise ValueError(error)
    number = 0
    for letter, power in zip(reversed(letters.upper()), _POWERS):
        if letter not in _NUMBERS:
            raise ValueError(error)
        number += _NUMBERS[letter] * power
    if not 0 < number <= MAX_COLUMN:
        raise ValueError(error)
    return number


def range_boundaries(ref: str) -> tuple[int | None, int | None, int | None, int | None]:
    """'A1:C3' -> (1, 1, 3, 3): first column, first row, last column, last row. A cell is a
    range of one; whole columns ('A:C') or rows ('1:3') leave the other two None."""
    error = f"{ref} is not a valid coordinate or range"
    m = _RANGE.match(ref)
    if m is None:
        raise ValueError(error)
    min_col, min_row, sep, max_col, max_row = m.groups()
    if sep:
        cols, rows = (min_col, max_col), (min_row, max_row)
        if not (all(cols + rows) or all(cols) and not any(rows)
                or all(rows) and not any(cols)):
            raise ValueError(error)
    lo_col = column_index_from_string(min_col) if min_col is not None else None
    lo_row = int(min_row) if min_row is not None else None
    hi_col = column_index_from_string(max_col) if max_col is not None else lo_col
    hi_row = int(max_row) if max_row is not None else lo_row
    return lo_col, lo_row, hi_col, hi_row
